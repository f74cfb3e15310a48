"""Cost of signed checkpoints in ``taveer check`` (a script, not a timed test).

Builds, in a temporary folder, a store with ``--cases`` cases (one audit entry each, one
transaction), copies it, and adds ``--checkpoints`` signed checkpoints to the copy (an RSA-2048
key made here with ``cryptography``; each checkpoint is one more audit entry). Then times the
full integrity check (``check_integrity`` with SQLite's own check, as ``taveer check`` runs it)
of both stores, alternating, as medians over ``--repeat`` runs, and prints the ratio.
``--store PATH`` starts from a copy of a store built elsewhere instead of the cases-only one,
e.g. issue 31's 10,000 documents and 1,000 runs made by ``store_benchmark.py --build PATH``.
Usage:

    .venv/bin/python benchmarks/checkpoint_benchmark.py [--cases 2000] [--checkpoints 100]
        [--store PATH] [--repeat 5]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import Encoding
from cryptography.x509.oid import NameOID

from taveer_desktop.report.credentials import ExaminerKey
from taveer_desktop.store import ProjectStore


def examiner_key() -> ExaminerKey:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Bench Examiner")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    return ExaminerKey("Bench Examiner", cert.public_bytes(Encoding.DER), key, b"", None)


def build(
    folder: Path, cases: int, checkpoints: int, base: Path | None = None
) -> tuple[Path, Path]:
    plain = folder / "plain.taveer"
    if base is not None:
        shutil.copyfile(base, plain)
    else:
        with ProjectStore.create(plain) as store, store.transaction():
            for number in range(cases):
                store.cases.create(f"C-{number:05d}")
    signed = folder / "signed.taveer"
    shutil.copyfile(plain, signed)
    key = examiner_key()
    with ProjectStore.open(signed) as store:
        for _ in range(checkpoints):
            store.audit.record_checkpoint(key, None)
    return plain, signed


def check_seconds(path: Path) -> float:
    with ProjectStore.open_for_check(path) as store:
        started = time.perf_counter()
        report = store.check_integrity(include_sqlite_check=True)
        seconds = time.perf_counter() - started
    assert report.ok, report.problems
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--checkpoints", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--store", type=Path, help="start from a copy of this store")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        plain, signed = build(Path(name), args.cases, args.checkpoints, args.store)
        times: dict[Path, list[float]] = {plain: [], signed: []}
        for _ in range(args.repeat):
            for path in (plain, signed):
                times[path].append(check_seconds(path))
        base, with_checkpoints = (statistics.median(times[p]) for p in (plain, signed))
        for label, path in (("without", plain), (f"with {args.checkpoints}", signed)):
            runs = ", ".join(f"{t:.3f}" for t in times[path])
            print(f"check, {label} checkpoints: median {statistics.median(times[path]):.3f} s "
                  f"({runs})")  # fmt: skip
        print(f"ratio {with_checkpoints / base:.2f}; per checkpoint "
              f"{(with_checkpoints - base) / args.checkpoints * 1000:.2f} ms")  # fmt: skip


if __name__ == "__main__":
    main()

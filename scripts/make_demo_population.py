"""Write the demo's relevant population, ``resources/demo/population``, from the shared texts.

One folder per author (the folder's name is the author, as ``taveer population add`` reads it):

- ``Hamilton``, ``Madison``, ``Jay``: Federalist papers of undisputed single authorship from
  ../shared/demo-texts/federalist, never a paper of the demo cases (their known papers and the
  disputed No. 51): every such paper of Madison (11) and Jay (5), and Hamilton's first 12 (he
  wrote 51; twelve keep him from outnumbering the others). The header line naming the author
  (``HAMILTON``, ``MADISON``, ``JAY``) is removed, as from the demo's questioned paper, so no
  trial can be decided by a signature; the bytes are otherwise unchanged.
- ``Anne_Bronte``, ``Charlotte_Bronte``, ``Emily_Bronte``: every chapter in
  ../shared/demo-texts/brontes, unchanged.

Prints the SHA-256 of every file written (for resources/demo/README.md).

    .venv/bin/python scripts/make_demo_population.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = REPO / "resources" / "demo" / "population"
HAMILTON_PAPERS = 12
AUTHOR_LINE = re.compile(
    rb"^(HAMILTON AND MADISON|HAMILTON OR MADISON|HAMILTON|MADISON|JAY)\r*\n", re.M
)


def demo_case_papers() -> set[str]:
    manifest = json.loads((REPO / "resources/demo/demo_case.json").read_text(encoding="utf-8"))
    used = {"federalist_51.txt"}  # the disputed paper the demo cases question
    for case in manifest["cases"]:
        used.update(Path(p).name for p in case["known"])
    return used


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    args = parser.parse_args()
    texts = Path(args.shared) / "demo-texts"
    if TARGET.exists():
        shutil.rmtree(TARGET)
    excluded = demo_case_papers()
    written: list[Path] = []
    for path in sorted((texts / "federalist").glob("*.txt")):
        data = path.read_bytes()
        match = AUTHOR_LINE.search(data[:600])
        author = match.group(1).decode() if match else ""
        if author not in ("HAMILTON", "MADISON", "JAY") or path.name in excluded:
            continue
        folder = TARGET / author.title()
        full = author == "HAMILTON" and folder.is_dir()
        if full and len(list(folder.iterdir())) >= HAMILTON_PAPERS:
            continue
        folder.mkdir(parents=True, exist_ok=True)
        assert match is not None
        (folder / path.name).write_bytes(data[: match.start()] + data[match.end() :])
        written.append(folder / path.name)
    for path in sorted((texts / "brontes").glob("*.txt")):
        folder = TARGET / "_".join(path.name.split("_")[:2])
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, folder / path.name)
        written.append(folder / path.name)
    for path in sorted(written):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"{digest}  {path.relative_to(TARGET.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

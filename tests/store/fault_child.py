"""Child process of the fault test: adds evidence and stores runs in a loop until killed.

Usage: python fault_child.py STORE SCRATCH_DIR SEED

It prints ``ready`` once the project is open, then after every commit one line per stored
record: ``doc <id> <sha256> <source file>`` or ``run <id> <record sha256>``. The parent kills
it with SIGKILL at a random moment and checks that everything printed is in the store.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from taveer_desktop.core.methods.taveer.verify import verify
from taveer_desktop.paths import resource
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore

FAULT_CASE = "FAULT"


def _sentences() -> list[str]:
    text = resource("demo", "federalist", "federalist_10.txt").read_text("utf-8")
    return [s.strip() + "." for s in text.replace("\n", " ").split(".") if len(s.strip()) > 20]


def main() -> int:
    store_path, scratch, seed = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    sentences = _sentences()
    store = ProjectStore.open(store_path)
    if store.read_only_reason:
        print(f"read-only: {store.read_only_reason}", file=sys.stderr)
        return 3
    case = store.cases.find(FAULT_CASE)
    (stored_model,) = store.models.list_all()
    model = store.models.load(stored_model.id)
    (questioned,) = store.documents.list_for_case(case.id, QUESTIONED)
    questioned_text = store.documents.text(questioned.id)
    print("ready", flush=True)
    for round_number in range(1, 1_000_000):
        batch = []
        for index in range(rng.randint(1, 4)):
            path = scratch / f"seed{seed}-round{round_number}-{index}.txt"
            body = " ".join(rng.choices(sentences, k=rng.randint(20, 400)))
            path.write_text(f"Sample {seed}/{round_number}/{index}. {body}\n", "utf-8")
            batch.append(path)
        added = store.documents.add(case.id, KNOWN, batch).added
        for doc in added:
            print(f"doc {doc.id} {doc.sha256} {doc.metadata['source_path']}", flush=True)
        known_ids = [doc.id for doc in added]
        texts = [store.documents.text(doc_id) for doc_id in known_ids]
        result = verify(model, texts, questioned_text, explain=True).to_dict()
        run = store.runs.store(case.id, stored_model.id, questioned.id, known_ids, result)
        print(f"run {run.id} {run.record_sha256}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

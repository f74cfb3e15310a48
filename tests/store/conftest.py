"""Fixtures of the store tests: a fresh project in ``tmp_path`` and a case with evidence."""

from __future__ import annotations

import pytest

from taveer_desktop.store import KNOWN, ProjectStore

from .evidence_builders import write


@pytest.fixture
def store(tmp_path):
    project = ProjectStore.create(tmp_path / "project.taveer")
    yield project
    project.close()


@pytest.fixture
def case(store):
    return store.cases.create("2025-001", title="Anonymous letters", examiner="A. Examiner")


@pytest.fixture
def filled_case(store, case, tmp_path):
    """A case with two known documents and one questioned document."""
    known = [
        write(tmp_path / "k1.txt", "I wrote this letter myself. It is short. " * 20),
        write(tmp_path / "k2.txt", "Another letter of mine follows here. Truly. " * 20),
    ]
    questioned = write(tmp_path / "q.txt", "Who wrote this one? Nobody knows yet. " * 20)
    store.documents.add(case.id, KNOWN, known)
    store.documents.add(case.id, "questioned", [questioned])
    return case

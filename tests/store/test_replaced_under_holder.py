"""Issue 31 item 5: a project file replaced under a running holder (``cp`` then ``mv``) loses no
acknowledged write: the holder's next write is refused in one sentence, before or inside its
transaction, and neither file is changed by it."""

from __future__ import annotations

import os
import shutil

import pytest

from taveer_desktop.store import ProjectStore, StoreError

REPLACED = "was replaced or removed on disk while it was open"


def _replace(path) -> None:
    copy = path.with_name(path.name + ".copy")
    shutil.copyfile(path, copy)
    os.replace(copy, path)


def test_a_write_after_the_file_was_replaced_is_refused_and_nothing_is_lost(tmp_path):
    path = tmp_path / "p.taveer"
    store = ProjectStore.create(path)
    try:
        store.cases.create("C-1", title="Before")
        _replace(path)
        with pytest.raises(StoreError) as caught:
            store.cases.create("C-2", title="After")
        message = str(caught.value)
        assert message.startswith(f"{path}: {REPLACED}") and "\n" not in message
        assert "close the project and open it again" in message
    finally:
        store.close()
    reopened = ProjectStore.open(path)
    try:
        assert [c.number for c in reopened.cases.list_all()] == ["C-1"]
    finally:
        reopened.close()


def test_a_file_replaced_inside_a_write_is_refused_before_the_commit(tmp_path):
    path = tmp_path / "p.taveer"
    store = ProjectStore.create(path)
    try:
        with pytest.raises(StoreError, match=REPLACED), store.transaction():
            store.cases.create("C-1")
            _replace(path)
        assert store.cases.list_all() == []  # rolled back in the file it holds, too
    finally:
        store.close()


def test_a_file_removed_under_its_holder_refuses_writes(tmp_path):
    path = tmp_path / "p.taveer"
    store = ProjectStore.create(path)
    try:
        os.unlink(path)
        with pytest.raises(StoreError, match=REPLACED):
            store.cases.create("C-1")
    finally:
        store.close()

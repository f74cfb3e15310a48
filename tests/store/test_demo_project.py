"""The demo project: the demo cases with their documents and both bundled models (no Qt)."""

from __future__ import annotations

from taveer_desktop.core.progress import Progress
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore, demo_project


def test_seeding_adds_the_demo_cases_and_models_once(tmp_path):
    with ProjectStore.create(tmp_path / "fresh.taveer") as store:
        assert demo_project.is_empty(store)
        steps = []
        result = demo_project.seed_demo_project(
            store, Progress(lambda d, t, m: steps.append((d, t, m)))
        )
        assert result.case_numbers == ("DEMO-001", "DEMO-002")
        assert result.default_model == "TAVeer default (Stack Exchange)"
        assert result.case_model == "TAVeer formal prose (public-domain demo)"
        assert result.added_anything
        assert steps[-1] == (steps[-1][1], steps[-1][1], "demo ready")
        for number in result.case_numbers:
            case = store.cases.find(number)
            assert "Federalist Papers" in case.description
            assert len(store.documents.list_for_case(case.id, KNOWN)) == 4
            questioned = store.documents.list_for_case(case.id, QUESTIONED)
            assert [d.file_name for d in questioned] == ["federalist_51_questioned.txt"]
            assert questioned[0].metadata["source_path"].endswith("federalist_51_questioned.txt")
        assert len(store.models.list_all()) == 2
        assert not demo_project.is_empty(store)
        again = demo_project.seed_demo_project(store)
        assert not again.added_anything
        assert len(store.cases.list_all()) == 2 and len(store.models.list_all()) == 2
        assert store.check_integrity().ok


def test_an_interrupted_seeding_is_completed(tmp_path):
    with ProjectStore.create(tmp_path / "half.taveer") as store:
        spec = demo_project.demo_cases()[0]
        store.cases.create(spec.case_number, title=spec.title)  # as if stopped right here
        demo_project.seed_demo_project(store)
        case = store.cases.find(spec.case_number)
        assert (case.known_count, case.questioned_count) == (4, 1)

"""The tables and guard triggers each schema version holds, read off the migrations
(``store/schema_objects.py``): the current version's names spelled out, so a migration that
drops or renames a guard is seen in review."""

from __future__ import annotations

from taveer_desktop.store.schema import SCHEMA_VERSION
from taveer_desktop.store.schema_check import expected_schema
from taveer_desktop.store.schema_objects import required_objects

TABLES_NOW = {
    "store_meta", "cases", "documents", "models", "runs", "run_documents", "audit_log",
    "stability_checks", "document_exclusions", "removal_permits", "populations",
    "population_documents", "validation_records", "validation_uses", "declarations",
    "technical_reviews", "population_topics", "population_dates",
}  # fmt: skip
GUARDS_NOW = {
    "documents_evidence_immutable", "models_immutable", "runs_immutable", "audit_log_no_update",
    "audit_log_no_delete", "stability_checks_immutable", "documents_no_plain_delete",
    "document_exclusions_no_plain_delete", "cases_no_delete", "models_no_delete",
    "runs_no_delete", "stability_checks_no_delete", "populations_immutable",
    "populations_no_delete", "population_documents_immutable", "population_documents_no_delete",
    "validation_records_immutable", "validation_records_no_delete", "validation_uses_immutable",
    "validation_uses_no_delete", "declarations_immutable", "declarations_no_delete",
    "technical_reviews_immutable", "technical_reviews_no_delete", "population_topics_immutable",
    "population_topics_no_delete", "population_dates_immutable", "population_dates_no_delete",
}  # fmt: skip


def test_the_current_version_holds_every_table_and_guard():
    assert required_objects(SCHEMA_VERSION) == (TABLES_NOW, GUARDS_NOW)


def test_the_names_agree_with_a_store_built_by_the_migrations_at_every_version():
    for version in range(SCHEMA_VERSION + 1):
        built = expected_schema(version)
        tables = {name for kind, name in built if kind == "table"}
        triggers = {name for kind, name in built if kind == "trigger"}
        assert required_objects(version) == (tables, triggers), version
    assert required_objects(0) == (set(), set())

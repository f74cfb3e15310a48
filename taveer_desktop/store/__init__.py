"""The SQLite project store: cases, evidence, models, runs and the audit trail (no Qt)."""

"""Validation of any method on a reference population: trials, cross-validation, figures, records
and evaluation on a corpus with truth."""

"""Authorship-verification methods as objects: the registry of every method the program knows
(``registry.py``), the interface the comparison systems implement (``comparison.py``) and one
module per comparison system of the TAVeer paper's evaluation (Halvani, Graner, Regev, Table 5).
TAVeer itself, LambdaG and their fusion keep their own modules in ``core/`` and are registered
here under the same ids."""

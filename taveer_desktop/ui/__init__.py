"""The PySide6 desktop layer: a thin view over the store, the engine and the report."""

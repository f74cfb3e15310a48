"""The TAVeer engine: pure Python + numpy, no Qt, no SQLite, no printing."""

"""The ground every room stands on: the method registry, errors, progress and cancellation, worker
processes, safe JSON and atomic files."""

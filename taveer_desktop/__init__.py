"""TAVeer Desktop: offline forensic authorship verification with the TAVeer method."""

__version__ = "0.1.0"
PROGRAM_NAME = "TAVeer Desktop"

"""What a person is told, shared by the desktop, the report and the command line (no Qt)."""

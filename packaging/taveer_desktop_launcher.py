"""The script PyInstaller freezes: it only starts the application's real entry point."""

import sys

from taveer_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())

"""``python -m taveer_desktop.cli``: the same as the ``taveer`` command."""

import sys

from taveer_desktop.cli.main import main

sys.exit(main())

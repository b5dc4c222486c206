"""``python -m sealane.cli``: the ``sealane`` command."""

import sys

from .commands import main

sys.exit(main())

"""``python -m trash_tui``: the ``trash`` command without the console script."""

from trash_tui.cli.main import main

main()

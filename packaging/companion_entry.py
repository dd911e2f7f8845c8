"""Entry point of the PyInstaller bundle: the same as the `companion` console script."""

from companion.entry import main  # Ctrl+C while the command line loads: 130

raise SystemExit(main())

"""`python -m askback.cli`."""

from askback.cli import main

raise SystemExit(main())

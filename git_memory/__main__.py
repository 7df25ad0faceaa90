"""`python -m git_memory`."""

from git_memory.cli.entry import main

raise SystemExit(main())

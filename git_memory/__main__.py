"""`python -m git_memory`."""

from git_memory.cli.main import main

main()

"""Everything that touches git: pygit2 (imported nowhere else), and git itself for the staged
snapshot the pre-commit hook lints (`staged.py`, through `_proc`)."""

"""Everything that touches git, through pygit2 (the only importer of pygit2)."""

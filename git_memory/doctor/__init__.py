"""`git memory doctor`: checks of the install and of this worktree's setup, with hints."""

"""Does the memory help: each approved entry's effect in the team's own session history."""

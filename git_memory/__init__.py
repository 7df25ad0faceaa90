"""git-team-memory: reviewed team memory mined from AI coding agent transcripts."""

__version__ = "0.1.0"

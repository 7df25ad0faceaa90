"""Assembly of approved memory into the agents' context files and skill directories."""

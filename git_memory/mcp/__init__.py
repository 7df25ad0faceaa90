"""The MCP front end: `git memory mcp`, tools generated from the operation registry."""

"""The transcript readers, one module per coding agent (`base.py` says what one is made of,
`table.py` registers them)."""

"""Pure text ⇄ model conversions for memory files (no I/O, no pydantic on the hook path)."""

"""Operations: the importable Python API shared by the CLI and the MCP server.

One module per operation, declared in `registry.py`; `base.run("status", request)` looks an
operation up in the registry and calls it. The package itself imports nothing, so
`git memory -h`, which reads the registry, loads none of the request machinery.
"""

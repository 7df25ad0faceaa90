"""The declaration of `git memory demo`, light so `git memory -h` lists it without loading it.

demo runs operations, so it sits above ops/ and declares itself here; the CLI adds it to the
registry's operations (cli/root_help.py). Its module is loaded by name on first use.
"""

from __future__ import annotations

from git_memory.ops.registry import OperationSpec

DEMO = OperationSpec(
    name="demo",
    module="git_memory.demo.operation",
    summary="Run the whole flow on bundled sample sessions in a throw-away repository.",
    side_effect="none",
    cli_path=("demo",),
    cli_only_reason="a tour for people; it builds its own sandbox",
)

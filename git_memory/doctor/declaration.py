"""The declaration of `git memory doctor`, light so `git memory -h` lists it without loading it.

doctor loads operations, so it sits above ops/ and declares itself here; the CLI adds it to
the registry's operations (cli/root_help.py). Its module is loaded by name on first use.
"""

from __future__ import annotations

from git_memory.ops.registry import OperationSpec

DOCTOR = OperationSpec(
    name="doctor",
    module="git_memory.doctor.operation",
    summary="Check the install and this worktree's setup, with hints.",
    side_effect="none",
    cli_path=("doctor",),
    cli_only_reason="diagnoses the human's install; not part of an agent's flow",
)

"""The demo reads no agent history of the user's, whichever agent wrote it."""

from __future__ import annotations

import os

from git_memory.demo.environment import sandbox
from git_memory.sessions.discover import default_roots
from git_memory.sessions.providers.table import providers


def test_every_agents_history_home_is_inside_the_sandbox() -> None:
    with sandbox(None) as box:
        roots = default_roots()
        assert [provider for provider, _ in roots] == list(providers())
        for provider, root in roots:
            assert box.base in root.parents, provider
    assert all(box.base not in root.parents for _, root in default_roots())
    assert os.environ["GEMINI_CLI_HOME"] != str(box.base / "agents" / "gemini_cli_home")

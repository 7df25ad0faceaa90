"""A Claude Code `Elicitation` hook standing in for the human at the approval form.

`claude -p` has no terminal to show an MCP form on; it hands the form to this hook. The hook
records what it was shown (in `$GIT_MEMORY_TEST_ELICITED`) and approves a git-memory
promotion form, exactly as a human pressing "approve" would.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    """Read the hook input, record it, answer the form."""
    event = json.load(sys.stdin)
    with open(os.environ["GIT_MEMORY_TEST_ELICITED"], "a", encoding="utf-8") as log:
        log.write(json.dumps(event) + "\n")
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "Elicitation",
            "action": "accept",
            "content": {"decision": "approve"},
        }
    }
    print(json.dumps(answer))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Answers a ConsolidationTask with a one-scene patch; refuses anything else (the probe).

Switches (`<script>.mode`): `empty` answers an empty patch, `wrong-binding` corrupts the
echoed binding.
"""

import json
import sys

from _fake import refusal, start

modes = start("consolidation")
try:
    task = json.loads(sys.stdin.read())
except ValueError:
    task = None
if not isinstance(task, dict) or "taskId" not in task:
    sys.stdout.write(refusal() + "\n")
    sys.exit(0)
content = (
    "-----META-START-----\ncreated: 2026-11-20\nupdated: 2026-11-21\n"
    'summary: "Release flow"\nheat: 42\n-----META-END-----\n## Release flow\n- check, then tag\n'
)
operations = [
    {
        "operationId": "op-1",
        "op": "create",
        "target": "scene",
        "name": "release",
        "newContent": content,
        "basedOnEntryIds": [e["entryId"] for e in task["entries"]],
        "mergeSources": [],
        "rationale": "the release rules belong together",
    }
]
answer = {
    "format": "git-memory-consolidation-patch@v1",
    "taskId": task["taskId"],
    "binding": {"corrupted": True} if "wrong-binding" in modes else task["binding"],
    "operations": [] if "empty" in modes else operations,
}
sys.stdout.write(json.dumps(answer) + "\n")

"""The names of our temporary files and promotion artifacts, apart from `safefs`.

The pre-commit hook recognises them in every commit (a leftover blocks it), and `safefs`
loads ctypes and pathlib, which the hook's start-up budget cannot pay for
(`tests/perf/bench_cli_startup.py`).
"""

from __future__ import annotations

import re

TEMP_SUFFIX = ".gm-tmp"
# Promotion's journal-named artifacts (`git_memory.promote.writer`); recovery removes them.
PROMOTION_ARTIFACT_PREFIX = ".gm-promote-"
TEMP_NAME = re.compile(r"^\..+\.(\d+)\.[0-9a-f]{12}\.gm-tmp$")


def is_temp_name(name: str) -> bool:
    """Whether `name` is one of our temp files (`.<name>.<pid>.<hex>.gm-tmp`)."""
    return TEMP_NAME.match(name) is not None

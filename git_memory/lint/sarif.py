"""SARIF 2.1.0 rendering of lint results, for code-scanning UIs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from git_memory.lint.rules import LINT_CODES

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"block": "error", "warn": "warning"}


def to_sarif(
    files: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], tool_version: str
) -> dict[str, Any]:
    """A SARIF log with one run: `files` are (path, finding documents) pairs."""
    codes = sorted({finding["code"] for _path, findings in files for finding in findings})
    rules = [_rule(code) for code in codes]
    results = [_result(path, finding) for path, findings in files for finding in findings]
    driver = {
        "name": "git-memory",
        "version": tool_version,
        "informationUri": "https://pypi.org/project/git-team-memory/",
        "rules": rules,
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }


def _rule(code: str) -> dict[str, Any]:
    severity, description = LINT_CODES.get(code, ("block", "memory file format error"))
    return {
        "id": code,
        "shortDescription": {"text": description},
        "defaultConfiguration": {"level": LEVELS[severity]},
    }


def _result(path: str, finding: Mapping[str, Any]) -> dict[str, Any]:
    text = finding["message"]
    if finding.get("excerpt"):
        text += f" ({finding['excerpt']})"
    return {
        "ruleId": finding["code"],
        "level": LEVELS[finding["severity"]],
        "message": {"text": text},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": path},
                    "region": {"startLine": finding["line"], "startColumn": finding["column"]},
                }
            }
        ],
    }

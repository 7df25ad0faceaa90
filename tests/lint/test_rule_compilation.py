"""Pattern rules are compiled on first use (issue 29): text without any rule's trigger, as in
most memory entries, costs the pre-commit hook no regex compilation, nor does ASCII text
compile the invisible-character patterns; a triggered rule still finds what it finds."""

from __future__ import annotations

import json
import subprocess
import sys

# A fresh interpreter: the test process has compiled every rule already.
PROBE = """
import json
import sys
from git_memory import patterns
from git_memory.formats import controls
from git_memory.lint import rules
from git_memory.lint.engine import scan_secrets

prose = scan_secrets("Run the suite with `uv run pytest -q` before pushing.\\n")
sources = [rule.source for rule in rules.PATTERN_RULES]
sources += [controls._BMP_INVISIBLE, controls._ASTRAL, controls._INVISIBLE]
after_prose = sum(source in patterns._COMPILED for source in sources)
filters_after_prose = "git_memory.lint.precision" in sys.modules
key = "AKIA" + "Z7QW3ERTYUIOPLKJ"
found = [finding.code for finding in scan_secrets(f"the deploy key is {key} here\\n")]
aws = next(rule for rule in rules.PATTERN_RULES if rule.code == "GM_LINT_AWS_ACCESS_KEY")
print(json.dumps({"prose": len(prose), "after_prose": after_prose, "found": found,
                  "aws_compiled": aws.source in patterns._COMPILED,
                  "filters": [filters_after_prose, "git_memory.lint.precision" in sys.modules]}))
"""


def test_rules_without_triggers_are_never_compiled_and_triggered_ones_still_match() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    )
    report = json.loads(result.stdout)
    assert report["prose"] == 0
    assert report["after_prose"] == 0
    assert "GM_LINT_AWS_ACCESS_KEY" in report["found"]
    assert report["aws_compiled"] is True
    # The precision filters load only once a rule matched.
    assert report["filters"] == [False, True]

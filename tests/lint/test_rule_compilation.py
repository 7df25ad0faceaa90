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


# A fresh interpreter that records what `re.compile` is asked for while the engine loads.
IMPORT_PROBE = """
import json
import re
import sys

asked = []
compile_now = re.compile


def recording(source, flags=0):
    asked.append(source)
    return compile_now(source, flags)


re.compile = recording
from git_memory.formats import bounded_json, entry
from git_memory.lint import assigned, entropy, normalize, rules
from git_memory.lint.engine import scan_secrets
re.compile = compile_now

rare = {
    "entropy.PART": entropy.PART,
    "entropy.WORD_SEPARATORS": entropy.WORD_SEPARATORS,
    "entropy.PEELABLE": entropy.PEELABLE,
    "entropy.REGION_SUFFIX": entropy.REGION_SUFFIX,
    "assigned._NAME_PART": assigned._NAME_PART,
    "assigned._ENCODED": assigned._ENCODED,
    "assigned._CONSTANT_NAME": assigned._CONSTANT_NAME,
    "assigned._HTTP": assigned._HTTP,
    "rules.SESSION_UUID": rules.SESSION_UUID,
    "rules.SESSION_CONTEXT": rules.SESSION_CONTEXT,
    "rules.HEX_RUN": rules.HEX_RUN,
    "normalize._HEX": normalize._HEX,
    "bounded_json._NOT_STRUCTURE_BYTES": bounded_json._NOT_STRUCTURE_BYTES,
    "bounded_json._EMPTY_PAIR": bounded_json._EMPTY_PAIR,
    "entry.COMMIT_HASH": entry.COMMIT_HASH,
}
sources = {name: getattr(value, "pattern", value) for name, value in rare.items()}
session = "6f9619ff-8b86-4d11-b42d-00c04fc964ff"
texts = {
    "session": f"resume session {session} to go on\\n",
    "bearer": "curl -H 'Authorization: Bearer " + "Zk3Qw9Lm2Xv8Rt5Yp1Nb7Hc4' https://api.example.com\\n",
    "hex": "the signing key is " + "3f786850e387550fdab836ed7e6dc881de23001b" + " in prod\\n",
}
found = {name: sorted({f.code for f in scan_secrets(text)}) for name, text in texts.items()}
print(json.dumps({
    "compiled_at_import": sorted(name for name, source in sources.items() if source in asked),
    "found": found,
}))
"""


def test_patterns_of_rare_text_are_not_compiled_when_the_engine_loads() -> None:
    """Word splits for entropy, assigned-name parts, HTTP credentials, session-id context, hex
    runs, hex decoding, commit ids and deep JSON wait for the text that needs them; such text
    still blocks."""
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, check=True
    )
    report = json.loads(result.stdout)
    assert report["compiled_at_import"] == []
    assert "GM_LINT_PROVIDER_SESSION_ID" in report["found"]["session"]
    assert "GM_LINT_HTTP_CREDENTIALS" in report["found"]["bearer"]
    assert "GM_LINT_HEX_TOKEN" in report["found"]["hex"]

"""What identifies a rule across sessions (`rule_key`) and what two rules are compared by
for near-duplicates (`rule_words`, `corroboration.fold_alike`)."""

from __future__ import annotations

import re

from git_memory.extract.builtin.corroboration import MUST_MATCH
from git_memory.extract.builtin.scripts import UNSPACED

# Words that say how a rule is put, not what it is about ("always use pnpm" is "pnpm").
KEY_STOP_WORDS = frozenset(
    """a an the to of in on for and or with by is are be it this that we our you your i
    always never do not don't dont please use using instead""".split()  # noqa: SIM905
)


def rule_key(text: str) -> str:
    """What identifies a rule across sessions: its content words, order-free, in any script
    (a run of Chinese, Japanese or Korean characters is one word)."""
    return "rule:" + " ".join(sorted(_key_words(text)))


def rule_words(text: str) -> frozenset[str]:
    """The words two rules are compared by for near-duplicates (`corroboration.fold_alike`):
    their content words, a run of Chinese or Japanese (written without spaces) as its
    pairs of characters, and the code they name (`make lint`) as one word that two alike
    rules must share."""
    found: set[str] = set()
    for word in _key_words(text):
        runs = UNSPACED.findall(word)
        found |= {run[i : i + 2] for run in runs for i in range(max(len(run) - 1, 1))}
        found |= set(UNSPACED.sub(" ", word).split()) if runs else {word}
    code = sorted(set(_CODE_SPAN.findall(text)))
    return frozenset(found | ({MUST_MATCH + "\0".join(code)} if code else set()))


_CODE_SPAN = re.compile(r"`([^`]+)`")


def _key_words(text: str) -> set[str]:
    words = re.findall(r"[\w.\-/]+", text.casefold().replace("`", " "))
    return {w.strip(".-") for w in words} - KEY_STOP_WORDS - {""}

"""English prohibitions: which bare "don't …" is a rule of the project (`rules.py`).

"Never …" holds every time by its own word; a bare "don't …" holds every time when it is about
the project's engineering: a verb of it (use, install, import, commit, push, rebase, merge,
hardcode, bump, deploy, run), a thing of it (files, tests, dependencies, packages, libraries,
config, secrets, credentials, hooks, the version, git, CI, what goes "in the code"), a tool
the project runs named after the verb, a path, a glob, an option, a file's name, a
backticked command, or "ever"/"again". "Don't show the banner on mobile" and "don't delete
the user's account" are the task at hand. The Chinese prohibition cues (`cues_cjk.py`) ask the
same of 不要: a verb of the project's engineering after it.
"""

from __future__ import annotations

import re

from git_memory.extract.builtin.statements import named_tools

_PROHIBITION = re.compile(r"(?i)^(?:don'?t|do not)\b")


def bare_prohibition(sentence: str) -> bool:
    """The sentence forbids with a bare "don't" or "do not" (not "never", "avoid", …)."""
    return _PROHIBITION.match(sentence) is not None


# What of the project's engineering a prohibition names (the module's docstring lists them).
_OF_ENGINEERING = re.compile(
    r"(?i)^(?:don'?t|do not) (?:ever |again )?(?:use|install|import|commit|push|rebase|merge"
    r"|hard-?code|bump|deploy|run|force"
    r"|add (?:any )?(?:new )?(?:dependenc|packages?|librar))"
    r"|\b(?:ever|again)\b|[`*]|[A-Za-z_.-]\w*/|\s--?\w|\w\.[a-z]{1,4}\b(?!\.\w)"
    r"|\b(?:files?|comments?|commits?|commit messages?|tests?|docs?|documentation|prs?"
    r"|pull requests?|branch(?:es)?|migrations?|dependenc(?:y|ies)|packages?|librar(?:y|ies)"
    r"|imports?|generated|lock ?files?|config(?:uration)?|schemas?|secrets?|credentials?"
    r"|variables?|readme|changelog|apis?|hooks?|version|sudo|git|ci|linter"
    r"|formatter)\b"
    # "in the code" as where a thing goes, not a field or an editor of the product's
    r"|\bin (?:\w+ ){0,3}(?:the|my|our) (?:source )?code\b(?!\s+(?:field|input|editor|box"
    r"|view|panel|tab|block|snippet|page|screen|form))"
)
# The prohibition and its verb: a tool's name there is the verb ("don't make …").
_FORBIDDEN_VERB = re.compile(r"(?i)^(?:don'?t|do not)\s+(?:ever\s+)?\S+")


def about_engineering(prohibition: str) -> bool:
    """Whether a bare "don't …" is about the project's engineering (`_OF_ENGINEERING`), or
    names a tool after its verb ("don't make the modal wider": that `make` is the verb)."""
    after_verb = _FORBIDDEN_VERB.sub("", prohibition)
    return bool(_OF_ENGINEERING.search(prohibition) or named_tools(after_verb))

"""What a run wrote: the files an edit changed or a shell command rewrote in place, and
whether a file sets the project up (its dependencies, configuration, environment) rather
than being its code.

A failure that worked again after the code changed was a bug, fixed: no trap. Writing a
set-up file is part of getting a command to run (`.env`, a pin in `requirements.txt`, an
`eslint.config.js`): the trap names the file.
"""

from __future__ import annotations

import re

from git_memory.extract.builtin import shell
from git_memory.extract.builtin.runs import Run

# One row per family of set-up files, with the file it was written from.
SETUP_FILES: tuple[tuple[str, str], ...] = (
    (r"requirements[\w.-]*\.txt|constraints\.txt|pyproject\.toml|setup\.cfg", "pyproject.toml"),
    (r"Pipfile|(?:uv|poetry)\.lock|tox\.ini|pytest\.ini|\.python-version", "pytest.ini"),
    (r"package\.json|\.npmrc|\.nvmrc|pnpm-workspace\.yaml", "package.json"),
    (r"tsconfig[\w.-]*\.json|[\w.-]+\.config\.(?:js|cjs|mjs|ts|json)", "eslint.config.js"),
    (r"\.eslintrc[\w.]*|\.prettierrc[\w.]*", ".eslintrc.json"),
    (r"go\.mod|go\.sum|Cargo\.toml|rust-toolchain(?:\.toml)?|Gemfile|composer\.json", "go.mod"),
    (r"Makefile|justfile|mise\.toml|\.tool-versions", "mise.toml"),
    (r"Dockerfile|(?:docker-)?compose[\w.-]*\.ya?ml", "docker-compose.yml"),
    (r"\.env(?:\.[\w-]+)?|\.envrc", ".env"),
)
_SETUP_FILE = re.compile(r"(?:^|/)(?:" + "|".join(p for p, _ in SETUP_FILES) + r")$")
# Programs that rewrite a file in place with `-i` (`sed -i … FILE`, `perl -pi -e … FILE`).
_IN_PLACE = frozenset(["sed", "gsed", "perl"])
# `… > FILE`, `… >> FILE` into the project's code or set-up (a log or a scratch file excepted).
_WRITTEN_EXTENSIONS = "py|pyi|js|mjs|cjs|ts|tsx|go|rs|rb|java|kt|cs|php|json|toml|ya?ml|cfg|ini|sh"
_REDIRECT = re.compile(
    rf"(?<![<>&0-9])>>?\s*([\w./-]+\.(?:{_WRITTEN_EXTENSIONS})|\.env[\w.-]*)(?![\w.])"
)
_REWRITES = (("git", "apply"), ("git", "am"), ("git", "restore"))
# Code run inline that writes a file (`python - <<'PY' … path.write_text(text)`,
# `node -e "fs.writeFileSync(…)"`): the files it names are the code's, not known here.
_CODE_WRITES = re.compile(
    r"\.write_(?:text|bytes)\(|\bopen\([^)\n]*,\s*(?:mode\s*=\s*)?['\"][wax]"
    r"|\bwriteFileSync\(|\bfs\.writeFile\(|\bshutil\.(?:copy\w*|move)\("
)


def setup_file(path: str) -> bool:
    """Whether a written file sets the project up (`SETUP_FILES`) rather than being its code."""
    return bool(_SETUP_FILE.search(path.removeprefix("./")))


def written_files(run: Run) -> list[str] | None:
    """The files a run wrote (an edit, or a shell command writing in place); an empty list
    when it wrote files it does not name, None when it wrote none."""
    if run.edit:
        return list(run.paths)
    if not run.command:
        return None
    found: list[str] = []
    writes = False
    for segment in shell.segments(run.command):
        words = segment.words
        if words[:1] and words[0] in _IN_PLACE and any(_in_place(w) for w in words[1:3]):
            writes = True
            found += [w for w in words[-1:] if not w.startswith("-")]
        elif words[:1] == ("tee",):
            writes = True
            found += [w for w in words[1:] if not w.startswith("-")]
        elif tuple(words[:2]) in _REWRITES:
            writes = True
    found += [t for t in _REDIRECT.findall(run.command) if not shell.outside(t)]
    writes = writes or bool(_CODE_WRITES.search(run.command))
    return found if writes or found else None


def _in_place(word: str) -> bool:
    return word == "--in-place" or (
        word.startswith("-") and not word.startswith("--") and "i" in word
    )

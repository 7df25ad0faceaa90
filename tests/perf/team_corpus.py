"""A team's sessions at a team's scale, for `bench_extract_team.py`.

One repository worked on by eight people over six weeks: every real round-one session
(`tests/fixtures/real-sessions/`, four agents) replicated for several people, each copy with a
new session id, its timestamps moved into the six weeks and the home directories it names
rewritten to its person's (`/Users/<name>`, `/home/<name>`, `C:\\Users\\<name>`); plus
generated Claude Code sessions of a Go project run through `mise`, with what a team's
sessions hold: the commands everyone runs, narrow runs of one package or test, one-off
commands, a red test of the day fixed by an edit, a trap and its fix, rules a person typed
and a sentence of one task, and large tool outputs (dependency sources read from the
person's module cache). Installing a session rewrites its working directories to the
repository's root, as a teammate's transcripts copied to one machine would be; the home
paths outside the repository stay, and name the person.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "real-sessions"
MIB = 1024 * 1024
START = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
WEEKS = 6
# Eight people; the home directory each one's machine names.
PEOPLE = (
    ("alice", "/Users/alice"),
    ("bob", "/Users/bob"),
    ("chen", "/home/chen"),
    ("dana", "/Users/dana"),
    ("emre", "/home/emre"),
    ("fatima", "/Users/fatima"),
    ("goran", "C:\\Users\\goran"),
    ("hiro", "/Users/hiro"),
)
_HOME = re.compile(
    r"/Users/[A-Za-z0-9._-]+|/home/[A-Za-z0-9._-]+|/disk/[A-Za-z0-9._-]+"
    r"|C:(?:\\\\)+Users(?:\\\\)+[A-Za-z0-9._-]+"
)
_MOMENT = re.compile(r"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class Session:
    """One session to install: its agent, its text and the name of its file."""

    agent: str
    name: str
    text: str


def people_homes(person: int) -> tuple[str, str]:
    """The name and home directory of person number `person`."""
    return PEOPLE[person % len(PEOPLE)]


def _home_for(number: int, *, windows: bool) -> str:
    """The home of a person whose machine is of the same family as the session's."""
    same = [home for _, home in PEOPLE if home.startswith("C:") == windows]
    return same[number % len(same)]


def _shifted(text: str, delta: timedelta) -> str:
    def move(match: re.Match[str]) -> str:
        raw = match.group(0)
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        moved = (moment + delta).astimezone(UTC)
        return moved.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moved.microsecond // 1000:03d}Z"

    return _MOMENT.sub(move, text)


def _home_in(text: str, home: str, escaped: bool) -> str:
    """Every home directory the text names becomes `home` (JSON-escaped when `escaped`)."""
    shown = json.dumps(home)[1:-1] if escaped else home
    return _HOME.sub(lambda _: shown, text)


def replicas(copies: int, rng: random.Random) -> Iterator[Session]:
    """Each real session `copies` times, for different people, over the six weeks."""
    entries = json.loads((FIXTURE / "PROVENANCE.json").read_text(encoding="utf-8"))
    for copy in range(copies):
        for number, entry in enumerate(entries):
            text = (FIXTURE / entry["file"]).read_bytes().decode("utf-8")
            moments = sorted(_MOMENT.findall(text))
            if not moments:
                continue
            first = datetime.fromisoformat(moments[0].replace("Z", "+00:00"))
            if first.tzinfo is None:
                first = first.replace(tzinfo=UTC)
            day = rng.randrange(WEEKS * 7 - 1)
            target = START + timedelta(days=day, hours=rng.randrange(10))
            text = _shifted(text, target - first)
            home = _home_for(copy * 3 + number, windows="C:\\\\Users" in text)
            text = _home_in(text, home, escaped=True)
            fresh = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            ids = set(_UUID.findall(Path(entry["file"]).name))
            for old in ids:
                text = text.replace(old, fresh)
            name = Path(entry["path"]).name
            for old in ids:
                name = name.replace(old, fresh)
            yield Session(entry["agent"], f"r{copy}-{name}", text)


# --- generated sessions of a Go project run through mise -------------------------------------

_PACKAGES = (
    "cmd/cli",
    "cmd/cli/agent",
    "cmd/cli/agent/openclaw",
    "internal/store",
    "internal/sync",
)
_WORDS = [
    "checkpoint",
    "resume",
    "session",
    "agent",
    "hook",
    "branch",
    "strategy",
    "commit",
    "transcript",
    "rewind",
    "worktree",
    "condense",
    "shadow",
    "metadata",
    "trailer",
    "summary",
    "explain",
    "status",
    "doctor",
    "clean",
    "reset",
]


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words))


def _go_source(rng: random.Random, size: int) -> str:
    lines = []
    total = 0
    while total < size:
        name = rng.choice(_WORDS).title() + rng.choice(_WORDS).title()
        line = f"func {name}(ctx context.Context, s *Session) error {{ return s.{name}(ctx) }}\n"
        lines.append(line)
        total += len(line)
    return "".join(lines)


def _ok_lines(rng: random.Random) -> str:
    return "".join(
        f"ok  \tgithub.com/team/cli/{package}\t{rng.random() * 3:.3f}s\n" for package in _PACKAGES
    )


@dataclass
class _Turn:
    prompt: str
    calls: list[tuple[str, dict[str, Any], str, bool]]  # tool, input, output, is_error


def _path(home: str, below: str) -> str:
    """A path below a home directory, spelled as that machine spells it."""
    return f"{home}\\{below.replace('/', chr(92))}" if home.startswith("C:") else f"{home}/{below}"


def _team_turns(rng: random.Random, home: str, big: int) -> list[_Turn]:
    """The turns of one generated session: episodes of a task each, with the team's checks,
    narrow runs and the odd one-off, a red test of the day, a trap, a rule."""
    turns: list[_Turn] = []
    for _ in range(rng.randint(8, 40)):
        turns += _episode(rng, home, big // 25)
    return turns


def _episode(rng: random.Random, home: str, big: int) -> list[_Turn]:
    """One task asked in one prompt, worked through in several tool calls as agents do (the
    round-one Claude Code and Codex sessions hold 7.3 tool calls and about 63 KB per prompt):
    reads, an edit, the team's check, a narrow run or a one-off, maybe a red test of the day
    fixed by an edit, a trap met and its fix; now and then a rule or a sentence of one task."""
    cache = _path(home, "go/pkg/mod/github.com/go-git/go-git/v5@v5.16.2/repository.go")
    source = _path(home, "Work/cli/cmd/cli/resume.go")
    checks = rng.choice(
        (
            ("mise run fmt && mise run lint", "0 issues.\n"),
            ("mise run lint", "golangci-lint run ./...\n0 issues.\n"),
            ("mise run test", _ok_lines(rng)),
            ("go test ./...", _ok_lines(rng)),
        )
    )
    narrow = rng.choice(
        (
            (f"go test ./{rng.choice(_PACKAGES)}/ -run TestResume -v -count=1", "PASS\n"),
            ("golangci-lint run ./cmd/cli/agent/openclaw/", "0 issues.\n"),
            (f"gh pr view {rng.randint(100, 999)} --json reviewThreads", '{"reviewThreads": []}\n'),
            ("golangci-lint cache clean", ""),
            ("git status --short", " M cmd/cli/resume.go\n"),
            (f"git log --oneline -{rng.randint(3, 9)}", "a1b2c3d Fix resume\n"),
        )
    )
    calls = [
        ("Read", {"file_path": cache}, _go_source(rng, rng.randint(big // 2, big * 2)), False),
        ("Read", {"file_path": source}, _go_source(rng, 4000), False),
        ("Grep", {"pattern": rng.choice(_WORDS)}, _go_source(rng, 2000), False),
        ("Edit", {"file_path": source}, "The file was updated.", False),
        ("Bash", {"command": checks[0]}, checks[1], False),
        ("Bash", {"command": narrow[0]}, narrow[1], False),
    ]
    if rng.random() < 0.08:  # a red test of the day, fixed by an edit
        failing = "go test ./cmd/cli/ -run TestResume"
        red = (
            "--- FAIL: TestResume (0.01s)\n    resume_test.go:244: expected 2 checkpoints, got 1\n"
            "FAIL\nFAIL\tgithub.com/team/cli/cmd/cli\t0.412s\nFAIL\n"
        )
        fixed = "ok  \tgithub.com/team/cli/cmd/cli\t0.398s\n"
        calls += [
            ("Bash", {"command": failing}, red, True),
            ("Edit", {"file_path": source}, "The file was updated.", False),
            ("Bash", {"command": failing}, fixed, False),
        ]
    if rng.random() < 0.03:  # a trap: the module file needs tidying first
        tidy = "go: updates to go.mod needed; to update it:\n\tgo mod tidy\n"
        calls += [
            ("Bash", {"command": "go build ./..."}, tidy, True),
            ("Bash", {"command": "go mod tidy && go build ./..."}, "", False),
        ]
    turns = [_Turn(f"Please look at the {_sentence(rng, 3)} flow, {_sentence(rng, 6)}", calls)]
    if rng.random() < 0.02:
        turns.append(_Turn("Always run `mise run fmt && mise run lint` before you commit.", []))
    if rng.random() < 0.02:
        turns.append(_Turn("Don't set it, let's see if it keeps happening.", []))
    return turns


def _claude_lines(session: str, cwd: str, start: datetime, turns: list[_Turn]) -> list[str]:
    lines: list[str] = []
    clock = start
    for number, turn in enumerate(turns):
        clock += timedelta(minutes=3)
        base = {
            "sessionId": session,
            "cwd": cwd,
            "timestamp": clock.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "version": "2.1.39",
            "userType": "external",
        }
        prompt = {"role": "user", "content": turn.prompt}
        lines.append(json.dumps({**base, "type": "user", "uuid": f"u{number}", "message": prompt}))
        for call, (tool, payload, result, error) in enumerate(turn.calls):
            tool_id = f"toolu_{number}_{call}"
            use = {"type": "tool_use", "id": tool_id, "name": tool, "input": payload}
            message = {"id": f"msg_{number}_{call}", "role": "assistant", "content": [use]}
            lines.append(
                json.dumps(
                    {**base, "type": "assistant", "uuid": f"a{number}{call}", "message": message}
                )
            )
            content = f"Exit code 1\n{result}" if error else result
            answer = {"type": "tool_result", "tool_use_id": tool_id, "content": content}
            if error:
                answer["is_error"] = True
            reply = {"role": "user", "content": [answer]}
            lines.append(
                json.dumps({**base, "type": "user", "uuid": f"r{number}{call}", "message": reply})
            )
        text = {"type": "text", "text": f"Done: {' '.join(_WORDS[:6])}."}
        done = {"id": f"msg_{number}_end", "role": "assistant", "content": [text]}
        lines.append(
            json.dumps({**base, "type": "assistant", "uuid": f"t{number}", "message": done})
        )
    return lines


def generated(count: int, rng: random.Random, big: int) -> Iterator[Session]:
    """`count` generated Claude Code sessions of the team's Go project."""
    for number in range(count):
        _, home = people_homes(number)
        session = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        start = START + timedelta(days=rng.randrange(WEEKS * 7 - 1), hours=rng.randrange(10))
        size = rng.choice((big // 4, big, big * 2))
        turns = _team_turns(rng, home, size)
        lines = _claude_lines(session, _path(home, "Work/cli"), start, turns)
        yield Session("claude-code", f"g-{session}.jsonl", "\n".join(lines) + "\n")


# --- installing ----------------------------------------------------------------------------


def _cwds(text: str) -> set[str]:
    found: set[str] = set()
    for match in re.finditer(r'"cwd"\s*:\s*"((?:[^"\\]|\\.)*)"', text):
        found.add(json.loads(f'"{match.group(1)}"'))
    for match in re.finditer(r'"directory"\s*:\s*"((?:[^"\\]|\\.)*)"', text):
        found.add(json.loads(f'"{match.group(1)}"'))
    return {cwd for cwd in found if cwd}


def install(session: Session, root: Path, homes: dict[str, Path]) -> Path:
    """Write the session where its agent keeps sessions, its working directories renamed to
    `root`; the file's modification time an hour ago (sealed)."""
    text = session.text
    for cwd in sorted(_cwds(text), key=len, reverse=True):
        text = text.replace(json.dumps(cwd)[1:-1], json.dumps(str(root))[1:-1])
    slug = "-" + str(root).strip("/").replace("/", "-").replace(".", "-")
    if session.agent == "claude-code":
        target = homes["claude"] / "projects" / slug / session.name
    elif session.agent == "codex":
        found = _MOMENT.search(text)
        day = found.group(0)[:10].replace("-", "/") if found else "2026/03/02"
        target = homes["codex"] / "sessions" / day / session.name
    elif session.agent == "qwen-code":
        target = homes["qwen"] / "projects" / slug / "chats" / session.name
    else:
        project = homes["gemini"] / ".gemini" / "tmp" / root.name
        project.mkdir(parents=True, exist_ok=True)
        (project / ".project_root").write_text(str(root), encoding="utf-8")
        target = project / "chats" / session.name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    idle = time.time() - 3600
    os.utime(target, (idle, idle))
    return target


def build(root: Path, homes: dict[str, Path], *, copies: int, made: int, big: int) -> list[Path]:
    """Install the team corpus for the repository at `root`; every file written."""
    rng = random.Random(39)
    sessions = [*replicas(copies, rng), *generated(made, rng, big)]
    return [install(session, root, homes) for session in sessions]

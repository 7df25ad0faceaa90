"""Start-up budget: `git memory -h`, the pre-commit hook, `context` and `status` against
`python3 -c pass`, and what the hook adds to a commit staging no memory file.

All are real processes timed in the same run, taking turns round by round (medians; the
machine is noisy):
- `hook_ms`: the installed shim run as git runs it, in a repository with 20 staged entry
  files, so the figure includes the shell, the interpreter, the lint path's imports and git's
  index read;
- `hook_noop_overhead_ms`: real `git commit`s of one changed ordinary file with the hook
  minus the same without it (`--no-verify`), interleaved; the median of each side;
- `context_ms` / `status_ms`: `git memory context` (what the SessionStart hook runs) and
  `git memory status` in a repository with 200 committed approved entries, warm (each
  command runs once before it is timed, as every session after the first finds it) and
  timed once the files are older than the racy window, as a session start finds them.
Bytecode is cached as an installed package's is (into a temporary PYTHONPYCACHEPREFIX, even
when PYTHONDONTWRITEBYTECODE is set). Prints one JSON line. Goals (issue 29):
hook_noop_overhead_ms ≤ 10, hook_ratio ≤ 4, help_ratio ≤ 2.5, context_ratio ≤ 3,
status_ratio ≤ 4.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT_ROOT))

ENTRY = """---
id: {id}
type: work_method
status: approved
priority: 50
confidence: medium
provenance_strength: observed
claim_support: human-confirmed
limitations: []
scope: repo
scene: testing
occurred: ["2026-11-20"]
evidence: {{"commits": [], "paths": ["src/app.py"]}}
superseded_by: null
---
Run the suite number {n} with `uv run pytest -q` before pushing.
"""


def _interleaved_medians(
    commands: dict[str, tuple[list[str], Path]], runs: int, env: dict[str, str]
) -> dict[str, float]:
    """Median ms of each command (argv, cwd), the commands taking turns in every round, so a
    machine that slows down or speeds up during the run moves every figure alike."""
    for argv, cwd in commands.values():  # warm the caches
        subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, cwd) in commands.items():
            started = time.perf_counter()
            result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
            samples[name].append((time.perf_counter() - started) * 1000)
            if result.returncode != 0:
                raise SystemExit(f"{argv} failed: {result.stderr.decode()[-2000:]}")
    return {name: statistics.median(values) for name, values in samples.items()}


def _git_memory_executable(bin_dir: Path) -> str:
    # The console script installed beside this interpreter (a version manager's shim on PATH
    # would add its own start-up to every figure), else the one on PATH, else a wrapper.
    beside = Path(sys.executable).parent / "git-memory"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("git-memory")
    if found:
        return found
    wrapper = bin_dir / "git-memory"
    wrapper.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, "
        f"{str(PROJECT_ROOT)!r})\nfrom git_memory.cli.main import main\nraise SystemExit(main())\n"
    )
    wrapper.chmod(0o755)
    return str(wrapper)


def _repo_with_entries(
    base: Path, name: str, count: int, env: dict[str, str], executable: str
) -> Any:
    """A repository with `count` approved entries written, indexed and the hook installed."""
    from tests.repos import make_repo

    repo = make_repo(base / name)
    subprocess.run([executable, "init"], cwd=repo.root, env=env, check=True, capture_output=True)
    for n in range(count):
        entry_id = f"run-the-suite-{n:02d}"
        repo.write(f".memory/entries/{entry_id}.md", ENTRY.format(id=entry_id, n=n))
    subprocess.run([executable, "reindex"], cwd=repo.root, env=env, check=True, capture_output=True)
    subprocess.run(
        [executable, "hooks", "install"], cwd=repo.root, env=env, check=True, capture_output=True
    )
    repo.git("add", "-A")
    return repo


def _commit_overhead_ms(repo: Any, runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Median ms of `git commit` of one changed ordinary file, with the hook and without."""
    from tests.repos import GIT_IDENTITY

    commit_env = {**env, **GIT_IDENTITY}
    samples: dict[bool, list[float]] = {True: [], False: []}
    for n in range(runs + 1):
        for hooked in (True, False):
            (repo.root / "src.txt").write_text(f"{n} {hooked}\n")
            repo.git("add", "src.txt")
            argv = ["git", "commit", "-q", "-m", f"change {n}"]
            if not hooked:
                argv.insert(2, "--no-verify")
            started = time.perf_counter()
            result = subprocess.run(
                argv, cwd=repo.root, env=commit_env, capture_output=True, check=False
            )
            elapsed = (time.perf_counter() - started) * 1000
            if result.returncode != 0:
                raise SystemExit(f"{argv} failed: {result.stderr.decode()[-2000:]}")
            if n:  # the first pair warms the caches
                samples[hooked].append(elapsed)
    return statistics.median(samples[True]), statistics.median(samples[False])


def measure(runs: int) -> dict[str, float | int]:
    """Run the three commands `runs` times each and compare their medians."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        bin_dir = base / "bin"
        bin_dir.mkdir()
        home = base / "home"
        home.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(
            PYTHONPYCACHEPREFIX=str(base / "pycache"),
            HOME=str(home),
            GIT_MEMORY_HOME=str(base / "state"),
            GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
            GIT_CONFIG_NOSYSTEM="1",
            PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        )
        os.environ.update(env)
        executable = _git_memory_executable(bin_dir)
        root = _repo_with_entries(base, "repo", 20, env, executable).root
        hook = root / ".git" / "hooks" / "pre-commit"
        approved = _repo_with_entries(base, "approved", 200, env, executable)
        approved.git("commit", "-q", "--no-verify", "-m", "approved memory")
        # A session starts long after the files it reads were written: past the racy window
        # in which the recorded answer compares files by content and keeps no configuration
        # snapshot (git_memory/repo/answer_key.py).
        from git_memory.repo.answer_key import RACY_NS

        time.sleep(RACY_NS / 1e9 + 0.1)
        medians = _interleaved_medians(
            {
                "python": ([sys.executable, "-c", "pass"], root),
                "help": ([executable, "-h"], root),
                "hook": ([str(hook)], root),
                "context": ([executable, "context"], approved.root),
                "status": ([executable, "status"], approved.root),
            },
            runs,
            env,
        )
        with_hook_ms, without_hook_ms = _commit_overhead_ms(approved, runs, env)
    python_ms, help_ms, hook_ms = medians["python"], medians["help"], medians["hook"]
    context_ms, status_ms = medians["context"], medians["status"]
    return {
        "runs": runs,
        "help_ms": round(help_ms, 1),
        "hook_ms": round(hook_ms, 1),
        "python_ms": round(python_ms, 1),
        "help_ratio": round(help_ms / python_ms, 2),
        "hook_ratio": round(hook_ms / python_ms, 2),
        "commit_ms": round(with_hook_ms, 1),
        "commit_no_verify_ms": round(without_hook_ms, 1),
        "hook_noop_overhead_ms": round(with_hook_ms - without_hook_ms, 1),
        "context_ms": round(context_ms, 1),
        "context_ratio": round(context_ms / python_ms, 2),
        "status_ms": round(status_ms, 1),
        "status_ratio": round(status_ms / python_ms, 2),
    }


def main() -> None:
    """Print the figures as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--quick", action="store_true", help="3 runs each (for the test)")
    args = parser.parse_args()
    print(json.dumps(measure(3 if args.quick else max(args.runs, 20))))


if __name__ == "__main__":
    main()

"""Lint throughput and recall against detect-secrets on the same corpus, in the same run.

Builds a deterministic corpus of memory-like entry files (prose, identifiers, paths, commit
hashes, UUIDs outside session context, CJK) with secrets planted on their own lines, lints it
with our engine and with detect-secrets' scanner, and prints one JSON line:
`mib`, `mib_per_s`, `detect_secrets_mib_per_s`, `speedup_vs_detect_secrets`, the planted-secret
`recall` of both, and `gitleaks_fp_rate` over the look-alike strings of
`tests/fixtures/lint-gitleaks-fps.json`, each embedded in an otherwise valid entry (with
the list of the ones that block), and `ordinary_blocked` over the ordinary memory texts of
`tests/fixtures/lint-ordinary-text.json` (commands, traps, rules and facts with hashes,
digests, UUIDs, versions and URLs, in several languages: the goal is 0, and 0
`ordinary_directive_flags` from the directive rules). The look-alike
figure carries its own baseline, measured in the same run: the same probe over the lint as
it was at `BASELINE_COMMIT` (extracted with `git archive`, run in a child interpreter), with
the samples blocked now but not then.

    python tests/perf/bench_lint.py            # >= 20 MiB corpus
    python tests/perf/bench_lint.py --quick    # small corpus, for the smoke test
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import random
import string
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if __name__ == "__main__" and "--verdicts-of" in sys.argv:
    # The baseline probe: import the lint of the extracted tree, not this checkout's.
    sys.path.insert(0, sys.argv[sys.argv.index("--verdicts-of") + 1])
sys.path.insert(1 if "--verdicts-of" in sys.argv else 0, str(ROOT))

from git_memory.formats.entry import Commit, Entry, Evidence, serialize_entry  # noqa: E402
from git_memory.lint.engine import lint_text  # noqa: E402

FPS_FIXTURE = ROOT / "tests" / "fixtures" / "lint-gitleaks-fps.json"
ORDINARY_FIXTURE = ROOT / "tests" / "fixtures" / "lint-ordinary-text.json"
HELDOUT_FIXTURE = ROOT / "tests" / "fixtures" / "lint-ordinary-heldout.json"
# The lint before Markdown, ellipses and assigned names were hardened (the first parent of
# that merge): its look-alike figure is the one the hardened lint must be compared with.
BASELINE_COMMIT = "1ec93a256f0eaebab1a851048556572c16d9e67a"
CONTROL_CODE = "GM_LINT_CONTROL_CHARACTER"
PROSE = (
    "the release workflow must run the full verification suite before tagging a version and "
    "the engine keeps its state in sqlite with write ahead logging so readers never block "
    "writers use ruff format and mypy strict in CI the promotion plan binds blob hashes "
    "reviewers confirm each candidate before it reaches the repository avoid live traffic"
)
WORDS = tuple(PROSE.split(" "))
IDENTIFIERS = (
    "getPagesInConfluenceSpace",
    "MemoryStateRepository",
    "promotion_plan_digest",
    "session-facts-sqlite-projection",
    "useQueryClientProvider",
    "ExtractionTaskBuilder",
)
CJK = "发布流程只包含四个目标明确不发布或签名保留核心命令行安装冒烟"
ALNUM = string.ascii_letters + string.digits


def _rand(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def planted_secret(rng: random.Random, kind: int) -> str:
    """One realistic secret of family `kind` (random material, real shapes)."""
    upper = string.ascii_uppercase + string.digits
    makers = (
        lambda: "AKIA" + _rand(rng, upper, 16),
        lambda: "ghp_" + _rand(rng, ALNUM, 36),
        lambda: "github_pat_" + _rand(rng, ALNUM + "_", 60),
        lambda: "glpat-" + _rand(rng, ALNUM + "-_", 20),
        lambda: "npm_" + _rand(rng, ALNUM, 36),
        lambda: "AIza" + _rand(rng, ALNUM + "-_", 35),
        lambda: f"xoxb-{_rand(rng, string.digits, 12)}-{_rand(rng, ALNUM, 24)}",
        lambda: "sk-proj-" + _rand(rng, ALNUM + "-_", 48),
        lambda: "-----BEGIN RSA PRIVATE KEY-----",
        lambda: (
            "eyJhbGciOiJIUzI1NiJ9."
            + base64.urlsafe_b64encode(rng.randbytes(30)).decode().rstrip("=")
            + "."
            + base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")
        ),
        lambda: f"https://deploy:{_rand(rng, ALNUM, 16)}@git.example.com/org/repo.git",
        lambda: base64.b64encode(rng.randbytes(30)).decode(),
    )
    return makers[kind % len(makers)]()


def prose_line(rng: random.Random) -> str:
    """A clean line of memory-like text."""
    pieces = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    extra = rng.random()
    if extra < 0.15:
        pieces.insert(rng.randrange(len(pieces)), rng.choice(IDENTIFIERS))
    elif extra < 0.2:
        pieces.insert(rng.randrange(len(pieces)), f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py")
    elif extra < 0.25:
        pieces.insert(rng.randrange(len(pieces)), CJK[: rng.randint(6, len(CJK))])
    return " ".join(pieces).capitalize() + "."


def build_corpus(rng: random.Random, target_bytes: int) -> tuple[list[tuple[str, str]], dict]:
    """(relpath, text) files and planted secrets {(relpath, line): secret}."""
    files: list[tuple[str, str]] = []
    planted: dict[tuple[str, int], str] = {}
    size = number = 0
    while size < target_bytes:
        entry_id = f"bench-entry-{number:06d}"
        lines = [prose_line(rng) for _ in range(rng.randint(20, 40))]
        secret_at: int | None = None
        if number % 3 == 0:
            secret_at = rng.randrange(len(lines))
            secret = planted_secret(rng, number // 3)
            lines[secret_at] = f"The credential is {secret} for the deploy."
        commit = Commit("github.com/org/repo", rng.randbytes(20).hex())
        text = serialize_entry(
            Entry(id=entry_id, evidence=Evidence(commits=(commit,)), body="\n".join(lines) + "\n")
        )
        relpath = f"entries/{entry_id}.md"
        if secret_at is not None:
            header_lines = text.split("\n---\n", 1)[0].count("\n") + 2
            planted[(relpath, header_lines + secret_at + 1)] = secret
        files.append((relpath, text))
        size += len(text.encode("utf-8"))
        number += 1
    return files, planted


def run_ours(files: list[tuple[str, str]], planted: dict) -> tuple[float, float]:
    """(seconds, recall) of our engine."""
    started = time.perf_counter()
    found: set[tuple[str, int]] = set()
    for relpath, text in files:
        for finding in lint_text(relpath, text):
            if finding.blocks:
                found.add((relpath, finding.line))
    elapsed = time.perf_counter() - started
    return elapsed, len(found & set(planted)) / max(1, len(planted))


def run_detect_secrets(
    directory: Path, files: list[tuple[str, str]], planted: dict
) -> tuple[float, float]:
    """(seconds, recall) of detect-secrets' scanner, one process, same files."""
    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    paths = []
    for relpath, text in files:
        path = directory / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append((relpath, path))
    found: set[tuple[str, int]] = set()
    with default_settings():
        started = time.perf_counter()
        collection = SecretsCollection()
        for _relpath, path in paths:
            collection.scan_file(str(path))
        elapsed = time.perf_counter() - started
    for filename, secret in collection:
        relpath = Path(filename).relative_to(directory).as_posix()
        found.add((relpath, secret.line_number))
    return elapsed, len(found & set(planted)) / max(1, len(planted))


def gitleaks_verdicts() -> list[list[str]]:
    """The blocking codes of each look-alike, embedded in an otherwise valid entry."""
    items = json.loads(FPS_FIXTURE.read_text(encoding="utf-8"))["items"]
    verdicts = []
    for number, item in enumerate(items):
        body = "Notes from the config review:\n" + item["text"].replace("\r", "") + "\n"
        entry_id = f"probe-{number:03d}"
        text = serialize_entry(Entry(id=entry_id, body=body))
        codes = sorted({f.code for f in lint_text(f"entries/{entry_id}.md", text) if f.blocks})
        verdicts.append(codes)
    return verdicts


def baseline_verdicts(directory: Path) -> list[list[str]] | None:
    """`gitleaks_verdicts` of the lint at BASELINE_COMMIT (None without that history)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", BASELINE_COMMIT, "git_memory"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        return None
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        # This repository's own tree; the "data" filter where the interpreter has it.
        if hasattr(tarfile, "data_filter"):
            tar.extractall(directory, filter="data")
        else:
            tar.extractall(directory)
    child = subprocess.run(
        [sys.executable, __file__, "--verdicts-of", str(directory)],
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    )
    verdicts: list[list[str]] = json.loads(child.stdout)
    return verdicts


def described(items: list[dict], numbers: list[int], verdicts: list[list[str]]) -> list[dict]:
    """The look-alikes `numbers` with the codes that block them (text cut to 48 chars, its
    control characters escaped so the JSON line cannot drive a terminal)."""
    from git_memory.formats.controls import escape_controls  # not in the baseline's tree

    return [
        {
            "index": number,
            "rule_file": items[number]["rule_file"],
            "codes": verdicts[number],
            "text": escape_controls(items[number]["text"][:48]),
        }
        for number in numbers
    ]


def gitleaks_figures(verdicts: list[list[str]], baseline: list[list[str]] | None) -> dict:
    """The look-alike keys of the JSON line: rate, counts, baseline and what changed."""
    items = json.loads(FPS_FIXTURE.read_text(encoding="utf-8"))["items"]
    probes = len(items)
    blocked = [number for number, codes in enumerate(verdicts) if codes]
    blocked_items = described(items, blocked, verdicts)
    # A look-alike with the exact shape of a provider key (the reference's format rules:
    # AWS `AKIA…EXAMPLE`, Google `AIza…`) must block by those rules; the rest are ours.
    by_format = [b for b in blocked_items if set(b["codes"]) & REFERENCE_FORMAT_CODES]
    # A sample holding control characters blocks for them whatever else it is: that finding
    # is true of the text, not a secret verdict, so it is counted apart too.
    control_only = [b for b in blocked_items if b["codes"] == [CONTROL_CODE]]
    figures: dict[str, object] = {
        "gitleaks_probes": probes,
        "gitleaks_fp_rate": round(len(blocked) / probes, 4),
        "gitleaks_fp_count": len(blocked),
        "gitleaks_blocked_by_reference_format_rules": len(by_format),
        "gitleaks_fp_rate_beyond_reference_rules": round(
            (len(blocked) - len(by_format)) / probes, 4
        ),
        "gitleaks_blocked_by_control_characters_only": len(control_only),
        "gitleaks_fp_rate_secret_rules": round((len(blocked) - len(control_only)) / probes, 4),
        "gitleaks_baseline_commit": BASELINE_COMMIT[:12],
        "gitleaks_baseline_fp_count": None,
        "gitleaks_baseline_fp_rate": None,
        "gitleaks_newly_blocked": None,
        "gitleaks_no_longer_blocked": None,
    }
    if baseline is not None:
        before = {number for number, codes in enumerate(baseline) if codes}
        figures["gitleaks_baseline_fp_count"] = len(before)
        figures["gitleaks_baseline_fp_rate"] = round(len(before) / probes, 4)
        figures["gitleaks_newly_blocked"] = described(
            items, sorted(set(blocked) - before), verdicts
        )
        figures["gitleaks_no_longer_blocked"] = described(
            items, sorted(before - set(blocked)), baseline
        )
    figures["gitleaks_blocked"] = blocked_items
    return figures


REFERENCE_FORMAT_CODES = {"GM_LINT_AWS_ACCESS_KEY", "GM_LINT_GOOGLE_API_KEY"}


def ordinary_figures() -> dict:
    """How many ordinary memory texts block, each linted as an entry (with those that do)."""
    blocked, flagged = _ordinary_verdicts(ORDINARY_FIXTURE)
    return {
        "ordinary_probes": len(json.loads(ORDINARY_FIXTURE.read_text(encoding="utf-8"))["items"]),
        "ordinary_blocked_count": len(blocked),
        "ordinary_blocked": blocked,
        "ordinary_directive_flags": len(flagged),
        "ordinary_directives_flagged": flagged,
    }


def heldout_figures() -> dict:
    """The same over the held-out ordinary texts, as counts only: which ones block is never
    printed, so nothing is tuned on them."""
    blocked, flagged = _ordinary_verdicts(HELDOUT_FIXTURE)
    return {
        "heldout_probes": len(json.loads(HELDOUT_FIXTURE.read_text(encoding="utf-8"))["items"]),
        "heldout_blocked_count": len(blocked),
        "heldout_directive_flags": len(flagged),
    }


def _ordinary_verdicts(fixture: Path) -> tuple[list[dict], list[dict]]:
    """The texts of `fixture` that block, and those the directive rules flag."""
    from git_memory.formats.controls import escape_controls

    items = json.loads(fixture.read_text(encoding="utf-8"))["items"]
    blocked, flagged = [], []
    for number, item in enumerate(items):
        entry_id = f"ordinary-{number:03d}"
        text = serialize_entry(Entry(id=entry_id, body=item["text"] + "\n"))
        findings = lint_text(f"entries/{entry_id}.md", text)
        shown = escape_controls(item["text"][:48])
        codes = sorted({f.code for f in findings if f.blocks})
        if codes:
            blocked.append({"index": number, "codes": codes, "text": shown})
        directives = sorted({f.code for f in findings if f.code.startswith("GM_DIRECTIVE_")})
        if directives:
            flagged.append({"index": number, "codes": directives, "text": shown})
    return blocked, flagged


def main() -> None:
    """Run both scanners and print one JSON line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small corpus (smoke test)")
    parser.add_argument("--verdicts-of", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.verdicts_of:
        print(json.dumps(gitleaks_verdicts()))
        return
    target = (96 * 1024) if args.quick else (20 * 1024 * 1024 + 1)
    files, planted = build_corpus(random.Random(20260812), target)
    mib = sum(len(text.encode("utf-8")) for _, text in files) / (1024 * 1024)
    ours_seconds, ours_recall = run_ours(files, planted)
    with tempfile.TemporaryDirectory() as directory:
        ds_seconds, ds_recall = run_detect_secrets(Path(directory), files, planted)
    with tempfile.TemporaryDirectory() as directory:
        baseline = baseline_verdicts(Path(directory))
    print(
        json.dumps(
            {
                "bench": "lint",
                "mib": round(mib, 2),
                "files": len(files),
                "planted_secrets": len(planted),
                "mib_per_s": round(mib / ours_seconds, 2),
                "detect_secrets_mib_per_s": round(mib / ds_seconds, 2),
                "speedup_vs_detect_secrets": round(ds_seconds / ours_seconds, 2),
                "recall": round(ours_recall, 4),
                "detect_secrets_recall": round(ds_recall, 4),
                **gitleaks_figures(gitleaks_verdicts(), baseline),
                **ordinary_figures(),
                **heldout_figures(),
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()

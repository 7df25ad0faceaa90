"""No test asserts a speed: a timing passes or fails with the machine's load, not the code.

Speed belongs to the benchmarks in `tests/perf/`, which print their figures; a test waits for
the event itself, through `tests/waiting.py`, whose one ceiling only catches a hang. This
check reads every test module outside `tests/perf/` and fails on:
- an ordering comparison (`<`, `<=`, `>`, `>=`) one side of which reads a clock, holds what a
  clock read, or names a time figure or a ratio (`…_ms`, `…_s`, `elapsed`, `ratio…`), unless
  the other side is 0 (a figure is well formed);
- a literal timeout shorter than `MIN_WAIT`, as a `timeout=` argument anywhere or as the first
  argument of a waiting method (`proc.wait(5)`), but for the deadlines the code under test is
  given on purpose (`DEADLINES_UNDER_TEST`);
- a hypothesis `deadline` other than None (the suite's profile, in `tests/conftest.py`, has
  none).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.waiting import MIN_WAIT

TESTS = Path(__file__).resolve().parent
EXEMPT = {TESTS / "waiting.py"}
CLOCKS = frozenset(
    ["monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "time", "time_ns"]
)
# A name, attribute or figure key that holds a duration or a ratio of durations.
TIME_FIGURE = re.compile(
    r"_(ms|s|ns|secs?)$|^(ms|secs?)$|(^|_)(seconds|elapsed|duration|latency|took|ratio)(_|$)"
)
# Methods whose first positional argument is how long the test waits (`proc.wait(5)`).
WAITING_METHODS = frozenset(["wait", "communicate", "join", "result", "acquire"])
# Calls whose `timeout` is the deadline of the code under test, not a wait of the test: the
# project's bounded process runner is tested by making it time out.
DEADLINES_UNDER_TEST = frozenset(["run_bounded"])
ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _modules() -> list[Path]:
    return sorted(
        path
        for path in TESTS.rglob("*.py")
        if path not in EXEMPT and not {"perf", "fixtures"} & set(path.relative_to(TESTS).parts)
    )


def _is_clock(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr in CLOCKS and isinstance(func.value, ast.Name) and func.value.id == "time"
    return isinstance(func, ast.Name) and func.id in CLOCKS - {"time"}


def _names(target: ast.AST) -> Iterator[str]:
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr


def _clock_holders(tree: ast.AST) -> set[str]:
    """Names and attributes that are assigned, anywhere in the module, from a clock reading or
    from another such holder (`started = time.monotonic()`, `elapsed = now() - started`)."""
    held: set[str] = set()
    assignments = [n for n in ast.walk(tree) if isinstance(n, ast.Assign | ast.AnnAssign)]
    while True:
        before = len(held)
        for node in assignments:
            if node.value is not None and _reads_clock(node.value, held):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    held.update(_names(target))
        if len(held) == before:
            return held


def _reads_clock(node: ast.AST, held: set[str]) -> bool:
    return any(
        _is_clock(inner)
        or (isinstance(inner, ast.Name) and inner.id in held)
        or (isinstance(inner, ast.Attribute) and inner.attr in held)
        for inner in ast.walk(node)
    )


def _names_a_time_figure(node: ast.AST) -> bool:
    for inner in ast.walk(node):
        word = None
        if isinstance(inner, ast.Name):
            word = inner.id
        elif isinstance(inner, ast.Attribute):
            word = inner.attr
        elif isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            word = inner.value
        if word is not None and TIME_FIGURE.search(word):
            return True
    return False


def _is_zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def _timed_comparisons(tree: ast.AST, held: set[str]) -> Iterator[ast.Compare]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, sides, sides[1:], strict=False):
            if not isinstance(op, ORDERING) or _is_zero(left) or _is_zero(right):
                continue
            if any(_reads_clock(s, held) or _names_a_time_figure(s) for s in (left, right)):
                yield node
                break


def _called_name(call: ast.Call) -> tuple[str, bool]:
    """The called function's name, and whether it is a method."""
    if isinstance(call.func, ast.Attribute):
        return call.func.attr, True
    if isinstance(call.func, ast.Name):
        return call.func.id, False
    return "", False


def _short_waits(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name, method = _called_name(node)
        if name in DEADLINES_UNDER_TEST:
            continue
        given = [k.value for k in node.keywords if k.arg == "timeout"]
        if method and name in WAITING_METHODS and node.args:
            given.append(node.args[0])
        if any(
            isinstance(v, ast.Constant)
            and isinstance(v.value, int | float)
            and not isinstance(v.value, bool)
            and v.value < MIN_WAIT
            for v in given
        ):
            yield node


def _hypothesis_deadlines(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called_name(node)[0] == "settings":
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "deadline" and not (
                    isinstance(value, ast.Constant) and value.value is None
                ):
                    yield node


def findings(source: str) -> list[str]:
    """What in one test module's source asserts or depends on a speed, one line each."""
    tree = ast.parse(source)
    held = _clock_holders(tree)
    found = [f"{n.lineno}: compares a timing" for n in _timed_comparisons(tree, held)]
    found += [f"{n.lineno}: waits less than {MIN_WAIT:.0f} s" for n in _short_waits(tree)]
    found += [f"{n.lineno}: sets a hypothesis deadline" for n in _hypothesis_deadlines(tree)]
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(TESTS)))
def test_no_test_depends_on_the_machine_s_speed(path: Path) -> None:
    assert findings(path.read_text(encoding="utf-8")) == []


def test_hypothesis_examples_have_no_deadline() -> None:
    assert settings.default.deadline is None


@pytest.mark.parametrize(
    "source",
    [
        "started = time.monotonic()\nrun()\nassert time.monotonic() - started < 2\n",
        "t0 = perf_counter()\nelapsed = perf_counter() - t0\nassert elapsed < 5\n",
        "assert figures['ratio_to_raw_writes'] < 50\n",
        "assert figures['first_synthesize_ms'] > figures['baseline_read_ms']\n",
        "assert statistics.median(samples_s) < 0.5\n",
        "deadline = time.time() + 30\nwhile time.time() < deadline:\n    pass\n",
        "proc.wait(timeout=30)\n",
        "proc.wait(5)\n",
        "thread.join(timeout=2)\n",
        "subprocess.run(['x'], timeout=10)\n",
        "gm_proc(['sync'], cwd=root, timeout=30)\n",
        "_sync(gm_proc, repo, timeout=30)\n",
        "results.get(timeout=30)\n",
        "@settings(deadline=500)\ndef test(): pass\n",
        "self.started = time.monotonic()\nassert time.monotonic() - self.started < 1\n",
    ],
)
def test_the_check_catches_each_kind_of_timing(source: str) -> None:
    assert findings(source)


@pytest.mark.parametrize(
    "source",
    [
        "assert figures['apply_s'] > 0\n",
        "assert figures['help_ms'] >= 0\n",
        "OLD = time.time() - 3 * 3600\nos.utime(path, (OLD, OLD))\n",
        "assert len(items) < 5\n",
        "proc.wait(timeout=HANG_CEILING)\n",
        "proc.communicate(timeout=120)\n",
        "run_bounded(argv, timeout=1.0)\n",
        "@settings(max_examples=10, deadline=None)\ndef test(): pass\n",
        "assert contract.timeout_ms == 500\n",
    ],
)
def test_the_check_leaves_behaviour_alone(source: str) -> None:
    assert findings(source) == []

"""`Record` builds the same named tuple `typing.NamedTuple` does, without importing typing."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import NamedTuple

import pytest

from git_memory.records import Record
from tests.conftest import PROJECT_ROOT


class Span(Record):
    """Where a finding is."""

    line: int
    column: int = 1
    label: str | None = None

    @property
    def shown(self) -> str:
        """`line:column`."""
        return f"{self.line}:{self.column}"

    def moved(self, lines: int) -> Span:
        """The span `lines` further down."""
        return self._replace(line=self.line + lines)


class TypingSpan(NamedTuple):
    line: int
    column: int = 1
    label: str | None = None


def test_a_record_is_the_named_tuple_typing_would_make() -> None:
    made = Span(3)
    twin = TypingSpan(3)
    assert isinstance(made, tuple)
    assert tuple(made) == tuple(twin) == (3, 1, None)
    assert Span._fields == TypingSpan._fields == ("line", "column", "label")
    assert Span._field_defaults == TypingSpan._field_defaults
    assert repr(made) == repr(twin).replace("TypingSpan", "Span")
    assert Span.__doc__ == "Where a finding is."
    assert Span.__module__ == __name__
    assert Span.__annotations__ == {"line": "int", "column": "int", "label": "str | None"}
    assert made._asdict() == {"line": 3, "column": 1, "label": None}
    assert Span._make([4, 2, "x"]) == Span(line=4, column=2, label="x")


def test_methods_properties_and_replace_are_kept() -> None:
    span = Span(3, 7)
    assert span.shown == "3:7"
    assert span.moved(2) == Span(5, 7)
    assert span._replace(label="x").label == "x"
    with pytest.raises(AttributeError):
        span.line = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        Span()  # type: ignore[call-arg]


def test_a_record_round_trips_through_pickle() -> None:
    span = Span(3, 7, "x")
    assert pickle.loads(pickle.dumps(span)) == span


# Class bodies the type checker refuses too, so they are compiled at run time only.
REFUSED = {
    "a field without a default after one with": (
        TypeError,
        "class Misordered(Record):\n    first: int = 1\n    second: int\n",
    ),
    "a named tuple method redefined": (
        AttributeError,
        "class Overwrites(Record):\n    value: int\n    def _replace(self): return self\n",
    ),
    "a field starting with an underscore": (
        ValueError,
        "class Private(Record):\n    _hidden: int\n",
    ),
    "another base": (TypeError, "class Mixed(Record, dict):\n    value: int\n"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_named_tuples_refuse_is_refused(case: str) -> None:
    error, source = REFUSED[case]
    with pytest.raises(error):
        exec(source, {"Record": Record, "__name__": __name__})


def test_record_does_not_import_typing() -> None:
    code = "import sys, git_memory.records; print('typing' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(PROJECT_ROOT)},
    )
    assert result.stdout.strip() == "False"

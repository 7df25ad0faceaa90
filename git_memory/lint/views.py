"""The views of a text every rule family reads, each computed once and on first use. Pure.

A memory file is read by people, by a Markdown renderer, by a model and sometimes by a shell;
a secret or an instruction must not hide from the lint behind any of them. `TextViews`
holds, beside the text as written:
- `rendered`: the text as shown once rendered and decoded (`lint.normalize`: escapes,
  entities, comments, tags, invisible characters, Unicode spaces and Markdown link syntax
  undone; compatibility forms and look-alike letters folded to the Latin they read as), with
  the file offset of each character;
- `runs`: fragments that join into one token across line breaks, table cells, list items or
  string concatenation (`lint.fragments`), over the rendered text;
- `segments`: stretches in quoted-printable, Ascii85 or decimal character codes, decoded
  (`lint.decodings`);
- `rot13` and `reversed`: the whole text rotated or reversed, for the provider prefixes.

Each view is built only when a rule asks for it, and only after a cheap pre-check says the
text could hold what it undoes (non-ASCII, a line break, a quote, an encoding's alphabet), so
ordinary ASCII prose costs a few substring tests.
"""

from __future__ import annotations

from git_memory.lint.decodings import Segment, rot13, segments
from git_memory.lint.fragments import Run, joined_runs, may_join
from git_memory.lint.normalize import DecodedView, normalized


class TextViews:
    """The views of one text (see the module docstring)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._rendered: DecodedView | None = None
        self._rendered_done = False
        self._runs: list[Run] | None = None
        self._segments: list[Segment] | None = None

    @property
    def rendered(self) -> DecodedView | None:
        """The rendered, decoded and folded view; None when it reads as written."""
        if not self._rendered_done:
            self._rendered = normalized(self.text)
            self._rendered_done = True
        return self._rendered

    @property
    def shown(self) -> str:
        """The text as a reader sees it: the rendered view, or the text itself."""
        view = self.rendered
        return self.text if view is None else view.text

    def file_offset(self, offset: int) -> int:
        """The offset in the file of character `offset` of `shown`."""
        view = self.rendered
        if view is None or offset >= len(view.origin):
            return offset if view is None else len(self.text)
        return view.origin[offset]

    @property
    def runs(self) -> list[Run]:
        """Joined runs of key-like fragments, at their offsets in the file."""
        if self._runs is None:
            shown = self.shown
            found = joined_runs(shown) if may_join(shown) else ()
            self._runs = [
                run._replace(
                    start=self.file_offset(run.start), end=self.file_offset(run.end - 1) + 1
                )
                for run in found
            ]
        return self._runs

    @property
    def segments(self) -> list[Segment]:
        """Stretches of the text in quoted-printable, Ascii85 or decimal codes, decoded."""
        if self._segments is None:
            self._segments = list(segments(self.text))
        return self._segments

    @property
    def rot13(self) -> str:
        """The text with its ASCII letters rotated by 13 (offsets kept)."""
        return rot13(self.text)

    @property
    def reversed(self) -> str:
        """The text read backwards: character i is character len - 1 - i of the file."""
        return self.text[::-1]

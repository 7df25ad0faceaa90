"""The forms a cue of the rule lexicon marks (`lexicon.py`, `cues_latin.py`, `cues_russian.py`,
`cues_cjk.py`), and the row itself.

A cue names the *form* of what a sentence does:
- `standing`: it holds every time (always, never, from now on, every time, remember);
- `habitual` (Chinese): always, every time, never: as often the account of what a program
  keeps doing (`页面总是显示空白`) as a rule, so standing only in a request;
- `henceforth` (Chinese, Japanese, Korean): from now on, before or after a step; standing
  only in a request (`今後のための記録とします` is an account, not a rule);
- `prohibition`: a negative imperative (never use, don't commit);
- `preference`: one thing rather than another (instead of, rather than, only with);
- `language`: the language the agent is to work in (answer in Korean, на русском);
- `correction`: the person points out what the agent left out (you didn't update…, I told
  you to…); a rule only right after an agent action;
- `directive` and `adopt` (Chinese, Japanese, Korean): a request form, and the adoption of a
  tool (`uvを利用し`); a request is a rule when it adopts a tool or holds every time;
- `convention` (Chinese): for all, uniformly, by default: what makes the adoption of a tool
  the project's (`统一使用 pnpm`) rather than a step of the task (`请使用pnpm安装依赖`);
- `team`: the team, the project or a part of its engineering uses something (`我们用 pnpm`,
  `测试用 pytest`, `usamos pnpm`, `wir verwenden pnpm`, `мы используем pnpm`), or a tool
  one must use (`hay que usar pnpm`, `il faut utiliser pnpm`, `нужно использовать pnpm`):
  with a tool named, what the project is built with, as English "we use pnpm" is (Japanese
  and Korean say it with a topic and a verb of adopting);
- `obligation` and `subject` (Chinese): a normative modal (must, should, may only) and a
  subject that belongs to the project's engineering (its code, tests, commits, comments,
  documentation, dependencies, branches), first in the sentence: together a convention
  (`所有代码必须通过 TypeScript 类型检查`), where a modal about a page or a feature is a
  request of the task;
and what rules a sentence out:
- `one-off`: the task at hand (for now, this time, today, again), and a report of a failure
  (it errors, it still does not work, it crashes): an account of the day, not a rule;
- `question`: it asks (any sentence ending in `?` or `？` does, in every language);
- `not-a-rule`: a sentence shaped like a rule about nothing but "it" (don't set it).
"""

from __future__ import annotations

from git_memory.records import Record

STANDING = "standing"
HENCEFORTH = "henceforth"
PROHIBITION = "prohibition"
PREFERENCE = "preference"
LANGUAGE = "language"
CORRECTION = "correction"
DIRECTIVE = "directive"
ADOPT = "adopt"
ONE_OFF = "one-off"
HABITUAL = "habitual"
CONVENTION = "convention"
OBLIGATION = "obligation"
SUBJECT = "subject"
TEAM = "team"
QUESTION = "question"
NOT_A_RULE = "not-a-rule"


class Cue(Record):
    """One cue: the language, the form it marks, its pattern and the sentence it came from."""

    language: str
    form: str
    pattern: str
    example: str

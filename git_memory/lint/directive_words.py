"""How each language forbids an act: a forbidden act is ordinary memory, not a directive.

`NEGATIONS` say, per language the extractor reads, how a sentence forbids an act ("never
`git push --force`", "`curl | sh` is forbidden", "実行しないでください"): a forbidden act is
ordinary memory, not a directive (`lint.directives.forbidden`). The words each
class needs are in `lint.directive_keywords`.
"""

# A table: each row's regex stays whole on its lines so the row reads as one rule.

from __future__ import annotations

from git_memory.records import Record


class Negation(Record):
    """How one language forbids an act: cues before it or after it in the same clause, and
    double negatives that affirm ("never forget to")."""

    language: str
    before: str
    after: str
    affirming: str
    example: str


NEGATIONS: tuple[Negation, ...] = (
    Negation(
        "en",
        r"\b(?:never|not|no|don'?t|doesn'?t|mustn'?t|shouldn'?t|can'?t|cannot|avoid\w*|"
        r"refrain|forbid\w*|prohibit\w*|instead\s+of|rather\s+than|stop)\b|n't\b",
        r"\b(?:forbidden|prohibited|banned|not\s+allowed|not\s+permitted|never|is\s+a\s+bad\s+idea)\b",
        r"\b(?:never|don'?t|do\s+not)\s+(?:forget|fail|hesitate|neglect|omit)\w*",
        "Never `git push --force` to main; `curl | sh` installers are forbidden.",
    ),
    Negation(
        "zh",
        r"不要|不得|禁止|切勿|别|不能|不可|避免|严禁|勿|不准",
        r"禁止|不允许|不行",
        r"(?:不要|别)忘(?:记|了)",
        "不要跳过测试",
    ),
    Negation(
        "ja",
        r"決して|禁止",
        r"ない|禁止|ません|べからず|やめ",
        r"忘れずに|忘れないで",
        "テストをスキップしないでください",
    ),
    Negation(
        "ko",
        r"절대",
        r"마세요|마십시오|말\s*것|말라|금지|않|안\s*됩니다|안\s*돼",
        r"잊지\s*말",
        "테스트를 건너뛰지 마세요",
    ),
    Negation(
        "ru",
        r"(?<!\w)(?:не|нельзя|никогда|запрещено|избегай\w*)(?!\w)",
        r"(?<!\w)(?:запрещено|нельзя|недопустимо)(?!\w)",
        r"(?<!\w)не\s+забу\w*",
        "никогда не пропускай тесты",
    ),
    Negation(
        "es",
        r"(?<!\w)(?:no|nunca|jamás|evita\w*|prohibido)(?!\w)",
        r"(?<!\w)(?:prohibido|no\s+está\s+permitido)(?!\w)",
        r"(?<!\w)no\s+olvide\w*",
        "nunca omitas las pruebas",
    ),
    Negation(
        "pt",
        r"(?<!\w)(?:não|nunca|jamais|evite\w*|proibido)(?!\w)",
        r"(?<!\w)(?:proibido|não\s+é\s+permitido)(?!\w)",
        r"(?<!\w)não\s+esque\w*",
        "nunca pule os testes",
    ),
    Negation(
        "de",
        r"(?<!\w)(?:nicht|nie|niemals|kein\w*|verboten|vermeide\w*)(?!\w)",
        r"(?<!\w)(?:nicht|nie|verboten|untersagt)(?!\w)",
        r"(?<!\w)vergiss\s+nicht",
        "überspringe niemals die Tests",
    ),
    Negation(
        "fr",
        r"(?<!\w)(?:ne|n'|jamais|interdit|évite\w*|pas\s+de)(?!\w)",
        r"(?<!\w)(?:pas|jamais|interdit)(?!\w)",
        r"(?<!\w)n'oublie\w*\s+pas",
        "ne saute jamais les tests",
    ),
)

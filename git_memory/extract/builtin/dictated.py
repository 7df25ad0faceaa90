"""Rules a person dictates into the agent's instruction file: "写入AGENTS.md: …", "Add to
CLAUDE.md: …", "CLAUDE.mdに追記して: …", "добавь в AGENTS.md: …".

What a person asks to be written into the file every later session of the agent reads
(`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, `.cursorrules`, `copilot-instructions.md`, …) is, by
that request, a rule for the project, whatever its wording: each line of the dictated text is
one, quoted as typed. The request is a short header that names the file and a verb of writing
in any of the lexicon's languages, then a colon or an opening quote, then the text. A header
that only reports ("I updated CLAUDE.md: …"), asks ("should we add to CLAUDE.md: …?") or is
long (a program's prompt that mentions such a file) dictates nothing.

What a person types into the agent's memory is dictated the same way: Claude Code records a
line typed after its `#` memory shortcut as `<user-memory-input>…</user-memory-input>`, and
writes it to a `CLAUDE.md`.
"""

from __future__ import annotations

import re

# The files an agent reads at the start of every session, as people name them.
_INSTRUCTION_FILE = (
    r"(?:(?<![A-Za-z0-9_./-])(?:AGENTS|CLAUDE|GEMINI|QWEN|CODEX|COPILOT|CONVENTIONS)\.md(?![A-Za-z0-9_])"
    r"|copilot-instructions\.md|\.cursorrules|\.windsurfrules|\.clinerules|\.cursor/rules/\S+)"
)
# Verbs of writing into a file, by language (the request, not an account of it).
_WRITE = (
    r"(?:\b(?:write|add|append|put|save|record|note|include|insert)\b"  # en
    r"|写入|寫入|写进|寫進|写到|寫到|加入|添加|加上|加到|记录到|記錄到|记到|記到|追加|更新到"  # zh
    r"|追記|書いて|書き込|記載|追加して"  # ja
    r"|추가|기록|작성|적어"  # ko
    r"|добав|запиши|внеси|пропиши|допиши"  # ru
    r"|\b(?:agrega|añade|escribe|pon|anota|adicione|adiciona|escreva|coloque|"  # es, pt
    r"schreib|füge|ergänze|trag|ajoute|écris|mets|inscris)\b)"  # de, fr
)
# A header that reports the edit or asks about it, in English or Chinese.
_NOT_A_REQUEST = re.compile(
    r"(?i)^\s*(?:(?:i|we|you|i've|we've|should|shall|can|could|would|do|does|did|is|are|why"
    r"|how|what)\b|我?已(?:经|經)?|是否|能否|要不要)"
)
_OPENING = re.compile(r"[:：]\s*[\"“'「『]?|[\"“「『]")
# A comma opens the text only in the Chinese request "(请/你)在 CLAUDE.md 里加上(一条)，…": the
# place, then the verb right before the comma. Anything else before it (a report, a question,
# "this rule") goes on about the file.
_COMMA = re.compile(r"[,，]\s*")
_COMMA_BEFORE = re.compile(
    r"\s*(?:你|[请請]你?|[帮幫]我|你[帮幫]我|[请請][帮幫]我|麻[烦煩]你?)?\s*在\s*"
    r"(?:[这這]?个?项目的?|[這这]?個?項目的?|根目[录錄](?:下的?)?)?\s*"
)
# A text that asks rather than dictates: a question word first, or a question's end with no
# text quoted after a colon ("改完代码后问我：要不要提交？" dictates the question to ask).
_ASKS = re.compile(
    r"^(?:为什么|為什麼|怎么|怎麼|是否|能不能|可不可以)"
    r"|^[^:：]*(?:[?？吗嗎呢]|(?<![什甚怎这這那多要])[么麼])\s*$"
)
_COMMA_AFTER = re.compile(
    r"\s*(?:里|裡|中|里面|裡面)?\s*(?:加上|添加|加入|加|写入|寫入|写上|寫上|追加|[记記][录錄])"
    r"(?:一句|一[条條]|[这這]一?[条條])?(?:规则|規則|[说說]明)?\s*"
)
_CLOSING = "\"”'」』"
_HEADER = re.compile(
    rf"(?is)^(.{{0,60}}?){_INSTRUCTION_FILE}(.{{0,30}}?)(?={_OPENING.pattern}|{_COMMA.pattern})"
)
MAX_HEADER_CHARS = 80
_MEMORY_INPUT = re.compile(r"(?s)^\s*<user-memory-input>(.*?)</user-memory-input>\s*$")


def dictated(text: str) -> str | None:
    """The text a message dictates into the agent's instruction file, None when it dictates
    nothing."""
    memory = _MEMORY_INPUT.match(text)
    if memory is not None:
        return memory.group(1).strip() or None
    header = _HEADER.match(text.strip())
    if header is None:
        return None
    around = f"{header.group(1)} {header.group(2)}"
    if not re.search(_WRITE, around, re.IGNORECASE) or _NOT_A_REQUEST.search(header.group(1)):
        return None
    opening = _OPENING.match(text.strip(), header.end())
    if (
        opening is None
        and _COMMA_BEFORE.fullmatch(header.group(1))
        and _COMMA_AFTER.fullmatch(header.group(2))
    ):
        opening = _COMMA.match(text.strip(), header.end())
    if opening is None or header.end() > MAX_HEADER_CHARS:
        return None
    body = text.strip()[opening.end() :].strip().strip(_CLOSING).strip()
    if _COMMA.fullmatch(opening.group()) and _ASKS.search(body):
        return None  # "…里写入，为什么没生效": a question about the file, no text for it
    return body or None

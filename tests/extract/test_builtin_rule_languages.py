"""Rules in any language (issue 39): the lexicon table's rows, each read from the sentence it
came from; whole sentences quoted as typed with the person as origin; corrections of the agent;
the task at hand, questions and program-written prompts left out."""

from __future__ import annotations

import pytest

from git_memory.extract.builtin import cue_forms, languages, lexicon, scripts
from git_memory.extract.builtin.rules import rule_facts
from git_memory.sessions.origin import typed_origin
from git_memory.sessions.query import TurnRecord
from git_memory.sessions.turns import ToolCall
from tests.extract.records import turn_record


@pytest.mark.parametrize("cue", lexicon.CUES, ids=lambda c: f"{c.language}-{c.form}")
def test_every_row_reads_the_sentence_it_came_from(cue: cue_forms.Cue) -> None:
    assert cue.form in lexicon.forms_of(cue.example, frozenset([cue.language]))


@pytest.mark.parametrize("cue", lexicon.CUES, ids=lambda c: f"{c.language}-{c.form}")
def test_every_row_reads_its_sentence_whatever_its_case(cue: cue_forms.Cue) -> None:
    """The search for any cue at all reads a sentence in lower case (faster than ignoring
    case over every alternative): it must find what each row, ignoring case, finds."""
    for typed in (cue.example.upper(), cue.example.lower(), cue.example.swapcase()):
        assert cue.form in lexicon.forms_of(typed, frozenset([cue.language])), typed


def test_every_language_has_its_rows() -> None:
    languages = {cue.language for cue in lexicon.CUES}
    assert languages == {"en", "zh", "ja", "ko", "ru", "es", "pt", "de", "fr", "vi", "tr"}
    for language in languages - {"en"}:
        forms = {c.form for c in lexicon.CUES if c.language == language}
        assert forms & {cue_forms.STANDING, cue_forms.LANGUAGE}, language


def _record(text: str, key: str = "t1", *calls: ToolCall) -> TurnRecord:
    return turn_record(key, *calls, user=text)


def _rules(*texts: str, after_action: bool = False) -> list[str]:
    records = []
    if after_action:
        edit = ToolCall(call_id="e", name="Edit", input={"file_path": "a.md"}, state="completed")
        records.append(_record("Update the tasks file.", "t0", edit))
    records += [_record(text, f"t{n}") for n, text in enumerate(texts, start=1)]
    return [fact.content for fact in rule_facts(records)]


# A rule in each language, as a person typed it: (typed, the candidate's text).
TYPED = [
    ("Always use `uv run` for the tests.", "Always use `uv run` for the tests."),
    ("以后所有的claude skill 保存在我本地个人目录,而非项目目录", None),
    ("パッケージ管理はuvを利用し、pydanticで方をチェックしてください。", None),
    ("npm 대신 pnpm을 사용하세요.", None),
    ("テストはjestではなくvitestで書いてください。", None),  # one thing rather than another (ja)
    ("앞으로는 패키지를 pnpm으로 설치해줘", None),  # from now on, with a tool (ko)
    # what the project is built with, as "we use pnpm" (zh, ja, ko)
    ("我们用 pnpm 管理依赖", None),
    ("我们的后端用 Go 写", None),  # "our backend uses Go" (zh)
    ("En este proyecto usamos pnpm para todo.", None),  # es
    ("Nós usamos pnpm neste projeto.", None),  # pt
    ("Wir verwenden pnpm in diesem Projekt.", None),  # de
    ("Nous utilisons pnpm dans ce projet.", None),  # fr
    ("Мы используем pnpm в этом проекте.", None),  # ru
    ("Chúng tôi dùng pnpm cho dự án này.", None),  # vi: "this project" is no task at hand
    # "this project uses …" (es, pt, de, fr, ru)
    ("Este proyecto usa vite para el frontend.", None),
    ("Este projeto usa vite no frontend.", None),
    ("Dieses Projekt verwendet vite für das Frontend.", None),
    ("Ce projet utilise vite pour le frontend.", None),
    ("Этот проект использует vite для фронтенда.", None),
    # "stop doing …" (es, pt, de, fr, ru, ja)
    ("Deja de usar npm en este proyecto.", None),
    ("Pare de usar npm neste projeto.", None),
    ("Hör auf, npm zu benutzen.", None),
    ("Arrête d'utiliser npm dans ce projet.", None),
    ("Перестань использовать npm в этом проекте.", None),
    ("もうnpmは使わないで", None),
    # a norm for every thing of a kind (pt, de, fr, ru, vi), as "Todos los endpoints deben …"
    ("Todos os endpoints devem ter testes.", None),
    ("Jede Funktion muss dokumentiert sein.", None),
    ("Chaque fonction doit avoir un docstring.", None),
    ("Каждая функция должна иметь докстринг.", None),
    ("Mỗi endpoint phải có test.", None),
    # "avoid …" and a convention for the whole project (es, pt, de, fr, ru)
    ("Evita usar any en TypeScript.", None),
    ("Vermeide any in TypeScript.", None),
    ("Избегай any в TypeScript.", None),
    ("Usa pnpm en todo el proyecto.", None),
    ("Use pnpm em todo o projeto.", None),
    ("Verwende pnpm im ganzen Projekt.", None),
    ("Utilise pnpm dans tout le projet.", None),
    ("Используй pnpm во всём проекте.", None),
    ("整个项目都用 pnpm", None),  # the whole project uses (zh)
    ("anyは避けてください", None),  # avoid (ja)
    ("any 타입은 피해주세요", None),  # avoid (ko)
    # before each commit, after each change: every time (es, pt, de, fr, ja, vi)
    ("Antes de hacer commit, ejecuta los tests.", None),
    ("Antes de commitar, rode os testes.", None),
    ("Vor jedem Commit die Tests laufen lassen.", None),
    ("Avant chaque commit, lance les tests.", None),
    ("コミット前にテストを実行してください", None),
    ("Trước khi commit, hãy chạy test.", None),
    ("Después de cada cambio, actualiza el changelog.", None),
    # never again; one thing rather than another (es, pt, ja, ko, zh)
    ("No vuelvas a usar npm.", None),
    ("Não volte a usar npm.", None),
    ("二度とnpmを使わないで", None),
    ("다시는 npm 쓰지 마", None),
    ("npm 말고 pnpm 써줘", None),
    ("我更喜欢用 pnpm 而不是 npm", None),
    ("うちはパッケージ管理にpnpmを使っています。", None),
    ("우리는 패키지 관리에 pnpm을 사용하고 있어요", None),
    ("지금부터 커밋 메시지는 영어로 써줘", None),  # from now on: "now" is not the task at hand (ko)
    ("исправь требования конституции так чтобы ты всегда работал со мной на русском", None),
    ("recuerda siempre explicarme en español", None),
    ("Sempre responda em português brasileiro", None),
    ("Antworte immer auf Deutsch, es sei denn der User fragt nach einer anderen Sprache.", None),
    ("Ne jamais utiliser MeilleursAgents, SeLoger ou autres estimateurs privés.", None),
    # Rule shapes the first rows missed: a constraint ("no X, only Y"), the language a team writes
    # its code, comments or commits in, "make sure you never", a convention for all of a kind,
    # a request for every time in Chinese (Simplified or Traditional characters), the port or
    # address the project runs on from then on.
    ("I'd like it in the front-end, no database, only local storage.", None),
    ("Make sure you never push directly to main.", "Make sure you never push directly to main."),
    ("All code comments should be in English.", "All code comments should be in English."),
    ("Codigo puro: sin red, sin base de datos, solo la biblioteca estándar.", None),
    ("Mantén código y comentarios en inglés.", None),
    ("Code und Kommentare bitte auf Englisch schreiben.", None),
    ("Écris le code et les commentaires en anglais.", None),
    ("Комментарии в коде пиши на английском.", None),
    ("コメントは英語で書いてください。", None),
    ("代码注释统一使用英文。", None),
    ("每次修改后请更新 CHANGELOG。", None),
    ("以後都用 pnpm，不要用 npm。", None),
    ("請始終用繁體中文回覆。", None),
    ("下次提交前请先运行 lint", None),  # next time (zh)
    ("不要修改迁移文件", None),  # don't change (zh)
    ("別再修改遷移檔案", None),  # don't change again (zh, Traditional characters)
    ("Set the backend port to 8081, the frontend expects it there.", None),
    ("Never edit files under vendor/ by hand.", "Never edit files under vendor/ by hand."),
    ("中文沟通就好", None),  # the language of the conversation (zh)
    ("除非我要求，不要重构已有的模块", None),  # unless I ask: a permission for every time (zh)
    ("提交信息必须用一句话说明改动", None),  # a norm for the project's commits (zh)
    ("所有导出函数都要有 JSDoc", None),  # a norm for all of the project's code (zh)
    ("从现在开始用 yarn", None),  # from now on, with a tool: "now" is not the task at hand (zh)
    ("以后所有的接口都加上鉴权", None),  # from now on, for all of a kind (zh)
    ("Не создавай новые файлы без моего разрешения", None),  # without my permission (ru)
    ("Ничего не коммить, пока я не скажу", None),  # until I say: not "for now" (ru)
    ("Больше не используй моки в тестах", None),  # no longer (ru)
    # "from now on" closing the sentence; a norm for every thing of a kind (es)
    ("The deploy branch should be `release` from now on.", None),
    ("Todos los endpoints deben tener tests", None),
    # a norm of the project's engineering, not of a page of the product
    ("Secrets must never be committed.", "Secrets must never be committed."),
    ("The API must never return stack traces.", "The API must never return stack traces."),
    # one of a kind, or a plural: a convention; not one agent that "goes through a check"
    ("Every change goes through code review.", "Every change goes through code review."),
    ("Schema changes go through an alembic migration.", None),
    # a pronoun whose noun the sentence names is no pointer to the conversation
    ("Always keep decisions in DECISIONS/ with single-word names for them.", None),
    ("Never pass the --force option a second time.", None),
    # 不准 before what it forbids, a Latin word after a space too (zh)
    ("任何人都不准直接推送到main", None),
    ("任何人都不准 force push 到 main 分支", None),
    ("代码里不准使用 any 类型", None),
    ("任何修改都不准影响线上数据库", None),
    ("重构不准影响现有功能", None),
    # "nothing but": only that one, a rule (es, de, fr)
    ("Nunca uses npm, nada más que pnpm.", None),
    ("Verwende immer pnpm und nichts anderes.", None),
    ("Utilise toujours pnpm et aucun autre gestionnaire de paquets.", None),
    # what forbidding would do, then the rule for every time (zh)
    ("禁止用 any 能提高类型安全，所以以后一律禁止 any", None),
    # a prohibition of what would cause harm, and a sweep with the rule for every time (zh)
    ("禁止引入会导致循环依赖的模块", None),
    ("替换所有的 var 为 let，以后一律用 let", None),
    # "remember to always …": 记得 with a word of every time (zh)
    ("嗯嗯，记得一定要验证数据的完整性", None),
    ("提交之前务必要记得跑一遍 lint", None),
    # every thing of a kind named in Latin letters (zh)
    ("所有md文档必须整理好此类规则", None),
    ("所有Python代码必须有类型注解", None),
]


@pytest.mark.parametrize(("typed", "shown"), TYPED, ids=[t[:12] for t, _ in TYPED])
def test_a_rule_in_each_language_is_quoted_as_typed(typed: str, shown: str | None) -> None:
    assert _rules(typed) == [shown or typed]
    facts = rule_facts([_record(typed)])
    assert facts[0].quotes[0].text == typed
    assert facts[0].quotes[0].part == "user"


@pytest.mark.parametrize(
    ("typed", "rule"),
    [
        ("4.所有md文档必须整理好此类规则", "所有md文档必须整理好此类规则"),
        ("二、所有代码必须通过 TypeScript 类型检查", "所有代码必须通过 TypeScript 类型检查"),
        ("3、提交信息统一用英文", "提交信息统一用英文"),
        ("1.5版本以后都用 pnpm", "1.5版本以后都用 pnpm"),
        # a number that goes on is no list's: "levels two and three", "1.5"
        ("二、三级标题统一使用中文", "二、三级标题统一使用中文"),
        ("１．５版本以后都用 pnpm", "１．５版本以后都用 pnpm"),
        # ... but a word that begins with a numeral's character is the item's first
        ("二、一律使用 pnpm 安装依赖", "一律使用 pnpm 安装依赖"),
    ],
)
def test_a_numbered_item_of_a_chinese_list_is_read_without_its_number(
    typed: str, rule: str
) -> None:
    (fact,) = rule_facts([_record(typed)])
    assert fact.content == fact.quotes[0].text == rule


NOT_RULES = [
    "上記を修正してください。",  # the task at hand
    "今後のための記録とします。",  # an account, not a request
    "코드라인을 명시하지말고 다시 설명해",  # again: redo this answer
    "이 버튼 색깔 바꿔줘",  # a request of the task at hand (ko)
    "我们用这个方法试试",  # "we use" a way of the moment, no tool (zh)
    "我们现在用 npm",  # what is used now (zh)
    "我们的页面用红色",  # "our page uses red": no tool (zh)
    "我喜欢这个设计",  # a liking, not one thing rather than another (zh)
    "Usamos la segunda opción que propusiste.",  # "we use" a choice of the moment (es)
    "El servidor deja de responder después de un rato.",  # what a program does (es)
    "La caché evita consultas repetidas al servidor.",  # what a program does (es)
    # "все" as "everything", then what the mail feature must do (ru)
    "После того как все сконфигурировано почта должна проверяться каждые пять минут.",
    "пока нет, улучши документацию чтобы было понятно как запустить и проверить",
    "Tu n'as pas compris, tu devais remplir le constitution.md, pas créer une spec.",
    "puedo dictarte?",
    "本プロジェクトはバックエンドサーバを使っていますか？",
    "Don't set it, let's see if it keeps happening.",
    "But on my other terminal where i asked you to work on my site folder it is still slow.",
    # What presents pasted material is an account; "other files" are the rest of the task's.
    "Here is the log of the failing build, no stack trace, only the exit code.",
    "This is the error I get when the page loads.",
    "Please don't touch any other files.",
    # what the task must leave alone, or not do for now
    "Fix the login bug and don't touch the tests.",
    # what the person owns is the task's; a question, a description, one topic's
    "Fix the bug and don't touch my config",
    "Why did you rebase and don't you ask me first",
    "Deploy and don't ask me until I'm back",
    "Keep going and don't ask me anything until I get back",
    "Keep working and don't ping me tonight",
    "The script copies the file and never asks me",
    "make 75% the default UI setting, and do not ask me about the scrollbars",
    # 不准 as "inaccurate" before what it caused (zh)
    "定位不准让用户很困扰",
    "时间戳不准影响了排序结果",
    "时间戳都不准影响了排序结果",
    # the rest of the task at hand: "nothing else" (es, pt, de, fr)
    "asi me gusta, no toques nada mas",
    "Ficou bom, não mexa em mais nada.",
    "So passt es, fass nichts anderes an.",
    "C'est bien comme ça, ne touche à rien d'autre.",
    "Refactor the parser but don't change the public API.",
    "okay now make 75% the default UI setting, and do not ask me about the scrollbars",
    "Yes, implement this, don't bother running mix precommit as it isn't working yet.",
    "对话框里的中文显示成乱码",  # a dialog box, not the conversation (zh)
    "首页必须显示最新的三条新闻",  # a modal about a page: a request of the task (zh)
    "页面总是显示所有的数据",  # what a program keeps doing, not a rule (zh)
    "下次再试试 npm install",  # trying once more (zh)
    "记得提交",  # remember to commit: a step of the task (zh)
    # 不准 as "inaccurate", not "not allowed" (zh)
    "他们一直说的一个点是，纯信号算出来的后加TTP会不准，这才是我纠结的点",
    "这个预测模型的结果太不准了",
    "GPS定位不准导致轨迹漂移",
    # what forbidding something could do: a reason weighed (zh)
    "禁止直接翻转能减少约三分之一切换，同时还会通过 ranging 的机制额外减缓。",
    # one sweep of the code: replacing every one of something (zh)
    "替换所有的SeatSelection type要使用新的包",
    "我也说不准要用哪个版本",  # "can't tell" (zh)
    # "I recall", "I don't remember": no request (zh)
    "我记得一定要先 build 才能跑测试",
    "不记得一定要加 --force",
    # a verdict asked for at the end of what the person understood (zh)
    "硬件兼容性要iPhone 11及以上，这是uwb协议的要求，而不是蓝牙的要求，请确认是否正确",
    "以后所有接口都这样写，请帮我确认一下是否合理？",
    "Не трогай это",  # a prohibition about nothing but "it" (ru)
    # a requirement of the product's behaviour is the feature of the task, as in Chinese
    "The modal must close when clicking outside.",
    "Users must be able to reset their password by email.",
    "If the list is empty, the page should show a hint.",
    # what one thing of the task must be: the plan, this function
    "The plan must include some way to monitor and optimize our agent pipeline.",
    "This function must return the parsed rows in order.",
    "Bad news: the scanner agent goes through a check for a long time on first start.",
    # what the sentence points at is in the conversation: a choice or a thing of the moment
    "Don't use any external library for this.",
    "Prefer the second option.",
    "Use option 2, never the cache.",
    "Use the blue button instead of the red one.",
]


@pytest.mark.parametrize("typed", NOT_RULES, ids=[t[:12] for t in NOT_RULES])
def test_the_task_at_hand_questions_and_accounts_are_no_rules(typed: str) -> None:
    assert _rules(typed, after_action=True) == []


CORRECTIONS = [
    ("you did T012 but didn't update the checkbox", "You did T012 but didn't update the checkbox."),
    ("i told you to use pnpm, not npm", "I told you to use pnpm, not npm."),
    ("you keep forgetting to update the changelog", "You keep forgetting to update the changelog."),
    ("You forgot again to run the linter.", None),
    ("ya te dije que uses pnpm para todo el proyecto", None),
    ("你又忘了把改动写进 CHANGELOG 了", None),  # you forgot again (zh)
    ("我之前说过要先跑测试", None),  # I said before (zh)
    ("你沒有更新文件說明", None),  # you did not update (zh, Traditional characters)
    ("前にも言ったよね、テストを書いてからコミットして。", None),  # I said it before (ja)
    ("また変更履歴の更新を忘れてる", None),  # you forgot again (ja)
    ("패키지 설치는 pnpm 쓰라고 했잖아", None),  # I told you to (ko)
    ("eu já te disse para usar pnpm em todo o projeto", None),  # I already told you (pt)
    ("Ich habe dir doch gesagt, dass wir im ganzen Projekt pnpm nutzen.", None),  # (de)
    ("je t'ai déjà dit d'utiliser pnpm dans tout le projet", None),  # (fr)
]


@pytest.mark.parametrize(("typed", "shown"), CORRECTIONS, ids=[t[:12] for t, _ in CORRECTIONS])
def test_a_correction_right_after_an_agent_action_is_a_rule(typed: str, shown: str | None) -> None:
    assert _rules(typed, after_action=True) == [shown or typed]
    assert _rules(typed) == [], "with no action before it, there is nothing it corrects"


def test_the_language_to_work_in_is_one_memory_however_often_it_is_said() -> None:
    said = [
        "да внеси коррективы и как требуется работай на русском, переведи всю спеку",
        "нет локализация будет позже если я тебя правильно понял, я тебя просил работать со "
        "мной на русском",
    ]
    assert _rules(*said) == [said[0]]
    assert _rules("keep it english please", after_action=True) == ["Keep it english."]


def test_a_rule_and_the_sentence_saying_what_to_do_instead_are_one() -> None:
    typed = (
        "You should NEVER use the agent-intercom-ctl tool; that is for local operator use only, "
        "not for agent use. You should call the broadcast command that is part of the "
        "agent-intercom MCP tool."
    )
    assert _rules(typed) == [typed]


def test_a_persona_activation_prompt_is_written_by_a_program() -> None:
    prompt = (
        "You must fully embody this agent's persona and follow all activation instructions "
        "exactly as specified. NEVER break character until given an exit command.\n\n"
        '<agent-activation CRITICAL="TRUE">\n1. LOAD the FULL agent file\n</agent-activation>'
    )
    assert typed_origin(prompt) == "document"
    assert _rules(prompt) == []


# Rules written in words the first rows did not read (issue 39, item 3): quoted as typed.
MORE_TYPED = [
    ".claudeCodeSessions我自己提交",  # "I commit .claudeCodeSessions myself" (zh)
    "在完成一个单测之后要跑一次 nca",  # after each unit test is done (zh)
    "我说过“不要提交”，你又提交了",  # a correction quoting what was said (zh)
    "再次说明“以后不要直接推送到 main 分支”",  # the person's own rule, no document named (zh)
    "每次提交时，commit message里要说明本次改动的原因",  # "this change" of each commit (zh)
    "以后都要先写测试，不要直接写实现",  # "first …, don't …" every time (zh)
    "每完成一項任務之後要提交",  # after each task (zh, Traditional)
    "La prochaine fois, lance les tests avant de committer.",  # next time, do … (fr)
    "Merk dir diese als Regel und verwende nie npm",  # the rule follows (de)
    "每完成一个功能后都要先跑一遍测试再提交",  # after each feature, first … (zh)
    "以后不要问我为甚么",  # 为甚么 is no question's end (zh)
    "docs/不用提交",  # a folder named with its slash (zh)
    "La prochaine fois que tu fais un commit, lance les tests avant.",  # (fr)
    "Always write a test that runs every edge case from now on.",  # no schedule (en)
    "Make sure it runs at 0 lint warnings from now on.",  # "at 0" is no time (en)
    "Never edit files under D:\\repos\\nexus\\node_modules\\next directly.",  # no escape
    "Never join CSV rows with \\n in the export; always use \\r\\n, as Excel needs \\r\\n.",
    # a sentence opening on the one before it ("when doing so, always …") is one rule with it
    "指定したgithubリポジトリに指定したディレクトリやファイルをコミットを完了させる。"
    "する際変更点などをコメントに必ずきにゅうすること。",
    # "next time, tell me when a task is done with …" (fr)
    'la prochaine fois indique moi quand tu as terminé une tache par "étape suivante ?"',
    "永远不要提交 .env 文件",  # never (zh)
    "禁止使用 any 类型",  # forbidden (zh)
    "提交代码前先运行 pnpm lint",  # before committing (zh)
    "절대 main 브랜치에 직접 푸시하지 마",  # never (ko)
    "커밋하기 전에 린트를 돌려 주세요",  # before committing (ko)
    "пожалуйста, не трогай файл миграций",  # please don't (ru)
    "перед коммитом запускай все тесты",  # before committing (ru)
    "всегда отвечай по-русски",  # the language to work in (ru)
    "Luôn trả lời bằng tiếng Việt",  # always, in Vietnamese (vi)
    "Đừng bao giờ commit file .env",  # never (vi)
    "Từ giờ hãy viết test cho mọi hàm mới",  # from now on (vi)
    # how a step is forbidden, a tool the project's part goes through, after and before a
    # change (zh), as English "don't ever …", "tests use pytest", "after each change …"
    "别动 src/legacy 下面的文件",  # don't touch
    "不要 push，我来 push",  # the English verb typed as is
    "不要自动提交",  # not on its own
    "避免使用 any 类型",  # avoid using
    "测试用 pytest",  # tests go through pytest
    "我们的后端是 fastapi",  # our backend is
    "优先使用 pnpm",  # a tool preferred
    "改完代码要跑测试",  # after changing the code
    "修改前先备份配置",  # before modifying, first
    "我之前说过，不要动迁移文件",  # a prohibition, whether or not it corrects an action
    "勝手にコミットしないで",  # a plain "don't" that ends the sentence (ja)
    "テストは pytest で書いてください",  # the tool typed between spaces (ja)
    "커밋 하지 마",  # the English-born verb typed apart from 하다 (ko)
    "不要 git push",  # the git command as typed (zh)
    "不要随便删文件",  # delete, casually (zh)
    "テストはpytestで書いてください",  # a topic and the tool it goes through (ja)
    "main 브랜치에 직접 푸시하지 마",  # the negative imperative of a step (ko)
    "기존 코드는 수정하지 마세요",  # don't modify (ko)
    "테스트는 pytest로 작성해 주세요",  # a topic and the tool it goes through (ko)
    "usamos pnpm",  # what the team uses, in two words (es)
    "não crie novos arquivos",  # don't create (pt)
    "erstelle keine neuen Dateien",  # create none (de)
    "ne commite pas directement sur main",  # don't commit (fr)
    # a tool one must use (es, pt, de, fr, ru, vi)
    "hay que usar pnpm para instalar dependencias",
    "você deve usar pnpm neste projeto",
    "Tests müssen mit pytest laufen",
    "du musst pnpm statt npm verwenden",
    "il faut utiliser pnpm pour les dépendances",
    "для миграций нужно использовать prisma",
    "Người đóng góp phải dùng pnpm",
    "앞으로 패키지는 pnpm으로 설치하니까",  # "since from now on …": a reason, no question (ko)
    "Hay que usar pnpm.",  # the tool named before the full stop
    "Hay que usar vitest para probar los componentes",  # to test: the tool's own purpose
    "Il faut utiliser pytest pour tester le backend",
    "Wir sollen kein npm verwenden, sondern pnpm",  # not X but Y (de)
    "Chúng tôi dùng pnpm.",  # Vietnamese by its words, its accents shared with others (vi)
    "Нужно использовать pytest, чтобы проверить бэкенд",
    "以后每次提交前都要先跑测试，不然会出问题。",  # "or there will be problems": no topic (zh)
    "以后都用 pnpm 安装依赖，npm 会有兼容问题",
    "以后每次提交前都先处理一下 lint 问题",  # a request for every time, about problems (zh)
    "请你牢记,删除文档类的内容之前必须请示,不能直接删除.",  # bear in mind (zh)
    "中文跟我对话",  # the language of the conversation, "with me" (zh)
    "我希望你直接给我数据，而不是给我生成代码",  # what the person wants instead (zh)
    "这类脚本请优先用 bash 写，而不是 zsh",  # "this kind of" script: every one (zh)
    "ты не должен менять существующие миграции",  # "you may not change" (ru)
    # every so often, needed from now on, not allowed, leave as it is (zh)
    "并且要加上 current-progress.md阶段性要更新，不然反而变成项目障碍了",
    "在md加上以后生成的文档需要标记",
    "以后，生成的文档需要标记",
    "阶段性地把进度写进 progress.md",
    "定期更新 CHANGELOG.md",
    "定期把工作进展更新到项目的 README 里",
    "不要影响现有功能",
    "不要破坏向后兼容",
    "不要影响性能",
    "不要改变公共API的签名",
    "以后每次改完都需要再运行一次lint",
    "以后每次提交前都需要再跑一遍测试",
    "开发过程中 定期提交代码",
    "全面检查代码错误 不要改变原本功能和性能 然后跑CI",
]


@pytest.mark.parametrize("typed", MORE_TYPED, ids=[t[:10] for t in MORE_TYPED])
def test_more_rule_words_in_each_language(typed: str) -> None:
    assert _rules(typed) == [typed]


MORE_NOT_RULES = [
    "이 버그 고쳐줘",  # the task at hand (ko)
    "исправь эту ошибку",  # the task at hand (ru)
    "Sửa lỗi này giúp tôi",  # the task at hand (vi)
    "Tại sao test bị lỗi?",  # a question (vi)
    "chạy vẫn không được",  # "still does not work" (vi): no prohibition
    "절대 경로로 바꿔 주세요",  # an absolute path (ko): no "never"
    "不要动它",  # don't touch it: about nothing (zh)
    "我们的后端是通过URL的hash值传递信息",  # how the backend works, no tool (zh)
    "测试用例写好了吗",  # a question (zh)
    "我改完了，你看看",  # an account of the task (zh)
    "优先使用缓存的数据",  # what the feature does, no tool (zh)
    "テストを書かないでコミットした",  # "without writing tests": an account (ja)
    "걱정하지 마세요",  # "don't worry": no step of the project (ko)
    "이거 커밋하지 마",  # this one thing (ko)
    "usamos esto",  # "we use this": no tool (es)
    "以后需要你帮我看一下",  # the agent asked for a task of the moment, "later" (zh)
    "浏览器不允许跨域请求",  # what a program allows (zh)
    "改完以后需要重启一下",  # 以后 as "after it": this change (zh)
    # what the product does after a step, a feature run every so often, a status, what a
    # program allows or cannot do (zh)
    "登录以后需要跳转到首页",
    "升级以后需要重新登录",
    "帮我加一个定期清理缓存的定时任务，要每天凌晨执行",
    "定期备份的功能要加到设置页面里",
    "目前只是阶段性完成，要继续把剩下的做完",
    "浏览器是不允许跨域请求的",
    "这个接口是不允许匿名访问的",
    "这个样式不能改变按钮颜色",
    "用户不能改变自己的角色",
    "先不做，以后需要再加",  # later, if needed
    "以后可能需要支持多语言",
    "这个脚本会定期同步数据库",  # what a program does every so often
    "系统每天定期更新汇率",
    "不要改变页面布局，只把标题改大一点",  # one thing of the task
    "不要改变按钮的颜色",
    "别改变主意",
    "后端有个 worker 定期同步订单状态",
    "Redis 定期同步到磁盘的数据会丢失",
    "以后需要再确认一下",
    "以后需要再次确认",
    "ne change pas d'avis",  # "don't change your mind": no step of the project (fr)
    # what a program or a person did, said with the words of a rule
    "部署脚本不能自动创建数据库",  # "cannot": what the script does (zh)
    "我们这样写是为了避免直接访问数据库",  # "in order to avoid": a reason (zh)
    "这个页面不要动画效果",  # 动画 is an animation, not "touch" (zh)
    "先不要 commit，等我确认",  # "not yet" (zh)
    "请先修改，不要提交",  # "change it first, don't commit": this change's steps (zh)
    "以后你还是要用中文回答么",  # a question ending in 么 (zh)
    # what a program will do from now on, not the agent (en)
    "Update the script accordingly, save it, and then restart it to ensure it runs at 11:45 PM"
    " daily from now on.",
    "完成这个功能之后要提交",  # after this one feature (zh)
    # the words to write into a document, quoted after the verb that writes them (zh)
    "请在README中把安全警告部分同时也放在文档的最前面，并且着重说明“如非必要请不要提交"
    ".claudeCodeSessions到仓库中”",
    # a step kept for oneself with no file named: a report or this change's request (zh)
    "不用提交到远程，本地就行",
    "改好了，我自己提交吧",
    "这部分我自己提交过了，你继续修下一个bug",
    "请帮我完成一个登录页面，要支持微信登录",  # a request for one page (zh)
    "请先修改配置文件，不要提交，改完以后告诉我",  # 以后 as "after it": this change (zh)
    "main.py是我自己提交的",  # a report of who committed (zh)
    # the words to show in a message or to write into a file named (zh)
    "把错误提示改成“请不要直接推送到main分支”",
    "在Readme里加上“不要直接推送到main”",
    "Merk dir das als Grundregel.",  # "remember this as a rule": the rule is before (de)
    "Merk dir das bitte für die Zukunft.",
    # "next time" with no request for it (fr)
    "Merci, à la prochaine fois !",
    "La prochaine fois, je vais essayer avec Docker.",
    "Tu pourras le corriger la prochaine fois si tu veux.",
    # "remember this" pointing at the sentence before (de)
    "Merk dir das bitte.",
    "Merk dir das für die Zukunft!",
    "我们的问题是 pytest 一直超时",  # "our problem is" (zh)
    "测试通过了，pytest 全部绿了",  # "the tests passed" (zh)
    "依赖用 npm 装不上",  # "cannot be installed with npm" (zh)
    "改完请跑一下 pytest 看看",  # "run it and see" (zh)
    "删除前先备份一下这个表",  # this one table (zh)
    "删除这个表之前先备份一下",  # before deleting this one table (zh)
    "删除 legacy 目录之前先备份一下",  # before deleting one folder of the task (zh)
    "发布 v2.3 之前要先更新 changelog",  # before one release (zh)
    "我希望你把这个函数改成异步的，而不是用回调",  # this one function (zh)
    "英文跟我对话的时候回答太长了",  # "when we talk in English, …": a complaint (zh)
    "если ты не можешь изменять этот файл, просто скажи мне",  # a condition (ru)
    "видимо ты не можешь менять права на папку, давай я сам",  # a guess (ru)
    "почему ты не можешь редактировать конфиг",  # a question without its mark (ru)
    "Если вдруг ты не можешь изменять этот файл, скажи мне",  # a condition, a word between (ru)
    "我希望你修复这个登录的问题",  # a wish about the task at hand (zh)
    # a condition or a guess about what the agent did, no correction of it (en)
    "Now please remember to do this everyday at 11:45pm unless you didn't have any activity.",
    "Probably you didn't call the API with the right model name, check the docs.",
    "CI 里使用的是 `npm` 而不是 `pnpm`，所以锁文件不一致",  # an account of CI (zh)
    "心配しないで。",  # "don't worry" (ja)
    "まだコミットしないで",  # "not yet" (ja)
    "テストはpytestで回したけど通らない",  # "ran it with pytest but it fails" (ja)
    "아직 커밋하지 마",  # "not yet" (ko)
    "백엔드는 docker로 돌아가는데 자꾸 죽어요",  # "runs in docker but keeps dying" (ko)
    "le script ne crée pas le dossier dist",  # what the script does (fr)
    "no crees que sería mejor usar redis",  # "don't you think" (es)
    "必须完整无缺，出完以后，自审一遍。",  # "after it is out": the task's step, not "from now on"
    "闲鱼爬取每次都要登录问题",  # the problem of logging in every time: a topic, no request (zh)
    "нужно использовать функцию форматирования цены",  # must use a function, no tool (ru)
    "ты не можешь подключиться к базе из песочницы",  # "you cannot connect": an account (ru)
    "hay que usar la segunda opción",  # must use an option of the moment, no tool (es)
    # a tool one must use once, to look at something, or need not use (es, pt, ru, de, fr, vi)
    "Tienes que usar docker logs para ver el error.",
    "Tem que usar o npm run dev para ver a página.",
    "Нужно использовать npm run build, чтобы увидеть ошибку.",
    "Du musst docker logs verwenden, um den Fehler zu sehen.",
    "Il faut utiliser la commande docker logs pour voir l'erreur.",
    "Не нужно использовать docker для этой задачи.",
    "Não precisa usar o docker para isso.",
    "Du musst dafür nicht docker verwenden.",
    "Bạn không cần dùng docker cho việc này.",
    "Das ist nicht nur schnell, sondern auch stabil.",  # "not only … but also" (de)
    # Vietnamese words hold no tool's name in their letters ("dùng" is no `ng`)
    "Bạn nên dùng cách thứ hai.",
    "Bạn phải dùng cổng khác vì cổng 3000 đang bận.",
    "앞으로 항상 pnpm을 사용해야 합니까",  # the formal question ending …ㅂ니까 (ko)
    # "remember this as a guideline": it points at the sentence before, alone it says nothing
    "Merk dir dies als Leitlinie für zukünftige Problemsituationen!",
]


@pytest.mark.parametrize("typed", MORE_NOT_RULES, ids=[t[:10] for t in MORE_NOT_RULES])
def test_tasks_questions_and_look_alikes_stay_no_rules(typed: str) -> None:
    assert _rules(typed, after_action=True) == []


def test_vietnamese_is_read_by_its_own_rows() -> None:
    assert scripts.languages_of("Luôn trả lời bằng tiếng Việt") == frozenset(["vi"])
    assert languages.language_named("Luôn trả lời bằng tiếng Việt") == "vi"
    assert scripts.languages_of("Always answer in English") != frozenset(["vi"])


# Turkish, read with the other languages in Latin letters: what it says every time, what it
# forbids, one thing rather than another, the language, what the team uses (tr).
TURKISH = [
    "Her zaman Türkçe konuş lütfen.",  # always, in Turkish
    "benimle türkçe konuşacaksın",  # you will speak Turkish with me
    "shadcn componentleri dışında html taglar kullanılmayacak",  # will not be used
    "kod hataları düzeltirken kesinlikle yapı bozulmayacak",  # will never break
    "Sakın main dalına doğrudan push etme.",  # don't you ever push to main
    "Makefile yerine pnpm script'leri kullan.",  # pnpm scripts instead of the Makefile
    "Tüm API yanıtları JSON olmalıdır.",  # every API answer must be JSON
    "biz pnpm kullanıyoruz, npm değil",  # what the team uses
    "Kullanilan kutuphaneler disinda yeni paket eklenmeyecek.",  # typed without ı, ş
    "Hiçbir zaman force push yapma.",  # never
    "Benimle İngilizce konuş.",  # the language, another than Turkish
    "Aşağıdaki harici servisler KULLANILMAZ.",  # is not used
]


@pytest.mark.parametrize("typed", TURKISH, ids=[t[:14] for t in TURKISH])
def test_turkish_rules_are_quoted_as_typed(typed: str) -> None:
    assert _rules(typed) == [typed]


TURKISH_NOT_RULES = [
    "Şimdilik bu dosyayı kullanma, testleri çalıştır.",  # for now: the task at hand
    "bunların hepsini düzeltirmisin?",  # a question
    "Bu hata bugün düzelmedi.",  # an account of today
    "dosyaları checklist üzerinden kontrol edermisin",  # a request of the task
    "Her zaman aynı hatayı veriyor.",  # what keeps happening, as "it always errors"
    "Asla çalışmıyor bu sayfa.",  # "it never works"
    "İnanılmaz hızlı oldu, teşekkürler.",  # "incredibly fast": an adjective in -maz
    "Buton mobilde görünmez oldu.",  # "became invisible"
    "Hata mesajı anlaşılmaz, düzeltir misin.",  # "incomprehensible", then a request
    "Bu fonksiyon böyle çalışmayacak.",  # a prediction: "will not work"
    "Build geçmeyecek çünkü test kırık.",  # a prediction
    "Dosyayı eski yerine koy.",  # "put it back in its place"
    "Bu görevi yerine getir.",  # "carry out this task"
    "README dosyasını Türkçe'ye çevir.",  # a translation
    "Bu metni Türkçe olarak özetle.",  # a summary in Turkish
]


@pytest.mark.parametrize("typed", TURKISH_NOT_RULES, ids=[t[:14] for t in TURKISH_NOT_RULES])
def test_turkish_tasks_questions_and_accounts_are_no_rules(typed: str) -> None:
    assert _rules(typed, after_action=True) == []


def test_turkish_rows_do_not_read_the_other_latin_languages() -> None:
    """The rows hold words and endings of Turkish alone: a sentence of another language in
    Latin letters is read as it was."""
    for typed in (
        "Always use pnpm for this project.",
        "Siempre usa mi configuración de pnpm.",
        "Nunca hagas commit de `.env`.",
        "Keep her logs in the logs/ folder from now on.",
        "I reviewed her commits and they look fine.",
        "Please cherry-pick her commit onto the release branch.",
        "Send the report to Mehmet Yılmaz.",
        "Ask Sönmez and Gülmez about the deploy script.",
        "Ne filmez pas les données des clients.",
    ):
        found = lexicon.forms_of(typed, frozenset(["tr"]))
        assert found == set(), (typed, found)
    assert languages.language_named("Her zaman Türkçe konuş") == "tr"
    assert languages.language_named("Always answer in Turkish.") == "tr"
    assert languages.language_named("Türkçe cevap verme, İngilizce yaz.") == "en"


def test_a_correction_in_russian_follows_an_agent_action() -> None:
    typed = "ты опять забыл обновить README"
    assert _rules(typed, after_action=True) == [typed]
    assert _rules(typed) == []


# The account of what a program keeps doing, in words a rule also uses ("always", "never",
# "every time"), and the requirements of one feature are no rules (issue 39, item 3).
ACCOUNTS = [
    "Ça ne marche toujours pas.",  # still does not work (fr)
    "Toujours la même erreur.",  # always the same error (fr)
    "Je n'ai jamais utilisé cette bibliothèque.",  # an account of the past (fr)
    "Es funktioniert immer noch nicht.",  # still does not work (de)
    "Immer der gleiche Fehler.",  # always the same error (de)
    "Ich habe das noch nie benutzt.",  # never before (de)
    "Es sigue sin funcionar, siempre da error.",  # still fails, always errors (es)
    "Nunca había usado esta librería.",  # an account of the past (es)
    "Ainda não funciona, sempre dá erro.",  # still fails, always errors (pt)
    "Я никогда не пользовался этой библиотекой.",  # never used (ru, past)
    "Всегда одна и та же ошибка.",  # always the same error (ru)
    "总是报同样的错误。",  # always the same error (zh)
    "页面总是显示空白。",  # the page always shows blank (zh)
    "每次点击保存按钮，数据都会丢失。",  # every click loses the data (zh)
    "首頁的輪播圖始終不顯示。",  # never shows (zh, Traditional characters)
    "登录页面必须显示验证码。",  # a requirement of one feature (zh)
    "请使用pnpm安装依赖，然后启动项目。",  # a tool for one step of the task (zh)
    "请从不同角度分析这个问题。",  # 从不同 ("from different") holds no "never" (zh)
]


@pytest.mark.parametrize("typed", ACCOUNTS, ids=[t[:12] for t in ACCOUNTS])
def test_an_account_of_the_day_in_rule_words_is_no_rule(typed: str) -> None:
    assert _rules(typed, after_action=True) == []


def test_the_language_a_team_writes_in_is_named_in_any_language() -> None:
    for typed in ("Mantén comentarios en inglés.", "コメントは英語で書いてください。"):
        assert languages.language_named(typed) == "en", typed
    assert languages.language_named("請始終用繁體中文回覆。") == "zh"


# A Chinese question word a verb of checking or telling takes as its object asks nothing
# (检查是否…: "check whether"), nor does one that 不管/无论 makes "whatever", nor 什么都
# ("anything at all"): the instruction around it is read.
INDIRECT_QUESTIONS = [
    "每次提交前都要检查是否通过 lint。",
    "以后不管什么改动都要先跑 pnpm test。",
    "什么都不要改动 migrations 目录。",
]


@pytest.mark.parametrize("typed", INDIRECT_QUESTIONS, ids=[t[:8] for t in INDIRECT_QUESTIONS])
def test_an_indirect_question_inside_an_instruction_asks_nothing(typed: str) -> None:
    assert _rules(typed) == [typed]


@pytest.mark.parametrize(
    "typed", ["为什么每次都要检查是否通过 lint", "以后提交前都要检查是否通过 lint 吗"]
)
def test_a_direct_question_about_a_rule_is_still_a_question(typed: str) -> None:
    assert _rules(typed) == []


# A convention verb over every thing of a kind named in two words or more is a convention
# of the project; "all the …", "all of these" and "for each item" are things of the task.
EVERY_OF_A_KIND = [
    ("Keep all API keys in the .env file.", True),
    ("Please use conventional commits for every commit message.", True),
    ("Use snake_case for all Python function names.", True),
    ("Write tests for every new endpoint.", True),
    ("Use the same color for all the buttons.", False),
    ("Put all of these in one file.", False),
    ("Use a loop for each item.", False),
]


@pytest.mark.parametrize(
    ("typed", "rule"), EVERY_OF_A_KIND, ids=[t[:14] for t, _ in EVERY_OF_A_KIND]
)
def test_a_convention_over_every_thing_of_a_kind_is_a_rule(typed: str, rule: bool) -> None:
    assert bool(_rules(typed)) is rule


# The language to work in, asked for in a word or two, or as a polite question.
LANGUAGE_REQUESTS = [
    ("English please", "Work in English."),
    ("Please speak English.", "Speak English."),
    ("Can you answer in Chinese?", "Answer in Chinese."),
    ("说中文", None),
    ("能用中文回答吗？", None),
    ("отвечай по-русски", None),
    ("Можешь отвечать на русском?", None),
    ("parle français", None),
    ("fala português", None),
]


@pytest.mark.parametrize(
    ("typed", "shown"), LANGUAGE_REQUESTS, ids=[t[:12] for t, _ in LANGUAGE_REQUESTS]
)
def test_a_short_or_polite_language_request_is_a_rule(typed: str, shown: str | None) -> None:
    assert _rules(typed) == [shown or typed]


TRANSLATIONS_AND_QUESTIONS = [
    "翻译成中文",  # translating a text is a task, not the language to work in
    "帮我把 README 翻译成英文",
    "How do I say this in Spanish?",
    "Why is the UI in German?",
    "Did you reply in English",
    "Can you translate the error message to English?",
    "Переведи на английский",
]


@pytest.mark.parametrize("typed", TRANSLATIONS_AND_QUESTIONS)
def test_a_translation_or_a_question_about_a_language_is_no_rule(typed: str) -> None:
    assert _rules(typed) == []


def test_letters_lower_case_spells_otherwise_are_read_as_a_pattern_reads_them() -> None:
    """Turkish İ lower-cased is i and a combining dot, and ſ stays ſ, while a pattern that
    ignores case reads them as i and s: the look-up for a cue's words does too."""
    assert languages.language_named("KEEP İT ENGLİSH") == "en"
    assert _rules("KEEP İT ENGLİSH") == ["KEEP İT ENGLİSH."]
    assert cue_forms.LANGUAGE in lexicon.forms_of("Alwayſ anſwer in Engliſh", frozenset(["en"]))
    assert lexicon.lower_case("HER ZAMAN TÜRKÇE, İNGİLİZCE DEĞİL") == (
        "her zaman türkçe, ingilizce değil"
    )


def test_a_sentence_of_its_own_after_the_rule_stays_apart() -> None:
    # "その際、…" is a sentence of its own (this time's exception), not the end of the rule
    typed = (
        "今後、PRを作る時は必ずテンプレートを使ってください。"
        "その際、今回はレビュアーを指定しなくていいです。"
    )
    assert _rules(typed) == ["今後、PRを作る時は必ずテンプレートを使ってください。"]

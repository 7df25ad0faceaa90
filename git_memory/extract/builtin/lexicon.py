"""The words people state rules in: one row per language and cue, each with the real sentence
it was written from (typed in a session of the labelled corpus,
`tests/fixtures/real-sessions/`, or written by a person into a public repository: its agent
instructions, documentation or the text of its program).

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
A language has a row for a form only where a real sentence shows it.
English is recognised by `rules.py` first, which also rephrases it as the rule ("From now on,
always use X" → "Always use X."); the English rows here add what that does not cover.
Words in other languages are quoted as typed. `forms_of` is the one reader of the table.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

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
QUESTION = "question"
NOT_A_RULE = "not-a-rule"


class Cue(Record):
    """One cue: the language, the form it marks, its pattern and the sentence it came from."""

    language: str
    form: str
    pattern: str
    example: str


# Chinese verbs that take a question word as their object, two characters each (a
# look-behind is of fixed width): "check whether", "explain how", "no matter what".
_TAKES_A_QUESTION = (
    "检查",
    "檢查",
    "确认",
    "確認",
    "确保",
    "確保",
    "看看",
    "看下",
    "一下",
    "判断",
    "判斷",
    "说明",
    "說明",
    "告诉",
    "告訴",
    "了解",
    "查看",
    "测试",
    "測試",
    "验证",
    "驗證",
    "注明",
    "註明",
    "记录",
    "記錄",
    "不管",
    "无论",
    "無論",
    "不论",
    "不論",
)

_LANGUAGES = r"(?:english|chinese|japanese|korean|russian|spanish|portuguese|german|french)"

CUES: tuple[Cue, ...] = (
    # --- English: what rules.py's phrasing does not cover ---
    Cue(
        "en",
        STANDING,
        r"\byou (?:should|must) (?:always|never)\b",
        "You should NEVER use the agent-intercom-ctl tool; that is for local operator use only.",
    ),
    Cue(
        "en",
        LANGUAGE,
        r"\b(?:answer|respond|reply|write|explain|talk|speak|work|keep (?:it|everything|them))"
        rf"\b[^.!?]{{0,30}}\b{_LANGUAGES}\b",
        "keep it english please",
    ),
    Cue(
        "en",
        CORRECTION,
        r"\byou\b[^.!?]{0,40}?\b(?:didn'?t|did not|forgot to) (?!understand|get|see|read|know"
        r"|listen)\w+",
        "you did T012 but didn't update the checkbox",
    ),
    Cue(
        "en",
        CORRECTION,
        r"^(?:(?:no|but|again)\W+)?I (?:told|asked) you (?:to|not to)\b",
        "i told you to use pnpm, not npm",
    ),
    Cue(
        "en",
        CORRECTION,
        r"\bdon'?t (?:ever )?\w+.{0,60}\bagain\b",
        "you screwed up there, don't do that again.",
    ),
    Cue(
        "en",
        CORRECTION,
        r"^(?:it'?s|that'?s) not \S+.{0,40}\bin(?:s)?te(?:a)?d\b",
        "it's not DECISION.md, intead, create a new subdir called DECISIONS",
    ),
    Cue(
        "en",
        PREFERENCE,
        r"\bno [\w./+-]+(?: [\w./+-]+)?,\s*(?:only|just)\b",
        "I'd like it to be completely in the front-end, no database, only local storage.",
    ),
    Cue(
        "en",
        PREFERENCE,
        # a setting the project keeps from then on: the port, host or address it runs on
        r"\b(?:change|set|switch|move)\b[^.!?]{0,30}\b(?:port|host|base url|url|address)"
        r"\b[^.!?]{0,20}\bto\s+\S*\d",
        "change port number from 5000 to 5001",
    ),
    Cue("en", ONE_OFF, r"\blet'?s see\b", "Don't set it, let's see if it keeps happening."),
    Cue(
        "en",
        ONE_OFF,
        r"\b(?:is|are) still\b|\bstill (?:fails?|failing|broken|crash\w*|doesn'?t|does not"
        r"|not|the same)\b",
        "But on my other terminal where i asked you to work on my site folder it is still slow.",
    ),
    Cue(
        "en",
        NOT_A_RULE,
        r"^(?:don'?t|do not|never)\s+\w+\s+(?:it|this|that|them)\b\s*(?:[,.;!]|$)",
        "Don't set it, let's see if it keeps happening.",
    ),
    Cue(
        "en",
        NOT_A_RULE,
        # a sentence that presents what follows (an example, a log, an error): an account
        r"^(?:here(?:'s| is| are)|below (?:is|are)|attached (?:is|are)|this is (?:the|an?|my) "
        r"(?:error|output|log|example|trace|result|message))\b",
        "Here is an example of an error, where there is no code shown, only the error and the"
        " position.",
    ),
    Cue(
        "en",
        ONE_OFF,
        # the rest of the task at hand: "other files" are the files this change does not touch
        r"\b(?:any|the|all) other (?:files?|code|parts?|places?|things?|components?|modules?"
        r"|functions?|pages?|tests?)\b",
        "Don't change any other files.",
    ),
    # --- Spanish ---
    Cue(
        "es",
        STANDING,
        r"\b(?:siempre|nunca|jamás|de ahora en adelante|a partir de ahora|cada vez que|recuerda)\b",
        "recuerda siempre explicarme en español",
    ),
    Cue(
        "es",
        PROHIBITION,
        r"\b(?:no|nunca) (?:uses|hagas|pongas|borres|toques|instales|subas|cambies|modifiques"
        r"|ejecutes)\b",
        "Nunca hagas commit de `.env`, tokens o credenciales.",
    ),
    Cue(
        "es",
        PREFERENCE,
        r"\b(?:en (?:lugar|vez) de|prefiero|prefiere|usa solo|solo usa)\b",
        "Prefiere los scripts de Composer para tests, porque desactivan coverage sin Xdebug.",
    ),
    Cue(
        "es",
        PREFERENCE,
        r"\bsin [\w./+-]+(?: [\w./+-]+){0,2},\s*(?:solo|sólo|solamente|únicamente)\b",
        "Codigo puro: sin red, sin base de datos, solo comparacion de texto.",
    ),
    Cue(
        "es",
        LANGUAGE,
        r"\ben (?:español|inglés|ingles|francés|alemán|portugués)\b",
        "recuerda siempre explicarme en español",
    ),
    Cue("es", CORRECTION, r"\b(?:ya te dije que|te dije que)\b", "ya te dije que..."),
    Cue(
        "es",
        ONE_OFF,
        # a report of the day: it still fails, the same error, what I had done
        r"\bsigue sin\b|\btodav[ií]a\b|\bno funciona|\b(?:da|dando|mismo) error\b"
        r"|\b(?:había|he|hemos) \w+(?:ado|ido)\b"
        r"|\b(?:por ahora|de momento|por el momento|esta vez|hoy)\b",
        "La detección dinámica (Etherscan `tokentx`) sigue sin funcionar (sin verificar / rota).",
    ),
    Cue("es", QUESTION, r"^(?:¿|por qué|cómo|qué|cuál|dónde|cuándo|puedo)\b", "puedo dictarte?"),
    # --- Portuguese ---
    Cue(
        "pt",
        STANDING,
        r"\b(?:sempre|nunca|jamais|a partir de agora|daqui para frente|toda vez que|lembre)\b",
        "Sempre responda em português brasileiro",
    ),
    Cue(
        "pt",
        PROHIBITION,
        r"\bnão (?:use|faça|coloque|apague|mexa|instale|rode|execute|altere|modifique)\b",
        "não use `css/` ou `js/` nos caminhos, ou os estilos e o JS não vão carregar.",
    ),
    Cue(
        "pt",
        PREFERENCE,
        r"\b(?:em vez de|ao invés de|prefiro|prefira|use apenas|use somente)\b",
        "Use pnpm em vez de npm — é mais rápido",
    ),
    Cue(
        "pt",
        LANGUAGE,
        r"\bem (?:português|portugues|inglês|ingles|espanhol|francês|alemão)\b",
        "Sempre responda em português brasileiro",
    ),
    Cue(
        "pt",
        ONE_OFF,
        r"\bainda n[ãa]o\b|\bn[ãa]o funciona|\b(?:dá|dando|mesmo) erro\b"
        r"|\bcontinua (?:dando|com|sem)\b|\b(?:tinha|tenho) \w+(?:ado|ido)\b"
        r"|\b(?:por enquanto|por agora|desta vez|hoje)\b",
        "O link para lab2 ainda não funciona pois a pasta ainda se encontra vazia.",
    ),
    # --- German ---
    Cue(
        "de",
        STANDING,
        r"\b(?:immer|nie|niemals|ab jetzt|von nun an|künftig|jedes mal|denk daran|merk dir)\b",
        "Antworte immer auf Deutsch, es sei denn der User fragt nach einer anderen Sprache.",
    ),
    Cue(
        "de",
        PROHIBITION,
        r"\b(?:verwende|benutze|nutze|committe|lösche|ändere|installiere) (?:kein|nicht)\w*\b",
        "Verwende keine Platzhalter wie `// ... restlicher Code`.",
    ),
    Cue(
        "de",
        PREFERENCE,
        r"\b(?:statt|anstatt|anstelle von|bevorzuge|nur mit)\b",
        "nein, nutze pnpm statt npm",
    ),
    Cue(
        "de",
        LANGUAGE,
        r"\bauf (?:deutsch|englisch|französisch|spanisch)\b",
        "Antworte IMMER auf Deutsch!",
    ),
    Cue(
        "de",
        ONE_OFF,
        r"\bimmer noch\b|\bnoch immer\b|\bnoch nie\b|\bfunktioniert\b[^.!?]{0,20}\bnicht\b"
        r"|\b(?:gleiche|gleichen|selbe|selben) fehler\b|\bich habe (?!dir|euch|ihnen)"
        r"|\b(?:vorerst|erstmal|erst mal|diesmal|heute)\b",
        "Git funktioniert immer noch nicht",
    ),
    # --- French ---
    Cue(
        "fr",
        STANDING,
        r"\b(?:toujours|jamais|désormais|dorénavant|à partir de maintenant|chaque fois"
        r"|n'oublie pas|souviens-toi)\b",
        "ne jamais utiliser `archive/` comme vérité active",
    ),
    Cue(
        "fr",
        PROHIBITION,
        r"\b(?:n'utilise (?:pas|jamais)|ne (?:jamais|pas) (?:utiliser|modifier|ajouter|supprimer)"
        r"|n'(?:ajoute|installe|modifie|touche|supprime)s? (?:pas|jamais))\b",
        "Ne jamais utiliser MeilleursAgents, SeLoger ou autres estimateurs privés.",
    ),
    Cue(
        "fr",
        PREFERENCE,
        r"\b(?:au lieu de|plutôt que|je préfère|uniquement avec|seulement avec)\b",
        "une application type LMS sécurisé en Golang pur, uniquement avec la librairie standard",
    ),
    Cue(
        "fr",
        LANGUAGE,
        r"\ben (?:français|anglais|espagnol|allemand)\b",
        "Réponds toujours en français, avec un ton bienveillant, clair et professionnel.",
    ),
    Cue(
        "fr",
        ONE_OFF,
        r"\btoujours pas\b|\bne (?:marche|fonctionne)\b|\b(?:même|une) erreur\b"
        r"|\bj'ai (?!dit)|\bje n'ai\b|\btoujours (?:la|le|les) mêmes?\b"
        r"|\b(?:pour l'instant|pour le moment|cette fois|aujourd'hui)\b",
        "Si cela ne fonctionne toujours pas, essayez de localiser l'outil installé.",
    ),
    # --- Russian ---
    Cue(
        "ru",
        STANDING,
        r"(?:всегда|никогда|впредь|с этого момента|отныне|каждый раз|запомни|в дальнейшем)",
        "исправь требования конституции так чтобы ты всегда работал со мной на русском",
    ),
    Cue(
        "ru",
        STANDING,
        r"перед (?:каждым |любым )?(?:коммит|пуш|мерж|деплой|релиз)\w*"
        r"|после (?:каждого|каждой|любого|любой|любых)\b",
        "После любых изменений API на бэкенде (новые поля, эндпоинты и т.д.) "
        "обязательно запускайте:",
    ),
    Cue(
        "ru",
        PROHIBITION,
        r"(?:никогда не|(?:^|[,;:—–-]\s*|пожалуйста,?\s+)не (?:используй|трогай|удаляй|меняй"
        r"|добавляй|делай|ставь|запускай|коммить|пушь|пиши|создавай|редактируй|изменяй)|^нельзя)",
        "Никогда не используй `.env.example` как источник реальных credentials.",
    ),
    Cue(
        "ru",
        STANDING,
        # a permission the agent must wait for every time: "without my permission"
        r"без (?:моего|моей|нашего) (?:разрешения|согласия|подтверждения|ведома)"
        r"|пока я не (?:скажу|разрешу|попрошу)",
        "Ничего не удалять и не изменять без моего разрешения.",
    ),
    Cue(
        "ru",
        PROHIBITION,
        # "no longer …": a prohibition from now on
        r"\bбольше не \w+(?:й|йте|и|ите|ь|ьте)\b",
        "Больше не используйте var",
    ),
    Cue(
        "ru",
        NOT_A_RULE,
        # a prohibition about nothing but "it" ("don't touch it")
        r"^(?:пока |пожалуйста,? )?не \w+ (?:это|этого|его|её|ее|их|так)\b"
        r"(?:,? пожалуйста)?\s*[.!]?$",
        "не трогай это пожалуйста",
    ),
    Cue(
        "ru",
        PREFERENCE,
        r"(?:вместо|предпочитаю|я хочу именно|используй только|только через)",
        "мне не нравится простой дом, я хочу именно ангуляр",
    ),
    Cue(
        "ru",
        LANGUAGE,
        r"на (?:русском|английском)",
        "я тебя просил работать со мной на русском",
    ),
    Cue("ru", LANGUAGE, r"по-(?:русски|английски)", "Отвечай только по-русски."),
    Cue(
        "ru",
        CORRECTION,
        r"я (?:же |тебя |тебе )*(?:просил|говорил|сказал)",
        "я тебя просил работать со мной на русском",
    ),
    Cue(
        "ru",
        CORRECTION,
        r"\bты (?:же |ещё |опять |снова )?(?:забыл|пропустил)",
        "Ты опять пропустил",
    ),
    Cue(
        "ru",
        ONE_OFF,
        r"не работает|не запускается|\bпадает|выда[её]т ошибку|ошибка при|вс[её] ещё|до сих пор"
        r"|(?:та же|такая же|одна и та же) ошибка|никогда не \w+л[аои]?(?:сь|ся)?\b",
        "Если Docker всё равно не работает:",
    ),
    Cue(
        "ru",
        ONE_OFF,
        # "пока" is "for now", except in "until I say" (пока я не скажу)
        r"(?:\bсейчас\b|\bпока\b(?! я не)|в этот раз|на этот раз|\bсегодня\b|\bвременно\b)",
        "пока нет, улучши документацию чтобы было понятно как запустить и проверить",
    ),
    # --- Chinese (Simplified and Traditional characters) ---
    Cue("zh", STANDING, r"一律|[记記]住|[绝絕]不", "记住：不要提交 .env 文件"),
    Cue(
        "zh",
        HABITUAL,
        r"始[终終]|[总總]是|每次|永[远遠]|[从從]不(?![同])",
        "请用中文回答。除非用户明确要求其他语言，否则始终使用简体中文回复。",
    ),
    Cue(
        "zh",
        STANDING,
        r"(?:提交|推送|合[并併]|部署|[发發]布|上[线線]|commit|push)\S{0,6}?(?:之)?前",
        "遵循 TDD（红→绿→重构）在既定任务顺序下实现功能；"
        "提交前回写文档与变更记录，确保实现与文档一致。",
    ),
    Cue(
        "zh",
        HENCEFORTH,
        r"以[后後]|今[后後]|[从從][现現]在[开開]始|往[后後]|下次|下回",
        "以后所有的claude skill 保存在我本地个人目录,而非项目目录",
    ),
    Cue(
        "zh",
        DIRECTIVE,
        r"[请請]|不要|[别別]再|必[须須]|[务務]必|不得|[记記]得|[应應](?:[该該]|[当當])"
        r"|(?<![想需主重只还還])要(?![求])",
        "中间是否有什么问题,请修复",
    ),
    Cue(
        "zh",
        PROHIBITION,
        r"禁止|[严嚴]禁|不[许許]|不准|切勿|千[万萬](?:不要|[别別])"
        r"|(?:不要|[别別]|不能|不可以)(?:再)?(?:使用|用|修改|改[动動]|[删刪]除|提交|推送|引入|安[装裝]|添加)",
        "禁止使用轮询方式同步数据，MUST 使用 WebSocket 或微信云开发实时数据监听；",
    ),
    Cue(
        "zh",
        CORRECTION,
        r"你(?:又|老是|怎[么麼](?:又|[还還]))|你[没沒](?:有)?(?!问题|問題|事)"
        r"|我不是(?:[让讓]|叫|要)你|我(?:之前|已[经經])?(?:[说說]|[讲講]|[告]訴|告诉|[强強][调調])[过過]"
        r"|[说說]好的",
        "没有了，但是你又忘了将我的问题和你的回复录入到PROMPTS里了",
    ),
    Cue("zh", ADOPT, r"使用|[采採]用|[启啟]用", "使用gemini-summary skills 總結"),
    Cue(
        "zh",
        OBLIGATION,
        r"必[须須]|[务務]必|[应應](?:[该該]|[当當])|不得|一定要|都要|都得|只能",
        "所有代码必须通过 TypeScript 类型检查",
    ),
    Cue(
        "zh",
        SUBJECT,
        r"^(?:所有|全部|每个|每個|每一个|每一個)?(?:的)?(?:新|新增的?|导出的?|導出的?)?"
        r"(?:代[码碼]|源[码碼]|注[释釋]|提交(?:信息|[记記][录錄])?|commit|单元测试|單元測試"
        r"|测试|測試|文[档檔]|依[赖賴]|分支|命名|日志|日誌|[迁遷]移|函[数數]|[变變]量|[脚腳]本"
        r"|接口|类型|類型|PR|README|lint)",
        "所有代码必须通过 TypeScript 类型检查",
    ),
    Cue(
        "zh",
        CONVENTION,
        r"[统統]一|一律|默[认認]|[预預][设設]|所有|全部|都(?:用|使用|要用|[采採]用)",
        "所有代码注释使用英文",
    ),
    Cue(
        "zh",
        PREFERENCE,
        r"而非|而不是|[优優]先使用|[统統]一使用",
        "保存在我本地个人目录,而非项目目录",
    ),
    Cue(
        "zh",
        PREFERENCE,
        r"只(?:能)?(?:使用|用)|[仅僅](?:使用|用)",
        "运行时要求 Python 3.10+，只使用标准库。",
    ),
    Cue(
        "zh",
        LANGUAGE,
        r"用(?:[简簡][体體]|[繁][体體])?(?:中文|英文)|(?:中文|英文)(?:回答|回[复覆])"
        r"|使用(?:[简簡][体體]|[繁][体體])?(?:中文|英文)",
        "请用中文回答用户的问题。",
    ),
    Cue(
        "zh",
        LANGUAGE,
        # the language of the conversation itself (not a dialog box: 对话框)
        r"(?:中文|英文|[简簡][体體]中文|[繁][体體]中文)(?:[对對][话話](?!框)|交流|[沟溝][通])",
        "中文对话，用最简单的方法完成任务",
    ),
    Cue(
        "zh",
        STANDING,
        # a permission the agent must wait for every time: "unless I tell you", "without my OK"
        r"除非我|未[经經](?:我的?)?(?:允[许許]|同意|确认|確認)|[没沒]有我的(?:允[许許]|同意|确认|確認)",
        "不要创建新文件，除非我告诉你这么做",
    ),
    Cue(
        "zh",
        ONE_OFF,
        # "now" is the task at hand, except in "from now on" (从现在开始, 从现在起); so is
        # trying or running once more (再试试, 再跑一下)
        r"[这這]次|(?<![从從])[现現]在(?!起)|[当當]前|上面|[刚剛]才|[暂暫]时|[暂暫]時"
        r"|再(?:[试試]|跑|来|來|看)",
        "当前没在master分支能直接更新吗",
    ),
    Cue(
        "zh",
        ONE_OFF,
        r"[报報][错錯]|出[错錯]|崩[溃潰]|白屏|[没沒]反[应應]|不生效|不起作用|[还還]是不行|[还還]是一[样樣]"
        r"|[启啟]动失[败敗]|[启啟]動失敗|[运運]行失[败敗]|[编編][译譯]失[败敗]"
        r"|[无無]法(?:[启啟][动動]|[运運]行|打[开開]|[连連]接|[访訪][问問])"
        r"|(?:同[样樣]|一[样樣]|相同)的[错錯][误誤]|[从從]来[没沒]|[从從][没沒]",
        "还是一样的错误，请你对比一下application-dev.yml和application-test.yml，两者是一样的。",
    ),
    Cue(
        "zh",
        QUESTION,
        # A question word asks only where no verb of checking or telling takes it as its
        # object (检查是否…, "check whether": an indirect question inside an instruction),
        # no 不管/无论 makes it "whatever", and 什么都/也 is not "anything at all".
        r"[吗嗎]|[为為]什[么麼]|"
        + "".join(f"(?<!{verb})" for verb in _TAKES_A_QUESTION)
        + r"(?:如何|怎[么麼](?!又|[还還])|什[么麼](?![都也])|是否|能否)",
        "claude code 如何更新到最新版本",
    ),
    # --- Japanese ---
    Cue("ja", STANDING, r"必ず|常に|毎回|禁止", "必ず日本語で回答してください。"),
    Cue(
        "ja",
        HENCEFORTH,
        r"今後|以後|(?:前|後|時|とき|際|場合)は",
        "機能作成前はブランチを切り、作成後はREWADMEを更新し、pull requestを作成してください。",
    ),
    Cue(
        "ja",
        DIRECTIVE,
        r"してください|して下さい|すること|しないこと|しないで|使用|利用|使う|使って|用いる|用いて",
        "パッケージ管理はuvを利用し、pydanticで方をチェックしてください。",
    ),
    Cue(
        "ja",
        ADOPT,
        r"利用|使用|使う|使って|用い|有効|導入|採用",
        "またruffでりんターを有効にしてください。",
    ),
    Cue(
        "ja",
        PROHIBITION,
        r"ないでください|ないで下さい|てはいけ(?:ない|ません)|しないこと",
        "DBは使用しないでください",
    ),
    Cue("ja", LANGUAGE, r"(?:日本語|英語)で", "常に日本語で回答してください。"),
    Cue(
        "ja",
        ONE_OFF,
        r"今回|今日|今は|今から|上記|さっき|先ほど|とりあえず|この|その|これ|それ|あの"
        r"|ました|でした|だった|ことがない|ことがある",
        "上記を修正してください。",
    ),
    Cue(
        "ja",
        QUESTION,
        r"ですか|ますか|でしょうか|か[。]?$",
        "本プロジェクトはバックエンドサーバを使っていますか？",
    ),
    # --- Korean ---
    Cue(
        "ko",
        STANDING,
        r"반드시|항상|금지|매번|절대(?! ?(?:경로|값|좌표|주소|시간|위치|url))",
        "작업 완료 시 반드시 커밋을 작성하세요",
    ),
    Cue(
        "ko",
        STANDING,
        r"(?:커밋|푸시|배포|머지|병합|push|commit)(?:하기)? ?전에",
        "매번 커밋하기 전에 확인:",
    ),
    Cue(
        "ko",
        DIRECTIVE,
        r"해 ?주세요|하세요|사용",
        "공통 함수는 독립적으로 분리하세요",
    ),
    Cue("ko", ADOPT, r"사용|도입", "패키지 매니저는 pnpm을 사용하세요 (npm 대신)"),
    Cue("ko", PREFERENCE, r"대신", "npm 대신 pnpm을 사용하세요."),
    Cue("ko", LANGUAGE, r"(?:한글|한국어|영어)로", "한글로 답변해줘."),
    Cue(
        "ko",
        ONE_OFF,
        r"에러가? 나|오류가? (?:나|발생)|안 ?됩니다|안 ?돼요?\s*[.!]*$|작동하지 않|실패했",
        "업무 라는 글자가 들어가면 Object not found! 에러가 나옴...... 뭐지?? -_- 뭐지?",
    ),
    Cue(
        "ko",
        ONE_OFF,
        r"이번|지금|위의|다시|했습니다|했어요|었습니다",
        "코드라인을 명시하지말고 다시 설명해",
    ),
    Cue(
        "ko",
        QUESTION,
        r"(?:까|나요|니|맞나)\s*\??$|^(?:왜|어떻게|뭐)",
        "프리뷰를 표시하기에 가장 적합한 방법이 iframe 방식이 맞나 ?",
    ),
    # --- Vietnamese ---
    Cue(
        "vi",
        STANDING,
        r"\b(?:luôn|không bao giờ|từ (?:giờ|nay|bây giờ)|mỗi (?:lần|khi)|lần sau|bắt buộc"
        r"|tuyệt đối)\b",
        "LUÔN LUÔN TRẢ LỜI BẰNG TIẾNG VIỆT.",
    ),
    Cue(
        "vi",
        PROHIBITION,
        # "không được" forbids before a verb; after one ("chạy vẫn không được") it says a
        # thing does not work.
        r"\b(?:đừng|cấm)\b|^\s*không được (?=\w)|\bkhông được (?=(?:dùng|sử dụng|sửa|xóa|xoá"
        r"|thay đổi|tạo|thêm|ghi|chỉnh|commit|push|merge|để|gọi|import|cài)\b)",
        "Không được xóa Job/Candidate đã có Application.",
    ),
    Cue(
        "vi",
        PREFERENCE,
        r"\b(?:thay vì|thay cho|ưu tiên|chỉ (?:dùng|sử dụng))\b",
        "Dùng ApartmentResponseInUserDTO thay vì ApartmentDTO",
    ),
    Cue(
        "vi",
        LANGUAGE,
        r"\btiếng việt\b",
        "Báo cáo bằng tiếng Việt; tập trung kết luận, bằng chứng, lỗi, bước tiếp theo.",
    ),
    Cue(
        "vi",
        CORRECTION,
        r"\b(?:tôi|mình|anh|em) đã (?:bảo|nói|dặn)(?! vệ| hiểm)|nói bao nhiêu lần",
        "Tôi đã bảo bạn làm thế.",
    ),
    Cue(
        "vi",
        ONE_OFF,
        r"\b(?:bây giờ|lần này|hôm nay|tạm thời|vừa rồi|trước mắt|này)\b",
        "Chạy 262 cơ chế trên toàn bộ 168 mã D1 thay vì 5 mã như hôm nay.",
    ),
    Cue(
        "vi",
        QUESTION,
        r"\b(?:tại sao|vì sao|thế nào|là gì|được không|có phải)\b",
        "Tại sao phải dùng Nginx làm Reverse Proxy mà không trỏ thẳng?",
    ),
)


@cache
def _compiled(languages: frozenset[str] | None) -> tuple[re.Pattern[str], list[Cue]]:
    """One pattern that finds whether any cue of `languages` (all when None) is in a
    sentence, and those cues: most sentences hold none, and one search says so."""
    cues = [c for c in CUES if languages is None or c.language in languages]
    anyone = re.compile("|".join(f"(?:{c.pattern})" for c in cues), re.IGNORECASE)
    return anyone, cues


@cache
def _pattern(cue: Cue) -> re.Pattern[str]:
    return re.compile(cue.pattern, re.IGNORECASE)


def forms_of(sentence: str, languages: frozenset[str] | None = None) -> set[str]:
    """The forms the cues of `languages` (all when None) find in a sentence."""
    return set(_forms(sentence, languages))


@lru_cache(maxsize=4096)
def _forms(sentence: str, languages: frozenset[str] | None) -> frozenset[str]:
    # A sentence is read by several steps (which languages, English phrasing, any language),
    # and a team types the same instruction in many sessions: each is looked up once.
    anyone, cues = _compiled(languages)
    if not anyone.search(sentence):
        return frozenset()
    return frozenset(cue.form for cue in cues if _pattern(cue).search(sentence))

"""The words people state rules in: one row per language and cue, each with the real sentence
it was written from (typed in a session of the labelled corpus,
`tests/fixtures/real-sessions/`, or written by a person into a public repository: its agent
instructions, documentation or the text of its program).

A cue names the *form* of what a sentence does (`cue_forms.py`).
A language has a row for a form only where a real sentence shows it.
English is recognised by `rules.py` first, which also rephrases it as the rule ("From now on,
always use X" → "Always use X."); the English rows here add what that does not cover.
Words in other languages are quoted as typed. `forms_of` is the one reader of the table.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from git_memory.extract.builtin.cue_forms import (
    CORRECTION,
    LANGUAGE,
    NOT_A_RULE,
    ONE_OFF,
    PREFERENCE,
    PROHIBITION,
    QUESTION,
    STANDING,
    TEAM,
    Cue,
)
from git_memory.extract.builtin.cues_cjk import CJK_CUES
from git_memory.extract.builtin.scripts import languages_of

_LANGUAGES = r"(?:english|chinese|japanese|korean|russian|spanish|portuguese|german|french)"

# The rows of every language but Chinese, Japanese and Korean (`cues_cjk.py`).
_OWN: tuple[Cue, ...] = (
    # --- English: what rules.py's phrasing does not cover ---
    Cue(
        "en",
        STANDING,
        r"\byou (?:should|must) (?:always|never)\b",
        "You should NEVER use the agent-intercom-ctl tool; that is for local operator use only.",
    ),
    Cue(
        "en",
        STANDING,
        # "from now on" closing the sentence, as it opens others ("From now on, …")
        r"\b(?:from now on|going forward|from here on(?: out)?)\s*[.!]*$",
        "I manaully changed to gemini.md file, so it should be #mem from now on",
    ),
    Cue(
        "en",
        LANGUAGE,
        r"\b(?:answer|respond|reply|write|explain|talk|speak|work|keep (?:it|everything|them)"
        rf"|switch (?:back )?to)\b[^.!?]{{0,30}}\b{_LANGUAGES}\b"
        # the language alone, asked for: "English please", "in English only"
        rf"|^(?:in )?{_LANGUAGES}(?: only)?,? (?:please|pls|only)\b",
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
        # what the agent leaves out again and again: "you keep forgetting to …"
        r"\byou (?:keep|kept) (?:forgetting|skipping|missing) (?:to )?\w+"
        r"|\byou (?:always|often) forget (?:to )?\w+|\byou forgot (?:again )?to\b",
        "you keep forgetting to update the changelog",
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
        # a requirement of the product's behaviour (a page, a button, the app, its users):
        # the feature of the task, as "首页必须显示…" is in Chinese; not its engineering
        r"(?:^|,\s*)(?:the |each |every |all |any |our |this |my )?(?:[\w'-]+ ){0,2}?"
        r"(?:page|screen|modal|dialog|popup|button|form|field|input|list|table|card|chart|graph|sidebar|header|footer"
        r"|menu|navbar|tab|panel|widget|banner|tooltip|timer|counter|icon|image|logo|layout|view"
        r"|app|application|site|website|game|player|users?|customers?|notifications?|dashboard"
        r"|map|calendar|cart|checkout|profile|feed|window|axis|legend|slider|toggle|dropdown"
        r"|badge|avatar|toast)s? (?:must|should|shall|needs? to|has to|have to|will)\b",
        "If there are only 1 chart on the dashboard, the chart should be expanded to occupy the"
        " whole width",
    ),
    Cue(
        "en",
        NOT_A_RULE,
        # a dispute of what the agent said: an account of the moment, whatever the agent does
        r"^(?:no,? )?(?:that|this|it)(?:'s| is| was)(?: actually| just| simply)? ?(?:not )?"
        r"(?:correct|right|wrong|true|false|incorrect)\b",
        "That is actually not correct.",
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
        r"|ejecutes)\b|\bno vuelvas a \w+",
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
        r"\ben (?:español|inglés|ingles|francés|alemán|portugués)\b"
        r"|\bh[aá]bla(?:me)? (?:en )?(?:español|inglés)\b",
        "recuerda siempre explicarme en español",
    ),
    Cue(
        "es",
        STANDING,
        # a norm for every thing of a kind: "cada pregunta debe …", "todos los X deben …"
        r"\b(?:cada|tod[oa]s? l[oa]s) [\w-]+(?: [\w-]+){0,2} (?:debe|deben|tiene que|tienen que)\b",
        "Cada pregunta debe tener 5 opciones de respuesta",
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
    Cue(
        "es",
        TEAM,
        r"\b(?:usamos|utilizamos|trabajamos con)\b|\b(?:este|el) proyecto (?:usa|utiliza)\b",
        "Usamos pnpm, no npm.",
    ),
    Cue(
        "es",
        PROHIBITION,
        # "stop doing …", first in its clause ("el servidor deja de responder" is an account)
        r"(?:^|[,;:]\s*)(?:deja|dejá|dejen) de \w+(?:ar|er|ir)\b",
        "Deja de usar npm en este proyecto.",
    ),
    Cue(
        "es",
        PROHIBITION,
        # "avoid …", first in its clause ("la caché evita consultas" is what a program does)
        r"(?:^|[,;:]\s*)(?:evita|evite|eviten) ",
        "Evita usar any en TypeScript.",
    ),
    Cue(
        "es",
        STANDING,
        # a convention for the whole project: "usa pnpm en todo el proyecto"
        r"^(?:usa|utiliza|sigue|mantén|escribe|pon|nombra)\b.{0,60}"
        r"\ben tod[oa] (?:el|la) (?:proyecto|repositorio|repo|código|base de código|app)\b",
        "Usa pnpm en todo el proyecto.",
    ),
    Cue(
        "es",
        STANDING,
        # before each commit, push or release; after each change: every time
        r"\bantes de (?:hacer |cada )?(?:commit|push|merge|desplegar|publicar|subir)"
        r"|\bdespués de cada\b",
        "Antes de hacer commit, ejecuta los tests.",
    ),
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
        r"\bnão (?:use|faça|coloque|apague|mexa|instale|rode|execute|altere|modifique)\b"
        r"|\bnão volte a \w+|\bnunca mais\b",
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
        r"\bem (?:português|portugues|inglês|ingles|espanhol|francês|alemão)\b"
        r"|\b(?:fal[ae]|escrev[ae]|respond[ae])\b[^.!?]{0,20}\bportugu[eê]s\b",
        "Sempre responda em português brasileiro",
    ),
    Cue(
        "pt",
        CORRECTION,
        r"\b(?:eu )?(?:já )?te (?:disse|falei|pedi)\b|\bjá (?:disse|falei|pedi)\b"
        r"|\bvocê (?:de novo |novamente )?(?:esqueceu|não atualizou|não rodou|não executou)\b",
        "eu já te disse para usar pnpm em todo o projeto",
    ),
    Cue(
        "pt",
        ONE_OFF,
        r"\bainda n[ãa]o\b|\bn[ãa]o funciona|\b(?:dá|dando|mesmo) erro\b"
        r"|\bcontinua (?:dando|com|sem)\b|\b(?:tinha|tenho) \w+(?:ado|ido)\b"
        r"|\b(?:por enquanto|por agora|desta vez|hoje)\b",
        "O link para lab2 ainda não funciona pois a pasta ainda se encontra vazia.",
    ),
    Cue(
        "pt",
        TEAM,
        r"\b(?:usamos|utilizamos|trabalhamos com)\b|\b(?:este|o) projeto (?:usa|utiliza)\b",
        "Nós usamos pnpm neste projeto.",
    ),
    Cue(
        "pt",
        PROHIBITION,
        r"(?:^|[,;:]\s*)(?:pare|parem) de \w+(?:ar|er|ir)\b",
        "Pare de usar npm neste projeto.",
    ),
    Cue(
        "pt",
        STANDING,
        # a norm for every thing of a kind: "cada X deve …", "todos os X devem …"
        r"\b(?:cada|tod[oa]s? [oa]s) [\w-]+(?: [\w-]+){0,2} (?:deve|devem|tem que|têm que)\b",
        "Todos os endpoints devem ter testes.",
    ),
    Cue("pt", PROHIBITION, r"(?:^|[,;:]\s*)(?:evite|evitem) ", "Evite usar any no TypeScript."),
    Cue(
        "pt",
        STANDING,
        r"^(?:use|utilize|siga|mantenha|escreva|coloque|nomeie)\b.{0,60}"
        r"\bem todo o (?:projeto|repositório|repo|código)\b",
        "Use pnpm em todo o projeto.",
    ),
    Cue(
        "pt",
        STANDING,
        r"\bantes de (?:fazer |cada )?(?:commit|commitar|push|merge|deploy|publicar)"
        r"|\bdepois de cada\b",
        "Antes de commitar, rode os testes.",
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
        CORRECTION,
        r"\bich hab(?:e)? (?:dir |euch |ihnen |doch |das |es |schon |bereits )*(?:gesagt|gebeten)\b"
        r"|\bdu hast [^.!?]{0,30}\b(?:vergessen|nicht aktualisiert|nicht ausgeführt)\b",
        "Ich habe dir doch gesagt, dass wir im ganzen Projekt pnpm nutzen.",
    ),
    Cue(
        "de",
        ONE_OFF,
        r"\bimmer noch\b|\bnoch immer\b|\bnoch nie\b|\bfunktioniert\b[^.!?]{0,20}\bnicht\b"
        r"|\b(?:gleiche|gleichen|selbe|selben) fehler\b|\bich habe (?!dir|euch|ihnen)"
        r"|\b(?:vorerst|erstmal|erst mal|diesmal|heute)\b",
        "Git funktioniert immer noch nicht",
    ),
    Cue(
        "de",
        TEAM,
        r"\bwir (?:verwenden|nutzen|benutzen|arbeiten mit)\b"
        r"|\b(?:dieses|das) projekt (?:verwendet|nutzt|benutzt)\b",
        "Wir verwenden pnpm in diesem Projekt.",
    ),
    Cue(
        "de",
        PROHIBITION,
        r"(?:^|[,;:]\s*)hör(?:e|t)? (?:endlich )?auf\b",
        "Hör auf, npm zu benutzen.",
    ),
    Cue(
        "de",
        STANDING,
        r"\b(?:jede[rsnm]?|alle) [\w-]+(?: [\w-]+){0,2} (?:muss|müssen|soll|sollen)\b",
        "Jede Funktion muss dokumentiert sein.",
    ),
    Cue("de", PROHIBITION, r"(?:^|[,;:]\s*)vermeide[nt]? ", "Vermeide any in TypeScript."),
    Cue(
        "de",
        STANDING,
        r"^(?:verwende|benutze|nutze|folge|halte|schreibe|benenne)\b.{0,60}"
        r"\b(?:im ganzen|im gesamten) (?:projekt|repository|repo|code)\b",
        "Verwende pnpm im ganzen Projekt.",
    ),
    Cue(
        "de",
        STANDING,
        r"\bvor (?:jedem|dem) (?:commit|push|merge|deploy|release)\b|\bnach jede[rm]\b",
        "Vor jedem Commit die Tests laufen lassen.",
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
        r"\ben (?:français|anglais|espagnol|allemand)\b"
        r"|\bparle(?:z)? (?:en )?(?:français|anglais)\b",
        "Réponds toujours en français, avec un ton bienveillant, clair et professionnel.",
    ),
    Cue(
        "fr",
        CORRECTION,
        r"\bje (?:t'ai|vous ai|te l'ai|vous l'ai) (?:déjà )?(?:dit|demandé)\b|\bj'ai dit\b"
        r"|\btu as (?:encore |de nouveau )?oublié\b"
        r"|\btu n'as pas (?:mis à jour|lancé|exécuté|ajouté)\b",
        "je t'ai déjà dit d'utiliser pnpm dans tout le projet",
    ),
    Cue(
        "fr",
        ONE_OFF,
        r"\btoujours pas\b|\bne (?:marche|fonctionne)\b|\b(?:même|une) erreur\b"
        r"|\bj'ai (?!dit)|\bje n'ai\b|\btoujours (?:la|le|les) mêmes?\b"
        r"|\b(?:pour l'instant|pour le moment|cette fois|aujourd'hui)\b",
        "Si cela ne fonctionne toujours pas, essayez de localiser l'outil installé.",
    ),
    Cue(
        "fr",
        TEAM,
        r"\b(?:nous utilisons|nous travaillons avec|on utilise|(?:ce|le) projet utilise)\b",
        "Nous utilisons pnpm dans ce projet.",
    ),
    Cue(
        "fr",
        PROHIBITION,
        r"(?:^|[,;:]\s*)arrête(?:z)? (?:de |d')",
        "Arrête d'utiliser npm dans ce projet.",
    ),
    Cue(
        "fr",
        STANDING,
        r"\b(?:chaque|tou(?:s|tes) les) [\w-]+(?: [\w-]+){0,2} (?:doit|doivent)\b",
        "Chaque fonction doit avoir un docstring.",
    ),
    Cue("fr", PROHIBITION, r"(?:^|[,;:]\s*)évite[zr]? ", "Évite any en TypeScript."),
    Cue(
        "fr",
        STANDING,
        r"^(?:utilise|utilisez|suis|suivez|garde|gardez|écris|écrivez|nomme|nommez)\b.{0,60}"
        r"\bdans tout le (?:projet|dépôt|repo|code)\b",
        "Utilise pnpm dans tout le projet.",
    ),
    Cue(
        "fr",
        STANDING,
        r"\bavant (?:chaque |de )(?:commit|commiter|pousser|push|merge|déployer|livrer)\b"
        r"|\baprès chaque\b",
        "Avant chaque commit, lance les tests.",
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
    Cue(
        "ru",
        TEAM,
        r"\bмы (?:используем|пользуемся|работаем с)\b|\bпроект использует\b",
        "Мы используем pnpm.",
    ),
    Cue(
        "ru",
        PROHIBITION,
        r"(?:^|[,;:—–-]\s*)(?:перестань|перестаньте|прекрати|прекратите|хватит)\b",
        "Перестань использовать npm в этом проекте.",
    ),
    Cue(
        "ru",
        STANDING,
        # first in its clause: "после того как все сконфигурировано, почта должна …" is "all"
        # as "everything", then a feature of the task
        r"(?:^|[,;:]\s*)(?:кажд(?:ый|ая|ое|ые)|все) [\w-]+(?: [\w-]+)? "
        r"(?:должен|должна|должно|должны)\b",
        "Каждая функция должна иметь докстринг.",
    ),
    Cue("ru", PROHIBITION, r"(?:^|[,;:—–-]\s*)избега(?:й|йте)\b", "Избегай any в TypeScript."),
    Cue(
        "ru",
        STANDING,
        r"^(?:используй|используйте|следуй|держи|пиши|называй)\b.{0,60}"
        r"\bво? (?:всём|всем) (?:проекте|репозитории|коде)\b",
        "Используй pnpm во всём проекте.",
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
        # "này" (this) is the task's, except in "dự án này" (this project), as in English
        r"\b(?:bây giờ|lần này|hôm nay|tạm thời|vừa rồi|trước mắt|(?<!dự án )(?<!repo )này)\b",
        "Chạy 262 cơ chế trên toàn bộ 168 mã D1 thay vì 5 mã như hôm nay.",
    ),
    Cue(
        "vi",
        QUESTION,
        r"\b(?:tại sao|vì sao|thế nào|là gì|được không|có phải)\b",
        "Tại sao phải dùng Nginx làm Reverse Proxy mà không trỏ thẳng?",
    ),
    Cue(
        "vi",
        TEAM,
        r"\bchúng (?:tôi|ta|mình) (?:dùng|sử dụng)\b",
        "Chúng tôi dùng pnpm cho toàn bộ dự án.",
    ),
    Cue(
        "vi",
        STANDING,
        r"\b(?:mỗi|mọi|tất cả(?: các)?) [\w-]+(?: [\w-]+){0,2} (?:phải|cần phải)\b",
        "Mỗi endpoint phải có test.",
    ),
    Cue(
        "vi",
        STANDING,
        r"\btrước khi (?:commit|push|merge|deploy)\b|\bsau mỗi\b",
        "Trước khi commit, hãy chạy test.",
    ),
)
CUES: tuple[Cue, ...] = (*_OWN, *CJK_CUES)


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
    if languages is None:
        return {form for form, _ in _found(sentence, None)}
    script = languages_of(sentence)
    # A sentence is read for several sets of its script's languages (all of them, English
    # alone, all but English): one search over its script serves them all.
    pool = script if languages <= script else script | languages
    return {form for form, language in _found(sentence, pool) if language in languages}


@lru_cache(maxsize=4096)
def _found(sentence: str, languages: frozenset[str] | None) -> frozenset[tuple[str, str]]:
    # A team types the same instruction in many sessions: each is looked up once.
    anyone, cues = _compiled(languages)
    if not anyone.search(sentence):
        return frozenset()
    return frozenset((cue.form, cue.language) for cue in cues if _pattern(cue).search(sentence))

"""The rows of the rule lexicon for the languages written in Latin letters, English aside:
Spanish, Portuguese, German, French, Vietnamese and Turkish. One row per language and cue, each with
the sentence it was written from (`lexicon.py` says where they come from; `cue_forms.py` what
each form means)."""

from __future__ import annotations

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

LATIN_CUES: tuple[Cue, ...] = (
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
        r"|ejecutes|crees(?! que)|edites|agregues|añadas|elimines|commitees|pushees)\b"
        r"|\bno vuelvas a \w+",
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
        # a sentence of this form, not yet found in a public repository
        "Usamos pnpm, no npm.",
    ),
    Cue(
        "es",
        TEAM,
        # a tool one must use ("hay que usar pnpm"): with a tool named, what the project uses
        # (not "no debes usar", nor to look at something once: "… para ver el error")
        r"(?<!no )\b(?:hay que|tienes que|tenemos que|debes|debemos|se debe|deber[ií]as)"
        r"\s+(?:siempre\s+)?(?:usar|utilizar)\b"
        r"(?![^.!?;]{0,60}\bpara (?:ver|mirar|esto|eso)\b)",
        "así que hay que usar pnpm o las versiones resueltas dejan de ser reproducibles.",
    ),
    Cue(
        "es",
        PROHIBITION,
        # "stop doing …", first in its clause ("el servidor deja de responder" is an account)
        r"(?:^|[,;:]\s*)(?:deja|dejá|dejen) de \w+(?:ar|er|ir)\b",
        # a sentence of this form, not yet found in a public repository
        "Deja de usar npm en este proyecto.",
    ),
    Cue(
        "es",
        PROHIBITION,
        # "avoid …", first in its clause ("la caché evita consultas" is what a program does)
        r"(?:^|[,;:]\s*)(?:evita|evite|eviten) ",
        "Evita usar `any` cuando sea posible",
    ),
    Cue(
        "es",
        STANDING,
        # a convention for the whole project: "usa pnpm en todo el proyecto"
        r"^(?:usa|utiliza|sigue|mantén|escribe|pon|nombra)\b.{0,60}"
        r"\ben tod[oa] (?:el|la) (?:proyecto|repositorio|repo|código|base de código|app)\b",
        # a sentence of this form, not yet found in a public repository
        "Usa pnpm en todo el proyecto.",
    ),
    Cue(
        "es",
        STANDING,
        # before each commit, push or release; after each change: every time
        r"\bantes de (?:hacer |cada )?(?:commit|push|merge|desplegar|publicar|subir)"
        r"|\bdespués de cada\b",
        "Ejecuta `npm run build` antes de hacer commit",
    ),
    Cue(
        "es",
        ONE_OFF,
        # the rest of the task at hand: "nothing else", "the other files"
        # (with what would touch it: "nada más que pnpm" is "only pnpm")
        r"\bno (?:toques|cambies|modifiques|edites|borres) nada m[aá]s\b"
        r"|\b(?:los|las) (?:dem[aá]s|otr[oa]s) (?:archivos|ficheros|partes)\b",
        # a session of a public repository
        "asi me gusta, no toques nada mas",
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
        r"\bnão (?:use|faça|coloque|apague|mexa|instale|rode|execute|altere|modifique|crie"
        r"|commite|remova|adicione|edite)\b"
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
        "Eu já te falei que não é pra você criar arquivos... você deve mandar todo o código na "
        "conversa como texto.",
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
        # a sentence of this form, not yet found in a public repository
        "Nós usamos pnpm neste projeto.",
    ),
    Cue(
        "pt",
        TEAM,
        r"(?<!não )\b(?:deve-se|devemos|deve|tem que|temos que|precisa|precisamos)"
        r"\s+(?:sempre\s+)?(?:usar|utilizar)\b"
        r"(?![^.!?;]{0,60}\bpara (?:ver|olhar|isso|isto)\b)",
        "Deve-se usar o comando `git pull origin main` (que é a combinação dos comandos "
        "`git fetch` e `git merge`)",
    ),
    Cue(
        "pt",
        PROHIBITION,
        r"(?:^|[,;:]\s*)(?:pare|parem) de \w+(?:ar|er|ir)\b",
        # a sentence of this form, not yet found in a public repository
        "Pare de usar npm neste projeto.",
    ),
    Cue(
        "pt",
        STANDING,
        # a norm for every thing of a kind: "cada X deve …", "todos os X devem …"
        r"\b(?:cada|tod[oa]s? [oa]s) [\w-]+(?: [\w-]+){0,2} (?:deve|devem|tem que|têm que)\b",
        # a sentence of this form, not yet found in a public repository
        "Todos os endpoints devem ter testes.",
    ),
    # a sentence of this form, not yet found in a public repository
    Cue("pt", PROHIBITION, r"(?:^|[,;:]\s*)(?:evite|evitem) ", "Evite usar any no TypeScript."),
    Cue(
        "pt",
        STANDING,
        r"^(?:use|utilize|siga|mantenha|escreva|coloque|nomeie)\b.{0,60}"
        r"\bem todo o (?:projeto|repositório|repo|código)\b",
        # a sentence of this form, not yet found in a public repository
        "Use pnpm em todo o projeto.",
    ),
    Cue(
        "pt",
        STANDING,
        r"\bantes de (?:fazer |cada )?(?:commit|commitar|push|merge|deploy|publicar)"
        r"|\bdepois de cada\b",
        # a sentence of this form, not yet found in a public repository
        "Antes de commitar, rode os testes.",
    ),
    Cue(
        "pt",
        ONE_OFF,
        # the rest of the task at hand: "nothing else", "the other files"
        r"\bn[aã]o (?:mexa|mexe|altere|modifique|toque|apague)(?: em)? (?:mais nada|nada mais)\b"
        r"|\bos (?:outros|demais) (?:arquivos|ficheiros)\b",
        # a sentence of this form, not yet found in a public repository
        "Ficou bom, não mexa em mais nada.",
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
        r"\b(?:verwende|benutze|nutze|committe|lösche|ändere|installiere|erstelle|pushe|bearbeite"
        r"|berühre) (?:kein|nicht)\w*\b",
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
        PREFERENCE,
        # "not X but Y" ("nicht nur …, sondern auch" adds, it prefers nothing)
        r"\b(?:nicht|kein\w*)\b(?! nur\b)[^.!?;]{0,40}?\bsondern\b(?! auch\b)",
        "Zettlr nutzt meistens nicht NPM, sondern Yarn, daher solltest du Yarn idealerweise "
        "auch installieren.",
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
        "Ich hab dir doch gesagt, verwende uv!",
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
        "Dieses Projekt verwendet pnpm als Paketmanager.",
    ),
    Cue(
        "de",
        TEAM,
        r"\b(?:muss|müssen|musst|soll|sollen|sollte|sollten|solltest)\b"
        r"(?:(?!\bnicht\b|\bkein)[^.!?;]){0,40}?"
        r"\b(?:verwenden|benutzen|nutzen|verwendet|benutzt|genutzt)\b"
        r"(?![^.!?;]{0,60}\bzu (?:sehen|schauen)\b)"
        r"|\b(?:muss|müssen|sollen|sollten) mit \S+ (?:laufen|gebaut|getestet|formatiert)\b",
        "Tests müssen mit pytest laufen",
    ),
    Cue(
        "de",
        PROHIBITION,
        r"(?:^|[,;:]\s*)hör(?:e|t)? (?:endlich )?auf\b",
        "Wenn du den Bug nicht durch Timing reproduzieren kannst, hör auf, das Timing zu "
        "variieren.",
    ),
    Cue(
        "de",
        STANDING,
        r"\b(?:jede[rsnm]?|alle) [\w-]+(?: [\w-]+){0,2} (?:muss|müssen|soll|sollen)\b",
        "Jede Commit-Nachricht muss Metainformationen über den verwendeten AI-Agenten und das "
        "Modell enthalten.",
    ),
    Cue("de", PROHIBITION, r"(?:^|[,;:]\s*)vermeide[nt]? ", "Vermeide unnötige Inline-Kommentare."),
    Cue(
        "de",
        STANDING,
        r"^(?:verwende|benutze|nutze|folge|halte|schreibe|benenne)\b.{0,60}"
        r"\b(?:im ganzen|im gesamten) (?:projekt|repository|repo|code)\b",
        # a sentence of this form, not yet found in a public repository
        "Verwende pnpm im ganzen Projekt.",
    ),
    Cue(
        "de",
        STANDING,
        r"\bvor (?:jedem|dem) (?:commit|push|merge|deploy|release)\b|\bnach jede[rm]\b",
        "Alle durchgeführten Änderungen am Code müssen vor dem Commit gründlich getestet werden, "
        "um die Funktionalität und Stabilität sicherzustellen.",
    ),
    Cue(
        "de",
        NOT_A_RULE,
        # "remember this (as a guideline)": it points at what was said before, which is the
        # rule if there is one; alone it says nothing
        r"^merke? (?:dir|euch) (?:das|dies|diese[sn]?)(?: bitte)?"
        r"(?: als (?:\w+ )?\w{0,12}(?:leitlinie|regel|richtlinie|grundsatz|prinzip|hinweis"
        r"|konvention|practice)\w*)?"
        r"(?: für (?:die zukunft|später|(?:dieses|das) projekt|(?:zu)?künftige \w+))?\s*[.!]*$",
        # a session of a public repository
        "Merk dir dies als Leitlinie für zukünftige Problemsituationen!",
    ),
    Cue(
        "de",
        ONE_OFF,
        # the rest of the task at hand: "nothing else", "the other files"
        r"\b(?:fass|fasse|rühr|rühre) nichts (?:anderes|weiter) an\b"
        r"|\b(?:änder|ändere|bearbeite) nichts (?:anderes|weiter)\b"
        r"|\bdie (?:anderen|übrigen) dateien\b",
        # a sentence of this form, not yet found in a public repository
        "So passt es, fass nichts anderes an.",
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
        STANDING,
        # "next time, tell me …", "in future, use …": what to do every time from now on, an
        # imperative right after it (not "à la prochaine fois", "on verra la prochaine fois")
        r"\b(?:la prochaine fois|les prochaines fois|à l'avenir)(?: que [^,.!?]{1,60})?\s?,?\s"
        r"(?:(?:tu|vous) )?(?:indique|dis|préviens|pense|utilise|fais|mets|lance|vérifie|demande"
        r"|n'oublie|évite|ajoute|écris|commence|garde|crée|relance|teste)\w*",
        # a session of a public repository
        'la prochaine fois indique moi quand tu as terminé une tache par "étape suivante ?"',
    ),
    Cue(
        "fr",
        PROHIBITION,
        r"\b(?:n'utilise (?:pas|jamais)|ne (?:jamais|pas) (?:utiliser|modifier|ajouter|supprimer)"
        r"|n'(?:ajoute|installe|modifie|touche|supprime)s? (?:pas|jamais)"
        # the imperative, first in its clause ("le script ne crée pas …" tells what it does)
        r"|(?:^|[,;:]\s*)ne (?:crée|commite|modifie|touche|supprime|pousse|pushe?|installe"
        r"|utilise|ajoute)z? (?:pas|jamais))\b",
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
        "Je t'ai déjà demandé 100 fois à ce que dans le curseur ce soit TOUJOURS les 3 couleurs.",
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
        "Nous utilisons pnpm :",
    ),
    Cue(
        "fr",
        TEAM,
        r"\b(?:il faut|tu dois|vous devez|on doit|nous devons)\s+(?:toujours\s+)?utiliser\b"
        r"(?![^.!?;]{0,60}\bpour (?:voir|regarder|ça|cela)\b)",
        "Il faut utiliser pnpm (pas npm global) :",
    ),
    Cue(
        "fr",
        PROHIBITION,
        r"(?:^|[,;:]\s*)arrête(?:z)? (?:de |d')",
        "Arrête de générer de nouveaux fichiers Markdown.",
    ),
    Cue(
        "fr",
        STANDING,
        r"\b(?:chaque|tou(?:s|tes) les) [\w-]+(?: [\w-]+){0,2} (?:doit|doivent)\b",
        "Chaque fonction doit avoir une docstring.",
    ),
    Cue("fr", PROHIBITION, r"(?:^|[,;:]\s*)évite[zr]? ", "Éviter les `any`"),
    Cue(
        "fr",
        STANDING,
        r"^(?:utilise|utilisez|suis|suivez|garde|gardez|écris|écrivez|nomme|nommez)\b.{0,60}"
        r"\bdans tout le (?:projet|dépôt|repo|code)\b",
        # a sentence of this form, not yet found in a public repository
        "Utilise pnpm dans tout le projet.",
    ),
    Cue(
        "fr",
        STANDING,
        r"\bavant (?:chaque |de )(?:commit|commiter|pousser|push|merge|déployer|livrer)\b"
        r"|\baprès chaque\b",
        "Après chaque modification de fichier, effectuer une vérification avec l'analyseur Dart "
        "(dart analyze) pour s'assurer qu'il n'y a pas d'erreurs ou d'avertissements.",
    ),
    Cue(
        "fr",
        ONE_OFF,
        # the rest of the task at hand: "nothing else", "the other files"
        r"\bne (?:touche|modifie|change|supprime)s? (?:à )?rien d'autre\b|\bles autres fichiers\b",
        # a sentence of this form, not yet found in a public repository
        "C'est bien comme ça, ne touche à rien d'autre.",
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
        "Chúng tôi sử dụng Docker Compose để chuẩn hóa CSDL local cho cả nhóm.",
    ),
    Cue(
        "vi",
        TEAM,
        r"(?<!không )\b(?:phải|nên|cần) (?:dùng|sử dụng)\b"
        r"(?![^.!?;]{0,60}\bđể (?:xem)\b)",
        "Người đóng góp phải dùng pnpm; phiên bản pnpm/Node được ghim ở M0.",
    ),
    Cue(
        "vi",
        STANDING,
        r"\b(?:mỗi|mọi|tất cả(?: các)?) [\w-]+(?: [\w-]+){0,2} (?:phải|cần phải)\b",
        "Props Interface: Mọi Component phải define rõ Interface cho Props.",
    ),
    Cue(
        "vi",
        STANDING,
        r"\btrước khi (?:commit|push|merge|deploy)\b|\bsau mỗi\b",
        "Trước khi commit, hãy chạy `npm run lint` để kiểm tra style.",
    ),
    # --- Turkish: read with the other languages in Latin letters, so each row holds words
    # or endings no other of them has (the dotless ı may be typed as i) ---
    Cue(
        "tr",
        STANDING,
        r"\b(?:her (?:zaman|seferinde|defas[ıi]nda|g[öo]rev\w*|ad[ıi]m\w*)"
        r"|hi[çc]bir zaman|bundan (?:sonra|b[öo]yle)|daima|asla)\b",
        "Kullanıcı ile her zaman Türkçe konuş",
    ),
    Cue(
        "tr",
        STANDING,
        # a norm for all of a kind: "tüm/bütün/her … -malı(dır)" (all … must)
        r"\b(?:t[üu]m|b[üu]t[üu]n|her)\b[^.!?]{0,120}?\w(?:mal[ıi]|meli)(?:d[ıi]r|s[ıi]n(?:[ıi]z)?)?\b",
        "TÜM AKIŞ SADECE CLAUDE API ÜZERİNDEN OLMALIDIR!",
    ),
    Cue(
        "tr",
        PROHIBITION,
        # "sakın" (don't you ever); a passive that says what is not done, closing its clause
        # as a Turkish verb does ("… KULLANILMAZ": is not used; not the adjective of
        # "inanılmaz hızlı", nor the name Yılmaz) or in the future ("kullanılmayacak",
        # "bozulmayacak": will not be); "you will not …" ("-mayacaksın")
        r"\bsak[ıi]n\b|\b\w{3,}(?:[ıiuü]l|[aeıioöuü]n)(?:maz|mez)(?:d[ıi]r)?(?=\s*(?:[.!;]|$))"
        r"|\b\w{3,}(?:[ıiuü]l|[aeıioöuü]n)(?:mayacak|meyecek)(?:t[ıi]r)?\b"
        r"|\b\w+(?:mayacak|meyecek)s[ıi]n(?:[ıi]z)?\b|\byasak(?:t[ıi]r)?\b",
        "shadcn componentleri dışında html taglar kullanılmayacak",
    ),
    Cue(
        "tr",
        PREFERENCE,
        # "X yerine Y kullan" (use Y instead of X); not "yerine koy" (put back in its place)
        # nor "yerine getir" (carry out)
        r"\byerine\b[^.!?]{0,40}?\b(?:kullan|tercih|se[çc])\w*",
        "Ortam doğrudan Windows; Makefile yerine pnpm script'leri kullan ve tüm komutlar "
        "PowerShell'de çalışsın.",
    ),
    Cue(
        "tr",
        LANGUAGE,
        # the language to talk, answer, write or explain in; not a translation ("Türkçe'ye
        # çevir") or a summary in it
        r"\b(?:t[üu]rk[çc]e|ingilizce)\s+(?:olarak\s+)?(?:konu[şs]|cevap|yan[ıi]t|yaz|a[çc][ıi]kla"
        r"|anlat|ileti[şs]im|sor|d[üu][şs][üu]n)\w*|\b(?:t[üu]rk[çc]e|ingilizce)\s+(?:olsun|olmal[ıi]|olacak)",
        "Bundan sonra bana Türkçe cevap ver",
    ),
    Cue("tr", TEAM, r"\bkullan[ıi]yoruz\b", "biz pnpm kullanıyoruz, npm değil"),
    Cue(
        "tr",
        ONE_OFF,
        r"\b(?:[şs]imdilik|bu (?:sefer|kez|seferlik)|bug[üu]n|şu an(?:da|l[ıi]k)?)\b",
        "Precision'ı daha sonra hesaplayacağımız için şimdilik skorları kullan",
    ),
    Cue(
        "tr",
        ONE_OFF,
        # a report of a failure: it gives an error, it does not work
        r"\bhata(?:y[ıi])? ver(?:iyor|di)\w*|\b[çc]al[ıi][şs]m[ıi]yor\w*|\b[çc]al[ıi][şs]mad[ıi]\w*"
        r"|\bolmuyor\b",
        "Elasticsearch JSON formatında ' hata veriyor.",
    ),
)

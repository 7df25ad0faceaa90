"""How each language forbids an act, and the words each directive class needs.

`NEGATIONS` say, per language the extractor reads, how a sentence forbids an act ("never
`git push --force`", "`curl | sh` is forbidden", "実行しないでください"): a forbidden act is
ordinary memory, not a directive (`lint.directives.forbidden`). `CLASS_KEYWORDS` are the
words one of which every row of a class in `lint.directive_rules` needs, so text holding none
never compiles or runs that class's rows.
"""

# A table: each row's regex stays whole on its lines so the row reads as one rule.

from __future__ import annotations

from git_memory.lint.directive_rules import (
    CONCEALMENT,
    CREDENTIAL_ACCESS,
    DISABLE_CHECKS,
    EXFILTRATION,
    FETCH_AND_RUN,
    OVERRIDE,
)
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

# Words (lowercase) one of which every row of a class needs: text holding none of a class's
# words never compiles or runs its rows, so ordinary memory costs a few substring tests (the
# pre-commit hook's start is a budget: docs/performance.md).
CLASS_KEYWORDS: dict[str, tuple[str, ...]] = {
    FETCH_AND_RUN: (
        *("curl", "wget", "iwr", "irm", "invoke-", "downloadstring", "fetch", "download", "pipe"),
        *("下载", "ダウンロード", "다운로드", "скача", "descarg", "baix", "herunterl", "lade "),
        "télécharg",
    ),
    EXFILTRATION: (
        *("curl", "wget", "httpie", "http ", "nc ", "ncat", "netcat", "send ", "post ", "upload"),
        *("forward ", "exfiltrat", "transmit", "mail ", "发送", "上传", "提交到", "送信", "送"),
        *("アップロード", "전송", "업로드", "보내", "отправ", "загруз", "перешл", "envía", "envia"),
        *("envie", "sube", "suba", "carrega", "manda", "sende", "schick", "lade", "envoie"),
        *("envoyez", "téléverse", "transfère"),
    ),
    CREDENTIAL_ACCESS: (
        *(".ssh", ".aws", ".netrc", ".docker", ".kube", ".git-credentials", ".npmrc", ".pypirc"),
        *(".env", "printenv", "`env", "`set", "env |", "set |", "; env", "; set", "&& env"),
        *("export -p", "env:", "gh auth", "find-generic", "find-internet", "credential fill"),
        *("credential", "secret", "token", "api key", "api-key", "apikey", "password"),
        *("private key", "ssh key", "environment variable", "env var", "id_rsa", "id_ed25519"),
        *("keychain", "environment", "凭据", "凭证", "密钥", "令牌", "密码", "环境变量", "私钥"),
        *("認証情報", "資格情報", "秘密鍵", "トークン", "パスワード", "環境変数", "apiキー"),
        *("자격 증명", "비밀 키", "토큰", "비밀번호", "환경 변수", "api 키", "учётн", "учетн"),
        *("секрет", "токен", "парол", "окружения", "ключ", "credenciales", "credenciais"),
        *("secretos", "segredos", "contraseña", "senha", "entorno", "ambiente", "clave privada"),
        *("chave privada", "zugangsdaten", "anmeldedaten", "geheimnis", "passwörter"),
        *("umgebungsvariablen", "schlüssel", "identifiants", "jetons", "mots de passe"),
        *("variables d'environnement", "clé privée"),
    ),
    DISABLE_CHECKS: (
        *("no-verify", "git commit", "[skip", "[ci skip", "[no ci", "husky", "skip=", "skiptests"),
        *("test.skip", "skip", "disable", "bypass", "turn off", "switch off", "comment out"),
        *("ignore", "跳过", "禁用", "关闭", "绕过", "忽略", "スキップ", "無効", "飛ばし", "省略"),
        *("回避", "건너뛰", "비활성화", "생략", "우회", "пропусти", "отключи", "обойди"),
        *("выключи", "игнорир", "omit", "salta", "pula", "pule", "desactiv", "desativ", "ignor"),
        *("überspring", "deaktivier", "umgeh", "schalte", "saute", "désactiv", "contourn"),
    ),
    CONCEALMENT: (
        *("tell", "inform", "mention", "notify", "reveal", "disclose", "without", "hide"),
        *("silently", "keep this", "keep it", "告诉", "通知", "让", "悄悄", "偷偷", "瞒着"),
        *("言わ", "伝え", "知らせ", "こっそり", "黙って", "알리지", "말하지", "몰래", "говори"),
        *("сообщай", "рассказывай", "показывай", "незаметно", "втайне", "тайком", "digas"),
        *("informes", "avises", "menciones", "avisar", "decir", "conte", "diga", "avise"),
        *("mencione", "sag", "erzähl", "informiere", "heimlich", "dis ", "dites", "mentionne"),
        *("signale", "prévenir", "informer", "discrètement"),
    ),
    OVERRIDE: (
        *("ignore", "disregard", "forget", "override", "bypass", "you are now", "instruction"),
        *("from now on", "<system", "</system", "<assistant", "<developer", "<instruction"),
        *("im_start", "im_end", "<|", "[inst]", "[/inst]", "<<sys>>", "system:", "system :"),
        *("system prompt", "忽略", "无视", "忘记", "忘掉", "無視", "忘れ", "무시", "잊", "игнорир"),
        *("забудь", "обращай", "ignora", "olvida", "esque", "ignoriere", "vergiss", "ignorez"),
        "oublie",
    ),
}

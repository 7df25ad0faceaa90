"""The directive classes, what each tells agents, and the words each class needs.

Every row of a class in `lint.directive_rules` needs one of its words (lowercase): text
holding none of a class's words never loads, compiles or runs that class's rows, so ordinary
memory costs a few substring tests, and the pre-commit hook loads the rule tables only for a
file that may hold a directive (its start is a budget: docs/performance.md).
"""

from __future__ import annotations

FETCH_AND_RUN = "GM_DIRECTIVE_FETCH_AND_RUN"
EXFILTRATION = "GM_DIRECTIVE_EXFILTRATION"
CREDENTIAL_ACCESS = "GM_DIRECTIVE_CREDENTIAL_ACCESS"
DISABLE_CHECKS = "GM_DIRECTIVE_DISABLE_CHECKS"
CONCEALMENT = "GM_DIRECTIVE_CONCEALMENT"
OVERRIDE = "GM_DIRECTIVE_OVERRIDE"

# What each class tells an agent to do, as review and the hook say it.
DIRECTIVE_CODES: dict[str, str] = {
    FETCH_AND_RUN: "tells agents to fetch code from the network and run it",
    EXFILTRATION: "tells agents to send data to an address",
    CREDENTIAL_ACCESS: "tells agents to read or print credentials or the environment",
    DISABLE_CHECKS: "tells agents to switch off checks (hooks, tests, CI, review)",
    CONCEALMENT: "tells agents to hide what they do from the person",
    OVERRIDE: "tells agents to override their instructions (or forges a role tag)",
}

# Words (lowercase) one of which every row of a class needs: text holding none of a class's
# words never compiles or runs its rows, so ordinary memory costs a few substring tests (the
# pre-commit hook's start is a budget: docs/performance.md).
CLASS_KEYWORDS: dict[str, tuple[str, ...]] = {
    FETCH_AND_RUN: (
        *("curl", "wget", "iwr ", "irm ", "invoke-", "downloadstring", "fetch", "download"),
        "pipe ",
        *("下载", "ダウンロード", "다운로드", "скача", "descarg", "baix", "herunterl", "lade "),
        "télécharg",
    ),
    EXFILTRATION: (
        *("curl", "wget", "httpie", "http ", "nc ", "ncat", "netcat", "send ", "post ", "upload"),
        *("forward ", "exfiltrat", "transmit", "mail ", "发送", "上传", "提交到", "送信", "送"),
        *("アップロード", "전송", "업로드", "보내", "отправ", "загруз", "перешл", "envía", "envia"),
        *("envie", "sube ", "suba ", "carrega", "manda ", "mande ", "sende ", "schick", "lade "),
        "envoie",
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
        *("ignore ", "跳过", "禁用", "关闭", "绕过", "忽略", "スキップ", "無効", "飛ばし", "省略"),
        *("回避", "건너뛰", "비활성화", "생략", "우회", "пропусти", "отключи", "обойди"),
        *("выключи", "игнорир", "omit", "salta", "pula ", "pule ", "desactiv", "desativ"),
        *("ignora ", "ignoriere", "ignorez"),
        *("überspring", "deaktivier", "umgeh", "schalte", "saute", "désactiv", "contourn"),
    ),
    CONCEALMENT: (
        *("tell", "inform ", "inform the", "mention", "notify", "reveal", "disclose", "without t"),
        *("without a", "without i", "without n", "without s", "hide"),
        *("silently", "keep this", "keep it", "告诉", "通知", "让", "悄悄", "偷偷", "瞒着"),
        *("言わ", "伝え", "知らせ", "こっそり", "黙って", "알리지", "말하지", "몰래", "говори"),
        *("сообщай", "рассказывай", "показывай", "незаметно", "втайне", "тайком", "digas"),
        *("informes", "avises", "menciones", "avisar", "decir", "conte ", "diga ", "avise"),
        *("mencione", "sag ", "sage ", "erzähl", "informiere", "heimlich", "dis ", "dites"),
        "mentionne",
        *("signale", "prévenir", "informer", "discrètement"),
    ),
    OVERRIDE: (
        *("ignore ", "disregard", "forget", "override", "bypass", "you are now", "instruction"),
        *("from now on", "<system", "</system", "<assistant", "<developer", "<instruction"),
        *("im_start", "im_end", "<|", "[inst]", "[/inst]", "<<sys>>", "system:", "system :"),
        *("system prompt", "忽略", "无视", "忘记", "忘掉", "無視", "忘れ", "무시", "잊", "игнорир"),
        *("забудь", "обращай", "ignora", "olvida", "esque", "ignoriere", "vergiss", "ignorez"),
        "oublie",
    ),
}

# The same words, only those an ASCII text can hold (most memory text is ASCII).
ASCII_KEYWORDS: dict[str, tuple[str, ...]] = {
    code: tuple(word for word in words if word.isascii()) for code, words in CLASS_KEYWORDS.items()
}

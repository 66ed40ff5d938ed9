"""A seventh blind corpus for the answer guard (values pasted into a form), written without looking at the guard.

It follows the format and the decisions of ``tests.corpora.blind_values`` (see its docstring). Every token
below is made up here from a seeded generator in the shape of a provider's format; none is real. Values
come bare and embedded the way people paste them: prose (English, Chinese, Japanese, Korean, Vietnamese,
Spanish, Portuguese, Russian...), log lines, JSON, YAML, ``.env`` files, shell history and config files.
Seed phrases are valid BIP-39 phrases (checksum included) built from seeded entropy with ``mnemonic``,
in English and in the other BIP-39 wordlists (Chinese, Japanese, Korean, Spanish, Portuguese).

Extra decisions:

- a pasted SMS that carries a live one-time code ("your code is 482913") is credential-like; a message
  *about* a code that carries none ("I never got the code") is ordinary.
- a masked or redacted value (``password: ********``, ``sk_live_…REDACTED``) and a placeholder
  (``password: <your-password>``, ``${DB_PASSWORD}``) are ordinary: they carry no secret.
- a DSN without a password (``postgres://app@db:5432/app``) is ordinary.
- a Stripe *publishable* key (``pk_live_…``), a Stripe object id (``cus_…``, ``pi_…``) and a Twilio
  account SID are ordinary; a secret/restricted key, a webhook signing secret and an auth token are not.
- an Ethereum/Bitcoin/Solana address, a transaction hash (with its label) and an ``xpub`` are ordinary;
  a raw private key (hex or WIF) and an ``xprv`` are credential-like.
- a docker image digest, an npm ``integrity`` hash and a ``sha256sum`` line are ordinary.
- a JSESSIONID/``connect.sid``/``sessionid`` cookie value is credential-like (it is a bearer of a session).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string

from mnemonic import Mnemonic

from tests.corpora.blind_values import Value

_rng = random.Random(7_20261202)
_ALNUM = string.ascii_letters + string.digits
_UPPER = string.ascii_uppercase + string.digits
_LOWER = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_URL = _ALNUM + "-_"
_B32 = string.ascii_uppercase + "234567"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _r(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:  # these positions are doubled once the check digit is appended
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def _card(prefix: str, length: int = 16) -> str:
    body = prefix + _r(string.digits, length - len(prefix) - 1)
    return body + _luhn_digit(body)


def _not_luhn(prefix: str, length: int = 16) -> str:
    good = _card(prefix, length)
    return good[:-1] + str((int(good[-1]) + 1 + _rng.randrange(8)) % 10)


def _groups(number: str, sep: str = " ") -> str:
    return sep.join(number[i : i + 4] for i in range(0, len(number), 4))


def _expiry() -> str:
    return f"{_rng.randint(1, 12):02d}/{_rng.randint(27, 32)}"


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _jwt(alg: str = "HS256") -> str:
    head = _b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    iat = 1_790_000_000 + _rng.randint(0, 10**6)
    claims = {"sub": str(_rng.randint(10**6, 10**9)), "iat": iat, "exp": iat + 3600}
    body = _b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{head}.{body}.{_r(_URL, 43 if alg.startswith('HS') else 342)}"


def _pem(kind: str, lines: int, start: str = "") -> str:
    body = start + _r(_B64, 64 * lines - len(start))
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {kind}-----\n" + "\n".join(rows) + f"\n-----END {kind}-----"


def _uuid() -> str:
    h = _r(_HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def _iban(country: str, bban: str) -> str:
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def _phrase(lang: str, nbytes: int = 16) -> str:
    return Mnemonic(lang).to_mnemonic(_rng.randbytes(nbytes))


def _pw() -> str:
    words = ["Sakura", "Mango", "Tiger", "Lotus", "Rio", "Hanoi", "Seoul", "Osaka", "Bali", "Volga"]
    return _rng.choice(words) + _r(string.digits, _rng.randint(2, 4)) + _rng.choice("!@#$%&*")


SECRETS: list[Value] = []
ORDINARY: list[Value] = []


def _s(value: str, kind: str) -> None:
    SECRETS.append(Value(value, True, kind))


def _o(value: str, kind: str) -> None:
    ORDINARY.append(Value(value, False, kind))


# --- credential-like ---------------------------------------------------------------------------------------

for _ in range(6):
    _kid, _sec = "AKIA" + _r(_UPPER, 16), _r(_B64, 40)
    _s(f"[default]\naws_access_key_id = {_kid}\naws_secret_access_key = {_sec}\nregion = ap-southeast-1", "aws")
for _ in range(3):
    _s(f"export AWS_ACCESS_KEY_ID={'AKIA' + _r(_UPPER, 16)}\nexport AWS_SECRET_ACCESS_KEY={_r(_B64, 40)}", "aws")
_s(
    f'{{"AccessKeyId": "ASIA{_r(_UPPER, 16)}", "SecretAccessKey": "{_r(_B64, 40)}", '
    f'"SessionToken": "{_r(_B64, 300)}"}}',
    "aws",
)

for _ in range(4):
    _s("ghp_" + _r(_ALNUM, 36), "github")
_s(f"git clone https://ghp_{_r(_ALNUM, 36)}@github.com/acme-vn/payments.git", "github")
_s(f"  503  export GITHUB_TOKEN=ghp_{_r(_ALNUM, 36)}\n  504  gh repo list", "github")
_s(f"github_pat_{_r(_ALNUM, 22)}_{_r(_ALNUM, 59)}", "github")
_s(f"Token của mình đây: github_pat_{_r(_ALNUM, 22)}_{_r(_ALNUM, 59)}", "github")
_s(f"GH_TOKEN: gho_{_r(_ALNUM, 36)}", "github")
_s(f"ghs_{_r(_ALNUM, 36)}", "github")
for _ in range(3):
    _s("glpat-" + _r(_URL, 20), "gitlab")
_s(f'[remote "origin"]\n\turl = https://oauth2:glpat-{_r(_URL, 20)}@gitlab.example.jp/infra/terraform.git', "gitlab")

for _p in ("xoxb", "xoxp", "xoxb", "xapp"):
    _s(f"{_p}-{_r(string.digits, 12)}-{_r(string.digits, 13)}-{_r(_ALNUM, 24)}", "slack")
for _ in range(3):
    _hook = f"https://hooks.slack.com/services/T{_r(_UPPER, 10)}/B{_r(_UPPER, 10)}/{_r(_ALNUM, 24)}"
    _s(_hook, "slack-webhook")
_s(f"SLACK_WEBHOOK_URL={_hook}", "slack-webhook")
for _ in range(3):
    _s(f"https://discord.com/api/webhooks/{_r(string.digits, 19)}/{_r(_URL, 68)}", "discord-webhook")
_s(f"DISCORD_TOKEN={_r(_URL, 26)}.{_r(_URL, 6)}.{_r(_URL, 38)}", "discord")
for _ in range(4):
    _s(f"{_rng.randint(10**9, 8 * 10**9)}:AA{_r(_URL, 33)}", "telegram")
_s(f"bot token телеграм: {_rng.randint(10**9, 8 * 10**9)}:AA{_r(_URL, 33)}", "telegram")

for _ in range(3):
    _s("sk_live_" + _r(_ALNUM, 99), "stripe")
_s("rk_live_" + _r(_ALNUM, 99), "stripe")
_s("whsec_" + _r(_ALNUM, 32), "stripe")
_s(f"STRIPE_SECRET_KEY=sk_live_{_r(_ALNUM, 24)}", "stripe")
for _ in range(3):
    _s(f"sk-proj-{_r(_URL, 74)}T3BlbkFJ{_r(_URL, 74)}", "openai")
_s(f'OPENAI_API_KEY="sk-proj-{_r(_URL, 48)}"', "openai")
for _ in range(3):
    _s(f"sk-ant-api03-{_r(_URL, 93)}AA", "anthropic")
for _ in range(4):
    _s("AIza" + _r(_URL, 35), "google")
_s(f"https://maps.googleapis.com/maps/api/geocode/json?address=Hanoi&key=AIza{_r(_URL, 35)}", "google")
for _ in range(3):
    _s(f"SG.{_r(_URL, 22)}.{_r(_URL, 43)}", "sendgrid")
for _ in range(3):
    _s(f"//registry.npmjs.org/:_authToken=npm_{_r(_ALNUM, 36)}", "npm")
_s("npm_" + _r(_ALNUM, 36), "npm")
for _ in range(2):
    _s("pypi-AgEIcHlwaS5vcmc" + _r(_URL, 150), "pypi")
_s(f"TWILIO_ACCOUNT_SID=AC{_r(_HEX, 32)}\nTWILIO_AUTH_TOKEN={_r(_HEX, 32)}", "twilio")
_s(f"twilio auth token là {_r(_HEX, 32)} nhé", "twilio")
for _ in range(3):
    _acct = _r(_LOWER, 12)
    _s(
        f"DefaultEndpointsProtocol=https;AccountName={_acct};AccountKey={_r(_B64, 86)}==;"
        "EndpointSuffix=core.windows.net",
        "azure",
    )

for _ in range(4):
    _s(_jwt(), "jwt")
_s(_jwt("RS256"), "jwt")
for _ in range(4):
    _s(f"Authorization: Bearer {_jwt()}", "auth-header")
_s(f'curl -H "Authorization: Bearer {_jwt()}" https://api.example.vn/v1/orders', "auth-header")
_s(f'{{"headers": {{"Authorization": "Bearer {_r(_URL, 40)}"}}}}', "auth-header")
for _user in ("admin", "ops", "nguyen.van.a", "tanaka"):
    _basic = base64.b64encode(f"{_user}:{_pw()}".encode()).decode()
    _s(f"Authorization: Basic {_basic}", "auth-header")
_s(f"Proxy-Authorization: Basic {base64.b64encode(f'proxy:{_pw()}'.encode()).decode()}", "auth-header")

_s(_pem("RSA PRIVATE KEY", 25, "MIIEowIBAAKCAQEA"), "pem-private")
_s(_pem("PRIVATE KEY", 26, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"), "pem-private")
_s(_pem("EC PRIVATE KEY", 3, "MHcCAQEEI"), "pem-private")
_s(
    _pem("OPENSSH PRIVATE KEY", 7, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"),
    "pem-private",
)
_s("đây là key server của mình:\n" + _pem("OPENSSH PRIVATE KEY", 7, "b3BlbnNzaC1rZXktdjEAAAAA"), "pem-private")
_s(_pem("ENCRYPTED PRIVATE KEY", 20, "MIIFHDBOBgkqhkiG9w0BBQ0wQTAp"), "pem-private")
_s(
    json.dumps(
        {
            "type": "service_account",
            "project_id": "clinic-portal-" + _r(_LOWER, 6),
            "private_key_id": _r(_HEX, 40),
            "private_key": _pem("PRIVATE KEY", 26, "MIIEvAIBADANBgkqhkiG9w0BAQEFAASC") + "\n",
        }
    ),
    "pem-private",
)
_s(_pem("PGP PRIVATE KEY BLOCK", 18, "lQOYBGV"), "pem-private")

_DSN_HOSTS = ("db.internal", "10.0.3.12", "pg-prod.ap-northeast-1.rds.amazonaws.com", "mysql.kr-central", "localhost")
for _scheme, _port in (("postgres", 5432), ("postgresql", 5432), ("mysql", 3306), ("mariadb", 3306)):
    _s(f"{_scheme}://app_user:{_pw()}@{_rng.choice(_DSN_HOSTS)}:{_port}/hospital", "dsn")
_s(f"mongodb+srv://wallet_svc:{_r(_ALNUM, 16)}@cluster0.{_r(_LOWER, 5)}.mongodb.net/?retryWrites=true", "dsn")
_s(f"redis://:{_r(_ALNUM, 24)}@cache.internal:6379/0", "dsn")
_s(f"rediss://default:{_r(_ALNUM, 32)}@apn1-sweet-{_r(_LOWER, 5)}.upstash.io:6379", "dsn")
_s(f"amqp://rabbit:{_pw()}@mq.internal:5672/%2F", "dsn")
_s(f"DATABASE_URL=postgres://postgres:{_pw()}@127.0.0.1:5432/app", "dsn")
_s(f"jdbc:sqlserver://sql01:1433;databaseName=HIS;user=sa;password={_pw()};encrypt=true", "dsn")
_s(f"Server=tcp:erp.database.windows.net,1433;Database=erp;User ID=erp;Password={_pw()};", "dsn")
_s(f"spring:\n  datasource:\n    url: jdbc:mysql://db:3306/shop\n    username: shop\n    password: {_pw()}", "dsn")

_PW_LINES = (
    "password: {}",
    "DB_PASSWORD={}",
    '{{"username": "dev", "password": "{}"}}',
    "my password is {} pls dont share",
    "密码：{}",
    "登入密碼是 {}",
    "パスワードは {} です",
    "비밀번호: {}",
    "mật khẩu: {}",
    "kata sandi saya {}",
    "senha: {}",
    "a senha do wifi é {}",
    "contraseña: {}",
    "mi clave es {}",
    "пароль: {}",
    "Пароль от почты {}",
    "पासवर्ड: {}",
    "รหัสผ่าน {}",
    "user=root pass={}",
    "mysql -u root -p'{}' -h 127.0.0.1",
    "sshpass -p '{}' ssh deploy@10.1.2.3",
    "wifi_psk={}",
)
for _line in _PW_LINES:
    _s(_line.format(_pw()), "password-line")

_CARD_FORMS = (
    "{num} {exp} {cvv}",
    "Card: {num}\nExp: {exp}\nCVV: {cvv}",
    "卡号 {num} 有效期 {exp} 安全码 {cvv}",
    "カード番号 {num} 有効期限 {exp} セキュリティコード {cvv}",
    "카드번호 {num} / 유효기간 {exp} / CVC {cvv}",
    "số thẻ {num}, hết hạn {exp}, CVV {cvv}",
    "número do cartão {num} validade {exp} cvv {cvv}",
    "tarjeta {num} vence {exp} código {cvv}",
    "номер карты {num}, срок {exp}, CVC {cvv}",
    '{{"pan": "{num}", "exp": "{exp}", "cvc": "{cvv}"}}',
)
for _i, _form in enumerate(_CARD_FORMS * 2):
    _num = _card(("4", "51", "55", "2221", "35", "62", "37")[_i % 7], 15 if _i % 7 == 6 else 16)
    _shown = _num if _i % 3 == 0 else _groups(_num, "-" if _i % 3 == 1 else " ")
    _cvv = _r(string.digits, 4 if _num.startswith("37") else 3)
    _s(_form.format(num=_shown, exp=_expiry(), cvv=_cvv), "card")

for _ in range(6):
    _s(_phrase("english"), "seed-phrase")
for _ in range(3):
    _s(_phrase("english", 32), "seed-phrase")
_s(f"seed: {_phrase('english')}", "seed-phrase")
_s(f'{{"mnemonic": "{_phrase("english", 20)}"}}', "seed-phrase")
_s(f"助记词：{_phrase('chinese_simplified')}", "seed-phrase")
_s(_phrase("chinese_traditional"), "seed-phrase")
_s(_phrase("japanese"), "seed-phrase")
_s(f"복구 구문: {_phrase('korean')}", "seed-phrase")
_s(f"mis 12 palabras: {_phrase('spanish')}", "seed-phrase")
_s(_phrase("portuguese"), "seed-phrase")
_s(f"xprv9s21ZrQH143K{_r(_B58, 95)}", "wallet-key")
for _ in range(3):
    _s("0x" + _r(_HEX, 64) if _ % 2 else "private key: " + _r(_HEX, 64), "wallet-key")
_s(_rng.choice("KL") + _r(_B58, 51), "wallet-key")
_s(f"Solana keypair: [{', '.join(str(_rng.randrange(256)) for _ in range(64))}]", "wallet-key")

for _ in range(3):
    _s(_r(_B32, 32), "totp")
for _issuer in ("VNeID", "Shopee", "Binance", "GitHub"):
    _s(f"otpauth://totp/{_issuer}:user%40mail.com?secret={_r(_B32, 32)}&issuer={_issuer}&digits=6", "totp")
_s(f"2FA backup key: {' '.join(_r(_B32, 4) for _ in range(8))}", "totp")
_s(f"recovery codes:\n{chr(10).join(_r(_LOWER, 5) + '-' + _r(_LOWER, 5) for _ in range(8))}", "recovery-codes")

_s(f"Cookie: sessionid={_r(_LOWER, 32)}; csrftoken={_r(_ALNUM, 32)}", "cookie")
_s(f"connect.sid=s%3A{_r(_URL, 32)}.{_r(_URL, 43)}", "cookie")
_s(f"JSESSIONID={_r(_HEX.upper(), 32)}", "cookie")
_s(f"laravel_session={_r(_ALNUM, 200)}%3D%3D", "cookie")
_s(f"Set-Cookie: __Secure-next-auth.session-token={_jwt()}; Path=/; HttpOnly; Secure", "cookie")
_s(f"document.cookie: _shopify_s={_uuid()}; remember_user_token={_r(_URL, 120)}", "cookie")

for _code in range(8):
    _otp = _r(string.digits, 6)
    _s(
        (
            f"Your verification code is {_otp}. Do not share it with anyone.",
            f"【某某银行】验证码{_otp}，您正在进行转账操作，5分钟内有效，请勿泄露。",
            f"[Web발신] 인증번호 [{_otp}]를 입력해주세요.",
            f"認証コード: {_otp}（10分間有効）",
            f"Mã OTP của bạn là {_otp}. Không chia sẻ mã này.",
            f"Seu código de verificação é {_otp}",
            f"Код подтверждения: {_otp}. Никому не сообщайте его.",
            f"<#> {_otp} is your login code. Don't share it. abc123XYZ",
        )[_code],
        "otp-sms",
    )
_s(
    f'{{"auths": {{"registry.example.io": {{"auth": "{base64.b64encode(f"ci:{_pw()}".encode()).decode()}"}}}}}}',
    "docker-auth",
)
_s(f"users:\n- name: admin\n  user:\n    token: {_jwt('RS256')}", "kubeconfig")
_s(f"HF_TOKEN=hf_{_r(string.ascii_letters, 34)}", "huggingface")
_s(f"LINE_CHANNEL_SECRET={_r(_HEX, 32)}\nLINE_CHANNEL_ACCESS_TOKEN={_r(_B64, 172)}=", "line")
_s(f"微信 AppSecret: {_r(_HEX, 32)}", "wechat")
_s(
    f"alipay:\n  app_id: 2021{_r(string.digits, 12)}\n  private_key: MIIEvQIBADANBgkqhkiG9w0BAQEFAASC{_r(_B64, 120)}",
    "alipay",
)
_s(f"DO_TOKEN=dop_v1_{_r(_HEX, 64)}", "digitalocean")


# --- ordinary look-alikes ----------------------------------------------------------------------------------

for _ in range(5):
    _o(_r(_HEX, 40), "git-hash")
_AUTHORS = ("Nguyễn Văn An", "田中 太郎", "김민준", "Priya Raman", "João Silva")
_o(
    "\n".join(f"{_r(_HEX, 7)} {m}" for m in ("fix: token refresh race", "docs: password policy", "feat: OTP length")),
    "git-log",
)
for _name in _AUTHORS:
    _o(f"commit {_r(_HEX, 40)}\nAuthor: {_name} <dev@example.com>\nDate:   Tue Dec 1 10:02:33 2026 +0700", "git-log")
_o(f"Merge pull request #{_rng.randint(100, 9999)} from acme/fix-session-timeout ({_r(_HEX, 12)})", "git-log")
for _ in range(5):
    _o(_uuid(), "uuid")
_o(_uuid().upper(), "uuid")
for _lvl in ("INFO", "WARN", "ERROR", "INFO", "DEBUG", "INFO"):
    _o(
        f"2026-12-01T09:{_rng.randint(10, 59)}:{_rng.randint(10, 59)}Z {_lvl} request_id={_uuid()} "
        f"trace_id={_r(_HEX, 32)} path=/api/v1/login status={_rng.choice((200, 401, 429))} "
        f"dur={_rng.randint(3, 900)}ms",
        "log-line",
    )
_o(
    f'{{"level":"info","msg":"token refreshed","user_id":{_rng.randint(1000, 99999)},"span":"{_r(_HEX, 16)}"}}',
    "log-line",
)
_o(f"[auth] password reset email sent to u***@gmail.com (req {_r(_HEX, 12)})", "log-line")
_o(f"W1201 08:12:44.001 kubelet.go:2183] Pod sandbox {_r(_HEX, 64)} not ready", "log-line")

for _c in ("dev@laptop", "deploy@ci", "nguyen@macbook", "root@bastion"):
    _o(f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(_B64, 43)} {_c}", "public-key")
for _ in range(3):
    _o(f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{_r(_B64, 520)} user@host", "public-key")
_o(f"ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{_r(_B64, 87)}=", "public-key")
_o(_pem("PUBLIC KEY", 6, "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"), "public-key")
_o(_pem("PUBLIC KEY", 2, "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"), "public-key")
_o(_pem("RSA PUBLIC KEY", 5, "MIIBCgKCAQEA"), "public-key")
for _ in range(3):
    _o(_pem("CERTIFICATE", 20, "MIIDdzCCAl+gAwIBAgIE"), "certificate")
_o(_pem("CERTIFICATE REQUEST", 14, "MIICvDCCAaQCAQAwdzEL"), "certificate")
_o(_pem("PGP PUBLIC KEY BLOCK", 16, "mQINBGV"), "public-key")
_o(f"SHA256:{_r(_B64, 43)} (ED25519)", "key-fingerprint")
_o(f"Key fingerprint = {' '.join(_r(_HEX.upper(), 4) for _ in range(10))}", "key-fingerprint")

for _ in range(3):
    _o(f"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{_r(_B64, 300)}=", "base64-image")
_o(f"data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/{_r(_B64, 400)}", "base64-image")
_o(f'<img src="data:image/gif;base64,R0lGODlhAQABAIAAA{_r(_B64, 40)}==" alt="logo">', "base64-image")
_o(f"data:font/woff2;base64,d09GMgABAAAAA{_r(_B64, 200)}", "base64-image")

for _c, _bban in (
    ("DE", "37040044" + _r(string.digits, 10)),
    ("GB", "NWBK" + _r(string.digits, 14)),
    ("FR", _r(string.digits, 10) + _r(_UPPER, 11) + _r(string.digits, 2)),
    ("BR", _r(string.digits, 23) + "C1"),
    ("VN", _r(string.digits, 20)),
    ("KZ", _r(string.digits, 3) + _r(_UPPER, 13)),
    ("GE", "TB" + _r(string.digits, 16)),
    ("PK", "SCBL" + _r(string.digits, 16)),
):
    _ib = _iban(_c, _bban)
    _o(_ib if _c in "DE GB FR" else " ".join(_ib[i : i + 4] for i in range(0, len(_ib), 4)), "iban")

_o(f"1Z{_r(_UPPER, 6)}{_r(string.digits, 10)}", "tracking")
_o(
    f"9400 1{_r(string.digits, 3)} {_r(string.digits, 4)} {_r(string.digits, 4)} "
    f"{_r(string.digits, 4)} {_r(string.digits, 2)}",
    "tracking",
)
_o(f"顺丰单号：SF{_r(string.digits, 13)}", "tracking")
_o(f"운송장 번호 {_r(string.digits, 12)} (CJ대한통운)", "tracking")
_o(f"Mã vận đơn GHN: G{_r(_UPPER, 7)}", "tracking")
_o(f"Código de rastreio: {_r(string.ascii_uppercase, 2)}{_r(string.digits, 9)}BR", "tracking")
_o(f"Трек-номер: RA{_r(string.digits, 9)}RU", "tracking")
_o(f"お問い合わせ伝票番号 {_r(string.digits, 4)}-{_r(string.digits, 4)}-{_r(string.digits, 4)}", "tracking")

for _i in range(8):
    _bad = _not_luhn(("4", "51", "35", "62")[_i % 4])
    _o(_bad if _i % 2 else f"Order #{_groups(_bad, '-')}", "luhn-invalid")
_o(f"订单号 {_r(string.digits, 19)}", "order-number")
_o(f"Visa ending in {_r(string.digits, 4)}, expires {_expiry()}", "card-last4")
_o(f"尾号{_r(string.digits, 4)}的储蓄卡", "card-last4")
_o(f"Thẻ Mastercard **** **** **** {_r(string.digits, 4)}", "card-last4")
_o(f"cartão final {_r(string.digits, 4)}", "card-last4")

_PROSE = (
    "I forgot my password and the reset email never arrives. What should I do?",
    "How long should a password be? Our policy says 12 characters minimum.",
    "The OTP expired before I could type it, can you send a new one?",
    "I never got the verification code on my phone.",
    "Is it safe to store the seed phrase in a password manager?",
    "忘记密码了，怎么重置？",
    "验证码一直收不到，是不是号码填错了？",
    "パスワードを忘れました。再設定の方法を教えてください。",
    "認証コードが届きません。",
    "비밀번호를 잊어버렸어요. 어떻게 재설정하나요?",
    "인증번호가 안 와요",
    "Tôi quên mật khẩu, làm sao để đặt lại?",
    "Tôi không nhận được mã OTP.",
    "Esqueci minha senha, como faço para redefinir?",
    "Não recebi o código por SMS.",
    "Olvidé mi contraseña y no me llega el correo.",
    "No me llegó el código de verificación.",
    "Забыл пароль, как восстановить доступ?",
    "Код из СМС не приходит уже 10 минут.",
    "मैं अपना पासवर्ड भूल गया हूँ, कैसे बदलूँ?",
    "Saya lupa kata sandi, bagaimana cara meresetnya?",
    "ลืมรหัสผ่าน ต้องทำอย่างไร",
    "Nakalimutan ko ang password ko, paano i-reset?",
    "Please never ask customers for their PIN or CVV over chat.",
    "Your private key never leaves your device; we only see your public address.",
)
for _t in _PROSE:
    _o(_t, "prose")

_CJK = (
    "今天天气很好，我们去公园散步吧。",
    "請於本週五前完成報名手續，逾期不候。",
    "東京駅から新幹線で大阪まで約2時間半です。",
    "다음 주 월요일 오전 10시에 회의가 있습니다.",
    "这批货物预计下周三到达上海港。",
    "本店營業時間為上午十點至晚上九點。",
    "ご注文ありがとうございます。発送まで3営業日ほどお待ちください。",
    "서울특별시 강남구 테헤란로 123, 4층",
    "上海市浦东新区世纪大道100号",
    "〒150-0002 東京都渋谷区渋谷2-21-1",
)
for _t in _CJK:
    _o(_t, "cjk-prose")

_o(
    '!function(e,t){"use strict";var n=t.createElement("script");n.async=!0,n.src=e,t.head.appendChild(n)}'
    '("/static/app.min.js",document);',
    "minified-js",
)
_o('var a=function(t){return t.split("").reverse().join("")},b=a("olleh");console.log(b);', "minified-js")
_o(
    '(()=>{"use strict";const e=document.querySelector("#password");e&&e.addEventListener("input",t=>{'
    'const n=t.target.value.length;document.querySelector("#meter").value=Math.min(n/12,1)})})();',
    "minified-js",
)
_o(f'function s(t){{const e="{_r(_B64, 60)}";return btoa(t+e.length)}}', "minified-js")
_o(
    'export default{name:"LoginForm",data:()=>({token:null,otpLength:6}),methods:{submit(){this.$emit("ok")}}};',
    "minified-js",
)
_o(f"//# sourceMappingURL=data:application/json;base64,{_r(_B64, 180)}", "minified-js")

for _f in ("app-linux-amd64.tar.gz", "installer.exe", "dataset.parquet"):
    _o(f"{hashlib.sha256(_f.encode() + _rng.randbytes(8)).hexdigest()}  {_f}", "checksum")
for _ in range(3):
    _o(f"sha256:{_r(_HEX, 64)}", "digest")
_o(f"ghcr.io/acme/api@sha256:{_r(_HEX, 64)}", "digest")
_o(f'"integrity": "sha512-{_r(_B64, 86)}=="', "integrity")
_o(f"md5: {_r(_HEX, 32)}", "checksum")
_o(f'ETag: W/"{_r(_HEX, 32)}"', "checksum")

for _ in range(4):
    _o("0x" + _r(_HEX, 40), "wallet-address")
_o(f"Gửi USDT (TRC-20) đến ví: T{_r(_B58, 33)}", "wallet-address")
_o(f"bc1q{_r('023456789acdefghjklmnpqrstuvwxyz', 38)}", "wallet-address")
_o(f"Solana address: {_r(_B58, 44)}", "wallet-address")
_o(f"我的收款地址 0x{_r(_HEX, 40)}，请转 ERC-20 USDT", "wallet-address")
for _ in range(3):
    _o(f"Tx hash: 0x{_r(_HEX, 64)}", "tx-hash")
_o(f"https://etherscan.io/tx/0x{_r(_HEX, 64)}", "tx-hash")
_o(f"xpub661MyMwAqRbcF{_r(_B58, 94)}", "xpub")
_o("derivation path: m/44'/60'/0'/0/0", "wallet-setting")
_o('{"chainId": 137, "gasLimit": "0x5208", "maxFeePerGas": "0x9502f900", "nonce": 42}', "wallet-setting")
_o("token: USDC, network: Polygon, amount: 250.00", "wallet-setting")

for _ in range(3):
    _o("pk_live_" + _r(_ALNUM, 99), "stripe-publishable")
_o(f"Stripe.setPublishableKey('pk_test_{_r(_ALNUM, 24)}');", "stripe-publishable")
for _p in ("cus_", "pi_", "price_", "sub_", "ch_"):
    _o(_p + _r(_ALNUM, 14 if _p != "pi_" else 24), "stripe-id")
_o(f"Twilio account SID: AC{_r(_HEX, 32)}", "twilio-sid")

for _u in (
    "postgres://app@db.internal:5432/app",
    "postgresql://localhost/clinic",
    "mysql://readonly@10.0.3.12:3306/reports",
    "redis://cache.internal:6379/0",
    "mongodb://mongo-0.mongo,mongo-1.mongo:27017/?replicaSet=rs0",
    "amqp://mq.internal:5672/%2F",
):
    _o(_u, "dsn-no-password")

for _m in (
    "password: ********",
    "DB_PASSWORD=${DB_PASSWORD}",
    "password: <your-password>",
    '{"password": "[REDACTED]"}',
    "sk_live_...REDACTED",
    "Authorization: Bearer <token>",
    "export GITHUB_TOKEN=<paste token here>",
    "senha: ••••••••",
    "密码：******",
    "api_key: {{ vault('secret/data/app#api_key') }}",
):
    _o(_m, "masked")

_EVERYDAY = [
    "the",
    "cat",
    "sat",
    "on",
    "a",
    "warm",
    "mat",
    "near",
    "our",
    "small",
    "blue",
    "house",
    "by",
    "quiet",
    "river",
    "today",
]
for _ in range(4):
    _o(" ".join(_rng.sample(_EVERYDAY, 12)), "word-list")
_o("apple banana orange grape lemon mango peach cherry melon kiwi plum papaya", "word-list")
_o("monday tuesday wednesday thursday friday saturday sunday january february march april may", "word-list")

for _x in (
    f"ISBN 978-604-{_r(string.digits, 2)}-{_r(string.digits, 4)}-{_r(string.digits, 1)}",
    f"+84 9{_r(string.digits, 2)} {_r(string.digits, 3)} {_r(string.digits, 3)}",
    f"+81 90-{_r(string.digits, 4)}-{_r(string.digits, 4)}",
    f"010-{_r(string.digits, 4)}-{_r(string.digits, 4)}",
    "#1E90FF",
    f"CPF {_r(string.digits, 3)}.{_r(string.digits, 3)}.{_r(string.digits, 3)}-{_r(string.digits, 2)}",
    f"Aadhaar XXXX XXXX {_r(string.digits, 4)}",
    f"CURP {_r(string.ascii_uppercase, 4)}{_r(string.digits, 6)}H"
    f"{_r(string.ascii_uppercase, 5)}0{_r(string.digits, 1)}",
    f"NIK {_r(string.digits, 16)}",
    f"СНИЛС {_r(string.digits, 3)}-{_r(string.digits, 3)}-{_r(string.digits, 3)} {_r(string.digits, 2)}",
    f"MRN: {_r(string.digits, 8)}",
    f"patient_id={_uuid()}",
):
    _o(_x, "identifier")

_o(json.dumps({"max_tokens": 1024, "temperature": 0.2, "model": "gpt-4o-mini", "seed": 42}), "config")
_o(json.dumps({"password_min_length": 12, "otp_length": 6, "session_timeout": 900, "mfa": True}), "config")
_o("auth:\n  token_ttl: 3600\n  refresh_token_ttl: 2592000\n  password_policy: strong", "config")
_o("[server]\nhost = 0.0.0.0\nport = 8080\nsecret_name = prod/api/stripe\n", "config")
_o(f"KMS key ARN: arn:aws:kms:ap-southeast-1:{_r(string.digits, 12)}:key/{_uuid()}", "config")
_o(f"vault kv get -field=value secret/data/clinic/{_r(_LOWER, 6)}", "config")
_o(f"client_id: {_r(string.digits, 12)}-{_r(_LOWER, 32)}.apps.googleusercontent.com", "config")
_o(f"Request {_r(_UPPER, 26)} failed: 401 Unauthorized (token expired)", "log-line")
_o(f"https://www.youtube.com/watch?v={_r(_URL, 11)}", "url")
_o(f"https://drive.google.com/file/d/{_r(_URL, 33)}/view", "url")
_o("https://example.vn/reset-password (trang đặt lại mật khẩu)", "url")


VALUES: list[Value] = SECRETS + ORDINARY

assert len({str(v.value) for v in VALUES}) == len(VALUES), "duplicate value"

BLIND = {
    "refused": (196, 204), "accepted": (198, 202), "scored_at": "bab8453",
    "note": "scored on arrival (merge bab8453), unchanged, before any tuning on it",
}

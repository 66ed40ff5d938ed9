"""A blind corpus for the answer guard (values pasted into a form), written without looking at the guard.

Every token below is made up here (random characters in the shape of a provider's format); none is real.
Decisions on the ambiguous ones:

- prose that only *mentions* a password ("I forgot my password") is ordinary; a value that carries one
  ("password: hunter2", a DSN with a password, a Basic header) is credential-like.
- a git commit hash, a UUID, an IBAN, an ISBN, a hex colour, a Luhn-invalid long number: ordinary.
- a public key (SSH ``ssh-ed25519 AAAA…``, a PEM PUBLIC KEY, a certificate) is ordinary; only private halves count.
- twelve everyday English words are ordinary unless they all come from the BIP-39 list in a valid phrase.
"""

from __future__ import annotations

import random
import string
from typing import Any, NamedTuple


class Value(NamedTuple):
    value: Any
    secret: bool
    kind: str


_rng = random.Random(20261201)
_ALNUM = string.ascii_letters + string.digits
_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"


def _r(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _luhn_complete(prefix: str, length: int) -> str:
    body = prefix + "".join(_rng.choice(string.digits) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return body + str((10 - total % 10) % 10)


def _luhn_broken(prefix: str, length: int) -> str:
    good = _luhn_complete(prefix, length)
    return good[:-1] + str((int(good[-1]) + 3) % 10)


def _group(number: str, sep: str) -> str:
    return sep.join(number[i:i + 4] for i in range(0, len(number), 4))


def _jwt() -> str:
    return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJ" + _r(_URLSAFE, 60) + "." + _r(_URLSAFE, 43)


def _pem(kind: str) -> str:
    body = "\n".join(_r(_B64, 64) for _ in range(6))
    return f"-----BEGIN {kind}-----\n{body}\n-----END {kind}-----"


_BIP39_PHRASES = [
    # Valid BIP-39 test phrases (the reference test vectors and well-known examples; none guards any funds).
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
    "legal winner thank year wave sausage worth useful legal winner thank yellow",
    "letter advice cage absurd amount doctor acoustic avoid letter advice cage above",
    "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong",
    "ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
    "gravity machine north sort system female filter attitude volume fold club stay feature office ecology "
    "stable narrow fog",
    "hamster diagram private dutch cause delay private meat slide toddler razor book happy fancy gospel tennis "
    "maple dilemma loan word shrug inflict delay length",
    "scheme spot photo card baby mountain device kick cradle pact join borrow",
]


def _secrets() -> list[Value]:
    out: list[Value] = []
    add = lambda v, k: out.append(Value(v, True, k))  # noqa: E731
    # Payment cards: several brands, separators, surrounding text.
    for prefix, length in [("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15),
                           ("6011", 16), ("35", 16), ("36", 14), ("62", 16), ("4", 19), ("5018", 16)]:
        n = _luhn_complete(prefix, length)
        add(n, "card")
        add(_group(n, " "), "card")
        add(_group(n, "-"), "card")
    add("my card is " + _group(_luhn_complete("4", 16), " ") + " exp 09/28", "card")
    add(int(_luhn_complete("4", 16)), "card-int")
    # Provider tokens.
    for _ in range(2):
        add("sk_live_" + _r(_ALNUM, 24), "stripe")
        add("rk_live_" + _r(_ALNUM, 24), "stripe")
        add("ghp_" + _r(_ALNUM, 36), "github")
        add("gho_" + _r(_ALNUM, 36), "github")
        add("github_pat_" + _r(_ALNUM, 22) + "_" + _r(_ALNUM, 59), "github")
        add("xoxb-" + _r(string.digits, 11) + "-" + _r(string.digits, 12) + "-" + _r(_ALNUM, 24), "slack")
        add("xoxp-" + _r(string.digits, 11) + "-" + _r(string.digits, 12) + "-" + _r(_HEX, 32), "slack")
        add("AKIA" + _r(string.ascii_uppercase + "234567", 16), "aws")
        add("ASIA" + _r(string.ascii_uppercase + "234567", 16), "aws")
        add("AIza" + _r(_URLSAFE, 35), "google")
        add("sk-proj-" + _r(_URLSAFE, 48), "openai")
        add("sk-" + _r(_ALNUM, 48), "openai")
        add("sk-ant-api03-" + _r(_URLSAFE, 93) + "AA", "anthropic")
        add("glpat-" + _r(_URLSAFE, 20), "gitlab")
        add("npm_" + _r(_ALNUM, 36), "npm")
        add("pypi-AgEIcHlwaS5vcmc" + _r(_URLSAFE, 60), "pypi")
        add("hf_" + _r(_ALNUM, 34), "huggingface")
        add("SG." + _r(_URLSAFE, 22) + "." + _r(_URLSAFE, 43), "sendgrid")
        add("shpat_" + _r(_HEX, 32), "shopify")
        add("dop_v1_" + _r(_HEX, 64), "digitalocean")
        add("https://hooks.slack.com/services/T" + _r(_UPPER, 8) + "/B" + _r(_UPPER, 8) + "/" + _r(_ALNUM, 24),
            "webhook")
        add("whsec_" + _r(_ALNUM, 32), "webhook-secret")
    # JWTs and auth headers.
    for _ in range(4):
        add(_jwt(), "jwt")
    add("Bearer " + _jwt(), "bearer")
    add("Bearer " + _r(_ALNUM, 40), "bearer")
    add("Authorization: Bearer " + _r(_URLSAFE, 32), "bearer")
    add("bearer " + _r(_ALNUM, 32), "bearer")
    add("Basic dXNlcjpodW50ZXIy", "basic")
    add("Authorization: Basic YWRtaW46czNjcjN0UGFzcw==", "basic")
    add("Cookie: sessionid=" + _r(_ALNUM, 32) + "; csrftoken=" + _r(_ALNUM, 32), "cookie")
    add("session=" + _r(_URLSAFE, 40) + "; Path=/; HttpOnly", "cookie")
    # Private keys.
    for kind in ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY",
                 "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]:
        add(_pem(kind), "private-key")
    add("  " + _pem("PRIVATE KEY") + "\n", "private-key")
    add(_pem("RSA PRIVATE KEY").replace("\n", "\r\n"), "private-key")
    add('{"type": "service_account", "project_id": "demo", "private_key": "' + _pem("PRIVATE KEY").replace("\n", "\\n")
        + '"}', "service-account")
    # Connection strings with passwords.
    add("postgres://app:" + _r(_ALNUM, 16) + "@db.internal:5432/app", "dsn")
    add("postgresql://admin:hunter2@10.0.0.5/prod", "dsn")
    add("mysql://root:" + _r(_ALNUM, 12) + "@localhost:3306/shop", "dsn")
    add("mongodb+srv://svc:" + _r(_ALNUM, 14) + "@cluster0.example.mongodb.net/?retryWrites=true", "dsn")
    add("redis://:" + _r(_ALNUM, 20) + "@cache:6379/0", "dsn")
    add("amqp://guest:" + _r(_ALNUM, 10) + "@rabbit:5672/", "dsn")
    add("Server=tcp:sql.example.net;Database=app;User Id=sa;Password=" + _r(_ALNUM, 14) + ";", "dsn")
    add("DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=" + _r(_B64, 86) + "==;EndpointSuffix=core."
        "windows.net", "dsn")
    add("https://deploy:" + _r(_ALNUM, 20) + "@git.example.com/repo.git", "dsn")
    # Key=value secrets and labelled passwords.
    add("password=" + _r(_ALNUM, 12), "kv")
    add("password: hunter2", "kv")
    add("PASSWORD=Tr0ub4dor&3", "kv")
    add("api_key=" + _r(_HEX, 32), "kv")
    add("AWS_SECRET_ACCESS_KEY=" + _r(_B64, 40), "kv")
    add("client_secret: " + _r(_URLSAFE, 40), "kv")
    add('{"access_token": "' + _r(_URLSAFE, 40) + '", "token_type": "Bearer"}', "kv")
    add("export GITHUB_TOKEN=ghp_" + _r(_ALNUM, 36), "kv")
    add("mot de passe : " + _r(_ALNUM, 10), "kv-intl")
    add("contraseña: " + _r(_ALNUM, 10), "kv-intl")
    add("Passwort: " + _r(_ALNUM, 10), "kv-intl")
    add("пароль: " + _r(_ALNUM, 10), "kv-intl")
    add("密码：" + _r(_ALNUM, 10), "kv-intl")
    # Recovery phrases.
    for phrase in _BIP39_PHRASES:
        add(phrase, "bip39")
    add(_BIP39_PHRASES[1].upper(), "bip39")
    add("\n".join(_BIP39_PHRASES[4].split()), "bip39")
    add(", ".join(_BIP39_PHRASES[7].split()), "bip39")
    add(" ".join(f"{i + 1}. {w}" for i, w in enumerate(_BIP39_PHRASES[4].split())), "bip39")
    # More providers and formats.
    add("SK" + _r(_HEX, 32), "twilio")
    add("key-" + _r(_HEX, 32), "mailgun")
    add("sq0atp-" + _r(_URLSAFE, 22), "square")
    add(_r(string.digits, 10) + ":AA" + _r(_URLSAFE, 33), "telegram")
    add("ya29." + _r(_URLSAFE, 120), "google-oauth")
    add("ATATT3xFfGF0" + _r(_URLSAFE, 180), "atlassian")
    add("lin_api_" + _r(_ALNUM, 40), "linear")
    add("hvs." + _r(_ALNUM, 24), "vault")
    add("AGE-SECRET-KEY-1" + _r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58), "age")
    add("[Interface]\nPrivateKey = " + _r(_B64, 43) + "=\nAddress = 10.0.0.2/32", "wireguard")
    add("https://example.blob.core.windows.net/c/f.txt?sv=2022-11-02&sig=" + _r(_B64, 43) + "%3D", "sas")
    add("xprv9s21ZrQH143K" + _r("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 95), "xprv")  # base58
    add("my 2FA code is 492817", "otp")
    add("PIN: 4829", "kv")
    add("Kennwort = " + _r(_ALNUM, 12), "kv-intl")
    add("senha: " + _r(_ALNUM, 10), "kv-intl")
    add("hasło: " + _r(_ALNUM, 10), "kv-intl")
    add("パスワード: " + _r(_ALNUM, 10), "kv-intl")
    # Nested values.
    add(["ok", "ghp_" + _r(_ALNUM, 36)], "nested")
    add({"note": "here", "key": "sk_live_" + _r(_ALNUM, 24)}, "nested")
    add({"card": {"number": _luhn_complete("4", 16)}}, "nested")
    # Look-alike / spacing tricks on tokens.
    add("\u200bsk_live_" + _r(_ALNUM, 24), "trick")
    add("ｇｈｐ＿" + _r(_ALNUM, 36), "trick")
    add(" " + _group(_luhn_complete("4", 16), "\u00a0") + " ", "trick")
    add(_group(_luhn_complete("5", 16), "."), "trick")
    return out


_ORDINARY_STRINGS = [
    "Ada Lovelace", "José Álvarez", "Zoë O'Brien", "李小龙", "山田太郎", "Ольга Петрова", "محمد علي", "דוד כהן",
    "ada@example.com", "support+billing@example.org", "+44 20 7946 0958", "+1 (555) 010-9999", "0049 30 1234567",
    "221B Baker Street, London", "1600 Amphitheatre Parkway", "Karl-Marx-Allee 12, 10178 Berlin",
    "2026-12-01", "01/12/2026", "09:30", "2026-12-01T09:30:00Z", "next Tuesday",
    "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "123e4567-e89b-12d3-a456-426614174000",
    "da39a3ee5e6b4b0d3255bfef95601890afd80709", "0f697e6", "4b358c9a1c2e",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "#ff8800", "rgb(12, 34, 56)", "978-3-16-148410-0", "ISBN 0-306-40615-2",
    "GB82WEST12345698765432", "DE89 3704 0044 0532 0130 00", "FR14 2004 1010 0505 0001 3M02 606",
    "v2.3.0", "1.0.0-rc.1", "/usr/local/bin/python3", "C:\\Users\\ada\\Documents\\report.docx",
    "https://example.com/docs/getting-started", "https://github.com/python/cpython/pull/12345",
    "https://example.com/reset-password", "https://api.example.com/v1/tokens?limit=10",
    "postgres://db.internal:5432/app", "redis://cache:6379/0", "mysql://localhost/shop",
    "I forgot my password, can you send a reset link?", "The password policy requires 12 characters.",
    "Use a passphrase of at least four words.", "Our API key rotation runs every 90 days.",
    "The bearer of this letter is my cousin.", "Bearer bonds were popular in the 1920s.",
    "Basic plan", "Basic", "Bearer", "Token ring network", "max_tokens=4096", "token_count: 1523",
    "The quick brown fox jumps over the lazy dog near the river bank today",
    "please bring milk eggs bread butter cheese apples bananas rice beans oil salt",
    "abandon ship", "about above absent absorb", "zoo", "legal winner",
    "the cat sat on the mat and then it went to sleep for a while",
    "Order #4000-1234-5678-9011", "Tracking 1Z999AA10123456784", "Invoice 2026-000123",
    "Flight LH 400 seat 12A", "Passport X1234567", "ID 12345678Z", "SSN format is XXX-XX-XXXX",
    "1234", "000000", "42", "3.14159", "-17", "1e10", "1700000000000",
    "sk", "sk_test docs page", "skiing in Åre", "ghp is a prefix GitHub uses", "AKIA is how AWS keys start",
    "eyJ is base64 for {\"", "BEGIN PUBLIC KEY", "-----BEGIN CERTIFICATE-----",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFakeFakeFakeFakeFakeFakeFakeFake ada@laptop",
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQDFakeKeyOnlyPublic ada@host",
    "SELECT id, name FROM users WHERE active = true", "def add(a, b):\n    return a + b",
    "<p>Hello, world</p>", '{"name": "demo", "count": 3}', "key=value", "color=blue; size=XL",
    "Hola, ¿cómo estás?", "Guten Tag, wie geht's?", "Bonjour à tous", "Bom dia", "Buongiorno",
    "Goedemorgen", "God morgon", "Hyvää huomenta", "Dzień dobry", "Dobrý den", "Günaydın",
    "Доброе утро", "Добрий ранок", "Καλημέρα", "صباح الخير", "בוקר טוב", "सुप्रभात", "早上好", "おはようございます",
    "좋은 아침", "Chào buổi sáng", "Selamat pagi", "สวัสดีตอนเช้า",
    "Mi contraseña no funciona desde ayer", "Ich habe mein Passwort vergessen", "J'ai oublié mon mot de passe",
    "Esqueci minha senha", "Я забыл пароль", "我忘记了密码", "パスワードを忘れました",
    "Meeting notes: discuss the Q3 roadmap and hiring plan.",
    "Please ship to the back door; the dog is friendly.",
    "A five-star hotel near the station with breakfast included",
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "hello_world_2026",
    "CamelCaseIdentifierName", "release-notes-v2", "data:image/png;base64,iVBORw0KGgo=",
    "My favourite number is 4111", "Room 1111 1111", "Call 0800 123 4567",
    # Labels with values that are not credentials (written after the labelled-value rule, to test its alarms).
    "Key: C minor", "Session: 3", "Code: 404", "Seed: 42", "Passport: X1234567", "Author: Ada L.", "Ticket: AB12CD",
    "Token count: 1523", "Password policy: 12+ chars", "Secret Santa: Bob2", "Reference: ABC-123",
    "Room code is B12", "Passenger 2: Ada", "Order ID = 77-1234", "Key points: Q3, hiring", "Version is 2.3.0",
]


def _ordinary() -> list[Value]:
    out = [Value(s, False, "text") for s in _ORDINARY_STRINGS]
    for prefix, length in [("4", 16), ("5", 16), ("37", 15), ("6011", 16), ("9", 16), ("1", 12), ("4", 13)]:
        n = _luhn_broken(prefix, length)
        out.append(Value(n, False, "number-not-luhn"))
        out.append(Value(_group(n, " "), False, "number-not-luhn"))
    out.extend(Value(v, False, "primitive") for v in [0, 1, 12345, 3.5, True, False, None, [], {}])
    out.append(Value(["red", "green", "blue"], False, "nested"))
    out.append(Value({"name": "Ada", "city": "London"}, False, "nested"))
    out.append(Value({"items": [{"sku": "A-100", "qty": 2}]}, False, "nested"))
    return out


# A probe written after the labelled-value rule, kept so the guard keeps these.
_PROBE_ORDINARY = [
    "Meeting: 10:30 in room 4B", "Time: 14:00", "Ratio 16:9", "Note: the PIN pad is broken",
    "Keynote: Dr. Smith at 9AM",
    "Session 2: Q&A", "Token count is 4096", "The key is C#", "Author: J. R. R. Tolkien", "Passport: AB1234567",
    "Passenger: Mr. Lee", "Secret Santa is Tom2", "cookie recipe: 200g butter", "max_tokens: 2048", "seed: 1234",
    "random_seed=42", "pin: 13", "gpio_pin=17", "Card game: UNO", "Card holder: ADA LOVELACE",
    "Expiry: 12/2030 (passport)", "Security question: first pet?", "Recovery time: 4h", "Backup: nightly at 02:00",
    "Compass: 270°", "Certificate: ISO-9001", "Login: ada.lovelace", "Username: ada_1815", "Email: ada@example.com",
    "API version: 2024-06-01", "Key ID: 7f3a2b", "client_id: 1234-abcd", "token_type: Bearer",
    "https://example.com/login?next=/home", "Code: 200 OK", "Promo code: SPRING24", "Postal code: 10178",
    "Ticket is AB-12", "abandon ability able about above absent absorb abstract absurd abuse access accident account",
    "We can still act: add about above actual action to the list and adapt, the actor said.",
]
_PROBE_SECRET = [
    "Wifi password: Guest2026!", "pwd=Xy7#kq", "secret: 8f9e7d6c5b4a", "token = a8F3kL9mQ2", "Mot de passe: Azerty123",
    "Clave: Secreta#1", "Kennwort: Winter2026", "PIN is 0470", "CVV: 123", "cvc=987", "OTP: 482913",
    "Verification code: 118822", "Recovery codes: 1a2b-3c4d 5e6f-7g8h",
    "seed phrase: legal winner thank year wave sausage worth useful legal winner thank yellow",
]

SECRET: list[Value] = _secrets() + [Value(v, True, "probe") for v in _PROBE_SECRET]
ORDINARY: list[Value] = _ordinary() + [Value(v, False, "probe") for v in _PROBE_ORDINARY]
VALUES = SECRET + ORDINARY

# The figure when this corpus was first scored, before the guard was tuned on it (see tests/corpora/scoring.py).
BLIND = {
    "refused": (134, 163), "accepted": (163, 163), "scored_at": "5cbcc4e",
    "note": "the corpus as first written (163 + 163); its probe lists were added later",
}

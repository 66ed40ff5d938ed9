"""A third blind corpus for the answer guard (values pasted into an ordinary form field).

Written without looking at the guard; same ``Value`` format and decisions as ``tests/corpora/blind_values.py``.
Every token is made up here: random characters in the shape of a provider's format. None is real.
Extra decisions, in line with those of ``blind_values.py``:

- a bare AWS access key id (``AKIA…``) is credential-like: it is half of a key pair and scanners treat it so.
- a publishable key (Stripe ``pk_live_``, Mapbox ``pk.``), an ``xpub``/``npub``, a Twilio account SID, a
  Stripe customer or payment id: ordinary (public identifiers).
- a password-reset or magic-login link carrying a token: credential-like (as in ``blind.py``).
- a connection URL with a user but no password: ordinary.
- an IMEI (Luhn-valid, 15 digits, not a card range) and an EAN barcode: ordinary identifiers.
- twelve BIP-39 words whose checksum is wrong: ordinary (the rule asks for a valid phrase).
- card numbers written in Arabic-Indic or fullwidth digits are still card numbers.
"""

from __future__ import annotations

import base64
import json
import random
import string

from tests.corpora.blind_values import Value

_rng = random.Random(33_2026)
_ALNUM = string.ascii_letters + string.digits
_UPPER = string.ascii_uppercase + string.digits
_LOWER = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _r(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _d(n: int) -> str:
    return _r(string.digits, n)


def _luhn_sum(body: str) -> int:
    total = 0
    for i, ch in enumerate(reversed(body)):
        v = int(ch)
        if i % 2 == 1:
            v *= 2
            if v > 9:
                v -= 9
        total += v
    return total


def _luhn_valid(number: str) -> bool:
    return _luhn_sum(number) % 10 == 0


def _luhn(prefix: str, length: int) -> str:
    body = prefix + _d(length - len(prefix) - 1)
    for c in string.digits:
        if _luhn_valid(body + c):
            return body + c
    raise AssertionError


def _not_luhn(prefix: str, length: int) -> str:
    good = _luhn(prefix, length)
    return good[:-1] + str((int(good[-1]) + 1 + _rng.randrange(8)) % 10)


def _group(number: str, sizes: list[int], sep: str) -> str:
    out, i = [], 0
    for s in sizes:
        out.append(number[i:i + s])
        i += s
    return sep.join(out)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt(payload: dict, alg: str = "HS256") -> str:
    head = _b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64url(json.dumps(payload, separators=(",", ":")).encode())
    sig = _r(_URLSAFE, 43 if alg.startswith("HS") else 342)
    return f"{head}.{body}.{sig}"


def _pem(label: str, prefix: str, n: int, width: int = 64, extra: str = "") -> str:
    body = prefix + _r(_B64, n - len(prefix))
    lines = [body[i:i + width] for i in range(0, len(body), width)]
    return f"-----BEGIN {label}-----\n{extra}" + "\n".join(lines) + f"\n-----END {label}-----"


def _iban(country: str, bban: str) -> str:
    rearranged = bban + country + "00"
    num = "".join(str(int(c, 36)) for c in rearranged)
    check = 98 - int(num) % 97
    return f"{country}{check:02d}{bban}"


def _isbn13() -> str:
    body = "978" + _d(9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


def _isbn10() -> str:
    body = _d(9)
    s = sum(int(c) * (10 - i) for i, c in enumerate(body))
    c = (11 - s % 11) % 11
    return body + ("X" if c == 10 else str(c))


def _uuid() -> str:
    h = _r(_HEX, 32)
    h = h[:12] + "4" + h[13:16] + _rng.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


_ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
_FULLWIDTH_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")
_DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")

# BIP-39 phrases generated with the reference word lists (checksums valid).
_BIP39 = [
    ("english", "horror dream scan code degree dream fatigue wasp hundred claim wagon bless"),
    ("english", "stool such category valley zone current right urge huge sure friend theme"),
    ("english", "oak small artist example muffin fruit beauty violin squeeze capital desk kind"),
    ("english", "tenant awesome author dentist dinner admit actress unique trip promote strategy shoulder"),
    ("english", "weekend holiday repair envelope giant picture quit labor mail limb aware cave"),
    ("english", "rhythm moment strategy mimic brother consider tide flag feed air include leaf"),
    ("english", "calm sugar secret amazing pink fire short idea trust tower such carbon deny exile minimum"),
    ("english", "dragon earth magic van borrow produce spray join evoke fever divert dumb cream then security "
                "nest behave husband"),
    ("english", "warfare shift real plug mistake axis floor long lamp opera wear fringe tackle bubble pattern scene "
                "excess curtain main hat sad"),
    ("english", "coral wrestle caution utility pen juice push verb treat armor wild venue dice manual initial wise "
                "jewel gravity rubber destroy myth scheme marriage romance"),
    ("english", "finish attract stool unfold distance food ethics brave idea mother lava stove result rebuild proof "
                "wear walk raise record invite addict ostrich sound digital"),
    ("spanish", "título eco senda ecuador morder boina jurar rubor sensor pereza tez trabajo"),
    ("french", "flamme géranium clavier dynastie cassure freiner paternel tuyau volume falaise fabuleux tapis"),
    ("italian", "odierno veloce lucidato finestra angusto ottagono pupazzo situato budino golf batosta stelo"),
    ("japanese", "けんり\u3000こたつ\u3000けんり\u3000たさい\u3000むすめ\u3000くなん"
                 "\u3000ふたん\u3000こうもく\u3000つもる\u3000ふんいき\u3000かくとく\u3000いちじ"),
    ("chinese", "贮 隔 式 萧 氯 谱 苏 蒙 凉 装 查 修"),
    ("korean", "개성 금요일 감정 형사 큰아들 행위 은행 여섯 수건 정치 합리적 아시아"),
    ("czech", "levitace dohled seno holub bazilika rotmistr tvorba tkanina hejtman slon tiskopis zahynout"),
    ("portuguese", "rabanada barraca credor arriscar delonga resolver divisor triunfal fivela englobar feriado praxe"),
]
# Twelve BIP-39 words each, checksum deliberately wrong (checked when written).
_BIP39_BAD = [
    "rural layer quality example exit aim mechanic clown fresh party sword other",
    "test knock behave seek result hunt bird correct narrow ranch pepper bleak",
    "ability inherit violin wolf original tape response light domain bring powder energy",
    "improve tenant chief avoid cradle erode mixture silver onion lady bracket waste",
]


def _secrets() -> list[Value]:
    v: list[Value] = []

    def add(value: object, kind: str) -> None:
        v.append(Value(value, True, kind))

    # AWS
    for _ in range(3):
        akid, sak = "AKIA" + _r(_UPPER, 16), _r(_B64, 40)
        add(f"aws_access_key_id = {akid}\naws_secret_access_key = {sak}", "aws-credentials-file")
    add(f"AWS_SECRET_ACCESS_KEY={_r(_B64, 40)}", "aws-env")
    add(f"export AWS_ACCESS_KEY_ID=AKIA{_r(_UPPER, 16)} AWS_SECRET_ACCESS_KEY={_r(_B64, 40)}", "aws-env")
    add(f"ASIA{_r(_UPPER, 16)}:{_r(_B64, 40)}:{'IQoJb3JpZ2luX2Vj' + _r(_B64, 300)}", "aws-session")
    add("AKIA" + _r(_UPPER, 16), "aws-akid")
    add("AKIA" + _r(_UPPER, 16), "aws-akid")
    # Google
    for _ in range(2):
        pk = _pem("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 1600).replace("\n", "\\n")
        add('{"type": "service_account", "project_id": "demo-' + _r(_LOWER, 6) + '", "private_key_id": "'
            + _r(_HEX, 40) + '", "private_key": "' + pk + '\\n", "client_email": "ci@demo.iam.gserviceaccount.com"}',
            "gcp-service-account")
    add('"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC'
        + _r(_B64, 60) + '\\n' + _r(_B64, 64) + '\\n-----END PRIVATE KEY-----\\n"', "gcp-service-account")
    for _ in range(3):
        add("AIza" + _r(_URLSAFE, 35), "google-api-key")
    add("GOCSPX-" + _r(_URLSAFE, 28), "google-oauth-secret")
    add("ya29.a0" + _r(_URLSAFE, 150), "google-access-token")
    add("1//0g" + _r(_URLSAFE, 98), "google-refresh-token")
    # GitHub
    for p in ("ghp_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"):
        add(p + _r(_ALNUM, 36), "github")
    for _ in range(2):
        add("github_pat_" + _r(_ALNUM, 22) + "_" + _r(_ALNUM, 59), "github")
    add(f"https://x-access-token:ghs_{_r(_ALNUM, 36)}@github.com/acme/app.git", "github-url")
    # GitLab
    for _ in range(3):
        add("glpat-" + _r(_URLSAFE, 20), "gitlab")
    add("glrt-" + _r(_URLSAFE, 20), "gitlab")
    add("gldt-" + _r(_URLSAFE, 20), "gitlab")
    # Slack
    for p in ("xoxb", "xoxb", "xoxp", "xoxp"):
        add(f"{p}-{_d(12)}-{_d(13)}-{_r(_ALNUM, 24)}", "slack")
    add(f"xapp-1-A{_r(_UPPER, 10)}-{_d(13)}-{_r(_HEX, 64)}", "slack")
    for _ in range(2):
        add(f"https://hooks.slack.com/services/T{_r(_UPPER, 10)}/B{_r(_UPPER, 10)}/{_r(_ALNUM, 24)}",
            "slack-webhook")
    # Stripe
    for p in ("sk_live_", "sk_live_", "sk_test_", "rk_live_"):
        add(p + _r(_ALNUM, 99 if p == "sk_live_" else 24), "stripe")
    add("whsec_" + _r(_ALNUM, 32), "stripe")
    # Twilio / SendGrid / Mailgun / Mailchimp / Brevo
    add(f"TWILIO_AUTH_TOKEN={_r(_HEX, 32)}", "twilio")
    add(f"SK{_r(_HEX, 32)}:{_r(_ALNUM, 32)}", "twilio")
    for _ in range(3):
        add(f"SG.{_r(_URLSAFE, 22)}.{_r(_URLSAFE, 43)}", "sendgrid")
    add("key-" + _r(_HEX, 32), "mailgun")
    add(_r(_HEX, 32) + "-us" + str(_rng.randrange(1, 21)), "mailchimp")
    add("xkeysib-" + _r(_HEX, 64) + "-" + _r(_ALNUM, 16), "brevo")
    # AI providers
    for _ in range(2):
        add("sk-proj-" + _r(_URLSAFE, 156), "openai")
    add("sk-" + _r(_ALNUM, 48), "openai")
    add("sk-svcacct-" + _r(_URLSAFE, 120), "openai")
    for _ in range(2):
        add("sk-ant-api03-" + _r(_URLSAFE, 93) + "AA", "anthropic")
    add("sk-ant-admin01-" + _r(_URLSAFE, 93) + "AA", "anthropic")
    for _ in range(3):
        add("hf_" + _r(string.ascii_letters, 34), "huggingface")
    add("r8_" + _r(_ALNUM, 37), "replicate")
    add("gsk_" + _r(_ALNUM, 52), "groq")
    add("pplx-" + _r(_ALNUM, 48), "perplexity")
    # package registries
    for _ in range(2):
        add("npm_" + _r(_ALNUM, 36), "npm")
    add(f"//registry.npmjs.org/:_authToken=npm_{_r(_ALNUM, 36)}", "npm")
    for _ in range(2):
        add("pypi-AgEIcHlwaS5vcmc" + _r(_URLSAFE, 150), "pypi")
    add(f"[pypi]\n  username = __token__\n  password = pypi-AgEIcHlwaS5vcmc{_r(_URLSAFE, 120)}", "pypi")
    # chat bots
    for _ in range(2):
        uid = base64.b64encode(str(_rng.randrange(10**17, 10**18)).encode()).decode().rstrip("=")
        add(f"{uid}.{_r(_URLSAFE, 6)}.{_r(_URLSAFE, 38)}", "discord")
    add(f"https://discord.com/api/webhooks/{_d(18)}/{_r(_URLSAFE, 68)}", "discord-webhook")
    for _ in range(3):
        add(f"{_rng.randrange(10**8, 10**10)}:AA{_r(_URLSAFE, 33)}", "telegram")
    # Shopify
    for p in ("shpat_", "shpss_", "shpca_"):
        add(p + _r(_HEX, 32), "shopify")
    # Azure
    for _ in range(2):
        add(f"DefaultEndpointsProtocol=https;AccountName=st{_r(_LOWER, 10)};AccountKey={_r(_B64, 86)}==;"
            "EndpointSuffix=core.windows.net", "azure-storage")
    for _ in range(2):
        sig = _r(_B64, 43) + "%3D"
        add(f"https://st{_r(_LOWER, 8)}.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac"
            f"&se=2026-12-31T23:59:59Z&st=2026-01-01T00:00:00Z&spr=https&sig={sig}", "azure-sas")
    add(f"Server=tcp:sql-{_r(_LOWER, 6)}.database.windows.net,1433;Initial Catalog=app;User ID=appadmin;"
        f"Password={_r(_ALNUM, 12)}!;Encrypt=True;", "azure-sql")
    add(f"Endpoint=sb://ns-{_r(_LOWER, 6)}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;"
        f"SharedAccessKey={_r(_B64, 43)}=", "azure-servicebus")
    # JWTs
    add(_jwt({"sub": "1234567890", "name": "Jane Doe", "iat": 1767225600, "exp": 1767312000}), "jwt")
    add(_jwt({"iss": "https://auth.example.com/", "sub": "auth0|" + _r(_HEX, 24), "aud": "api", "scope": "read"},
             "RS256"), "jwt")
    add(_jwt({"role": "service_role", "iss": "supabase", "iat": 1700000000, "exp": 2015576000}), "jwt")
    add("Authorization: Bearer " + _jwt({"uid": _d(8), "exp": 1799999999}), "bearer-header")
    # private keys
    add(_pem("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 1600), "pem-rsa")
    add(_pem("RSA PRIVATE KEY", "MIIJKAIBAAKCAgEA", 3200), "pem-rsa")
    add(_pem("EC PRIVATE KEY", "MHcCAQEEI", 160), "pem-ec")
    add(_pem("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 1620), "pem-pkcs8")
    add(_pem("PRIVATE KEY", "MC4CAQAwBQYDK2VwBCIEI", 64), "pem-ed25519")
    add(_pem("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 1700), "pem-encrypted")
    add(_pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
             400, 70), "openssh")
    add(_pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABA", 2600, 70),
        "openssh")
    add(_pem("PGP PRIVATE KEY BLOCK", "lQdGBGX", 2400, 64, "\n"), "pgp")
    add(_pem("DSA PRIVATE KEY", "MIIBuwIBAAKBgQ", 600), "pem-dsa")
    add("here is the deploy key:\n" + _pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
                                            380, 70), "openssh-in-prose")
    add(_pem("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA", 1600).replace("\n", "\r\n"), "pem-rsa-crlf")
    add(_pem("EC PRIVATE KEY", "MHcCAQEEI", 160).replace("\n", " "), "pem-one-line")
    add("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n"
        f"AAAAC3NzaC1lZDI1NTE5AAAAI{_r(_B64, 43)}\n{_r(_B64, 20)}\nPrivate-Lines: 1\n{_r(_B64, 44)}\n"
        f"Private-MAC: {_r(_HEX, 64)}", "putty")
    # connection URLs
    pw = lambda: _r(_ALNUM, 10) + _rng.choice("!#%*") + _d(2)  # noqa: E731
    add(f"postgres://app:{_r(_ALNUM, 14)}@db.internal:5432/app", "dsn")
    add(f"postgresql+psycopg2://report_ro:{_r(_ALNUM, 16)}@10.0.3.7/warehouse?sslmode=require", "dsn")
    add(f"mysql://root:{_r(_ALNUM, 12)}@127.0.0.1:3306/shop", "dsn")
    add(f"mongodb+srv://admin:{_r(_ALNUM, 16)}@cluster0.{_r(_LOWER, 5)}.mongodb.net/?retryWrites=true&w=majority",
        "dsn")
    add(f"redis://:{_r(_ALNUM, 24)}@cache.internal:6379/0", "dsn")
    add(f"rediss://default:{_r(_ALNUM, 32)}@eu1-{_r(_LOWER, 8)}.upstash.io:6379", "dsn")
    add(f"amqp://guest:{_r(_ALNUM, 12)}@rabbit:5672/%2F", "dsn")
    add(f"https://deploy:{_r(_ALNUM, 14)}@nexus.example.com/repository/pypi/simple", "url-with-password")
    add(f"ftp://backup:{_r(_ALNUM, 10)}@files.example.org/nightly/", "url-with-password")
    add(f"smtp://mailer%40example.com:{_r(_ALNUM, 16)}@smtp.example.com:587", "url-with-password")
    add(f"jdbc:postgresql://db:5432/app?user=app&password={_r(_ALNUM, 12)}", "dsn")
    add(f"Host=pg;Database=app;Username=svc;Password={_r(_ALNUM, 14)}", "dsn")
    add(f"clickhouse://default:{_r(_ALNUM, 18)}@ch.internal:9000/default", "dsn")
    # headers and CLI
    for _ in range(2):
        user = _rng.choice(["admin", "ci", "deploy", "jane"])
        add("Authorization: Basic " + base64.b64encode(f"{user}:{pw()}".encode()).decode(), "basic-header")
    add("Basic " + base64.b64encode(f"api:{_r(_ALNUM, 20)}".encode()).decode(), "basic-header")
    add("Bearer " + _r(_URLSAFE, 40), "bearer-header")
    add("Authorization: token ghp_" + _r(_ALNUM, 36), "bearer-header")
    add(f"curl -u admin:{pw()} https://jenkins.example.com/api/json", "cli-password")
    add(f"curl -H 'X-API-Key: {_r(_ALNUM, 32)}' https://api.example.com/v1/items", "cli-api-key")
    add(f"mysql -u root -p{_r(_ALNUM, 12)} -h db", "cli-password")
    add(f"Authorization: SSWS 00{_r(_URLSAFE, 40)}", "okta")
    # cookies
    add(f"sessionid={_r(_LOWER, 32)}; csrftoken={_r(_ALNUM, 64)}", "cookie")
    add(f"Cookie: _gh_sess={_r(_B64, 120)}; user_session={_r(_URLSAFE, 48)}", "cookie")
    add(f"Set-Cookie: __Secure-next-auth.session-token={_r(_URLSAFE, 180)}; Path=/; HttpOnly; Secure", "cookie")
    add(f"connect.sid=s%3A{_r(_URLSAFE, 32)}.{_r(_B64, 43)}", "cookie")
    add(f"PHPSESSID={_r(_LOWER, 26)}", "cookie")
    add(f"JSESSIONID={_r(_HEX.upper(), 32)}", "cookie")
    # payment cards
    cards: list[tuple[str, str, list[int]]] = []
    for _ in range(4):
        cards.append(("visa", _luhn("4", 16), [4, 4, 4, 4]))
    for pfx in ("51", "53", "55", "2221", "2720"):
        cards.append(("mastercard", _luhn(pfx, 16), [4, 4, 4, 4]))
    for pfx in ("34", "37", "37"):
        cards.append(("amex", _luhn(pfx, 15), [4, 6, 5]))
    for pfx in ("6011", "65"):
        cards.append(("discover", _luhn(pfx, 16), [4, 4, 4, 4]))
    cards.append(("jcb", _luhn("3530", 16), [4, 4, 4, 4]))
    cards.append(("diners", _luhn("36", 14), [4, 6, 4]))
    cards.append(("unionpay", _luhn("62", 16), [4, 4, 4, 4]))
    cards.append(("unionpay", _luhn("62", 19), [4, 4, 4, 4, 3]))
    cards.append(("maestro", _luhn("6759", 19), [4, 4, 4, 4, 3]))
    seps = [" ", "-", "", " ", ".", "  ", "\u00a0", " "]
    for i, (brand, num, sizes) in enumerate(cards):
        add(_group(num, sizes, seps[i % len(seps)]), f"card-{brand}")
    add(int(_luhn("4", 16)), "card-int")
    add(int(_luhn("5", 16)), "card-int")
    add("4111 1111 1111 1111", "card-test-number")
    add("5555555555554444", "card-test-number")
    v4 = _luhn("4", 16)
    add(f"card: {_group(v4, [4, 4, 4, 4], ' ')} exp 09/28 cvc {_d(3)}", "card-full")
    add(f"{_luhn('5', 16)} | 11/27 | {_d(3)}", "card-full")
    add(f"Número de tarjeta {_group(_luhn('4', 16), [4, 4, 4, 4], ' ')}, caduca 03/29", "card-full")
    add(_group(_luhn("4", 16), [4, 4, 4, 4], " ").translate(_ARABIC_INDIC), "card-arabic-indic-digits")
    add(_group(_luhn("5", 16), [4, 4, 4, 4], " ").translate(_FULLWIDTH_DIGITS), "card-fullwidth-digits")
    add(_group(_luhn("4", 16), [4, 4, 4, 4], "-").translate(_DEVANAGARI), "card-devanagari-digits")
    add("4" + "\u200b".join(_luhn("4", 16)[1:]), "card-zero-width")
    # CVV in context
    for t in (f"cvv {_d(3)}", f"CVC: {_d(3)}", f"security code {_d(3)}", f"CVV2={_d(3)}", f"cid {_d(4)} (amex)",
              f"código de seguridad {_d(3)}", f"mã CVV {_d(3)}", f"CVV-код {_d(3)}", f"安全码 {_d(3)}",
              f"cryptogramme {_d(3)}", f"Prüfnummer {_d(3)}"):
        add(t, "cvv")
    # seed phrases
    for lang, ph in _BIP39:
        add(ph, f"bip39-{lang}")
    words = _BIP39[0][1].split()
    add("\n".join(f"{i + 1}. {w}" for i, w in enumerate(words)), "bip39-numbered")
    add(", ".join(_BIP39[1][1].split()), "bip39-commas")
    add("\n".join(_BIP39[2][1].split()), "bip39-lines")
    add(_BIP39[3][1].upper(), "bip39-upper")
    add("my seed phrase is " + _BIP39[4][1], "bip39-in-prose")
    # password lines
    for t in ("password: hunter2!", "pw = Tr0ub4dor&3", "pass: correcthorsebattery", "Passwort: Sommer2024!",
              "Kennwort = Blau#Haus77", "mot de passe : Chaton#88", "mdp: Soleil2023", "contraseña: Perro_Azul9",
              "senha: Flamengo@1981", "mật khẩu: Hanoi@2024", "密码：Wang1988!", "密碼: taipei101",
              "パスワード：sakura2024", "пароль: Zvezda_77", "пароль від пошти: Kyiv2024!", "hasło: Kotek123!",
              "şifre: Galatasaray1905", "kata sandi: Jakarta#45", "wachtwoord: Tulp2024!", "heslo: Praha_2024",
              "jelszó: Budapest#1", "salasana: Revontuli7", "비밀번호: seoul1234!", "كلمة المرور: Cairo@2024",
              "סיסמה: Shalom!789", "पासवर्ड: Delhi@123", "รหัสผ่าน: Bangkok99", "parolă: Carpati#22",
              "κωδικός: Athina2024!", "nenosiri: Simba2024", "رمز عبور: Tehran@1400", "پاس ورڈ: Lahore786",
              "পাসওয়ার্ড: Dhaka@71", "கடவுச்சொல்: Chennai#9", "lösenord: Kanelbulle1",
              "la mia password è Gatto2024!", "my password is Winter2025!", "user admin / pass P@ssw0rd2024",
              "login: jdoe\npassword: Blue-Sky-42", "DB_PASSWORD=s3cr3t-Pa55", "ｐａｓｓｗｏｒｄ: hunter2",
              "pass\u200bword: qwerty!234", "PIN: 4831", "my pin is 0592", "ATM PIN 7713"):
        add(t, "password-line")
    # other providers and formats
    add("dop_v1_" + _r(_HEX, 64), "digitalocean")
    add("hvs." + _r(_URLSAFE, 90), "vault")
    add("lin_api_" + _r(_ALNUM, 40), "linear")
    add("ntn_" + _r(_ALNUM, 46), "notion")
    add("secret_" + _r(_ALNUM, 43), "notion")
    add("ATATT3xFfGF0" + _r(_URLSAFE, 180) + "=" + _r(_HEX.upper(), 8), "atlassian")
    add("EAAA" + _r(_URLSAFE, 60), "square")
    add("sq0csp-" + _r(_URLSAFE, 43), "square")
    add(f"access_token$production${_r(_LOWER, 16)}${_r(_HEX, 32)}", "paypal")
    add("AGE-SECRET-KEY-1" + _r(_B32, 58), "age")
    add(f"private key: 0x{_r(_HEX, 64)}", "ethereum-private-key")
    add("5" + _rng.choice("HJK") + _r(_B58, 49), "bitcoin-wif")
    add("xprv9s21ZrQH143K" + _r(_B58, 95), "bip32-xprv")
    add("nsec1" + _r("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58), "nostr-nsec")
    add(f"[Interface]\nPrivateKey = {_r(_B64, 43)}=\nAddress = 10.8.0.2/32\nDNS = 1.1.1.1", "wireguard")
    add(f"machine api.heroku.com\n  login jane@example.com\n  password {_r(_HEX, 8)}-{_r(_HEX, 4)}-{_r(_HEX, 4)}"
        f"-{_r(_HEX, 4)}-{_r(_HEX, 12)}", "netrc")
    add(f"db.internal:5432:app:app_user:{_r(_ALNUM, 16)}", "pgpass")
    add('{"auths": {"registry.gitlab.com": {"auth": "'
        + base64.b64encode(f"deploy:{_r(_ALNUM, 20)}".encode()).decode() + '"}}}', "docker-config")
    add(f"client-key-data: {base64.b64encode(b'-----BEGIN RSA PRIVATE KEY-----').decode()}{_r(_B64, 200)}",
        "kubeconfig")
    add(f"otpauth://totp/Acme:jane@example.com?secret={_r(_B32, 32)}&issuer=Acme", "otpauth")
    add(f"TOTP secret: {' '.join(_r(_B32, 4) for _ in range(8))}", "totp-secret")
    add("\n".join(f"{_r(_LOWER, 5)}-{_r(_LOWER, 5)}" for _ in range(10)), "recovery-codes")
    add(f"Your verification code is {_d(6)}. Do not share it with anyone.", "otp-sms")
    add(f"G-{_d(6)} is your Google verification code.", "otp-sms")
    add(f"2FA code: {_d(3)} {_d(3)}", "otp")
    add(f"Mã OTP của bạn là {_d(6)}", "otp-sms")
    add(f"https://app.example.com/reset-password?token={_r(_URLSAFE, 40)}", "reset-link")
    add(f"https://example.com/auth/magic?code={_r(_URLSAFE, 48)}&email=jane%40example.com", "magic-link")
    add(f"DD_API_KEY={_r(_HEX, 32)}", "datadog")
    add(f"CLOUDFLARE_API_TOKEN={_r(_URLSAFE, 40)}", "cloudflare")
    add("sk.eyJ1Ijoi" + _r(_URLSAFE, 60) + "." + _r(_URLSAFE, 22), "mapbox-secret")
    add("PMAK-" + _r(_HEX, 24) + "-" + _r(_HEX, 34), "postman")
    add("glsa_" + _r(_ALNUM, 32) + "_" + _r(_HEX, 8), "grafana")
    add(_r(_ALNUM, 14) + ".atlasv1." + _r(_ALNUM, 60), "terraform-cloud")
    add("pul-" + _r(_HEX, 40), "pulumi")
    add("dapi" + _r(_HEX, 32), "databricks")
    add("NRAK-" + _r(_UPPER, 27), "newrelic")
    add("figd_" + _r(_URLSAFE, 40), "figma")
    add("tskey-auth-" + _r(_ALNUM, 12) + "-" + _r(_ALNUM, 32), "tailscale")
    add("dp.pt." + _r(_ALNUM, 43), "doppler")
    add("sgp_" + _r(_HEX, 40), "sourcegraph")
    add(f"AAAA{_r(_URLSAFE, 7)}:APA91b{_r(_URLSAFE, 134)}", "firebase-server-key")
    add("ghp_\u200b" + _r(_ALNUM, 36), "github-zero-width")
    add("ｓｋ－ｌｉｖｅ＿" + _r(_ALNUM, 24), "stripe-fullwidth-prefix")
    add(f"OPENAI_API_KEY=\"sk-proj-{_r(_URLSAFE, 100)}\"", "openai-env")
    add(f"api_key: {_r(_HEX, 40)}", "labelled-key")
    add(f"secret = \"{_r(_B64, 44)}\"", "labelled-key")
    add(f"token={_r(_ALNUM, 32)}", "labelled-key")
    add(f"client_secret: {_r(_URLSAFE, 40)}", "labelled-key")
    return v


def _ordinary() -> list[Value]:
    v: list[Value] = []

    def add(value: object, kind: str) -> None:
        v.append(Value(value, False, kind))

    for i in range(8):
        u = _uuid()
        add(u.upper() if i == 3 else "{" + u + "}" if i == 5 else "urn:uuid:" + u if i == 6 else u, "uuid")
    add("00000000-0000-0000-0000-000000000000", "uuid")
    for _ in range(5):
        add(_r(_HEX, 40), "git-sha")
    for _ in range(3):
        add(_r(_HEX, 7), "git-sha-short")
    add(f"commit {_r(_HEX, 40)}\nAuthor: Jane Doe <jane@example.com>\n\n    Fix typo in README", "git-log")
    add(f"Merge pull request #{_d(4)} from acme/fix-login", "git-log")
    for _ in range(3):
        add("sha256:" + _r(_HEX, 64), "digest")
    add(f"ghcr.io/acme/api@sha256:{_r(_HEX, 64)}", "digest")
    add(f"{_r(_HEX, 32)}  release-1.4.2.tar.gz", "md5sum")
    add(f"SHA256 ({'app.dmg'}) = {_r(_HEX, 64)}", "digest")
    for c, bban in (("DE", _d(18)), ("GB", "NWBK" + _d(14)), ("FR", _d(23)), ("NL", "ABNA" + _d(10)),
                    ("ES", _d(20)), ("IT", "X" + _d(10) + _r(_UPPER, 12)), ("PL", _d(24)),
                    ("TR", _d(5) + "0" + _d(16)), ("RO", "RNCB" + _r(_UPPER, 16)), ("CZ", _d(20))):
        iban = _iban(c, bban)
        add(iban if c in ("NL", "PL", "TR") else " ".join(iban[i:i + 4] for i in range(0, len(iban), 4)), "iban")
    for _ in range(3):
        add(_isbn13(), "isbn")
    i13 = _isbn13()
    add(f"ISBN {i13[:3]}-{i13[3]}-{i13[4:8]}-{i13[8:12]}-{i13[12]}", "isbn")
    add(_isbn10(), "isbn")
    add("ISBN-10: " + _isbn10(), "isbn")
    for i in range(8):
        n = _not_luhn(_rng.choice(["4", "5", "37", "6011"]), 16)
        add([n, _group(n, [4, 4, 4, 4], " "), _group(n, [4, 4, 4, 4], "-")][i % 3], "luhn-invalid")
    add(f"Order #{_not_luhn('7', 16)}", "order-number")
    add(f"1Z{_r(_UPPER, 6)}{_d(10)}", "tracking-number")
    add(f"Tracking: {_d(22)}", "tracking-number")
    imei = _luhn("35" + _d(6), 15)
    add(f"IMEI {imei[:2]}-{imei[2:8]}-{imei[8:14]}-{imei[14]}", "imei")
    add(f"IMEI: {_luhn('86' + _d(6), 15)}", "imei")
    ean = "40" + _d(10)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(ean))
    add(ean + str((10 - s % 10) % 10), "ean")
    for t in ("+1 415 555 0132", "(020) 7946 0958", "+44 20 7946 0958", "+49 30 901820", "+33 1 42 68 53 00",
              "+84 24 3825 3536", "+66 2 123 4567", "+62 21 5150 515", "+254 20 2222222", "+972-3-555-1234",
              "+98 21 8888 1234", "+91 98765 43210", "+81 3-1234-5678", "+86 10 6552 9988", "+82 2-312-3456",
              "0800 123 4567"):
        add(t, "phone")
    for t in ("#1e90ff", "#FFF", "#00000080", "rgb(34, 139, 34)", "hsl(210, 50%, 40%)", "#c0ffee"):
        add(t, "colour")
    add("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
        + _r(_B64, 20) + "==", "data-uri")
    add("data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "data-uri")
    add("data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsK"
        + _r(_B64, 200), "data-uri")
    # public keys and other public material
    add(f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(_B64, 43)} jane@laptop", "ssh-public")
    add(f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(_B64, 43)}", "ssh-public")
    add(f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{_r(_B64, 540)} deploy@ci", "ssh-public")
    add(f"ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{_r(_B64, 87)}= ops",
        "ssh-public")
    add(_pem("PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 392), "pem-public")
    add(_pem("PUBLIC KEY", "MCowBQYDK2VwAyEA", 60), "pem-public")
    add(_pem("RSA PUBLIC KEY", "MIIBCgKCAQEA", 360), "pem-public")
    add(_pem("CERTIFICATE", "MIIDdzCCAl+gAwIBAgIE", 1200), "certificate")
    add(_pem("CERTIFICATE REQUEST", "MIICvDCCAaQCAQAwdzELMAkGA1UEBhMC", 900), "certificate")
    add(_pem("PGP PUBLIC KEY BLOCK", "mQINBGX", 1800, 64, "\n"), "pgp-public")
    add("age1" + _r("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58), "age-public")
    add("xpub661MyMwAqRbc" + _r(_B58, 95), "bip32-xpub")
    add("npub1" + _r("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58), "nostr-npub")
    add("pk_live_" + _r(_ALNUM, 99), "stripe-publishable")
    add("pk_test_" + _r(_ALNUM, 99), "stripe-publishable")
    add("pk.eyJ1Ijoi" + _r(_URLSAFE, 60) + "." + _r(_URLSAFE, 22), "mapbox-public")
    add(f"[Peer]\nPublicKey = {_r(_B64, 43)}=\nEndpoint = vpn.example.com:51820\nAllowedIPs = 0.0.0.0/0",
        "wireguard-public")
    add("0x" + _r(_HEX, 40), "ethereum-address")
    add("0x" + _r(_HEX, 40).upper().replace("X", "x"), "ethereum-address")
    add(f"tx 0x{_r(_HEX, 64)} confirmed in block {_d(8)}", "ethereum-tx")
    add("bc1q" + _r("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38), "bitcoin-address")
    add("1" + _r(_B58, 33), "bitcoin-address")
    add(f"SHA256:{_r(_B64, 43)}", "ssh-fingerprint")
    add(f"256 SHA256:{_r(_B64, 43)} jane@laptop (ED25519)", "ssh-fingerprint")
    add(" ".join(_r(_HEX.upper(), 4) for _ in range(10)), "pgp-fingerprint")
    # prose mentioning credentials
    for t in ("I forgot my password, how do I reset it?", "Password must be at least 12 characters long.",
              "Never share your PIN with anyone, not even bank staff.",
              "Rotate API keys every 90 days and store them in the vault.",
              "The token count for this prompt is 1,204.", "Click 'Forgot password' on the login page.",
              "Ich habe mein Passwort vergessen.", "J'ai oublié mon mot de passe.", "Olvidé mi contraseña.",
              "Esqueci minha senha, podem me ajudar?", "Tôi quên mật khẩu rồi.", "我忘记密码了，怎么办？",
              "パスワードを忘れました。", "Я забыл пароль от почты.", "Zapomniałem hasła.", "Şifremi unuttum.",
              "Saya lupa kata sandi saya.", "Ik ben mijn wachtwoord vergeten.", "Zapomněl jsem heslo.",
              "Elfelejtettem a jelszavam.", "Unohdin salasanani.", "비밀번호를 잊어버렸어요.", "نسيت كلمة المرور.",
              "שכחתי את הסיסמה.", "मैं अपना पासवर्ड भूल गया।", "ฉันลืมรหัสผ่าน", "Am uitat parola.",
              "Ξέχασα τον κωδικό μου.", "Nimesahau nenosiri langu.", "رمز عبورم را فراموش کردم.",
              "Please enable two-factor authentication on your account.",
              "The seed for this experiment was 42.", "Our API key rotation policy changed last week.",
              "Set max_tokens to 512 and temperature to 0.2.", "The primary key is (tenant_id, order_id).",
              "Passengers must show a passport at the gate.", "The pass rate rose to 87% this year.",
              "I baked chocolate chip cookies with brown butter.", "The song is in the key of E flat major."):
        add(t, "prose")
    # addresses, codes, dates
    for t in ("1600 Amphitheatre Parkway, Mountain View, CA 94043", "10 Downing Street, London SW1A 2AA",
              "Unter den Linden 77, 10117 Berlin", "1 Chome-1-2 Oshiage, Sumida City, Tokyo 131-0045",
              "Số 1 Tràng Tiền, Hoàn Kiếm, Hà Nội", "ul. Marszałkowska 10, 00-001 Warszawa",
              "Rua Augusta 1500, São Paulo - SP, 01304-001", "MG Road, Bengaluru 560001"):
        add(t, "address")
    for t in ("SKU-4821-BLK-XL", "ART-00912-B", "P/N 74HC595N", "INV-2026-000413", "PO 7731-22",
              "Model A2337 (M1, 2020)", "REF: 2026/04/118", "ticket #48213"):
        add(t, "product-code")
    for t in ("2026-03-14", "14/03/2026", "March 14, 2026", "2026-03-14T09:26:53Z", "09:26", "Q3 2026",
              "Tue, 03 Mar 2026 10:00:00 GMT"):
        add(t, "date")
    for t in ('{"max_tokens": 256, "temperature": 0.2}', '{"token_count": 512, "model": "gpt-4o-mini"}',
              '{"user": "jane", "email": "jane@example.com", "role": "editor"}',
              '{"password_policy": {"min_length": 12, "require_symbols": true}}',
              '{"primary_key": "id", "sort_key": "created_at"}', '{"seed": 1234, "epochs": 10}',
              '[{"id": 1, "name": "Widget"}, {"id": 2, "name": "Gadget"}]',
              '{"public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI' + _r(_B64, 43) + '"}',
              '{"session_id": "' + _uuid() + '", "page": "/checkout"}',
              '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "app-config"}}'):
        add(t, "json")
    for t in ("LOG_LEVEL=debug", "PASSWORD_MIN_LENGTH=12", "API_BASE_URL=https://api.example.com/v2",
              "TOKEN_LIMIT=4096", "SESSION_TIMEOUT=1800", "PUBLIC_KEY_PATH=/etc/app/pub.pem",
              "AWS_REGION=eu-west-1", "SECRET_NAME=prod/db/credentials"):
        add(t, "env-line")
    for t in ("https://api.example.com/v2/users?page=2", "postgres://db.internal:5432/app",
              "postgres://app@db.internal:5432/app", "redis://localhost:6379/0", "https://github.com/acme/api.git",
              "https://example.com/forgot-password", "https://docs.example.com/auth/tokens#rotation",
              "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://bit.ly/3xYz9Ab", "mongodb://mongo:27017/test",
              "https://discord.gg/" + _r(_ALNUM, 8), "s3://acme-backups/2026/03/db.sql.gz"):
        add(t, "url")
    # public identifiers
    for t in ("cus_" + _r(_ALNUM, 14), "pi_" + _r(_ALNUM, 24), "ch_" + _r(_ALNUM, 24), "price_" + _r(_ALNUM, 24),
              "C0" + _r(_UPPER, 9), "U0" + _r(_UPPER, 9), "AC" + _r(_HEX, 32), "G-" + _r(_UPPER, 10),
              "arn:aws:iam::" + _d(12) + ":role/ci-deploy", "arn:aws:s3:::acme-logs", _d(12),
              "projects/demo-123/locations/us-central1", "ci@demo-123.iam.gserviceaccount.com",
              "1234567890-" + _r(_LOWER, 32) + ".apps.googleusercontent.com"):
        add(t, "public-id")
    for t in ("192.168.1.20", "2001:db8::8a2e:370:7334", "00:1A:2B:3C:4D:5E", "1HGCM82633A004352",
              "10.1000/182", "0000-0002-1825-0097", "ISSN 0317-8471", "v2.31.0", "1.4.2-rc.1", "node:20-alpine",
              "requests==2.31.0", "SW1A 1AA", "94103", "560001", "Room 4012", "Order 482913 has shipped.",
              "Gate B12, seat 14C", "Flight LH 441", "PNR: X7K2QP"):
        add(t, "misc-id")
    for t in ("def hello():\n    return 'world'",
        "SELECT id, email FROM users WHERE created_at > now() - interval '1 day';",
              "git clone https://github.com/acme/api.git && cd api", "npm install --save-dev eslint",
              "pip install 'askback[test]'", "for i in range(10): print(i)", "kubectl get pods -n prod",
              "ssh-keygen -t ed25519 -C 'jane@example.com'", "docker run --rm -p 8080:80 nginx:1.27"):
        add(t, "code")
    for t in ("the quick brown fox jumps over the lazy dog while the cat sleeps",
              "apple banana cherry grape lemon mango orange peach pear plum lime kiwi",
              "monday tuesday wednesday thursday friday saturday sunday january february march april may"):
        add(t, "twelve-words")
    for ph in _BIP39_BAD:
        add(ph, "bip39-words-bad-checksum")
    for t in ("•••• •••• •••• 4242", "Visa ending in 1234", "**** **** **** 0005", "Mastercard ···· 8210"):
        add(t, "card-masked")
    for t in ("SGVsbG8sIHdvcmxkIQ==", "dGhlIHF1aWNrIGJyb3duIGZveA==", "aGVsbG8gd29ybGQK"):
        add(t, "base64-text")
    for t in ("Jane Doe", "jane.doe@example.com", "@janedoe", "jdoe", "Acme Corp Ltd.", "Nguyễn Văn An",
              "김민준", "山田太郎", "محمد أحمد", "Zoë Ångström", "Dr. Ngozi Okonkwo", "42", "3.14159", "yes",
              "n/a", "Passport No. X1234567", "Passenger: Maria Silva", "pass", "token", "secret",
              "password", "key", "Delhi postal PIN code 110001", "session 5 of 12"):
        add(t, "short-text")
    return v


VALUES: list[Value] = _secrets() + _ordinary()

# The figure when this corpus was first scored, before the guard was tuned on it (see tests/corpora/scoring.py).
BLIND = {
    "refused": (212, 290), "accepted": (271, 277), "scored_at": "69c29e5",
    "note": "the merge that brought the corpus in (da3b18f)",
}

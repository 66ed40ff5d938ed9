"""An eighth blind corpus for the answer guard (values pasted into a form), written without looking at the guard.

It follows the format and the decisions of ``tests.corpora.blind_values`` and ``tests.corpora.blind7_values``
(see their docstrings). Every token below is made up here from a seeded generator in the shape of a provider's
format; none is real. Vendors: cloud (AWS, Azure, GCP, DigitalOcean, Cloudflare, Heroku, Terraform Cloud,
Vault, Doppler), payment (Stripe, Square, Braintree, Shopify), VCS and registries (GitHub, GitLab, npm, PyPI,
Docker Hub, Atlassian), chat and mail (Slack, Discord, Telegram, Twilio, SendGrid, Mailgun, Mailchimp), AI APIs
(OpenAI, Anthropic, Hugging Face, Groq, Replicate, Perplexity, xAI, Google), databases (PostgreSQL, MySQL,
MongoDB, Redis, PlanetScale, Supabase, Databricks). Values come bare and embedded the way people paste them:
prose (English, German, French, Spanish, Polish, Swedish, Finnish, Dutch, Russian, Ukrainian, Arabic, Hebrew,
Turkish, Swahili, Lithuanian...), chat, log lines, JSON, YAML, ``.env`` files, shell history, ``.netrc``,
``.npmrc``, Docker and kube configs, stack traces. Seed phrases are valid BIP-39 phrases (checksum included)
built from seeded entropy with ``mnemonic`` in the English, Spanish, French, Italian, Czech and Portuguese
wordlists; cards are Luhn-valid numbers of each brand, their look-alikes Luhn-invalid.

Extra decisions:

- a list of BIP-39 words whose checksum fails is ordinary (blind_values: only a valid phrase counts).
- an IMEI (15 digits, Luhn-valid by design) labelled as such, an order number and a parcel tracking number are
  ordinary; a card number is credential-like bare, spaced or dashed.
- an M-Pesa/bank confirmation SMS (a receipt: transaction code, amount, balance) is ordinary; an SMS carrying a
  live one-time code is credential-like (blind7_values).
- a Wi-Fi QR payload (``WIFI:T:WPA;S:…;P:…;;``) carries the network password: credential-like.
- a ``.netrc``/``.npmrc``/Docker ``auths`` entry/kubeconfig ``token:`` line carries a credential: credential-like.
- an environment line whose value is a vendor's secret (``HEROKU_API_KEY=<uuid>``) is credential-like even
  when the value alone would look like an ordinary UUID or hex string; the same UUID labelled ``request_id``
  is ordinary.
- a ``data:`` URI of an image, a trace id, a request id and a CSP/SRI hash are ordinary (random-looking, no
  secret).
"""
# ruff: noqa: E501

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
from collections.abc import Callable

from mnemonic import Mnemonic

from tests.corpora.blind_values import Value

_rng = random.Random(8_20261203)
_ALNUM = string.ascii_letters + string.digits
_LOWER = string.ascii_lowercase + string.digits
_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"
_URLSAFE = _ALNUM + "-_"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _r(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def _card(prefix: str, length: int) -> str:
    body = prefix + _r(string.digits, length - len(prefix) - 1)
    return body + _luhn_digit(body)


def _not_card(prefix: str, length: int) -> str:
    body = prefix + _r(string.digits, length - len(prefix) - 1)
    return body + str((int(_luhn_digit(body)) + _rng.randint(1, 9)) % 10)


def _grouped(number: str, sep: str) -> str:
    if len(number) == 15:  # Amex: 4-6-5
        return sep.join((number[:4], number[4:10], number[10:]))
    return sep.join(number[i:i + 4] for i in range(0, len(number), 4))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _jwt(claims: dict[str, object]) -> str:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{header}.{body}.{_b64url(_rng.randbytes(32))}"


def _pem(label: str, size: int) -> str:
    body = base64.b64encode(_rng.randbytes(size)).decode()
    lines = "\n".join(body[i:i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN {label}-----\n{lines}\n-----END {label}-----"


def _phrase(lang: str, strength: int) -> str:
    return str(Mnemonic(lang).to_mnemonic(_rng.randbytes(strength // 8)))


def _bad_phrase(lang: str, words: int) -> str:
    m = Mnemonic(lang)
    while True:
        phrase = " ".join(_rng.choice(m.wordlist) for _ in range(words))
        if not m.check(phrase):
            return phrase


def _iban(country: str, bban: str) -> str:
    digits = "".join(str(int(ch, 36)) for ch in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def _imei() -> str:
    body = "35" + _r(string.digits, 12)
    return body + _luhn_digit(body)


def _code() -> str:
    return _r(string.digits, 6)


def _uuid() -> str:
    h = _r(_HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_rng.choice('89ab')}{h[17:20]}-{h[20:]}"


# Vendor tokens: kind -> (environment variable a developer would keep it in, a maker of one made-up token).
_TOKENS: dict[str, tuple[str, Callable[[], str]]] = {
    "aws-secret-key": ("AWS_SECRET_ACCESS_KEY", lambda: _r(_ALNUM + "+/", 40)),
    "github-pat-classic": ("GITHUB_TOKEN", lambda: "ghp_" + _r(_ALNUM, 36)),
    "github-oauth": ("GH_OAUTH_TOKEN", lambda: "gho_" + _r(_ALNUM, 36)),
    "github-app-token": ("GITHUB_APP_TOKEN", lambda: "ghs_" + _r(_ALNUM, 36)),
    "github-pat-fine": ("GH_PAT", lambda: "github_pat_11" + _r(_UPPER, 20) + "_" + _r(_ALNUM, 59)),
    "gitlab-pat": ("GITLAB_TOKEN", lambda: "glpat-" + _r(_URLSAFE, 20)),
    "slack-bot": ("SLACK_BOT_TOKEN", lambda: f"xoxb-{_r(string.digits, 12)}-{_r(string.digits, 13)}-{_r(_ALNUM, 24)}"),
    "slack-user": ("SLACK_USER_TOKEN", lambda: f"xoxp-{_r(string.digits, 12)}-{_r(string.digits, 12)}-{_r(string.digits, 13)}-{_r(_HEX, 32)}"),
    "slack-webhook": ("SLACK_WEBHOOK_URL", lambda: f"https://hooks.slack.com/services/T{_r(_UPPER, 10)}/B{_r(_UPPER, 10)}/{_r(_ALNUM, 24)}"),
    "discord-bot": ("DISCORD_TOKEN", lambda: f"{_b64url(str(_rng.randint(10**17, 10**18)).encode())}.{_r(_URLSAFE, 6)}.{_r(_URLSAFE, 38)}"),
    "discord-webhook": ("DISCORD_WEBHOOK", lambda: f"https://discord.com/api/webhooks/{_rng.randint(10**17, 10**18)}/{_r(_URLSAFE, 68)}"),
    "telegram-bot": ("TELEGRAM_BOT_TOKEN", lambda: f"{_rng.randint(10**9, 7 * 10**9)}:AA{_r(_URLSAFE, 33)}"),
    "stripe-secret": ("STRIPE_SECRET_KEY", lambda: "sk_live_51" + _r(_ALNUM, 97)),
    "stripe-restricted": ("STRIPE_RESTRICTED_KEY", lambda: "rk_live_51" + _r(_ALNUM, 97)),
    "stripe-webhook-secret": ("STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + _r(_ALNUM, 32)),
    "square-token": ("SQUARE_ACCESS_TOKEN", lambda: "EAAA" + _r(_URLSAFE, 60)),
    "braintree-token": ("BRAINTREE_ACCESS_TOKEN", lambda: f"access_token$production${_r(_LOWER, 16)}${_r(_HEX, 32)}"),
    "shopify-token": ("SHOPIFY_ADMIN_TOKEN", lambda: "shpat_" + _r(_HEX, 32)),
    "openai-key": ("OPENAI_API_KEY", lambda: "sk-proj-" + _r(_URLSAFE, 156)),
    "openai-key-legacy": ("OPENAI_KEY", lambda: "sk-" + _r(_ALNUM, 20) + "T3BlbkFJ" + _r(_ALNUM, 20)),
    "anthropic-key": ("ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + _r(_URLSAFE, 93) + "AA"),
    "huggingface-token": ("HF_TOKEN", lambda: "hf_" + _r(string.ascii_letters, 34)),
    "groq-key": ("GROQ_API_KEY", lambda: "gsk_" + _r(_ALNUM, 52)),
    "replicate-token": ("REPLICATE_API_TOKEN", lambda: "r8_" + _r(_ALNUM, 37)),
    "perplexity-key": ("PPLX_API_KEY", lambda: "pplx-" + _r(_ALNUM, 48)),
    "xai-key": ("XAI_API_KEY", lambda: "xai-" + _r(_ALNUM, 80)),
    "google-api-key": ("GOOGLE_API_KEY", lambda: "AIza" + _r(_URLSAFE, 35)),
    "sendgrid-key": ("SENDGRID_API_KEY", lambda: f"SG.{_r(_URLSAFE, 22)}.{_r(_URLSAFE, 43)}"),
    "mailgun-key": ("MAILGUN_API_KEY", lambda: "key-" + _r(_HEX, 32)),
    "mailchimp-key": ("MAILCHIMP_API_KEY", lambda: _r(_HEX, 32) + "-us21"),
    "twilio-auth-token": ("TWILIO_AUTH_TOKEN", lambda: _r(_HEX, 32)),
    "npm-token": ("NPM_TOKEN", lambda: "npm_" + _r(_ALNUM, 36)),
    "pypi-token": ("PYPI_TOKEN", lambda: "pypi-AgEIcHlwaS5vcmc" + _r(_URLSAFE, 120)),
    "dockerhub-pat": ("DOCKERHUB_TOKEN", lambda: "dckr_pat_" + _r(_URLSAFE, 27)),
    "atlassian-token": ("JIRA_API_TOKEN", lambda: "ATATT3xFfGF0" + _r(_URLSAFE, 170) + "=" + _r(_UPPER, 8)),
    "digitalocean-token": ("DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + _r(_HEX, 64)),
    "cloudflare-token": ("CLOUDFLARE_API_TOKEN", lambda: _r(_URLSAFE, 40)),
    "heroku-api-key": ("HEROKU_API_KEY", _uuid),
    "terraform-token": ("TFE_TOKEN", lambda: f"{_r(_ALNUM, 14)}.atlasv1.{_r(_ALNUM, 67)}"),
    "vault-token": ("VAULT_TOKEN", lambda: "hvs.CAESI" + _r(_URLSAFE, 86)),
    "doppler-token": ("DOPPLER_TOKEN", lambda: "dp.st.prd." + _r(_ALNUM, 40)),
    "databricks-token": ("DATABRICKS_TOKEN", lambda: "dapi" + _r(_HEX, 32)),
    "planetscale-token": ("PLANETSCALE_TOKEN", lambda: "pscale_tkn_" + _r(_URLSAFE, 43)),
    "supabase-pat": ("SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + _r(_HEX, 40)),
    "linear-key": ("LINEAR_API_KEY", lambda: "lin_api_" + _r(_ALNUM, 40)),
    "notion-token": ("NOTION_TOKEN", lambda: "ntn_" + _r(_ALNUM, 46)),
    "postman-key": ("POSTMAN_API_KEY", lambda: f"PMAK-{_r(_HEX, 24)}-{_r(_HEX, 34)}"),
    "newrelic-key": ("NEW_RELIC_API_KEY", lambda: "NRAK-" + _r(_UPPER, 27)),
    "okta-token": ("OKTA_API_TOKEN", lambda: "00" + _r(_URLSAFE, 40)),
}

# How people paste a token: (kind suffix, template); {e} is the variable's name, {t} the token.
_WRAPS: tuple[tuple[str, str], ...] = (
    ("env", "{e}={t}"),
    ("export", "export {e}=\"{t}\""),
    ("json", "{{\"{e_low}\": \"{t}\", \"region\": \"eu-north-1\"}}"),
    ("yaml", "env:\n  - name: {e}\n    value: {t}\n"),
    ("log", "2026-11-30T08:14:02Z DEBUG settings loaded from env: {e}={t}"),
    ("prose-en", "here's the key you asked for: {t} (don't share it)"),
    ("prose-de", "Hier ist der Schlüssel fürs Staging: {t}"),
    ("prose-fr", "Voici le jeton pour la prod : {t}"),
    ("prose-es", "Te paso el token: {t}"),
    ("prose-pl", "Oto token do API: {t}"),
    ("prose-sv", "Här är nyckeln: {t}"),
    ("prose-ar", "هذا هو المفتاح: {t}"),
    ("prose-he", "הנה המפתח: {t}"),
    ("prose-tr", "API anahtarı şu: {t}"),
    ("prose-sw", "Huu ndio ufunguo wa API: {t}"),
    ("prose-ru", "Вот токен: {t}"),
    ("prose-uk", "Ось ключ: {t}"),
    ("prose-fi", "Tässä API-avain: {t}"),
    ("prose-lt", "Štai raktas: {t}"),
    ("prose-nl", "Hier is de sleutel: {t}"),
    ("chat", "[10:42] ana: can u try mine? {t}\n[10:43] ben: works, thx"),
    ("shell", "$ curl -s -H \"Authorization: Bearer {t}\" https://api.example.invalid/v1/me"),
)


# Shapes that say nothing alone (a UUID, hex, random base64): credential-like only under their variable's name.
_CONTEXT_ONLY = frozenset({"heroku-api-key", "twilio-auth-token", "cloudflare-token", "aws-secret-key", "okta-token"})


def _vendor_values() -> list[Value]:
    out = []
    for kind, (env, make) in _TOKENS.items():
        if kind not in _CONTEXT_ONLY:
            out.append(Value(make(), True, f"{kind}-bare"))  # bare only where the shape says what it is
        wraps = _WRAPS[:4] if kind in _CONTEXT_ONLY else _WRAPS
        for suffix, template in _rng.sample(wraps, 2):
            out.append(Value(template.format(e=env, e_low=env.lower(), t=make()), True, f"{kind}-{suffix}"))
    return out


def _secret_values() -> list[Value]:
    v: list[Value] = []
    add = v.append
    akia, aws = "AKIA" + _r(_UPPER, 16), _r(_ALNUM + "+/", 40)
    add(Value(f"[default]\naws_access_key_id = {akia}\naws_secret_access_key = {aws}\n", True, "aws-credentials-file"))
    add(Value(f"DefaultEndpointsProtocol=https;AccountName=st{_r(_LOWER, 10)};AccountKey={base64.b64encode(_rng.randbytes(64)).decode()};EndpointSuffix=core.windows.net", True, "azure-storage-connection-string"))
    add(Value(f"https://st{_r(_LOWER, 8)}.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2026-12-31T23:59:59Z&st=2026-11-01T00:00:00Z&spr=https&sig={_r(_ALNUM, 43)}%3D", True, "azure-sas-url"))
    sa = {"type": "service_account", "project_id": f"acme-{_r(_LOWER, 6)}", "private_key_id": _r(_HEX, 40),
          "private_key": _pem("PRIVATE KEY", 1190) + "\n", "client_email": f"deploy@acme-{_r(_LOWER, 6)}.iam.gserviceaccount.com",
          "client_id": _r(string.digits, 21), "token_uri": "https://oauth2.googleapis.com/token"}
    add(Value(json.dumps(sa, indent=2), True, "gcp-service-account-json"))
    add(Value(sa, True, "gcp-service-account-object"))
    for label, size in (("RSA PRIVATE KEY", 1190), ("EC PRIVATE KEY", 121), ("PRIVATE KEY", 1218), ("ENCRYPTED PRIVATE KEY", 1298),
                        ("OPENSSH PRIVATE KEY", 400), ("DSA PRIVATE KEY", 440)):
        add(Value(_pem(label, size), True, f"pem-{label.lower().replace(' ', '-')}"))
    add(Value("here's the deploy key, add it to the runner:\n" + _pem("OPENSSH PRIVATE KEY", 400), True, "pem-in-chat"))
    add(Value("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + base64.b64encode(_rng.randbytes(600)).decode() + "\n=" + _r(_ALNUM, 4) + "\n-----END PGP PRIVATE KEY BLOCK-----", True, "pgp-private-key"))
    for i in range(6):
        claims = {"sub": str(_rng.randint(1000, 99999)), "sid": _r(_HEX, 24), "iat": 1764650000 + i, "exp": 1764653600 + i,
                  "scope": "openid profile email", "iss": "https://auth.acme.invalid"}
        token = _jwt(claims)
        add(Value([token, f"Authorization: Bearer {token}", f"access_token={token}", f"{{\"session\": \"{token}\"}}",
                   f"curl -H 'Authorization: Bearer {token}' https://api.acme.invalid/orders", f"Cookie: auth={token}"][i], True,
                  ["jwt-session-bare", "jwt-bearer-header", "jwt-query", "jwt-json", "jwt-curl", "jwt-cookie"][i]))
    for user, pw in (("deploy", _r(_ALNUM, 14)), ("ana.k", "Kwiecień2026!"), ("ops", "s3cr3t-" + _r(_LOWER, 6))):
        add(Value("Authorization: Basic " + base64.b64encode(f"{user}:{pw}".encode()).decode(), True, "basic-auth-header"))
    dsns = (
        f"postgresql://app:{_r(_ALNUM, 18)}@db.internal:5432/orders",
        f"postgres://postgres.{_r(_LOWER, 20)}:{_r(_ALNUM, 16)}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres",
        f"mysql://root:{_r(_ALNUM, 12)}@10.0.3.14:3306/shop",
        f"mongodb+srv://admin:{_r(_ALNUM, 16)}@cluster0.{_r(_LOWER, 5)}.mongodb.net/?retryWrites=true&w=majority",
        f"redis://:{_r(_ALNUM, 24)}@cache.internal:6379/0",
        f"rediss://default:{_r(_ALNUM, 32)}@eu1-fine-owl-{_rng.randint(10000, 99999)}.upstash.io:6379",
        f"amqp://guest:{_r(_ALNUM, 12)}@rabbit:5672/%2f",
        f"https://jenkins:{_r(_ALNUM, 10)}@ci.acme.invalid/job/release/",
        f"ftp://backup:{_r(_ALNUM, 10)}@files.acme.invalid/dumps/",
        f"https://oauth2:glpat-{_r(_URLSAFE, 20)}@gitlab.com/acme/infra.git",
    )
    for i, dsn in enumerate(dsns):
        add(Value(dsn, True, f"url-with-password-{i}"))
    add(Value(f"DATABASE_URL=postgres://billing:{_r(_ALNUM, 20)}@prod-db.acme.invalid:5432/billing", True, "dsn-env"))
    add(Value(f"sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server failed\n(Background on this error at: https://sqlalche.me/e/20/e3q8)\n[engine url: postgresql://svc:{_r(_ALNUM, 16)}@10.2.0.5:5432/app]", True, "dsn-in-stack-trace"))
    add(Value(f"Server=tcp:acme-sql.database.windows.net,1433;Initial Catalog=crm;User ID=crmapp;Password={_r(_ALNUM, 16)};Encrypt=True;", True, "mssql-connection-string"))
    cookies = (
        f"sessionid={_r(_LOWER, 32)}", f"JSESSIONID={_r(_HEX, 32).upper()}", f"PHPSESSID={_r(_LOWER, 26)}",
        f"connect.sid=s%3A{_r(_URLSAFE, 32)}.{_r(_URLSAFE, 43)}", f"laravel_session={_r(_URLSAFE, 40)}%3D",
        f"__Secure-next-auth.session-token={_r(_URLSAFE, 120)}", f"Cookie: _ga=GA1.2.{_rng.randint(10**8, 10**9)}.{1764000000}; sessionid={_r(_LOWER, 32)}; csrftoken={_r(_ALNUM, 32)}",
        f"Set-Cookie: SID={_r(_URLSAFE, 70)}; Domain=.acme.invalid; Path=/; Secure; HttpOnly",
    )
    for i, c in enumerate(cookies):
        add(Value(c, True, f"session-cookie-{i}"))
    cards = (("4", 16, "visa"), ("4", 16, "visa"), ("51", 16, "mastercard"), ("2221", 16, "mastercard-2-series"),
             ("34", 15, "amex"), ("37", 15, "amex"), ("6011", 16, "discover"), ("3530", 16, "jcb"),
             ("62", 16, "unionpay"), ("6759", 16, "maestro"), ("4", 19, "visa-19"), ("55", 16, "mastercard"))
    for i, (prefix, length, brand) in enumerate(cards):
        number = _card(prefix, length)
        shown = [number, _grouped(number, " "), _grouped(number, "-")][i % 3]
        add(Value(shown, True, f"card-{brand}"))
    n = _card("4", 16)
    add(Value(f"card: {_grouped(n, ' ')} exp 09/28 cvv 417", True, "card-with-cvv"))
    add(Value(f"Hola, te paso mi tarjeta para la reserva: {_grouped(_card('54', 16), ' ')}, vence 11/27, CVV 093", True, "card-prose-es"))
    add(Value(f"Numer karty {_card('4', 16)}, ważna do 03/29", True, "card-prose-pl"))
    add(Value(f"رقم البطاقة {_grouped(_card('4', 16), ' ')} تاريخ الانتهاء 08/27", True, "card-prose-ar"))
    add(Value({"card_number": _card("37", 15), "exp_month": 4, "exp_year": 2029, "cvc": "2291"}, True, "card-object"))
    for lang, strength in (("english", 128), ("english", 256), ("english", 160), ("spanish", 128), ("french", 128),
                           ("italian", 192), ("czech", 128), ("portuguese", 256), ("english", 224)):
        add(Value(_phrase(lang, strength), True, f"bip39-{lang}-{strength // 32 * 3}"))
    p = _phrase("english", 128)
    add(Value(f"my backup words are: {p}", True, "bip39-prose-en"))
    add(Value("\n".join(f"{i + 1}. {w}" for i, w in enumerate(_phrase("english", 128).split())), True, "bip39-numbered-list"))
    add(Value(f"Mi frase de recuperación: {_phrase('spanish', 128)}", True, "bip39-prose-es"))
    add(Value(_phrase("english", 128).upper(), True, "bip39-upper"))
    add(Value(",".join(_phrase("english", 128).split()), True, "bip39-commas"))
    add(Value(f"private key: 0x{_r(_HEX, 64)}", True, "eth-private-key-labelled"))
    add(Value(f"ETH_PRIVATE_KEY={_r(_HEX, 64)}", True, "eth-private-key-env"))
    add(Value("5" + _rng.choice("HJK") + _r(_B58, 49), True, "btc-wif-uncompressed"))
    add(Value(_rng.choice("KL") + _r(_B58, 51), True, "btc-wif-compressed"))
    add(Value("xprv9s21ZrQH143K" + _r(_B58, 95), True, "xprv"))
    add(Value({"address": "0x" + _r(_HEX, 40), "privateKey": "0x" + _r(_HEX, 64)}, True, "wallet-export-object"))
    passwords = (
        ("password: hunter2-" + _r(_LOWER, 4), "label-en"), ("Passwort: " + _r(_ALNUM, 10) + "!", "label-de"),
        ("mot de passe : Soleil" + _r(string.digits, 4) + "#", "label-fr"), ("contraseña: " + _r(_ALNUM, 9), "label-es"),
        ("hasło: Zima" + _r(string.digits, 4) + "!", "label-pl"), ("heslo: " + _r(_ALNUM, 10), "label-cs"),
        ("пароль: " + _r(_ALNUM, 11), "label-ru"), ("пароль: Київ" + _r(string.digits, 4), "label-uk"),
        ("كلمة المرور: " + _r(_ALNUM, 10), "label-ar"), ("סיסמה: " + _r(_ALNUM, 9), "label-he"),
        ("şifre: Ankara" + _r(string.digits, 3) + "*", "label-tr"), ("lösenord: " + _r(_ALNUM, 10), "label-sv"),
        ("passord: " + _r(_ALNUM, 10), "label-nb"), ("salasana: " + _r(_ALNUM, 10), "label-fi"),
        ("slaptažodis: " + _r(_ALNUM, 10), "label-lt"), ("parole: " + _r(_ALNUM, 10), "label-lv"),
        ("jelszó: " + _r(_ALNUM, 10), "label-hu"), ("wachtwoord: " + _r(_ALNUM, 10), "label-nl"),
        ("nenosiri: " + _r(_ALNUM, 10), "label-sw"), ("wagwoord: " + _r(_ALNUM, 10), "label-af"),
        ("رمز عبور: " + _r(_ALNUM, 10), "label-fa"), ("lozinka: " + _r(_ALNUM, 10), "label-hr"),
        ("user: admin / pass: " + _r(_ALNUM, 12), "user-pass-pair"), ("login ana@acme.invalid pw " + _r(_ALNUM, 11), "login-pw-chat"),
        (f"DB_PASSWORD={_r(_ALNUM, 20)}", "env-db-password"), (f"POSTGRES_PASSWORD: '{_r(_ALNUM, 16)}'", "yaml-postgres-password"),
        (f"{{\"username\": \"svc\", \"password\": \"{_r(_ALNUM, 16)}\"}}", "json-password"),
        (f"$ mysql -u root -p{_r(_ALNUM, 12)} shop < dump.sql", "shell-mysql-password"),
        (f"$ sshpass -p '{_r(_ALNUM, 12)}' ssh pi@192.168.1.40", "shell-sshpass"),
        (f"$ docker login -u acme -p {_r(_ALNUM, 16)} registry.acme.invalid", "shell-docker-login"),
        (f"WIFI:T:WPA;S:Kotiverkko;P:{_r(_ALNUM, 14)};;", "wifi-qr"),
        (f"machine api.github.com\n  login ana\n  password ghp_{_r(_ALNUM, 36)}\n", "netrc"),
        (f"//registry.npmjs.org/:_authToken=npm_{_r(_ALNUM, 36)}", "npmrc"),
        (json.dumps({"auths": {"ghcr.io": {"auth": base64.b64encode(f"ana:ghp_{_r(_ALNUM, 36)}".encode()).decode()}}}), "docker-config-auths"),
        (f"users:\n- name: ci\n  user:\n    token: {_r(_LOWER, 6)}.{_r(_LOWER, 16)}\n", "kubeconfig-token"),
        (f"[global]\nindex-url = https://ana:{_r(_ALNUM, 14)}@pypi.acme.invalid/simple", "pip-conf"),
        (f"Hej! Wifi-lösenordet är {_r(_ALNUM, 10)}", "prose-sv-wifi"), (f"Das WLAN-Passwort ist {_r(_ALNUM, 12)}", "prose-de-wifi"),
        (f"Nenosiri la Wi-Fi ni {_r(_ALNUM, 10)}", "prose-sw-wifi"), (f"Mój PIN do karty to {_r(string.digits, 4)}", "prose-pl-pin"),
    )
    for value, kind in passwords:
        add(Value(value, True, kind))
    sms = (
        (f"Your Acme verification code is {_code()}. Don't share it with anyone.", "otp-sms-en"),
        (f"{_code()} is your login code for Acme. It expires in 10 minutes.", "otp-sms-en-2"),
        (f"Ihr Bestätigungscode lautet {_code()}.", "otp-sms-de"),
        (f"Votre code de connexion : {_code()}", "otp-sms-fr"),
        (f"Tu código de verificación es {_code()}", "otp-sms-es"),
        (f"Kod BLIK: {_code()}. Nie podawaj go nikomu.", "otp-sms-pl"),
        (f"Код подтверждения: {_code()}. Никому его не сообщайте.", "otp-sms-ru"),
        (f"رمز التحقق الخاص بك هو {_code()}", "otp-sms-ar"),
        (f"קוד האימות שלך הוא {_code()}", "otp-sms-he"),
        (f"Doğrulama kodunuz: {_code()}", "otp-sms-tr"),
        (f"Engångskod: {_code()}", "otp-sms-sv"),
        (f"Msimbo wako wa uthibitisho ni {_code()}", "otp-sms-sw"),
        (f"Vahvistuskoodisi on {_code()}", "otp-sms-fi"),
        (f"Jūsų patvirtinimo kodas: {_code()}", "otp-sms-lt"),
        (f"G-{_code()} is your Google verification code.", "otp-sms-google"),
    )
    for value, kind in sms:
        add(Value(value, True, kind))
    return v


def _ordinary_values() -> list[Value]:
    v: list[Value] = []
    add = v.append
    for i in range(4):
        data = _rng.randbytes(32)
        add(Value(hashlib.sha1(data).hexdigest(), False, "sha1"))
        add(Value(hashlib.sha256(data).hexdigest(), False, "sha256"))
        add(Value(_uuid(), False, "uuid"))
    add(Value(hashlib.md5(_rng.randbytes(8)).hexdigest(), False, "md5"))
    add(Value(f"commit {_r(_HEX, 40)}\nAuthor: Ana K <ana@acme.invalid>\nDate:   Mon Nov 30 09:12:44 2026 +0200\n\n    Fix the retry loop", False, "git-log"))
    add(Value(f"fixed in {_r(_HEX, 7)}, see the PR", False, "short-sha-prose"))
    add(Value(f"{hashlib.sha256(_rng.randbytes(9)).hexdigest()}  askback-1.4.0.tar.gz", False, "sha256sum-line"))
    add(Value(f"ghcr.io/acme/api@sha256:{_r(_HEX, 64)}", False, "docker-digest"))
    add(Value(f"sha512-{base64.b64encode(_rng.randbytes(64)).decode()}", False, "npm-integrity"))
    add(Value(f"<script src=\"/app.js\" integrity=\"sha384-{base64.b64encode(_rng.randbytes(48)).decode()}\" crossorigin=\"anonymous\"></script>", False, "sri-tag"))
    add(Value(f"Content-Security-Policy: script-src 'self' 'sha256-{base64.b64encode(_rng.randbytes(32)).decode()}'", False, "csp-hash"))
    add(Value(f"traceparent: 00-{_r(_HEX, 32)}-{_r(_HEX, 16)}-01", False, "traceparent"))
    add(Value(f"request_id={_uuid()}", False, "request-id"))
    add(Value(f"X-Request-Id: {_r(_ALNUM, 24)}", False, "request-id-header"))
    add(Value("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk" + _r(_ALNUM, 40) + "==", False, "data-uri-image"))
    add(Value(f"01{_r('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 24)}", False, "ulid"))
    for country, bban in (("DE", "37040044" + _r(string.digits, 10)), ("GB", "NWBK601613" + _r(string.digits, 8)),
                          ("PL", _r(string.digits, 24)), ("SE", _r(string.digits, 20)), ("LT", _r(string.digits, 16)),
                          ("NL", "ABNA" + _r(string.digits, 10))):
        add(Value(_iban(country, bban), False, f"iban-{country.lower()}"))
    add(Value("BIC: NDEAFIHH", False, "bic"))
    add(Value("ISBN 978-0-306-40615-7", False, "isbn"))
    add(Value("#1e90ff", False, "hex-colour"))
    add(Value("rgba(30, 144, 255, 0.8)", False, "css-colour"))
    for prefix in ("4", "51", "6011", "37"):
        add(Value(_not_card(prefix, 15 if prefix == "37" else 16), False, "luhn-invalid-number"))
    add(Value(f"Order #{_not_card('4', 16)}", False, "order-number"))
    add(Value(f"IMEI: {_imei()}", False, "imei"))
    add(Value(f"IMEI1 {_imei()} / IMEI2 {_imei()}", False, "imei-dual"))
    add(Value(f"1Z{_r(_UPPER, 16)}", False, "ups-tracking"))
    add(Value(f"Tracking: 9400 1{_r(string.digits, 3)} {_r(string.digits, 4)} {_r(string.digits, 4)} {_r(string.digits, 4)} {_r(string.digits, 2)}", False, "usps-tracking"))
    add(Value(f"Przesyłka {_r(string.digits, 24)} jest w drodze", False, "tracking-prose-pl"))
    add(Value(f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(_ALNUM + '+/', 43)} ana@laptop", False, "ssh-public-ed25519"))
    add(Value(f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{_r(_ALNUM + '+/', 500)}= ci@runner", False, "ssh-public-rsa"))
    add(Value(_pem("PUBLIC KEY", 294), False, "pem-public-key"))
    add(Value(_pem("CERTIFICATE", 900), False, "pem-certificate"))
    add(Value(_pem("CERTIFICATE REQUEST", 600), False, "pem-csr"))
    add(Value("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + base64.b64encode(_rng.randbytes(500)).decode() + "\n-----END PGP PUBLIC KEY BLOCK-----", False, "pgp-public-key"))
    add(Value(f"SHA256:{base64.b64encode(_rng.randbytes(32)).decode().rstrip('=')} ana@laptop (ED25519)", False, "ssh-fingerprint"))
    add(Value(" ".join(_r("0123456789ABCDEF", 4) for _ in range(10)), False, "pgp-fingerprint"))
    for value, kind in (
        ("postgres://app@db:5432/app", "dsn-no-password"), ("mongodb://mongo-0.mongo:27017/?replicaSet=rs0", "dsn-no-user"),
        ("redis://cache.internal:6379/2", "redis-no-password"), ("https://ana@github.com/acme/infra.git", "url-user-only"),
        ("DATABASE_URL=${DATABASE_URL}", "env-placeholder"), ("DB_PASSWORD=${DB_PASSWORD}", "env-placeholder-password"),
        ("password: <your-password>", "placeholder-angle"), ("api_key: YOUR_API_KEY_HERE", "placeholder-caps"),
        ("OPENAI_API_KEY=sk-...", "placeholder-ellipsis"), ("STRIPE_SECRET_KEY=sk_live_****************************", "redacted-stars"),
        ("token: ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "redacted-x"), ("password: ********", "masked-password"),
        ("Authorization: Bearer [REDACTED]", "redacted-bearer"), ("hasło: •••••••• (ukryte)", "masked-pl"),
        ("пароль: скрыт", "masked-ru"), ("كلمة المرور: ******", "masked-ar"),
        ("{{ secrets.GITHUB_TOKEN }}", "ci-expression"), ("password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256", "ansible-vault-ref-header"),
        ("aws_secret_access_key = <from Vault: secret/data/ci/aws>", "vault-reference"),
        (f"arn:aws:secretsmanager:eu-west-1:{_r(string.digits, 12)}:secret:prod/db-password-{_r(_ALNUM, 6)}", "secret-arn"),
        (f"arn:aws:kms:eu-north-1:{_r(string.digits, 12)}:key/{_uuid()}", "kms-arn"),
        (f"s3://acme-backups-{_r(_LOWER, 6)}/2026/11/30/db.sql.gz", "s3-url"),
        (f"api-{_r(_LOWER, 10)}-{_r(_LOWER, 5)}", "k8s-pod-name"),
        (f"pk_live_51{_r(_ALNUM, 97)}", "stripe-publishable"), (f"pk_test_51{_r(_ALNUM, 97)}", "stripe-publishable-test"),
        (f"cus_{_r(_ALNUM, 14)}", "stripe-customer-id"), (f"pi_3{_r(_ALNUM, 23)}", "stripe-payment-intent"),
        (f"acct_1{_r(_ALNUM, 15)}", "stripe-account-id"), (f"AC{_r(_HEX, 32)}", "twilio-account-sid"),
        (f"0x{_r(_HEX, 40)}", "eth-address"), (f"bc1q{_r('023456789acdefghjklmnpqrstuvwxyz', 38)}", "btc-bech32-address"),
        (_r(_B58, 44), "solana-address"), (f"tx: 0x{_r(_HEX, 64)}", "eth-tx-hash-labelled"),
        (f"txid {_r(_HEX, 64)}", "btc-txid-labelled"), ("xpub661MyMwAqRbcF" + _r(_B58, 94), "xpub"),
        ("m/44'/60'/0'/0/0", "derivation-path"), (f"Wallet: 0x{_r(_HEX, 40)} (Ledger, 24 words, backed up offline)", "wallet-prose"),
        (f"magnet:?xt=urn:btih:{_r(_HEX, 40)}&dn=debian-13.iso", "magnet-link"),
        (f"MAC {':'.join(_r(_HEX, 2) for _ in range(6))}", "mac-address"), ("fe80::1c2b:3aff:fe4d:5e6f%en0", "ipv6"),
        ("VIN: WVWZZZ1KZ6W000001", "vin"), (f"DevEUI: {_r(_HEX, 16).upper()}", "lorawan-deveui"),
        ("QJK7H2LM9P Confirmed. Ksh1,200.00 sent to JOHN DOE 0712345678 on 2/12/26 at 10:14 AM. New M-PESA balance is Ksh3,450.00.", "mpesa-receipt-sms"),
        ("Kwa msaada piga 100. Usishiriki namba yako ya siri na mtu yeyote.", "mpesa-warning-sms"),
        ("Zakup 129,99 PLN w SKLEP ONLINE zatwierdzony. Saldo: 2 310,45 PLN", "bank-sms-pl"),
        ("Your card ending 4417 was charged €12.40 at PARKING HELSINKI.", "card-last4-sms"),
        ("Visa •••• 0093", "card-masked"),
        ("PESEL: 90010112345", "national-id-pl"), ("personnummer 19900101-1234", "national-id-se"),
        ("asmens kodas 39001010123", "national-id-lt"), ("T.C. Kimlik No: 10000000146", "national-id-tr"),
        ("BVN 22212345678", "bvn"), ("+254 712 345 678", "phone-ke"), ("ana.kowalska@acme.invalid", "email"),
        ("Mannerheimintie 12 B 7, 00100 Helsinki", "address-fi"), ("ul. Długa 5/3, 80-827 Gdańsk", "address-pl"),
    ):
        add(Value(value, False, kind))
    prose = (
        ("I forgot my password, can you send me a reset link?", "prose-en"), ("my password doesn't work since the update", "prose-en-2"),
        ("I never got the code, can you resend it?", "otp-missing-en"), ("Ich habe mein Passwort vergessen.", "prose-de"),
        ("J'ai oublié mon mot de passe.", "prose-fr"), ("Olvidé mi contraseña y no me llega el código.", "prose-es"),
        ("Zapomniałem hasła do konta.", "prose-pl"), ("Hasło reklamowe: „Smak, który łączy”", "slogan-pl"),
        ("Geslo podjetja: Skupaj gradimo prihodnost", "motto-sl"), ("Я забыл пароль от почты.", "prose-ru"),
        ("Код не пришёл, отправьте ещё раз.", "otp-missing-ru"), ("Я не можу змінити пароль.", "prose-uk"),
        ("نسيت كلمة المرور الخاصة بي.", "prose-ar"), ("שכחתי את הסיסמה שלי.", "prose-he"), ("Şifremi unuttum.", "prose-tr"),
        ("Jag har glömt mitt lösenord.", "prose-sv"), ("Glemt passord? Trykk på lenken på innloggingssiden.", "prose-nb"),
        ("Unohdin salasanani.", "prose-fi"), ("Pamiršau slaptažodį.", "prose-lt"), ("Aizmirsu paroli.", "prose-lv"),
        ("Elfelejtettem a jelszavam.", "prose-hu"), ("Nimesahau nenosiri langu.", "prose-sw"),
        ("Ek het my wagwoord vergeet.", "prose-af"), ("Ik ben mijn wachtwoord vergeten.", "prose-nl"),
        ("Use a password manager and never reuse passwords.", "advice-en"),
        ("Passwords must be at least 12 characters and include a digit.", "policy-en"),
        ("The PIN pad on the front door is broken.", "pin-pad-prose"), ("Set GPIO pin 17 to output.", "gpio-prose"),
        ("The API key is in 1Password under 'Stripe prod'.", "key-location-prose"),
        ("Rotate the AWS keys every 90 days.", "rotation-prose"), ("max_tokens: 4096", "llm-max-tokens"),
        ("The song is in the key of D minor.", "music-key-prose"), ("seed: 42", "random-seed"),
        ("The secret ingredient is cardamom.", "secret-sense-prose"),
    )
    for value, kind in prose:
        add(Value(value, False, kind))
    for template, kind in (
        ("Suma kontrolna: {h}", "checksum-prose-pl"), ("Prüfsumme der Datei: {h}", "checksum-prose-de"),
        ("Контрольная сумма: {h}", "checksum-prose-ru"), ("Tarkistussumma: {h}", "checksum-prose-fi"),
        ("التجزئة: {h}", "checksum-prose-ar"), ("checksum: {h}", "checksum-yaml"),
    ):
        add(Value(template.format(h=hashlib.sha256(_rng.randbytes(16)).hexdigest()), False, kind))
    for template, kind in (
        ("Naprawione w commicie {c}", "commit-prose-pl"), ("Behoben in {c}", "commit-prose-de"),
        ("Corrigé dans le commit {c}", "commit-prose-fr"), ("Düzeltme commit'i: {c}", "commit-prose-tr"),
    ):
        add(Value(template.format(c=_r(_HEX, 40)), False, kind))
    for i in range(3):
        add(Value(json.dumps({"order_id": _uuid(), "status": ["shipped", "paid", "refunded"][i], "total": "49.90"}), False, "order-json"))
    for i, prefix in enumerate(("4", "5", "4", "37", "6011", "35")):
        number = _not_card(prefix, 15 if prefix == "37" else 16)
        add(Value(_grouped(number, " -"[i % 2]), False, "luhn-invalid-card-shape"))
    for value, kind in (
        ("ghp_your_token_here", "placeholder-github"), ("xoxb-your-bot-token", "placeholder-slack"),
        ("<API_KEY>", "placeholder-angle-key"), ("postgres://app:${DB_PASSWORD}@db:5432/app", "dsn-placeholder-password"),
        ("[engine url: postgresql://svc:***@10.2.0.5:5432/app]", "dsn-redacted"), ("password=", "empty-password"),
        ("SGVsbG8sIHdvcmxkIQ==", "base64-text"), ("https://cdn.acme.invalid/assets/app.3f9c2e1a.js", "hashed-asset-url"),
        ("ETag: W/\"5e15153d-120f\"", "etag"), ("Set-Cookie: theme=dark; Path=/; Max-Age=31536000", "preference-cookie"),
        ("Cookie: lang=pl; theme=dark", "preference-cookie-header"), (f"_ga=GA1.2.{_rng.randint(10**8, 10**9)}.1764000000", "analytics-cookie"),
        ("OTP length: 6 digits, valid for 5 minutes", "otp-setting"), ("Your verification code will arrive shortly.", "otp-pending"),
        ("Kod weryfikacyjny wyślemy SMS-em.", "otp-pending-pl"), ("what's the wifi password?", "question-wifi"),
        ("Mikä on wifin salasana?", "question-wifi-fi"), ("Your order #10442 has shipped.", "shipping-sms"),
        ("+46 70 123 45 67", "phone-se"), ("D02 X285", "eircode"), ("ABC-1234", "licence-plate"),
        ('10.0.4.17 - - [30/Nov/2026:08:14:02 +0000] "GET /health HTTP/1.1" 200 2 "-" "kube-probe/1.31"', "nginx-access-log"),
        ("version: 1.4.0+build.20261130.3f9c2e1", "semver-build"), (f"build id {_r(_HEX, 12)}", "build-id"),
        (f"Idempotency key used: {_r(_ALNUM, 32)}", "idempotency-key-prose"), (f"client_id={_r(_LOWER, 20)}.apps.acme.invalid", "oauth-client-id"),
        (f"tenant: {_uuid()}", "azure-tenant-id"), (f"subscription_id: {_uuid()}", "azure-subscription-id"),
        (f"kid: {_r(_HEX, 40)}", "key-id-labelled"), ("GPIO17 -> LED, GPIO27 -> button", "gpio-map"),
        ("Secret Santa: Ana gives to Ben", "secret-santa"),
    ):
        add(Value(value, False, kind))
    for lang in ("english", "english", "spanish", "french"):
        add(Value(_bad_phrase(lang, 12), False, f"bip39-words-bad-checksum-{lang}"))
    add(Value(" ".join(_phrase("english", 128).split()[:11]), False, "bip39-eleven-words"))
    add(Value("the quick brown fox jumps over the lazy dog while my cat sleeps on the warm sofa", False, "everyday-words"))
    add(Value("apple banana cherry grape lemon mango orange peach pear plum berry melon", False, "fruit-list"))
    configs = (
        json.dumps({"password_min_length": 12, "password_max_age_days": 90, "mfa": {"enabled": True, "otp_ttl_seconds": 300}}),
        "auth:\n  token_ttl: 3600\n  refresh_token_ttl: 1209600\n  jwt_algorithm: RS256\n  jwks_url: https://auth.acme.invalid/.well-known/jwks.json\n",
        "LOG_LEVEL=info\nPORT=8080\nDATABASE_HOST=db\nDATABASE_USER=app\nDATABASE_PASSWORD_FILE=/run/secrets/db_password\n",
        json.dumps({"model": "gpt-4o-mini", "max_tokens": 512, "temperature": 0.2, "api_base": "https://api.openai.com/v1"}),
        "[default]\nregion = eu-north-1\noutput = json\n",
        "2026-11-30T08:14:02Z INFO  auth.login user=ana@acme.invalid result=ok mfa=totp ip=10.0.4.17",
        "2026-11-30T08:14:05Z WARN  auth.login user=ben result=bad_password attempts=3",
        "Traceback (most recent call last):\n  File \"app.py\", line 42, in <module>\n    main()\nKeyError: 'STRIPE_SECRET_KEY'",
        "$ export AWS_PROFILE=prod && aws s3 ls",
        "$ gh auth login --with-token < token.txt",
        "$ kubectl create secret generic db --from-file=password=./db_password.txt",
        "secretKeyRef:\n  name: db-credentials\n  key: password\n",
        json.dumps({"kid": _r(_HEX, 16), "kty": "RSA", "use": "sig", "n": _b64url(_rng.randbytes(256)), "e": "AQAB"}),
        json.dumps({"alg": "RS256", "typ": "JWT", "kid": _r(_HEX, 8)}),
        "WIFI:T:WPA;S:Kotiverkko;H:false;;",
        f"Idempotency-Key: {_uuid()}",
        f"cache_key=user:{_rng.randint(1000, 9999)}:profile:v3",
        "[10:42] ana: did the deploy go out?\n[10:43] ben: yes, 3f9c2e1 is live",
        "Salasana vaihdettu onnistuneesti.",
        "Twoje hasło zostało zmienione. Jeśli to nie Ty, skontaktuj się z nami.",
    )
    for i, value in enumerate(configs):
        add(Value(value, False, f"config-or-log-{i}"))
    return v


VALUES: tuple[Value, ...] = tuple(_vendor_values() + _secret_values() + _ordinary_values())

# The figure it got when first scored, with the guard of the merge that brought it in, before any tuning on it.
BLIND = {
    "refused": (272, 277), "accepted": (212, 220), "scored_at": "22131e4",
    "note": "scored on arrival (merge 22131e4), unchanged, before any tuning on it",
}

# ruff: noqa: E501
"""Form answers: credential-like values the answer guard must refuse, ordinary values it must accept.

Token-shaped values are generated here from a fixed seed (each vendor's prefix and length, random characters):
none is a real credential. Card numbers are test numbers and generated Luhn-valid ones.
"""

from __future__ import annotations

import base64
import random
import string
import uuid

from tests.corpora.blind_values import Value

_RNG = random.Random(20261201)
_ALNUM = string.ascii_letters + string.digits


def _chars(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _luhn_complete(prefix: str, length: int) -> str:
    body = prefix + "".join(_RNG.choice(string.digits) for _ in range(length - len(prefix) - 1))
    for check in string.digits:
        digits = body + check
        total = sum(int(c) if i % 2 == 0 else (int(c) * 2 - 9 if int(c) > 4 else int(c) * 2)
                    for i, c in enumerate(reversed(digits)))
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable")


def _grouped(number: str, sep: str) -> str:
    if len(number) == 15:
        return sep.join((number[:4], number[4:10], number[10:]))
    return sep.join(number[i:i + 4] for i in range(0, len(number), 4))


_TEST_CARDS = ["4111111111111111", "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222",
               "5105105105105100", "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
               "3056930009020004", "36227206271667", "3566002020360505", "6200000000000005", "4012888888881881"]
_CARD_PREFIXES = [("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15), ("6011", 16),
                  ("65", 16), ("3528", 16), ("62", 19), ("4", 19), ("36", 14)]
_CARDS = _TEST_CARDS + [_luhn_complete(p, n) for p, n in _CARD_PREFIXES for _ in range(3)]

_PEM = ("-----BEGIN {kind}PRIVATE KEY-----\n" + "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n" + "{body}\n"
        "-----END {kind}PRIVATE KEY-----")


def _jwt() -> str:
    def part(obj: str) -> str:
        return base64.urlsafe_b64encode(obj.encode()).decode().rstrip("=")
    return ".".join((part('{"alg":"HS256","typ":"JWT"}'), part('{"sub":"' + _chars(8) + '","iat":1700000000}'),
                     _chars(43, _ALNUM + "-_")))


def _mnemonic(words: int) -> str:
    from mnemonic import Mnemonic
    return Mnemonic("english").to_mnemonic(bytes(_RNG.randrange(256) for _ in range(words * 4 // 3)))


CREDENTIAL: dict[str, list[object]] = {
    "cards": (
        [_grouped(c, " ") for c in _CARDS] + [_grouped(c, "-") for c in _CARDS[:20]] + _CARDS
        + [f"Card: {_grouped(c, ' ')}" for c in _CARDS[:6]]
    ),
    "private keys": [
        _PEM.format(kind=k, body=_chars(64, _ALNUM + "+/"))
        for k in ("", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED ", "DSA ", "PGP ")
    ] + ["xprv9s21ZrQH143K" + _chars(95, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz") for _ in range(3)],
    "jwt": [_jwt() for _ in range(8)] + ["Bearer " + _jwt() for _ in range(3)],
    "tokens": [
        *("sk_live_" + _chars(24) for _ in range(4)), *("sk_test_" + _chars(24) for _ in range(4)),
        *("rk_live_" + _chars(24) for _ in range(3)), *("ghp_" + _chars(36) for _ in range(4)),
        *("gho_" + _chars(36) for _ in range(3)), *("ghs_" + _chars(36) for _ in range(3)),
        *("github_pat_" + _chars(22) + "_" + _chars(59) for _ in range(3)),
        *("xoxb-" + _chars(11, string.digits) + "-" + _chars(13, string.digits) + "-" + _chars(24) for _ in range(3)),
        *("xoxp-" + _chars(11, string.digits) + "-" + _chars(12, string.digits) + "-" + _chars(32) for _ in range(3)),
        *("AKIA" + _chars(16, string.ascii_uppercase + string.digits) for _ in range(4)),
        *("ASIA" + _chars(16, string.ascii_uppercase + string.digits) for _ in range(3)),
        *("AIza" + _chars(35, _ALNUM + "-_") for _ in range(3)), *("glpat-" + _chars(20) for _ in range(3)),
        *("npm_" + _chars(36) for _ in range(3)), *("pypi-AgEIcHlwaS5vcmc" + _chars(60) for _ in range(3)),
        *("https://hooks.slack.com/services/T" + _chars(8, string.ascii_uppercase) + "/B" + _chars(8, string.ascii_uppercase)
          + "/" + _chars(24) for _ in range(3)),
        *("sk-" + _chars(48) for _ in range(3)), *("sk-proj-" + _chars(64, _ALNUM + "_-") for _ in range(3)),
        *("sk-ant-api03-" + _chars(93, _ALNUM + "_-") + "AA" for _ in range(3)),
        *("hf_" + _chars(34) for _ in range(2)), *("SG." + _chars(22) + "." + _chars(43) for _ in range(2)),
        "123456789:AA" + _chars(33, _ALNUM + "_-"), "ya29." + _chars(60, _ALNUM + "_-"),
        "hvs." + _chars(24), "shpat_" + _chars(32, "0123456789abcdef"), "dop_v1_" + _chars(64, "0123456789abcdef"),
        "  ghp_" + _chars(36) + "  ", "my key is sk_live_" + _chars(24),
    ],
    "authorization": [
        *("Bearer " + _chars(40, _ALNUM + "._-") for _ in range(4)), *("bearer " + _chars(32) for _ in range(2)),
        *("Authorization: Bearer " + _chars(40) for _ in range(2)), "Token " + _chars(40, "0123456789abcdef"),
        *("Basic " + base64.b64encode(f"user{i}:{_chars(12)}".encode()).decode() for i in range(4)),
        "Authorization: Basic " + base64.b64encode(b"admin:hunter2hunter2").decode(),
    ],
    "connection strings": [
        "postgres://app:" + _chars(16) + "@db.internal:5432/app", "postgresql://u:p4ss@localhost/db",
        "mysql://root:" + _chars(12) + "@10.0.0.5:3306/shop", "mongodb+srv://admin:" + _chars(14) + "@cluster0.mongo.net/test",
        "redis://:" + _chars(20) + "@cache:6379/0", "redis://default:" + _chars(20) + "@cache:6379",
        "amqp://guest:" + _chars(10) + "@rabbit:5672/", "https://user:" + _chars(12) + "@git.example.com/repo.git",
        "ftp://bob:" + _chars(8) + "@files.example.org", "smtp://mailer:" + _chars(12) + "@smtp.example.com:587",
        "Server=db;Database=app;User Id=sa;Password=" + _chars(12) + ";",
        "Host=pg;Username=app;Password=" + _chars(14), "Data Source=x;Initial Catalog=y;pwd=" + _chars(10),
    ],
    "cookies": [
        "sessionid=" + _chars(32, "0123456789abcdefghijklmnopqrstuvwxyz"), "PHPSESSID=" + _chars(26),
        "JSESSIONID=" + _chars(32, "0123456789ABCDEF"), "connect.sid=s%3A" + _chars(40),
        "_session=" + _chars(48) + "; path=/", "session=" + _chars(40, _ALNUM + "._-"),
    ],
    "mnemonics": [_mnemonic(n) for n in (12, 12, 12, 12, 15, 18, 24, 24, 24)]
    + [", ".join(_mnemonic(12).split()), "\n".join(_mnemonic(12).split()),
       " ".join(f"{i}. {w}" for i, w in enumerate(_mnemonic(12).split(), 1))],
    "nested": [
        ["ada", "4111 1111 1111 1111"], ["ghp_" + _chars(36)], {"memo": "sk_live_" + _chars(24)},
    ],
}

ORDINARY: dict[str, list[object]] = {
    "iban": [
        "DE89370400440532013000", "DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432", "GB82 WEST 1234 5698 7654 32",
        "FR1420041010050500013M02606", "FR76 3000 6000 0112 3456 7890 189", "NL91ABNA0417164300", "NL91 ABNA 0417 1643 00",
        "ES9121000418450200051332", "IT60X0542811101000000123456", "BE68539007547034", "CH9300762011623852957",
        "AT611904300234573201", "PL61109010140000071219812874", "SE4550000000058398257466",
    ],
    "identifiers": [
        "123e4567-e89b-12d3-a456-426614174000", "550e8400-e29b-41d4-a716-446655440000",
        "f47ac10b-58cc-4372-a567-0e02b2c3d479", "a8b8f87c3e1d9b2f4c5a6e7d8f9a0b1c2d3e4f50",
        "0fe76f8b3c2a1d4e5f60718293a4b5c6d7e8f901", "1132349", "b537f39",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "d41d8cd98f00b204e9800998ecf8427e",
        "TX-1A2B3C4D", "INV-2026-000123", "ORD-98765", "112-1234567-1234567", "1Z999AA10123456784",
        "9400111899223100001234", "978-3-16-148410-0", "9783161484100", "4006381333931", "5901234123457",
        "01HF8Z3K9Y2X7W6V5T4S3R2Q1P", "user_2abcdefghijklmnop", "cus_ABC123", "pi_3NqK2a2eZvKYlo2C0x",
        "pk_live_" + "a" * 8, "acct_1032D82eZvKYlo2C", "ISBN 0-306-40615-2", "ABCD-EFGH-IJKL", "A1B2C3D4E5",
        "v1.2.3", "2.14.0-rc.1", "sha256:9f86d081884c7d659a2feaa0c55ad015", "AKIA", "ghp_", "sk-", "sk-1234",
        "xoxb", "eyJhbGciOiJIUzI1NiJ9", "npm_config_cache", "pypi-server", "sk_live_", "github_pat_",
    ],
    "numbers": [
        "42", "3.14159", "1000000", "0", "-17", "1,234,567.89", "1.234.567,89", "99.99 EUR", "12345678",
        "1234567890", "123456789012", "1234567890123", "1234567890123456", "0000000000000000", "1111111111111111",
        "4111111111111112", "5555555555554445", "1700000000000", "1700000000", "20261201", "+49 30 1234567",
        "+49 1512 3456789", "+1 (555) 123-4567", "+44 20 7946 0958", "+33 6 12 34 56 78", "0151 23456789",
        "(02) 9876 5432", "555-0100", 1234567890123456, 4111111111111112, 3.5, 12, -1, "12 34 56 78 90",
        "10.0.0.1", "192.168.1.1", "2001:db8::1", "08:30", "2026-12-01", "2026-12-01T08:30:00Z", "01/12/2026",
        "12/26", "1 Dec 2026",
    ],
    "words": [
        "ada", "Ada Lovelace", "grace@example.com", "https://example.com/docs", "https://example.com:8443/path?q=1",
        "ssh://git@github.com/org/repo.git", "git@github.com:org/repo.git", "mailto:ada@example.com",
        "Main Street 1, Bonn", "10115 Berlin", "Rent for December", "Lunch with the team", "pin it",
        "the quick brown fox jumps over the lazy dog near the river bank today", "Bearer of good news",
        "Basic information", "Basic plan", "Token economics", "session=1", "password", "my password is secret",
        "api key", "It is a secret", "token", "sk", "Bearer", "Authorization", "Basic",
        "abandon ability able about above absent", "apple banana cherry date elder fig grape honey kiwi lemon mango",
        "I would like to book a table for two people tomorrow at eight please thank you",
        "one two three four five six seven eight nine ten eleven twelve",
        "Please send the invoice to our accounting department by Friday", "Order #12345 shipped", "red", "blue",
        "yes", "no", "", " ", "N/A", "-", "Grüße aus München", "東京都千代田区", "Привет", "مرحبا", "नमस्ते",
        "C'est la vie", "50%", "€100", "$5.00", "#ff8800", "rgb(255, 0, 0)", "SELECT * FROM users", "x = 1",
        "print('hello')", "key=value", "a:b@c", "user@host", "John:Doe", "Q4 2026 plan", "AB-1234",
        "My mnemonic for the planets: My Very Educated Mother Just Served Us Noodles",
    ],
    "generated": [
        *(str(uuid.UUID(int=_RNG.getrandbits(128), version=4)) for _ in range(10)),
        *(_chars(40, "0123456789abcdef") for _ in range(8)), *(_chars(64, "0123456789abcdef") for _ in range(4)),
        *(str(_RNG.randrange(10**6)) for _ in range(6)), *(f"2026-{m:02d}-{d:02d}" for m, d in ((1, 5), (7, 31), (11, 9))),
        *(f"+49 {_RNG.randrange(150, 179)} {_RNG.randrange(10**7, 10**8)}" for _ in range(4)),
        *(f"{_RNG.randrange(1, 10_000)}.{_RNG.randrange(100):02d}" for _ in range(4)),
    ],
    "nested": [
        ["ada", "grace"], ["DE89370400440532013000"], [1, 2, 3], {"to": "ada", "amount": 5}, [["x"], ["y"]], True,
        False, None, [],
    ],
}


def flat(corpus: dict[str, list[object]]) -> list[object]:
    """Every entry of a corpus, in order."""
    return [v for values in corpus.values() for v in values]


# Both sides as scored values (tests/corpora/scoring.py), with their group as the kind.
VALUES = [Value(v, secret, group) for secret, corpus in ((True, CREDENTIAL), (False, ORDINARY))
          for group, values in corpus.items() for v in values]

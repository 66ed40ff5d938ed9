# ruff: noqa: E501
# (examples in other scripts are kept whole on one line)
"""The answer guard: an accepted answer that looks like a credential is recognised, ordinary answers are not."""

from __future__ import annotations

import pytest

from askback.guard import answer_refusal, credential_value
from tests.corpora.values import CREDENTIAL, ORDINARY, flat


def test_corpora_are_large() -> None:
    assert len(flat(CREDENTIAL)) >= 200 and len(flat(ORDINARY)) >= 200


@pytest.mark.parametrize("group", sorted(CREDENTIAL))
def test_credential_like_values_are_recognised(group: str) -> None:
    missed = [str(v)[:40] for v in CREDENTIAL[group] if credential_value(v) is None]
    assert not missed, missed


@pytest.mark.parametrize("group", sorted(ORDINARY))
def test_ordinary_values_pass(group: str) -> None:
    refused = [(v, credential_value(v)) for v in ORDINARY[group] if credential_value(v) is not None]
    assert not refused, refused


@pytest.mark.parametrize(
    ("value", "label"),
    [("4111 1111 1111 1111", "a payment card number"), ("-----BEGIN PRIVATE KEY-----\nMIIE\n", "a private key"),
     ("ghp_" + "a1B2" * 9, "an access token"), ("AKIA" + "ABCDEFGHIJKLMNOP", "an access key"),
     ("Bearer " + "x" * 30, "an authorization header"),
     ("postgres://u:secret@db/app", "a connection string with a password")],
)
def test_labels_name_the_kind(value: str, label: str) -> None:
    assert credential_value(value) == label


def test_an_iban_and_a_uuid_are_not_credentials() -> None:
    assert credential_value("DE89 3704 0044 0532 0130 00") is None
    assert credential_value("123e4567-e89b-12d3-a456-426614174000") is None


def test_the_refusal_names_the_kind_never_the_value() -> None:
    value = "4242 4242 4242 4242"
    label = credential_value(value)
    assert label is not None
    message = answer_refusal(label)
    assert "card number" in message and "not the place for secrets" in message
    assert value not in message and value.replace(" ", "") not in message and "4242" not in message


@pytest.mark.parametrize("value", [
    "dp.st.prd.5pDNzMjTFd8QYlgxJDDF4uyPY4fcHCT7q0izVVgSDf3", "nfp_sGqzzkTlPf3jlnodW5B6ywVv9B4HmrB51tuU",
    "FLWSECK-868f339b043e6c50801264308150db1e-X", "rzp_live_W1mQtsetp4pnSf:xBz9mAK8ymp8NUo0M18JgWDR",
    "AC47752ecd994d409b9051a55795500914:a95f87a14bacd8482d9246d0bb50562f", "ALGOLIA_ADMIN_KEY=d356a29321bb219c920d5b9b9a35ee11",
    "exp 09/28", "Ablaufdatum 11/27", "151256 is your Instagram code",
])
def test_new_value_shapes_are_recognised(value: str) -> None:
    assert credential_value(value) is not None, value


@pytest.mark.parametrize("value", ["Expiry: 12/2030 (passport)", "Coupon valid thru 09/28", "it is 09/28 today", "42 is your lucky number"])
def test_near_value_shapes_pass(value: str) -> None:
    assert credential_value(value) is None, value


_BYTES = [(i * 37 + 11) % 256 for i in range(64)]


@pytest.mark.parametrize("value", [
    # Vendor formats and token shapes
    "A21AAqZBtXE09HVSul60iio6CqJClN9yGiYjp9Nvdg1av7m7tUgy_B8bNPEsk2kS2gd2qPbE6r9TbV",
    "bkua_f89b7b6bef124263cb16aabed6c233742d3bffda",
    "https://api.telegram.org/bot4523317318:AAI3yFTOAEvgGOnfnt2dopv-veblBvwRGyq/sendMessage",
    "https://hooks.example.com/webhooks/8f3a9c2e7b1d4f6a0e5c3b9d2a7f1e4c",
    "eyJhbGciOiJSUzI1NiIsImtpZCI6IjE2In0.E04iy4f2iPnKZyZDG06pP3z4aGxx.Yq0Nc1rTeyBZz9rGQCgUHGGOg1zAPA",
    '{"kty": "EC", "crv": "P-256", "x": "AiZ3znIDYlwhg3TjEmIVIo7Fr9P2", "d": "45Xa9QmL2nTw8rVcYbZkPq3sHd"}',
    "WIFI:T:WPA;S:Home 5G;P:naranja-limon-2026;;", "$2b$12$jZ5kIImczG9CAWpiJx21wCnercEyZFqmXIbp4RW2zdK/g1tOxHjLJ",
    "_session_id=8eee7c1963725db8e4cf132fba72f433; path=/; HttpOnly", str(_BYTES), _BYTES,
    # Cards in every grouping, the Troy network; expiry in ISO form and in Arabic
    "3427.844301.51460", "3528 - 2492 - 2089 - 6633", "9792820024771838", "exp: 2028-03", "تاريخ الانتهاء 07/29",
    # Lists and mappings read as a whole; plain-word answers to security questions; codes said another way
    ["shaft", "hire", "wool", "fix", "hold", "casino", "carry", "toddler", "damp", "vital", "unfold", "unhappy"],
    {"username": "mkoval", "password": "Bursztyn2026!"}, "mother's maiden name: Kowalczyk",
    "123-456 is your Instagram code", "Use 918273 to log in to your bank.", "Votre code de connexion : 30 41 77",
    "رمز التحقق الخاص بك هو 381904",
])
def test_more_formats_structures_and_labels_are_recognised(value: object) -> None:
    assert credential_value(value) is not None, value


@pytest.mark.parametrize("value", [
    # IMEIs (15 digits, not Amex), masked values, references, documented example keys, markup, postal PINs
    "357514768025594", "password: ********", "CVV: ***", "password: ${DB_PASSWORD}",
    "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf", "AKIAIOSFODNN7EXAMPLE",
    '<input type="password" name="pwd" autocomplete="current-password">', "PIN code 560001 is Bengaluru GPO.",
    '{"type": "object", "properties": {"password": {"type": "string", "minLength": 12}}}',
    {"password_min_length": "12"}, ["a", "b"] * 6,
])
def test_masks_references_examples_and_markup_pass(value: object) -> None:
    assert credential_value(value) is None, value


@pytest.mark.parametrize("value", [
    "jdbc:oracle:thin:scott/6DFhkX2KOU@//ora.corp:1521/ORCLPDB1",
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgdMc1sOyB/HSAIGowx/143VPgsmInnRS1OwrXMdQPlA",
    "8600.1191.7819.8953", "the 3 digits on the back are 164", "登录密码是N0rth#Star55", "login: admin / Tr0ub4dor&3",
    "رقمي السري 9314", "Your Uber code: 627838", "WhatsApp code 421-813", "2FA: 674709", "requirepass aqXHN6jC2SO5DW1cFD7mEqb9",
    "https://app.shopfront.io/password/reset/ETmDet2YOTaZCHHpPfygxJTJAQ_pfyNRoS9paBWm?email=ana", "κωδικός: Gl4cier.Night",
])
def test_jdbc_der_keys_domestic_cards_glued_labels_codes_and_reset_paths_are_recognised(value: str) -> None:
    assert credential_value(value) is not None, value


@pytest.mark.parametrize("value", ["PAN: AAAPL1234C", "Lot 4A21B, exp 2027-05", "Postal code: 560034", "Area code 212-555",
                                   "Error code: 5031", "κωδικός: 4821"])
def test_tax_ids_lots_and_ordinary_codes_pass(value: str) -> None:
    assert credential_value(value) is None, value

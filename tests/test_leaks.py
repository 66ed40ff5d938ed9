# ruff: noqa: E501
# (examples in other scripts are kept whole on one line)
"""The answer guard: an accepted answer that looks like a credential is recognised, ordinary answers are not."""

from __future__ import annotations

import pytest

from askback.leaks import answer_refusal, credential_value
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

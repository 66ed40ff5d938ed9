"""The secret guard: credential-like form fields are refused, ordinary ones pass."""


from typing import Annotated

import pytest
from pydantic import Field, SecretStr

import askback
from askback.core.secrets import SecretInForm, credential_term, field_credential, guard_form

CREDENTIALS = [
    "password", "Password", "user_password", "userPassword", "new-password", "passwd", "pwd", "passphrase",
    "pass_phrase", "passcode", "pin", "PIN", "pin_code", "otp", "totp", "one_time_code", "one-time password",
    "sms_code", "verification_code", "2fa_code", "mfa code", "api_key", "apiKey", "API Key", "apikey",
    "access_key", "secret_key", "license_key", "secret", "client_secret", "clientSecret", "shared secret",
    "token", "access_token", "accessToken", "refresh_token", "bearer_token", "bearer", "auth_token", "id_token",
    "session_token", "GitHub token", "personal access token", "jwt", "private_key", "privateKey", "ssh_key",
    "signing key", "credentials", "creds", "card_number", "cardNumber", "credit card number", "credit_card",
    "debit card", "cc_number", "ccnum", "pan", "cvv", "CVV2", "cvc", "csc", "card security code",
    "card verification value", "security code", "card_expiry", "card expiration date", "Your secret",
    "Paste your token here",
]

ORDINARY = [
    "username", "user_name", "email", "email_address", "max_tokens", "maxTokens", "token_count", "token_limit",
    "num_tokens", "github_login", "login", "repo", "repository", "title", "amount", "to", "from_account",
    "Recipient IBAN", "iban", "keyword", "keywords", "monkey", "public_key", "password_hint", "password_policy",
    "cardholder", "card_holder_name", "card type", "spin", "pinned", "spinner", "description", "color",
    "name", "confirm", "ok", "key", "sort key", "passport number", "expiration date", "secretary", "city",
    "country", "phone", "address", "date_of_birth", "company", "priority", "language", "version", "audience",
    "tokenizer", "token_type", "bank_name", "account", "branch", "step1",
]


@pytest.mark.parametrize("text", CREDENTIALS)
def test_credentials_are_recognised(text: str) -> None:
    assert credential_term(text) is not None, text


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_values_pass(text: str) -> None:
    assert credential_term(text) is None, text


def test_corpora_are_large() -> None:
    assert len(CREDENTIALS) >= 50 and len(ORDINARY) >= 50


def test_format_password_is_a_credential_whatever_its_name() -> None:
    assert field_credential("value", {"type": "string", "format": "password"}) == "password"
    assert field_credential("value", {"type": "string", "description": "Your API key"}) == "API key"
    assert field_credential("value", {"type": "string", "title": "Bank PIN"}) == "PIN"


def test_guard_form_checks_every_field() -> None:
    guard_form("tool", {"type": "object", "properties": {"name": {"type": "string"}}})
    with pytest.raises(SecretInForm) as info:
        guard_form("tool 'x'", {"type": "object", "properties": {"name": {"type": "string"},
                                                                 "api_key": {"type": "string"}}})
    assert "out of band" in str(info.value) and "api_key" in str(info.value)


def test_registration_refuses_a_credential_parameter() -> None:
    app = askback.App("t")
    with pytest.raises(SecretInForm, match="out of band"):
        @app.tool()
        def login(username: str, password: str) -> str:
            return username

    @app.tool()
    def connect(key: SecretStr) -> str:  # a credential type is asked out of band, on askback's page
        return "x"

    assert app.tools["connect"].param("key").kind == "secret"

    with pytest.raises(SecretInForm):
        @app.tool()
        def pay(number: Annotated[str, Field(description="Credit card number")]) -> str:
            return "x"

    with pytest.raises(SecretInForm):
        @app.tool()
        def call(value: Annotated[str, askback.Ask(field="access_token")]) -> str:
            return "x"


def test_registration_accepts_ordinary_parameters() -> None:
    app = askback.App("t")

    @app.tool()
    def generate(username: str, email: str, max_tokens: int = 100) -> str:
        return username

    assert "generate" in app.tools


def test_the_question_text_is_guarded_too() -> None:
    app = askback.App("t")
    with pytest.raises(SecretInForm) as info:
        @app.tool()
        def f(x: Annotated[str, askback.Ask("What is your password?", field="answer")]) -> str:
            return x

    assert info.value.field == "answer" and "a password" in str(info.value)


def test_the_message_uses_the_right_article() -> None:
    assert "an API key" in str(SecretInForm("tool 't'", "k", "API key"))

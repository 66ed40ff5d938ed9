# ruff: noqa: E501
# (examples in other scripts are kept whole on one line)
"""The secret guard: credential-like form fields and texts are refused, ordinary ones pass.

The corpora live in tests/corpora/names.py (hand-written per language, plus generated identifier styles and
Unicode tricks); the corpus keeps its floor in tests/test_guard_corpora.py, and each group a floor of its own, so
one language cannot hide behind another.
"""


from typing import Annotated

import pytest
from pydantic import Field, SecretStr

import askback
from askback.guard import SecretInForm, credential_term, field_credential, guard_form
from tests.corpora.names import CREDENTIAL, ORDINARY, flat

CREDENTIALS = flat(CREDENTIAL)
ORDINARY_TEXTS = flat(ORDINARY)
# The names the stress test registers as tools (it imports these two).
ORDINARY_NAMES = ORDINARY_TEXTS
GROUP_FLOOR = 0.85
LANGUAGES = {"es", "de", "fr", "pt", "it", "nl", "ru", "uk", "pl", "tr", "zh", "ja", "ko", "ar", "hi", "sv", "cs", "el"}


def _rates() -> dict[str, tuple[float, list[str]]]:
    out: dict[str, tuple[float, list[str]]] = {}
    for group, texts in CREDENTIAL.items():
        missed = [t for t in texts if credential_term(t) is None]
        out[f"credential/{group}"] = (1 - len(missed) / len(texts), missed)
    for group, texts in ORDINARY.items():
        refused = [t for t in texts if credential_term(t) is not None]
        out[f"ordinary/{group}"] = (1 - len(refused) / len(texts), refused)
    return out


def test_corpora_are_large_and_span_the_languages() -> None:
    assert len(CREDENTIALS) >= 400 and len(ORDINARY_TEXTS) >= 400
    assert set(CREDENTIAL) >= LANGUAGES and set(ORDINARY) >= LANGUAGES
    assert {"variants", "unicode"} <= set(CREDENTIAL) & set(ORDINARY)


def test_no_group_falls_far_behind_the_others() -> None:
    # The corpus as a whole keeps its floor in tests/test_guard_corpora.py; this keeps one language (a group of
    # 9 to 300 texts) from failing behind the others' figures. 85% lets a group of 9 lose one text, of 20 three.
    low = {k: v for k, v in _rates().items() if v[0] < GROUP_FLOOR}
    assert not low, low


@pytest.mark.parametrize(
    "text",
    ["contraseña", "Passwort", "Kennwort", "mot de passe", "senha", "пароль", "密码", "パスワード", "hasło", "şifre",
     "clave", "pw", "db_pass", "password1", "passw0rd", "XApiKey", "priv_key", "card_exp", "session cookie",
     "Authorization header", "seed phrase", "mnemonic", "connection string", "recovery codes", "security answer",
     "раssword", "ｐａｓｓｗｏｒｄ", "pass\u200bword", "\u202eapi_key", "ΑΡΙ_ΚΕΥ"],
)
def test_what_the_english_keyword_list_missed_is_refused(text: str) -> None:
    assert credential_term(text) is not None, text


@pytest.mark.parametrize(
    "text",
    ["input_tokens", "completion_tokens", "max_output_tokens", "gpio_pin", "pan_angle", "password_min_length",
     "Maximum tokens to generate", "pin to top", "pinned", "key points", "keyboard", "primary key column",
     "passport number", "passenger", "compass", "spinach", "token_count", "Token limit"],
)
def test_ordinary_values_the_old_list_refused_pass(text: str) -> None:
    assert credential_term(text) is None, text


def test_field_checks_name_title_description_format_and_write_only() -> None:
    assert field_credential("value", {"type": "string", "format": "password"}) == "password"
    assert field_credential("value", {"type": "string", "writeOnly": True}) == "password"
    assert field_credential("value", {"type": "string", "description": "Your API key"}) == "API key"
    assert field_credential("value", {"type": "string", "title": "Bank PIN"}) == "PIN"
    assert field_credential("clave", {"type": "string"}) == "password"
    assert field_credential("value", {"type": "string", "title": "Ваш пароль"}) == "password"


def test_a_number_of_tokens_and_a_yes_or_no_carry_no_credential() -> None:
    assert field_credential("tokens", {"type": "integer", "title": "Token"}) is None
    assert field_credential("token", {"type": "string"}) == "token"
    assert field_credential("pin_ok", {"type": "boolean", "title": "Is the PIN right?"}) is None


def test_guard_form_checks_every_field_and_the_message() -> None:
    guard_form("tool", {"type": "object", "properties": {"name": {"type": "string"}}})
    with pytest.raises(SecretInForm) as info:
        guard_form("tool 'x'", {"type": "object", "properties": {"name": {"type": "string"},
                                                                 "api_key": {"type": "string"}}})
    assert "out of band" in str(info.value) and "api_key" in str(info.value)
    with pytest.raises(SecretInForm) as info:
        guard_form("tool 'x'", {"type": "object", "properties": {"value": {"type": "string"}}},
                   message="Please enter your online banking password to continue")
    assert info.value.field == "value" and info.value.term == "password"
    # A yes/no confirmation whose text quotes a caller's words asks for no secret.
    guard_form("tool 'x'", {"type": "object", "properties": {"confirm": {"type": "boolean"}}},
               message="Send 5 EUR with memo pin it?")


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

    with pytest.raises(SecretInForm):
        @app.tool()
        def entrar(usuario: str, contrasena: str) -> str:
            return usuario


def test_a_write_only_field_reaches_the_guard() -> None:
    app = askback.App("t")
    with pytest.raises(SecretInForm) as info:
        @app.tool()
        def store(value: Annotated[str, Field(json_schema_extra={"writeOnly": True})]) -> str:
            return value

    assert info.value.field == "value"


def test_registration_accepts_ordinary_parameters() -> None:
    app = askback.App("t")

    @app.tool()
    def generate(username: str, email: str, max_tokens: int = 100, max_output_tokens: int = 50,
                 gpio_pin: int = 4, pan_angle: float = 0.0) -> str:
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


def test_matching_by_first_character_finds_what_one_alternation_of_every_phrase_finds() -> None:
    """A word tries only the pieces that can begin with the text there and whose required characters the text holds
    (both read from each piece's text): on every text of the corpora, that finds the same phrase at the same place
    as one alternation of all pieces would."""
    import re

    from askback.guard import names
    from tests.corpora import blind, blind2, blind3, final, heldout

    texts = [e.text for corpus in (blind, blind2, blind3, final, heldout) for e in corpus.ENTRIES][::5]
    assert len(texts) > 1000  # every fifth: one alternation of every piece is slow to try at every word
    names._matches("warm up")
    matcher = names._MATCHER
    assert matcher is not None
    whole = re.compile("|".join(f"(?P<g{i}>(?:{piece})(?!\\w))" for i, (_, piece) in enumerate(matcher.pieces)))
    read = sum(names.heads(piece, names._WIDTH) is not None for _, piece in matcher.pieces)
    assert read >= 0.95 * len(matcher.pieces)  # nearly every piece is tried only where it can begin
    for text in texts:
        for words in names.readings(text, names._TYPOS):
            expected = []
            for start in re.finditer(r"(?<!\w)\w", words):
                match = whole.match(words, start.start())
                if match and match.lastgroup:
                    expected.append((matcher.pieces[int(match.lastgroup[1:])][0], match.start(), match.end()))
            assert [m for m in names._matches(words)][: len(expected)] == expected, words


@pytest.mark.parametrize("rx, begins", [
    ("ab?c|d*e", None), ("x+y", {"x"}), ("(?:a|b)?c", {"a", "b", "c"}), ("a?", None), ("a\\w*|b[cd]", {"a", "b"}),
    ("\\wa", None), ("[ab]c", None), ("(?=a)bcd", {"bcd"}), ("(?i)abc", None), ("pass ?words?", {"pas"}),
    ("(?:db|database) ?pass", {"db", "dat"}), ("\\d pin", None), ("a{0,3}b", None), ("(?:a?|b)c", None),
    ("(?<!x )mnemonics?(?! aid)", {"mne"}), ("pw", {"pw"}), ("(?:full |long |)numbers?", {"ful", "lon", "num"}),
    ("(?:(?:db|x)|your|my) ?pw", {"db", "x", "you", "my"}), ("(?:a|b){2}c", None),
])
def test_what_a_phrase_can_begin_with(rx: str, begins: set[str] | None) -> None:
    """Read from the phrase's text; anything not read shortens a beginning (more words tried, never fewer)."""
    from askback.guard.prefixes import heads

    assert heads(rx, 3) == (None if begins is None else frozenset(begins))


@pytest.mark.parametrize("rx, held", [
    ("(?:access|api) ?tokens?", [("token",), ("access", "api")]), ("pass ?words?", [("pass",), ("word",)]),
    ("a|b", []), ("x+yz", [("yz",)]), ("(?:kod|code)[^|]{0,40}sms", [("sms",), ("code", "kod")]),
    ("cvv ?2?", [("cvv",)]), ("\\w*(?:ab|cd)\\w*", [("ab", "cd")]), ("ab(?:cd){0,2}ef", [("ab",), ("ef",)]),
    ("a(?!x)bc", [("abc",)]), ("(?:(?:db|x)|your) ?(?:pw|pwd)", [("db", "x", "your"), ("pw", "pwd")]),
    ("(?:a|) ?(?:pin)?", []), ("\\x20pin", [("pin",)]),
])
def test_the_characters_every_match_of_a_phrase_holds(rx: str, held: list[tuple[str, ...]]) -> None:
    import re

    from askback.guard.prefixes import needs

    assert list(needs(rx)) == held
    for text in ("", "ab cd", "token", "x pw", "your pwd", " pin", "cvv2", "abef", "abcdef", "sms code"):
        found = re.search(rx, text)  # a text that matches holds one string of every group
        assert found is None or all(any(s in found[0] for s in group) for group in held), (rx, text)


@pytest.mark.parametrize("text", [
    "&#112;assphrase", "pas&#x73;wd", "par%6fla", "%D0%BF%D0%B0%D1%80%D0%BE%D0%BB%D1%8C", "Your \u202edrowssap\u202c",
    "p🔑wd", "🇵🇮🇳", "⒫⒜⒮⒮⒲⒪⒭⒟", "to⠀ken", "pri\xa0vkey", "密 码", "ぱすわーど", "ㅂㅣㅁㅣㄹㅂㅓㄴㅎㅗ",
    "Pasword", "secert_key", "Seed pharse", "mnemnonic",
    "პაროლი", "Գաղտնաբառ", "Құпия сөз", "የይለፍ ቃል", "ពាក្យសម្ងាត់", "Wagwoord", "Slaptažodis", "kalimat_al_murur", "yanzhengma",
    "tan", "tok", "exp_month", "kubeconfig", "steam_guard_code", "Alarm disarm code", "Les 3 chiffres au dos de votre carte.",
    "გთხოვთ, შეიყვანოთ SMS-ით მიღებული კოდი.", "Your password was reset: enter the new one.",
])
def test_new_readings_and_words_are_refused(text: str) -> None:
    assert credential_term(text) is not None, text


@pytest.mark.parametrize("text", [
    "20%de descuento", "Token%20budget", "password%5Fmin%5Flength", "passport", "phase", "privacy", "select",
    "Your password was reset successfully. No further action is needed.", "Ihr Passwort wurde erfolgreich geändert.",
    "La contraseña debe tener al menos 10 caracteres y un número.", "您的密码已重置成功。", "비밀번호가 변경되었습니다.",
    "pin_retry_limit", "totp_digits", "mnemonic_language", "masked_pan", "battle_pass_tier", "PIN diameter (mm)",
    "tan colour", "Parola chiave", "Şifreleme algoritması",
])
def test_reports_rules_settings_and_near_words_are_ordinary(text: str) -> None:
    assert credential_term(text) is None, text


@pytest.mark.parametrize("text", [
    # Languages new to the tables (Albanian, Icelandic, Irish, Welsh, Basque, Galician, Maltese, Esperanto, Kyrgyz...)
    "Fjalëkalimi", "Lykilorð", "Cuir isteach do phasfhocal", "Rhowch eich cyfrinair", "Pasahitza", "Contrasinal",
    "Pasvorto", "Сырсөз", "Zaporka", "Numri i kartës", "Rhif y cerdyn", "Zasebni ključ", "መሕለፊ ቃል", "ଏଟିଏମ ପିନ",
    # A code and a text message a few words apart, in any language
    "Vnesite kodo iz SMS sporočila", "Shkruani kodin që morët me SMS", "Մուտքագրեք SMS-ով ստացված կոդը",
    # Codes that open a door, a gate, an alarm or a safe; a Wi-Fi key
    "Tell me the code on your door keypad", "Quel est le code d'accès de l'alarme ?", "WLAN-Schlüssel",
    # A line break or a tab inside a word
    "Número de tar\njeta", "c\tvv",
])
def test_more_languages_sms_codes_door_codes_and_broken_words_are_refused(text: str) -> None:
    assert credential_term(text) is not None, text


@pytest.mark.parametrize("text", [
    # "Your password was changed" in more languages: a report, no request
    "Vaša zaporka je promijenjena.", "Fjalëkalimi juaj u ndryshua.", "Mae eich cyfrinair wedi'i newid.",
    "Zure pasahitza aldatu da.", "Passordet ditt er endret.", "Tu contraseña se cambió correctamente.",
    # A credential's validity in days and its minimum length: settings
    "Aantal dagen voordat een wachtwoord verloopt.", "Срок действия пароля в днях для всех сотрудников.",
    "Parooli minimaalne pikkus", "პაროლის მინიმალური სიგრძე", "Pasahitzaren gutxieneko luzera",
    # An Indian postal PIN code in Indic scripts, an identity card
    "પિન કોડ (સરનામું)", "Numru tal-karta tal-identità",
])
def test_reports_validity_lengths_and_postal_codes_in_more_languages_are_ordinary(text: str) -> None:
    assert credential_term(text) is None, text


@pytest.mark.parametrize("text", [
    "SLACK_WEBHOOK_URL", "two_fa_code", "mfa_seed", "snmp_community_string", "gcp_service_account_json", "mobile_tan",
    "unlock_pattern", "VITE_SUPABASE_SERVICE_ROLE_KEY", "paswd", "verfication_code", "Valid thru", "OpenAI key",
    "Printed on the back of the card, 3 digits (4 on Amex).", "Parent PIN that unlocks age-restricted channels",
    "Gültig bis (MM/JJ)", "Voimassa (KK/VV)", "Inserisci la password per continuare.",
])
def test_english_names_card_masks_and_typos_are_refused(text: str) -> None:
    assert credential_term(text) is not None, text


@pytest.mark.parametrize("text", ["webhook_url", "Add the webhook URL to start receiving events.", "exam_passed",
                                  "PASSW0RD_MIN_LENGTH", "Percentage of students who passed."])
def test_own_webhooks_and_near_typos_are_ordinary(text: str) -> None:
    assert credential_term(text) is None, text


@pytest.mark.parametrize("text", ["ccardd_nuumbeer", "pprivvatee_keey", "ootp_codde", "drowssap", "yek_ipa", "vvc",
                                  "w 4 c h 7 w 0 0 r d", "b 3 4 r 3 r   7 0 k 3 n"])
def test_doubled_reversed_and_spaced_leet_names_are_refused(text: str) -> None:
    assert credential_term(text) is not None, text


@pytest.mark.parametrize("text", ["token_address", "nap_duration", "t0k3n_typ3", "Mindestlänge des strowssaP", "coffee_mug"])
def test_words_spelled_with_doubles_or_reversing_by_chance_are_ordinary(text: str) -> None:
    assert credential_term(text) is None, text


@pytest.mark.parametrize("text", [
    "Your SSH public key, the contents of id_ed25519.pub.", "Public URL of the JWKS endpoint with the signing keys.",
    "The secret to a good sourdough is patience.", "Require a symbol in passwords", "creds/db/username",
    "Cookie-Einstellungen", "Amigo secreto: valor do presente", "卡号后四位", "เลขบัตรประชาชน", "पॅन कार्ड क्रमांक",
    "Şîfreya te hate guhertin.", "码密最小长度",
])
def test_public_halves_idioms_rules_settings_and_id_cards_are_ordinary(text: str) -> None:
    assert credential_term(text) is None, text


def test_the_secret_to_an_api_is_still_a_secret() -> None:
    assert credential_term("Paste the secret to call the API") is not None
    assert credential_term("Tẹ ọ̀rọ̀ aṣínà rẹ sí i") is not None  # Yoruba: "type your password"


@pytest.mark.parametrize("text", ["Пришли мне свой п@р0ль", "пapoль", "有効期限（月/年）", "カード裏面に記載された3桁の番号。",
                                  "שלוש הספרות בגב הכרטיס", "Sila masukkan kod TAC yang dihantar melalui SMS.", "ключ_api"])
def test_cyrillic_leet_half_latin_words_cjk_masks_and_malay_requests_are_refused(text: str) -> None:
    assert credential_term(text) is not None, text


@pytest.mark.parametrize("text", ["Número da senha de atendimento", "Clave del producto en el catálogo (SKU).",
                                  "Lösenordet måste vara minst 12 tecken långt.", "Jelszóházirend", "parol_uzunligi",
                                  "The public part of your SSH key, starting with ssh-ed25519.", "Siła hasła"])
def test_queue_tickets_product_keys_and_more_rules_are_ordinary(text: str) -> None:
    assert credential_term(text) is None, text


@pytest.mark.parametrize("text", [
    "Which token do you want to buy? (e.g. USDC)", "Which tokens can I swap for ETH?", "ERC-20 token contract",
    "The BEP-20 token to bridge", "lexer token kind", "the crypto token you hold most of",
    "Time to live of the access token, in seconds", "TTL of the refresh token", "Access token time to live",
    "What is the secret of your success?", "The secret behind their happiness", "the secret to a long life",
])
def test_a_token_traded_or_lexed_a_lifetime_and_the_secret_of_success_are_ordinary(text: str) -> None:
    assert credential_term(text) is None


@pytest.mark.parametrize("text", [
    "Paste your access token", "Enter your token", "Paste the token you got after you buy a plan",
    "Which token should we use? Paste it here", "the secret to call the API", "Your access token",
    "Enter the secret of the webhook", "token", "Paste the access token you use, its time to live does not matter",
])
def test_those_words_leave_a_credential_asked_for(text: str) -> None:
    assert credential_term(text) is not None

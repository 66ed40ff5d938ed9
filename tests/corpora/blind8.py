"""An eighth blind corpus for the secret guard: written without looking at the guard or at its tuning corpora.

It follows the format and the labelling decisions of ``tests.corpora.blind``, ``tests.corpora.blind5`` and
``tests.corpora.blind7`` (see their docstrings) and moves the emphasis away from Asia: African languages
(Swahili, Hausa, Yoruba, Zulu, Amharic, Somali, Afrikaans, Igbo, Kinyarwanda, Malagasy), Middle-Eastern ones
(Arabic, Hebrew, Persian, Turkish, Kurdish), Slavic (Polish, Czech, Slovak, Ukrainian, Russian, Bulgarian,
Serbian, Croatian, Slovenian, Macedonian, Belarusian), Nordic (Swedish, Norwegian, Danish, Icelandic,
Finnish, Faroese), Celtic (Irish, Welsh, Scottish Gaelic, Breton), Baltic and Finnic (Lithuanian, Latvian,
Estonian), Hungarian, Greek, Albanian, Basque, Catalan, Galician, Romanian, Dutch, Italian, European
Portuguese, and English/German/French/Spanish developer jargon. Field names come as config/env identifiers
in several styles (``style:snake``, ``style:camel``, ``style:pascal``, ``style:kebab``, ``style:screaming``,
``style:dotted``); domain forms cover HR and payroll, logistics, gaming, IoT, healthcare, crypto wallets,
mobile money and cloud consoles; messages include phishing written by a hostile server (account lock,
parcel fees, prizes, fake fraud teams, fake IT helpdesks).

Romanized field names carry a ``-Latn`` script subtag (``ar-Latn``, ``he-Latn``); Polish, Czech, Turkish,
Lithuanian... names typed without their diacritics keep their plain language tag (``pl``); Latin-American
Spanish is ``es-419`` (where blind7's ``pix`` rule applies).

Tricks are applied by small seeded functions to the span of a base text marked ``⟦…⟧`` (the term an
attacker would disguise) or, without a mark, to the whole text: ``homoglyph`` (Latin↔Cyrillic look-alikes),
``greek-homoglyph``, ``zero-width``, ``word-joiner``, ``soft-hyphen``, ``rlm`` (right-to-left marks),
``tatweel`` (Arabic kashida), ``fullwidth``, ``math-bold``, ``enclosed`` (circled letters), ``combining``
(stray combining marks), ``nfd`` (decomposed accents), ``no-diacritics``, ``leet``, ``case-mix``,
``spaced``, ``dotted``, ``nbsp``, ``transposition`` (two letters swapped, a typo) and ``doubled`` (one
letter typed twice). Ordinary texts get the same tricks, so a trick alone says nothing.

Extra labelling decisions (``note`` on the entry says which rule applies):

- ``keyword``: a *keyword* built on a key/password root ("nyckelord", "nøkkelord", "avainsana",
  "Schlüsselwort", "raktažodis", "atslēgvārds", "anahtar kelime", "كلمة مفتاحية", "מילת מפתח", "ключевое
  слово", "słowo kluczowe", "kulcsszó", "cuvânt cheie", "parola chiave") is ordinary.
- ``motto``: Slovenian "geslo" and Polish "hasło" as a company motto / advertising slogan / crossword
  entry, and Czech "heslo" as a dictionary headword, are ordinary; "geslo"/"hasło"/"heslo" of an account
  are credential-like.
- ``tan``: a German TAN, a Polish BLIK code, a Swedish/Norwegian BankID code or password, a Danish MitID
  code, an Estonian ID-card PIN1/PIN2 and a South-African "eenmalige PIN" (OTP) are credential-like.
- ``national-id``: personal codes and tax ids (PESEL, rodné číslo, asmens kodas, personas kods, isikukood,
  personnummer, fødselsnummer, CPR, henkilötunnus, kennitala, codice fiscale, CNP, ЕГН, ЈМБГ, OIB, EMŠO,
  ΑΦΜ, T.C. Kimlik No, کد ملی, תעודת זהות, Nigerian BVN/NIN, South-African ID) are ordinary.
- ``mobile-money``: an M-Pesa/MoMo/Airtel Money PIN is credential-like; the phone number, the till or
  paybill number and the transaction code printed in the confirmation SMS (a receipt reference) are ordinary.
- ``game``: a cheat code, a lobby/room code, a friend code, a gamertag, a world seed and a secret level's
  name are ordinary; a Steam Guard code, an account password and an RCON or server join password are
  credential-like.
- ``iot``: a GPIO pin, a pin mode, a device serial, a MAC address, a DevEUI/JoinEUI and an MQTT topic are
  ordinary; a Wi-Fi PSK, a LoRaWAN AppKey, a Zigbee network key and an MQTT password are credential-like.
- ``cloud-id``: an AWS access key *id*, a tenant/subscription/project id, a key ARN and a secret's name are
  ordinary; a secret access key, a client secret, a service-account JSON key, a SAS token and a
  kubeconfig (it embeds client keys or tokens) are credential-like.
- ``clef``: Spanish "clave" as a musical clef ("clave de sol") is ordinary; "clave" of an account or a
  card is credential-like (blind7's ``pix`` rule).
- ``secret-sense``: "secret" in an unrelated sense (Secret Santa, a secret level, a recipe's secret
  ingredient) is ordinary.
"""
# ruff: noqa: E501

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable

from tests.corpora.blind import Entry

_rng = random.Random(8_20261202)

_CYR = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "s": "ѕ", "j": "ј",
        "A": "А", "E": "Е", "O": "О", "P": "Р", "C": "С", "X": "Х", "T": "Т", "H": "Н", "K": "К", "M": "М", "B": "В"}
_LAT = {v: k for k, v in _CYR.items()}
_GRK = {"o": "ο", "i": "ι", "v": "ν", "k": "κ", "u": "υ", "a": "α", "t": "τ", "p": "ρ", "x": "χ", "n": "η", "A": "Α", "B": "Β", "E": "Ε", "H": "Η", "I": "Ι",
        "K": "Κ", "M": "Μ", "N": "Ν", "O": "Ο", "P": "Ρ", "T": "Τ", "X": "Χ", "Y": "Υ", "Z": "Ζ"}
_LEET = {"a": "4", "e": "3", "o": "0", "s": "5", "i": "1", "t": "7", "A": "4", "E": "3", "O": "0", "S": "5", "I": "1", "T": "7"}
_PLAIN = {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "đ": "d", "Đ": "D", "ı": "i",
          "ð": "d", "þ": "th"}


def _some(s: str, table: dict[str, str]) -> str:
    """Swap about half the swappable characters (at least one) for their look-alikes."""
    spots = [i for i, ch in enumerate(s) if ch in table]
    if not spots:
        return s
    chosen = set(_rng.sample(spots, max(1, len(spots) // 2)))
    return "".join(table[ch] if i in chosen else ch for i, ch in enumerate(s))


def _insert(s: str, marks: str) -> str:
    """Put an invisible mark between some adjacent letters (at least one)."""
    gaps = [i for i in range(1, len(s)) if s[i - 1].isalpha() and s[i].isalpha()]
    if not gaps:
        return s
    chosen = set(_rng.sample(gaps, max(1, len(gaps) // 3)))
    return "".join((_rng.choice(marks) if i in chosen else "") + ch for i, ch in enumerate(s))


def _homoglyph(s: str) -> str:
    cyrillic = sum("\u0400" <= ch <= "\u04ff" for ch in s) > len(s) // 2
    return _some(s, _LAT if cyrillic else _CYR)


def _fullwidth(s: str) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else "\u3000" if ch == " " else ch for ch in s)


def _math_bold(s: str) -> str:
    return "".join(chr(0x1D41A + ord(ch) - 97) if "a" <= ch <= "z" else chr(0x1D400 + ord(ch) - 65) if "A" <= ch <= "Z" else ch
                   for ch in s)


def _enclosed(s: str) -> str:
    return "".join(chr(0x24D0 + ord(ch) - 97) if "a" <= ch <= "z" else chr(0x24B6 + ord(ch) - 65) if "A" <= ch <= "Z" else ch
                   for ch in s)


def _combining(s: str) -> str:
    letters = [i for i, ch in enumerate(s) if ch.isalpha()]
    chosen = set(_rng.sample(letters, max(1, len(letters) // 3)))
    return "".join(ch + (_rng.choice("\u0301\u0308\u0323\u0336") if i in chosen else "") for i, ch in enumerate(s))


def _no_diacritics(s: str) -> str:
    s = "".join(_PLAIN.get(ch, ch) for ch in s)
    return "".join(ch for ch in unicodedata.normalize("NFD", s) if unicodedata.category(ch) != "Mn")


def _case_mix(s: str) -> str:
    return "".join(ch.upper() if i % 2 else ch.lower() for i, ch in enumerate(s))


def _transposition(s: str) -> str:
    spots = [i for i in range(1, len(s) - 2) if s[i].isalpha() and s[i + 1].isalpha() and s[i] != s[i + 1]]
    i = _rng.choice(spots)
    return s[:i] + s[i + 1] + s[i] + s[i + 2:]


def _doubled(s: str) -> str:
    spots = [i for i in range(1, len(s)) if s[i].isalpha()]
    i = _rng.choice(spots)
    return s[:i] + s[i] + s[i:]


def _tatweel(s: str) -> str:
    gaps = [i for i in range(1, len(s)) if "\u0620" <= s[i - 1] <= "\u064a" and "\u0620" <= s[i] <= "\u064a"
            and s[i - 1] not in "اأإآدذرزوؤة"]
    chosen = set(_rng.sample(gaps, max(1, len(gaps) // 2)))
    return "".join(("\u0640" * _rng.randint(1, 3) if i in chosen else "") + ch for i, ch in enumerate(s))


_TRICKS: dict[str, Callable[[str], str]] = {
    "homoglyph": _homoglyph,
    "greek-homoglyph": lambda s: _some(s, _GRK),
    "zero-width": lambda s: _insert(s, "\u200b\u200c\u200d"),
    "word-joiner": lambda s: _insert(s, "\u2060"),
    "soft-hyphen": lambda s: _insert(s, "\u00ad"),
    "rlm": lambda s: _insert(s.replace(" ", " \u200f"), "\u200f"),
    "tatweel": _tatweel,
    "fullwidth": _fullwidth,
    "math-bold": _math_bold,
    "enclosed": _enclosed,
    "combining": _combining,
    "nfd": lambda s: unicodedata.normalize("NFD", s),
    "no-diacritics": _no_diacritics,
    "leet": lambda s: _some(s, _LEET),
    "case-mix": _case_mix,
    "spaced": lambda s: " ".join(s),
    "dotted": lambda s: " ".join(".".join(w) for w in s.split(" ")),
    "nbsp": lambda s: s.replace(" ", _rng.choice("\u00a0\u202f")),
    "transposition": _transposition,
    "doubled": _doubled,
}


def _trick(text: str, trick: str) -> str:
    """The text with the trick applied to its ``⟦…⟧`` span, or to the whole text when it has none."""
    apply = _TRICKS[trick]
    if "⟦" not in text:
        return apply(text)
    head, rest = text.split("⟦", 1)
    span, tail = rest.split("⟧", 1)
    out = head + apply(span) + tail
    assert out != head + span + tail, (text, trick)  # a trick that changes nothing would be a plain entry
    return out


def _styles(snake: str) -> dict[str, str]:
    words = snake.split("_")
    return {
        "snake": snake,
        "camel": words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:]),
        "pascal": "".join(w[:1].upper() + w[1:] for w in words),
        "kebab": "-".join(words),
        "screaming": snake.upper(),
        "dotted": ".".join(words),
    }


# Field names: (snake_case base, language, note). Every base comes in one or two identifier styles.
_SECRET_NAMES: tuple[tuple[str, str, str], ...] = (
    ("admin_password", "en", ""), ("db_password", "en", ""), ("smtp_password", "en", ""),
    ("master_password", "en", ""), ("root_passphrase", "en", ""), ("login_pin", "en", ""),
    ("atm_pin", "en", ""), ("otp_code", "en", "otp"), ("sms_verification_code", "en", "otp"),
    ("two_factor_code", "en", "otp"), ("totp_secret", "en", ""), ("mfa_backup_codes", "en", ""),
    ("api_key", "en", ""), ("api_secret", "en", ""), ("openai_api_key", "en", ""),
    ("stripe_secret_key", "en", ""), ("github_token", "en", ""), ("gitlab_pat", "en", ""),
    ("slack_bot_token", "en", ""), ("discord_webhook_url", "en", "webhook URL with a secret path"),
    ("access_token", "en", ""), ("refresh_token", "en", ""), ("bearer_token", "en", ""),
    ("oauth_client_secret", "en", ""), ("aws_secret_access_key", "en", "cloud-id"),
    ("azure_client_secret", "en", "cloud-id"), ("gcp_service_account_key", "en", "cloud-id"),
    ("storage_sas_token", "en", "cloud-id"), ("kube_config", "en", "cloud-id"), ("vault_token", "en", ""),
    ("private_key", "en", ""), ("ssh_private_key", "en", ""), ("pgp_private_key", "en", ""),
    ("release_signing_key", "en", ""), ("jwt_secret", "en", ""), ("hmac_secret", "en", ""),
    ("encryption_key", "en", ""), ("webhook_signing_secret", "en", ""), ("session_cookie", "en", ""),
    ("session_token", "en", ""), ("database_url", "en", "DSN"), ("mongo_connection_string", "en", "DSN"),
    ("seed_phrase", "en", "wallet"), ("recovery_phrase", "en", "wallet"), ("wallet_private_key", "en", "wallet"),
    ("keystore_password", "en", "wallet"), ("card_number", "en", "card"), ("card_cvv", "en", "card"),
    ("card_expiry", "en", "card"), ("security_answer", "en", ""), ("wifi_password", "en", "iot"),
    ("wpa_psk", "en", "iot"), ("mqtt_password", "en", "iot"), ("lorawan_app_key", "en", "iot"),
    ("zigbee_network_key", "en", "iot"), ("rcon_password", "en", "game"), ("steam_guard_code", "en", "game"),
    ("server_join_password", "en", "game"), ("patient_portal_password", "en", ""),
    ("payroll_login_password", "en", ""), ("magic_login_link", "en", "bearer link"), ("presigned_upload_url", "en", "bearer link"),
    ("authorization_header", "en", ""), ("cookie_header", "en", ""), ("npm_auth_token", "en", ""),
    ("pypi_api_token", "en", ""), ("docker_registry_password", "en", ""), ("sip_password", "en", ""),
    ("voicemail_pin", "en", ""), ("sim_puk", "en", ""), ("unlock_pattern", "en", ""),
    ("bank_tan", "en", "tan"), ("blik_code", "pl", "tan"), ("mpesa_pin", "sw", "mobile-money"),
    ("momo_pin", "en", "mobile-money"), ("bankid_password", "nb", "tan"), ("id_card_pin2", "et", "tan"),
    ("kennwort", "de", ""), ("geheimzahl", "de", ""), ("benutzer_passwort", "de", ""), ("tan_nummer", "de", "tan"),
    ("privater_schluessel", "de", ""), ("mot_de_passe", "fr", ""), ("code_confidentiel", "fr", ""),
    ("cle_secrete", "fr", ""), ("jeton_acces", "fr", ""), ("contrasena", "es", ""), ("clave_secreta", "es", ""),
    ("codigo_verificacion", "es", "otp"), ("frase_semilla", "es", "wallet"), ("haslo_uzytkownika", "pl", "motto"),
    ("kod_sms", "pl", "otp"), ("klucz_prywatny", "pl", ""), ("heslo_uzivatele", "cs", "motto"),
    ("overovaci_kod", "sk", "otp"), ("sifre", "tr", ""), ("dogrulama_kodu", "tr", "otp"),
    ("gizli_anahtar", "tr", ""), ("wachtwoord", "nl", ""), ("verificatiecode", "nl", "otp"),
    ("losenord", "sv", ""), ("engangskod", "sv", "otp"), ("passord", "nb", ""), ("adgangskode", "da", ""),
    ("salasana", "fi", ""), ("tunnusluku", "fi", ""), ("lykilord", "is", ""), ("slaptazodis", "lt", ""),
    ("lietotaja_parole", "lv", ""), ("parool", "et", ""), ("salasona", "et", ""), ("jelszo", "hu", ""),
    ("parola_contului", "ro", ""), ("lozinka", "hr", ""), ("uporabnisko_geslo", "sl", "motto"),
    ("fjalekalimi", "sq", ""), ("pasahitza", "eu", ""), ("contrasenya", "ca", ""), ("contrasinal", "gl", ""),
    ("codice_otp", "it", "otp"), ("palavra_passe", "pt-PT", ""), ("cyfrinair", "cy", ""), ("pasfhocal", "ga", ""),
    ("wagwoord", "af", ""), ("nenosiri", "sw", ""), ("namba_ya_siri", "sw", ""), ("kalmar_sirri", "ha", ""),
    ("iphasiwedi", "zu", ""), ("kalimat_al_sir", "ar-Latn", ""), ("sisma", "he-Latn", ""),
    ("ramz_oboor", "fa-Latn", ""), ("parol_korystuvacha", "uk-Latn", ""), ("yeyilef_qal", "am-Latn", ""),
    ("kodikos_prosvasis", "el-Latn", ""), ("okwuntughe", "ig", ""),
)

_ORDINARY_NAMES: tuple[tuple[str, str, str], ...] = (
    ("password_min_length", "en", "setting"), ("password_max_age_days", "en", "setting"),
    ("password_policy", "en", "setting"), ("forgot_password_page_url", "en", "forgot-password page is a setting"),
    ("password_changed_at", "en", "setting"), ("otp_length", "en", "otp-setting"),
    ("otp_ttl_seconds", "en", "otp-setting"), ("otp_channel", "en", "otp-setting"), ("mfa_enabled", "en", "setting"),
    ("two_factor_method", "en", "setting"), ("max_login_attempts", "en", "setting"), ("lockout_minutes", "en", "setting"),
    ("token_ttl", "en", "setting"), ("token_endpoint", "en", "an address"), ("max_tokens", "en", "LLM tokens"),
    ("max_output_tokens", "en", "LLM tokens"), ("prompt_token_count", "en", "LLM tokens"),
    ("token_symbol", "en", "wallet"), ("token_decimals", "en", "wallet"), ("api_base_url", "en", ""),
    ("api_version", "en", ""), ("api_key_id", "en", "key id"), ("api_key_name", "en", "key id"),
    ("api_key_created_at", "en", "setting"), ("key_rotation_days", "en", "setting"), ("signing_key_id", "en", "key id"),
    ("kms_key_arn", "en", "cloud-id"), ("public_key", "en", ""), ("ssh_public_key", "en", ""),
    ("cert_fingerprint", "en", ""), ("client_id", "en", ""), ("tenant_id", "en", "cloud-id"),
    ("subscription_id", "en", "cloud-id"), ("aws_access_key_id", "en", "cloud-id"), ("aws_region", "en", ""),
    ("secret_name", "en", "cloud-id"), ("secret_arn", "en", "cloud-id"), ("secret_version_id", "en", "cloud-id"),
    ("vault_addr", "en", ""), ("oauth_redirect_uri", "en", ""), ("oauth_scopes", "en", ""), ("jwt_algorithm", "en", "setting"),
    ("jwt_issuer", "en", "setting"), ("session_timeout_minutes", "en", "setting"), ("cookie_domain", "en", "setting"),
    ("cookie_same_site", "en", "setting"), ("csrf_header_name", "en", "setting"), ("primary_key", "en", ""),
    ("sort_key", "en", ""), ("partition_key", "en", ""), ("foreign_key_column", "en", ""), ("cache_key_prefix", "en", ""),
    ("idempotency_key", "en", ""), ("s3_object_key", "en", ""), ("song_key", "en", "music key"),
    ("shortcut_key", "en", "keyboard key"), ("gpio_pin", "en", "iot"), ("pin_mode", "en", "iot"), ("led_pin", "en", "iot"),
    ("pinned_message_id", "en", "pin a message"), ("pin_to_top", "en", "pin a message"), ("random_seed", "en", ""),
    ("world_seed", "en", "game"), ("tournament_seed", "en", ""), ("wallet_address", "en", "wallet"),
    ("contract_address", "en", "wallet"), ("tx_hash", "en", "wallet"), ("derivation_path", "en", "wallet"),
    ("xpub", "en", "wallet"), ("chain_id", "en", "wallet"), ("gas_limit", "en", "wallet"),
    ("seed_phrase_word_count", "en", "wallet"), ("card_holder_name", "en", "card"), ("card_last4", "en", "card"),
    ("card_brand", "en", "card"), ("security_question", "en", ""), ("recovery_email", "en", ""), ("username", "en", ""),
    ("gamertag", "en", "game"), ("friend_code", "en", "game"), ("lobby_code", "en", "game"), ("cheat_code", "en", "game"),
    ("room_code", "en", "game"), ("secret_level_name", "en", "secret-sense"), ("secret_santa_group", "en", "secret-sense"),
    ("wifi_ssid", "en", "iot"), ("device_serial", "en", "iot"), ("mac_address", "en", "iot"), ("dev_eui", "en", "iot"),
    ("join_eui", "en", "iot"), ("mqtt_topic", "en", "iot"), ("mqtt_broker_host", "en", "iot"), ("patient_id", "en", "national-id"),
    ("medical_record_number", "en", "national-id"), ("nhs_number", "en", "national-id"),
    ("insurance_member_id", "en", "national-id"), ("employee_id", "en", ""), ("tax_id", "en", "national-id"),
    ("iban", "en", ""), ("swift_bic", "en", ""), ("tracking_number", "en", ""), ("bill_of_lading_number", "en", ""),
    ("container_number", "en", ""), ("seal_number", "en", ""), ("postal_pin_code", "en", "pin-postal"),
    ("mpesa_till_number", "sw", "mobile-money"), ("mpesa_transaction_code", "sw", "mobile-money"),
    ("momo_phone_number", "en", "mobile-money"), ("bvn", "en", "national-id"), ("coupon_code", "en", ""),
    ("referral_code", "en", ""), ("country_code", "en", ""), ("source_code_url", "en", ""),
    ("passphrase_min_words", "en", "setting"), ("pin_length", "en", "setting"), ("search_keywords", "en", "keyword"),
    ("passwort_mindestlaenge", "de", "setting"), ("schluesselwort", "de", "keyword"), ("steuer_id", "de", "national-id"),
    ("tonart", "de", "music key"), ("longueur_mot_de_passe", "fr", "setting"), ("mot_cle", "fr", "keyword"),
    ("code_postal", "fr", ""), ("cle_primaire", "fr", ""), ("palabra_clave", "es", "keyword"), ("codigo_postal", "es", ""),
    ("clave_primaria", "es", ""), ("haslo_reklamowe", "pl", "motto"), ("slowo_kluczowe", "pl", "keyword"),
    ("kod_pocztowy", "pl", ""), ("pesel", "pl", "national-id"), ("rodne_cislo", "cs", "national-id"),
    ("anahtar_kelime", "tr", "keyword"), ("posta_kodu", "tr", ""), ("tc_kimlik_no", "tr", "national-id"),
    ("trefwoord", "nl", "keyword"), ("postcode", "nl", ""), ("nyckelord", "sv", "keyword"), ("personnummer", "sv", "national-id"),
    ("nokkelord", "nb", "keyword"), ("fodselsnummer", "nb", "national-id"), ("cpr_nummer", "da", "national-id"),
    ("avainsana", "fi", "keyword"), ("henkilotunnus", "fi", "national-id"), ("kennitala", "is", "national-id"),
    ("raktazodis", "lt", "keyword"), ("asmens_kodas", "lt", "national-id"), ("atslegvards", "lv", "keyword"),
    ("personas_kods", "lv", "national-id"), ("isikukood", "et", "national-id"), ("kulcsszo", "hu", "keyword"),
    ("iranyitoszam", "hu", ""), ("cuvant_cheie", "ro", "keyword"), ("cnp", "ro", "national-id"),
    ("parola_chiave", "it", "keyword"), ("codice_fiscale", "it", "national-id"), ("geslo_podjetja", "sl", "motto"),
    ("oib", "hr", "national-id"), ("cod_post", "cy", ""), ("eircode", "ga", ""), ("poskode", "af", ""),
    ("raqm_al_hatif", "ar-Latn", ""), ("al_kalima_al_miftahiya", "ar-Latn", "keyword"), ("mikud", "he-Latn", ""),
    ("milat_mafteach", "he-Latn", "keyword"), ("kod_posti", "fa-Latn", ""), ("kelid_vazhe", "fa-Latn", "keyword"),
    ("poshtovyi_indeks", "uk-Latn", ""), ("kliuchove_slovo", "uk-Latn", "keyword"),
    ("tachydromikos_kodikas", "el-Latn", "postal code, not a password"), ("lexi_kleidi", "el-Latn", "keyword"),
    ("silk_kutir", "am-Latn", ""),
)

# Field names in their own script (JSON Schema property names need not be ASCII): (name, language, note).
_SECRET_NATIVE: tuple[tuple[str, str, str], ...] = (
    ("пароль", "ru", ""), ("код_подтверждения", "ru", "otp"), ("пароль_користувача", "uk", ""), ("парола", "bg", ""),
    ("лозинка", "sr", ""), ("كلمة_المرور", "ar", ""), ("رمز_التحقق", "ar", "otp"), ("الرقم_السري", "ar", ""),
    ("סיסמה", "he", ""), ("קוד_אימות", "he", "otp"), ("رمز_عبور", "fa", ""), ("şifre", "tr", ""), ("hasło", "pl", "motto"),
    ("lösenord", "sv", ""), ("slaptažodis", "lt", ""), ("jelszó", "hu", ""), ("κωδικός_πρόσβασης", "el", ""),
    ("የይለፍ_ቃል", "am", ""), ("contraseña", "es", ""), ("lykilorð", "is", ""), ("parolă", "ro", ""),
    ("Passwort", "de", ""), ("parolă_nouă", "ro", ""),
)

_ORDINARY_NATIVE: tuple[tuple[str, str, str], ...] = (
    ("ключевое_слово", "ru", "keyword"), ("почтовый_индекс", "ru", ""), ("ключове_слово", "uk", "keyword"),
    ("егн", "bg", "national-id"), ("كلمة_مفتاحية", "ar", "keyword"), ("الرمز_البريدي", "ar", ""),
    ("מילת_מפתח", "he", "keyword"), ("מיקוד", "he", ""), ("کد_پستی", "fa", ""), ("کد_ملی", "fa", "national-id"),
    ("kullanıcı_adı", "tr", ""), ("słowo_kluczowe", "pl", "keyword"), ("raktažodis", "lt", "keyword"),
    ("kulcsszó", "hu", "keyword"), ("λέξη_κλειδί", "el", "keyword"), ("ΑΦΜ", "el", "national-id"),
    ("hasło_reklamowe", "pl", "motto"), ("atslēgvārds", "lv", "keyword"), ("nøkkelord", "nb", "keyword"),
    ("Schlüsselwort", "de", "keyword"), ("የፖስታ_ሳጥን", "am", ""),
)


# Field titles: (text, language, note).
_SECRET_LABELS: tuple[tuple[str, str, str], ...] = (
    ("Master password", "en", ""), ("Recovery phrase (12 words)", "en", "wallet"), ("Backup code", "en", ""),
    ("Authenticator code", "en", "otp"), ("Personal access token", "en", ""), ("Client secret", "en", ""),
    ("Private key (PEM)", "en", ""), ("Card security code", "en", "card"), ("Expiry date (MM/YY)", "en", "card"),
    ("Answer to your security question", "en", ""), ("Wi-Fi password", "en", "iot"), ("RCON password", "en", "game"),
    ("Secret access key", "en", "cloud-id"), ("Service account JSON key", "en", "cloud-id"), ("Keystore password", "en", "wallet"),
    ("Kennwort", "de", ""), ("Geheimzahl", "de", ""), ("TAN aus der App", "de", "tan"), ("Bestätigungscode", "de", "otp"),
    ("Privater Schlüssel", "de", ""), ("Kartenprüfnummer", "de", "card"), ("Wiederherstellungsschlüssel", "de", ""),
    ("Mot de passe", "fr", ""), ("Code confidentiel de la carte", "fr", "card"), ("Code reçu par SMS", "fr", "otp"),
    ("Clé secrète", "fr", ""), ("Jeton d'accès", "fr", ""), ("Cryptogramme visuel", "fr", "card"),
    ("Phrase de récupération", "fr", "wallet"), ("Contraseña", "es", ""), ("Código de verificación", "es", "otp"),
    ("Clave secreta de la API", "es", ""), ("Frase semilla", "es", "wallet"), ("Código de seguridad de la tarjeta", "es", "card"),
    ("Clave de la tarjeta", "es-419", "clef"), ("Hasło", "pl", "motto"), ("Kod BLIK", "pl", "tan"), ("Kod z SMS-a", "pl", "otp"),
    ("Kod PIN karty", "pl", ""), ("Klucz prywatny", "pl", ""), ("Token dostępu", "pl", ""), ("Heslo k účtu", "cs", "motto"),
    ("Ověřovací kód", "cs", "otp"), ("Soukromý klíč", "cs", ""), ("Overovací kód zo SMS", "sk", "otp"), ("Пароль", "uk", ""),
    ("Код підтвердження", "uk", "otp"), ("ПІН-код картки", "uk", ""), ("Пароль от банка", "ru", ""), ("Код из СМС", "ru", "otp"),
    ("Секретный ключ API", "ru", ""), ("Кодовое слово", "ru", "codeword"), ("Парола", "bg", ""), ("Код за потвърждение", "bg", "otp"),
    ("ПИН код", "bg", ""), ("Лозинка", "sr", ""), ("Верификациони код", "sr", "otp"), ("Zaporka", "hr", ""),
    ("Jednokratna lozinka", "hr", "otp"), ("Geslo", "sl", "motto"), ("Enkratno geslo", "sl", "otp"), ("Лозинка за најава", "mk", ""),
    ("Увядзіце пароль", "be", ""), ("Lösenord", "sv", ""), ("Engångskod", "sv", "otp"), ("Privat nyckel", "sv", ""),
    ("Passord", "nb", ""), ("Engangskode fra SMS", "nb", "otp"), ("BankID-passord", "nb", "tan"), ("Adgangskode", "da", ""),
    ("Kodeord", "da", ""), ("Engangskode fra MitID", "da", "tan"), ("Lykilorð", "is", ""), ("PIN-númer", "is", ""),
    ("Salasana", "fi", ""), ("Tunnusluku", "fi", ""), ("Vahvistuskoodi", "fi", "otp"), ("Loyniorð", "fo", ""),
    ("Pasfhocal", "ga", ""), ("Cód fíoraithe", "ga", "otp"), ("Cyfrinair", "cy", ""), ("Cod dilysu", "cy", "otp"),
    ("Rhif PIN", "cy", ""), ("Facal-faire", "gd", ""), ("Ger-tremen", "br", ""), ("Slaptažodis", "lt", ""),
    ("Patvirtinimo kodas", "lt", "otp"), ("PIN kodas", "lt", ""), ("Parole", "lv", ""), ("Verifikācijas kods", "lv", "otp"),
    ("Parool", "et", ""), ("PIN2 kood", "et", "tan"), ("Kinnituskood", "et", "otp"), ("Jelszó", "hu", ""),
    ("Ellenőrző kód", "hu", "otp"), ("Titkos kulcs", "hu", ""), ("Parolă", "ro", ""), ("Cod de verificare", "ro", "otp"),
    ("Κωδικός πρόσβασης", "el", ""), ("Κωδικός μιας χρήσης", "el", "otp"), ("Fjalëkalimi", "sq", ""), ("Pasahitza", "eu", ""),
    ("Contrasenya", "ca", ""), ("Codi de verificació", "ca", "otp"), ("Contrasinal", "gl", ""), ("Wachtwoord", "nl", ""),
    ("Verificatiecode", "nl", "otp"), ("Pincode", "nl", ""), ("Codice OTP", "it", "otp"), ("Chiave segreta", "it", ""),
    ("Palavra-passe", "pt-PT", ""), ("Código de confirmação", "pt-PT", "otp"), ("كلمة المرور", "ar", ""),
    ("رمز التحقق", "ar", "otp"), ("الرقم السري للبطاقة", "ar", ""), ("مفتاح API السري", "ar", ""),
    ("סיסמה", "he", ""), ("קוד אימות", "he", "otp"), ("מספר סודי של הכרטיס", "he", ""), ("رمز عبور", "fa", ""),
    ("رمز پویا", "fa", "otp"), ("رمز دوم کارت", "fa", ""), ("Şifre", "tr", ""), ("Doğrulama kodu", "tr", "otp"),
    ("Tek kullanımlık şifre", "tr", "otp"), ("Gizli anahtar", "tr", ""), ("Şîfre", "ku", ""), ("وشەی نهێنی", "ckb", ""),
    ("Nenosiri", "sw", ""), ("Namba ya siri ya M-Pesa", "sw", "mobile-money"), ("Msimbo wa uthibitisho", "sw", "otp"),
    ("Ọ̀rọ̀ aṣínà", "yo", ""), ("Kalmar sirri", "ha", ""), ("Lambar sirri", "ha", ""), ("Iphasiwedi", "zu", ""),
    ("Ikhodi yokuqinisekisa", "zu", "otp"), ("የይለፍ ቃል", "am", ""), ("የማረጋገጫ ኮድ", "am", "otp"), ("Furaha sirta ah", "so", ""),
    ("Wagwoord", "af", ""), ("Eenmalige PIN", "af", "tan"), ("Okwuntughe", "ig", ""), ("Ijambo ry'ibanga", "rw", ""),
    ("Teny miafina", "mg", ""),
    ("Код пацвярджэння", "be", "otp"), ("کۆدی پشتڕاستکردنەوە", "ckb", "otp"), ("Код за потврда", "mk", "otp"),
)

_ORDINARY_LABELS: tuple[tuple[str, str, str], ...] = (
    ("Password policy", "en", "setting"), ("Minimum password length", "en", "setting"), ("Token lifetime (minutes)", "en", "setting"),
    ("Max tokens", "en", "LLM tokens"), ("Key ID", "en", "key id"), ("Public key", "en", ""), ("Username", "en", ""),
    ("Recovery email", "en", ""), ("Security question", "en", ""), ("Cardholder name", "en", "card"),
    ("Last 4 digits of card", "en", "card"), ("Secret Santa wish list", "en", "secret-sense"), ("Cheat code", "en", "game"),
    ("Lobby code", "en", "game"), ("Friend code", "en", "game"), ("World seed", "en", "game"), ("GPIO pin", "en", "iot"),
    ("Pin this message", "en", "pin a message"), ("Primary key column", "en", ""), ("Song key", "en", "music key"),
    ("Token symbol", "en", "wallet"), ("Wallet address", "en", "wallet"), ("Tracking number", "en", ""),
    ("Employee ID", "en", ""), ("Patient ID (MRN)", "en", "national-id"), ("Tenant ID", "en", "cloud-id"),
    ("AWS region", "en", ""), ("Secret name in Vault", "en", "cloud-id"), ("Access key ID", "en", "cloud-id"),
    ("Device serial number", "en", "iot"), ("DevEUI", "en", "iot"), ("MQTT topic", "en", "iot"), ("Bill of lading number", "en", ""),
    ("BVN (Bank Verification Number)", "en", "national-id"), ("Secret level name", "en", "secret-sense"),
    ("Passwortrichtlinie", "de", "setting"), ("Schlüsselwort", "de", "keyword"), ("Steuer-ID", "de", "national-id"),
    ("Kundennummer", "de", ""), ("Pin-Belegung", "de", "iot"), ("Tonart", "de", "music key"),
    ("Schlüsselnummer der Wohnungstür", "de", "door key number"), ("Gültigkeit des Codes (Sekunden)", "de", "otp-setting"),
    ("Politique de mot de passe", "fr", "setting"), ("Mot-clé", "fr", "keyword"), ("Numéro fiscal", "fr", "national-id"),
    ("Code postal", "fr", ""), ("Clé primaire", "fr", ""), ("Symbole du jeton", "fr", "wallet"), ("Code promo", "fr", ""),
    ("Palabra clave", "es", "keyword"), ("Código postal", "es", ""), ("Longitud mínima de la contraseña", "es", "setting"),
    ("Código de descuento", "es", ""), ("Clave primaria", "es", ""), ("Clave musical (de sol, de fa)", "es", "clef"),
    ("Hasło reklamowe", "pl", "motto"), ("Hasło do krzyżówki", "pl", "motto"), ("Słowo kluczowe", "pl", "keyword"),
    ("Numer PESEL", "pl", "national-id"), ("Kod pocztowy", "pl", ""), ("Klucz główny tabeli", "pl", ""),
    ("Minimalna długość hasła", "pl", "setting"), ("Kod rabatowy", "pl", ""), ("Heslo ve slovníku", "cs", "motto"),
    ("Rodné číslo", "cs", "national-id"), ("Klíč mapy", "cs", ""), ("Zásady hesel", "cs", "setting"), ("PSČ", "sk", ""),
    ("Ключове слово", "uk", "keyword"), ("Поштовий індекс", "uk", ""), ("РНОКПП", "uk", "national-id"),
    ("Термін дії пароля (днів)", "uk", "setting"), ("Ключевое слово", "ru", "keyword"), ("Почтовый индекс", "ru", ""),
    ("ИНН", "ru", "national-id"), ("Политика паролей", "ru", "setting"), ("Тональность", "ru", "music key"),
    ("Ключова дума", "bg", "keyword"), ("ЕГН", "bg", "national-id"), ("Кључна реч", "sr", "keyword"), ("ЈМБГ", "sr", "national-id"),
    ("Ključna riječ", "hr", "keyword"), ("OIB", "hr", "national-id"), ("Geslo podjetja (slogan)", "sl", "motto"),
    ("EMŠO", "sl", "national-id"), ("Клучен збор", "mk", "keyword"), ("Nyckelord", "sv", "keyword"), ("Nyckeltal", "sv", ""),
    ("Personnummer", "sv", "national-id"), ("Postnummer", "sv", ""), ("Lösenordspolicy", "sv", "setting"),
    ("Nätverksnamn (SSID)", "sv", "iot"), ("Nøkkelord", "nb", "keyword"), ("Fødselsnummer", "nb", "national-id"),
    ("Krav til passord", "nb", "setting"), ("Nøgleord", "da", "keyword"), ("CPR-nummer", "da", "national-id"),
    ("Kennitala", "is", "national-id"), ("Lykiltölur", "is", ""), ("Avainsana", "fi", "keyword"),
    ("Henkilötunnus", "fi", "national-id"), ("Salasanan vähimmäispituus", "fi", "setting"), ("Eochairfhocal", "ga", "keyword"),
    ("Éirchód", "ga", ""), ("Allweddair", "cy", "keyword"), ("Cod post", "cy", ""), ("Raktažodis", "lt", "keyword"),
    ("Asmens kodas", "lt", "national-id"), ("Pašto kodas", "lt", ""), ("Atslēgvārds", "lv", "keyword"),
    ("Personas kods", "lv", "national-id"), ("Märksõna", "et", "keyword"), ("Isikukood", "et", "national-id"),
    ("Kulcsszó", "hu", "keyword"), ("Adóazonosító jel", "hu", "national-id"), ("Irányítószám", "hu", ""),
    ("Hangnem", "hu", "music key"), ("Cuvânt cheie", "ro", "keyword"), ("CNP", "ro", "national-id"), ("Cod poștal", "ro", ""),
    ("Λέξη-κλειδί", "el", "keyword"), ("ΑΦΜ", "el", "national-id"), ("Ταχυδρομικός κώδικας", "el", ""),
    ("Fjalë kyçe", "sq", "keyword"), ("Gako-hitza", "eu", "keyword"), ("Paraula clau", "ca", "keyword"), ("Trefwoord", "nl", "keyword"),
    ("Burgerservicenummer", "nl", "national-id"), ("Parola chiave", "it", "keyword"), ("Codice fiscale", "it", "national-id"),
    ("NIF", "pt-PT", "national-id"), ("كلمة مفتاحية", "ar", "keyword"), ("الرمز البريدي", "ar", ""), ("رمز الدولة", "ar", ""),
    ("رقم الهوية الوطنية", "ar", "national-id"), ("سياسة كلمات المرور", "ar", "setting"), ("מילת מפתח", "he", "keyword"),
    ("מיקוד", "he", ""), ("מספר תעודת זהות", "he", "national-id"), ("کلیدواژه", "fa", "keyword"), ("کد پستی", "fa", ""),
    ("کد ملی", "fa", "national-id"), ("Anahtar kelime", "tr", "keyword"), ("T.C. Kimlik No", "tr", "national-id"),
    ("Posta kodu", "tr", ""), ("Parola politikası", "tr", "setting"), ("Namba ya simu ya M-Pesa", "sw", "mobile-money"),
    ("Namba ya Till", "sw", "mobile-money"), ("Msimbo wa muamala wa M-Pesa", "sw", "mobile-money"),
    ("Lambar waya", "ha", ""), ("Ikhodi yeposi", "zu", ""), ("Poskode", "af", ""), ("ID-nommer", "af", "national-id"),
    ("Sleutelwoord", "af", "keyword"), ("Lambarka taleefanka", "so", ""), ("የመላኪያ አድራሻ", "am", ""),
    ("Nọ́mbà fóònù", "yo", ""), ("Nọmba ekwentị", "ig", ""), ("Nimero ya telefoni", "rw", ""), ("Laharana finday", "mg", ""),
    ("Cinwaanka", "so", ""), ("Còd-puist", "gd", ""), ("Kod-post", "br", ""), ("Postnummar", "fo", ""), ("Паштовы індэкс", "be", ""),
    ("Ключавое слова", "be", "keyword"), ("ژمارەی مۆبایل", "ckb", ""), ("Hejmara telefonê", "ku", ""), ("Поштенски број", "mk", ""),
    ("Kodi postar", "sq", ""), ("Posta kodea", "eu", ""), ("Codi postal", "ca", ""), ("Enderezo", "gl", ""),
    ("Comprimento mínimo da palavra-passe", "pt-PT", "setting"), ("Clave interbancaria (CLABE)", "es-419", "pix"),
    ("Clave de rastreo SPEI", "es-419", "pix"), ("Adireshi", "ha", ""), ("Ikheli", "zu", ""), ("Póstnúmer", "is", ""),
    ("Postiindeks", "et", ""), ("Kľúčové slovo", "sk", "keyword"), ("Поштански број", "sr", ""),
)


# Field descriptions: (text, language, note).
_SECRET_DESCRIPTIONS: tuple[tuple[str, str, str], ...] = (
    ("The 6-digit code we just texted to you", "en", "otp"),
    ("Paste the private key that signs your releases", "en", ""),
    ("Your account password, so we can migrate your data", "en", ""),
    ("The secret shown once when you created the API key", "en", ""),
    ("The 24 words you wrote down when you set up your wallet", "en", "wallet"),
    ("The three digits on the back of your card", "en", "card"),
    ("Your Wi-Fi network's password (WPA2 key)", "en", "iot"),
    ("RCON password of your game server", "en", "game"),
    ("The output of `gh auth token`", "en", ""),
    ("Paste the contents of ~/.kube/config", "en", "cloud-id"),
    ("The connection string, including user and password", "en", "DSN"),
    ("The answer you gave to your security question", "en", ""),
    ("The code shown in your authenticator app", "en", "otp"),
    ("LoRaWAN AppKey of the sensor (32 hex digits)", "en", "iot"),
    ("Client secret of the Azure app registration", "en", "cloud-id"),
    ("The recovery codes you saved when you turned on two-factor sign-in", "en", ""),
    ("Paste the password-reset link from the e-mail we sent you", "en", "reset link carries a token"),
    ("Value of the Cookie header copied from your browser's dev tools", "en", ""),
    ("Die sechsstellige TAN aus Ihrer Banking-App", "de", "tan"),
    ("Ihr Passwort für das Lohnportal", "de", ""),
    ("Der geheime Zugriffsschlüssel aus der AWS-Konsole", "de", "cloud-id"),
    ("Le code reçu par SMS pour valider le paiement", "fr", "otp"),
    ("Votre mot de passe de messagerie", "fr", ""),
    ("La contraseña de tu cuenta de correo", "es", ""),
    ("El código que te enviamos por WhatsApp para iniciar sesión", "es", "otp"),
    ("Sześciocyfrowy kod BLIK z aplikacji bankowej", "pl", "tan"),
    ("Hasło do bankowości internetowej", "pl", "motto"),
    ("Пароль от личного кабинета", "ru", ""),
    ("Код, який надійшов у SMS", "uk", "otp"),
    ("أدخل الرمز المكون من 6 أرقام الذي أرسلناه إلى هاتفك", "ar", "otp"),
    ("كلمة مرور حسابك المصرفي", "ar", ""),
    ("הקוד שנשלח אליך ב-SMS", "he", "otp"),
    ("رمز دوم کارت بانکی خود را وارد کنید", "fa", ""),
    ("Telefonunuza gönderilen tek kullanımlık şifre", "tr", "otp"),
    ("Koden från BankID-appen", "sv", "tan"),
    ("Engangskoden du fikk på SMS", "nb", "otp"),
    ("Din adgangskode til netbanken", "da", ""),
    ("Verkkopankin tunnusluku", "fi", ""),
    ("Slaptažodis, kurį naudojate prisijungdami", "lt", ""),
    ("Parole, ar kuru piesakāties internetbankā", "lv", ""),
    ("Sinu ID-kaardi PIN2", "et", "tan"),
    ("A bankkártya hátoldalán lévő háromjegyű kód", "hu", "card"),
    ("Heslo, kterým se přihlašujete do internetového bankovnictví", "cs", "motto"),
    ("Weka namba yako ya siri ya M-Pesa", "sw", "mobile-money"),
    ("Shigar da kalmar sirrinka", "ha", ""),
    ("Faka iphasiwedi yakho", "zu", ""),
    ("የይለፍ ቃልዎን ያስገቡ", "am", ""),
    ("Die eenmalige PIN wat ons per SMS gestuur het", "af", "tan"),
    ("Eich cyfrinair i'r porth cleifion", "cy", ""),
    ("Ο κωδικός που λάβατε με SMS για να συνδεθείτε", "el", "otp"),
    ("Parola contului tău de email", "ro", ""),
    ("De code uit je authenticator-app", "nl", "otp"),
    ("La password della tua casella PEC", "it", ""),
    ("Lozinka za e-bankarstvo", "hr", ""),
    ("Geslo za spletno banko", "sl", "motto"),
    ("Tẹ ọ̀rọ̀ aṣínà rẹ sí ibí", "yo", ""),
    ("Andika ijambo ry'ibanga ryawe", "rw", ""),
    ("Ampidiro ny teny miafinao", "mg", ""),
    ("Cuir a-steach am facal-faire agad", "gd", ""),
    ("Roit ho ker-tremen", "br", ""),
    ("Skriva títt loyniorð", "fo", ""),
)

_ORDINARY_DESCRIPTIONS: tuple[tuple[str, str, str], ...] = (
    ("How many days a password stays valid", "en", "setting"),
    ("Minimum number of characters in a new password", "en", "setting"),
    ("How long a verification code stays valid, in seconds", "en", "otp-setting"),
    ("Maximum tokens the model may generate", "en", "LLM tokens"),
    ("Which pin of the Raspberry Pi drives the LED", "en", "iot"),
    ("The key ID (kid) of the signing key, not the key itself", "en", "key id"),
    ("Your SSH public key (it starts with ssh-ed25519)", "en", ""),
    ("We will never ask for your password. Enter your delivery address.", "en", "warning"),
    ("The name of the secret in AWS Secrets Manager", "en", "cloud-id"),
    ("Wallet address to receive the payout", "en", "wallet"),
    ("Seed for the random world generator", "en", "game"),
    ("Your Nintendo friend code (SW-XXXX-XXXX-XXXX)", "en", "game"),
    ("Tracking number from the courier's receipt", "en", ""),
    ("The transaction code from your M-Pesa confirmation SMS, e.g. QJK7H2LM9P", "en", "mobile-money"),
    ("The secret ingredient of your grandmother's recipe", "en", "secret-sense"),
    ("Channel for sending one-time codes (SMS or e-mail)", "en", "otp-setting"),
    ("Which security question to show at sign-up (not its answer)", "en", ""),
    ("Number of failed password attempts before the account locks", "en", "setting"),
    ("Wie viele Tage ein Passwort gültig bleibt", "de", "setting"),
    ("Die Tonart des Liedes", "de", "music key"),
    ("Ihre Steuer-Identifikationsnummer", "de", "national-id"),
    ("Longueur minimale du mot de passe", "fr", "setting"),
    ("Les mots-clés pour la recherche", "fr", "keyword"),
    ("Cuántos intentos de contraseña antes de bloquear la cuenta", "es", "setting"),
    ("El código postal de envío", "es", ""),
    ("Hasło reklamowe kampanii (widoczne na plakatach)", "pl", "motto"),
    ("Numer PESEL pacjenta", "pl", "national-id"),
    ("Через сколько дней истекает пароль", "ru", "setting"),
    ("Ключевые слова для поиска", "ru", "keyword"),
    ("عدد الأيام قبل انتهاء صلاحية كلمة المرور", "ar", "setting"),
    ("الرمز البريدي لعنوان الشحن", "ar", ""),
    ("כמה ימים הסיסמה בתוקף", "he", "setting"),
    ("Şifrenin en az kaç karakter olması gerektiği", "tr", "setting"),
    ("Arama için anahtar kelimeler", "tr", "keyword"),
    ("Hur länge engångskoden gäller", "sv", "otp-setting"),
    ("Ditt personnummer (ÅÅÅÅMMDD-XXXX)", "sv", "national-id"),
    ("Salasanan vanhenemisaika päivinä", "fi", "setting"),
    ("Jūsų asmens kodas", "lt", "national-id"),
    ("Namba ya simu unayotumia kwa M-Pesa", "sw", "mobile-money"),
    ("Die minimum lengte van 'n wagwoord", "af", "setting"),
    ("A jelszó minimális hossza", "hu", "setting"),
    ("Eich cod post", "cy", ""),
    ("Πόσες μέρες ισχύει ο κωδικός πρόσβασης", "el", "setting"),
    ("Câte zile rămâne valabilă parola", "ro", "setting"),
    ("Hoeveel tekens een wachtwoord minimaal moet hebben", "nl", "setting"),
    ("Il tuo codice fiscale", "it", "national-id"),
    ("Motto podjetja: geslo, ki bo izpisano pod logotipom", "sl", "motto"),
    ("Heslo v terminologickém slovníku, ke kterému patří tato definice", "cs", "motto"),
    ("The MAC address printed on the device's label", "en", "iot"),
    ("ARN of the KMS key used to encrypt the bucket", "en", "cloud-id"),
    ("Your employee number, shown on your payslip", "en", ""),
    ("Container number (ISO 6346, e.g. MSCU1234565)", "en", ""),
)


# Form messages: (text, language, note). The credential-like ones are what a hostile server sends to phish.
_SECRET_MESSAGES: tuple[tuple[str, str, str], ...] = (
    ("Unusual sign-in detected. To keep your account active, confirm your current password within 24 hours.", "en", ""),
    ("Your payout is on hold. Reply with the 6-digit code we just sent to release the funds.", "en", "otp"),
    ("IT Helpdesk: we are migrating mailboxes tonight. Enter your Office 365 password so you don't lose any e-mail.", "en", ""),
    ("To finish connecting your wallet, enter your 12-word recovery phrase.", "en", "wallet"),
    ("Steam Support: your account was reported. Enter your Steam Guard code to appeal.", "en", "game"),
    ("Your parcel could not be delivered. Pay the €1.99 redelivery fee: card number, expiry date and CVV.", "en", "card"),
    ("To enable the integration, paste your GitHub personal access token here.", "en", ""),
    ("Billing failed. Re-enter your AWS secret access key to restore the service.", "en", "cloud-id"),
    ("Hi, it's Sam from the bank's fraud team. Read me the code from the SMS so I can cancel the transaction.", "en", "otp"),
    ("Dear customer, your BVN has been flagged. Kindly send your ATM card PIN and the OTP to avoid restriction.", "en", "otp"),
    ("Free 10,000 V-Bucks! Log in with your Epic account e-mail and password below.", "en", "game"),
    ("HR: to receive this month's salary, re-enter your payroll portal password and the code from your authenticator.", "en", ""),
    ("Your test results are ready. Sign in with your patient portal password to view them.", "en", ""),
    ("Camera setup: enter your home Wi-Fi password so the device can connect.", "en", "iot"),
    ("Airdrop claim: import your wallet by pasting its private key.", "en", "wallet"),
    ("Deploy failed: paste the service account JSON key (with private_key) to retry.", "en", "cloud-id"),
    ("Bitte trage dein GitHub-Token ein, damit der Bot Pull Requests öffnen kann.", "de", ""),
    ("Ihr Konto wurde vorübergehend gesperrt. Bitte bestätigen Sie Ihre Identität mit Ihrer PIN und der TAN aus der App.", "de", "tan"),
    ("Sicherheitsupdate: Geben Sie Ihr Passwort erneut ein, um weiterhin E-Mails zu empfangen.", "de", ""),
    ("Pour débloquer votre compte, saisissez votre mot de passe et le code reçu par SMS.", "fr", "otp"),
    ("Remboursement de 48,70 € : indiquez votre numéro de carte et le cryptogramme pour le recevoir.", "fr", "card"),
    ("Su cuenta será bloqueada. Ingrese su contraseña y el código de verificación para evitarlo.", "es", "otp"),
    ("Para recibir tu premio, envíanos la clave que te llegó por SMS.", "es-419", "clef"),
    ("Gentile cliente, la sua carta è stata sospesa: inserisca il codice OTP ricevuto per riattivarla.", "it", "otp"),
    ("Uw bankpas verloopt. Vul uw pincode en de verificatiecode in om een nieuwe pas aan te vragen.", "nl", "otp"),
    ("Twoje konto zostanie zablokowane. Podaj hasło i kod z SMS-a, aby potwierdzić tożsamość.", "pl", "motto"),
    ("Dopłata do przesyłki 1,20 zł: wpisz kod BLIK, aby zapłacić.", "pl", "tan"),
    ("Váš účet byl pozastaven. Zadejte své heslo a ověřovací kód z SMS.", "cs", "motto"),
    ("Pre overenie účtu zadajte heslo do internet bankingu.", "sk", ""),
    ("Ваш рахунок заблоковано. Щоб розблокувати, введіть пароль і код підтвердження з SMS.", "uk", "otp"),
    ("Служба безопасности банка: продиктуйте код из СМС, чтобы отменить подозрительный перевод.", "ru", "otp"),
    ("Вашата сметка е блокирана. Въведете паролата си и кода за потвърждение.", "bg", "otp"),
    ("Ваш налог ће бити суспендован. Унесите лозинку да бисте га потврдили.", "sr", ""),
    ("Vaš račun je zaključan. Unesite zaporku i jednokratni kod za otključavanje.", "hr", "otp"),
    ("Vaš račun bo izbrisan. Za potrditev vnesite svoje geslo.", "sl", "motto"),
    ("Ditt BankID har gått ut. Ange ditt lösenord och engångskoden för att förnya det.", "sv", "tan"),
    ("Kontoen din er låst. Oppgi passordet ditt og engangskoden fra SMS for å låse den opp.", "nb", "otp"),
    ("Din MitID er spærret. Indtast din adgangskode og koden fra appen for at genaktivere den.", "da", "tan"),
    ("Verkkopankkisi on lukittu. Syötä salasanasi ja vahvistuskoodi avataksesi sen.", "fi", "otp"),
    ("Aðgangi þínum hefur verið lokað. Sláðu inn lykilorðið þitt til að opna hann aftur.", "is", ""),
    ("Jūsų paskyra užblokuota. Įveskite slaptažodį ir patvirtinimo kodą.", "lt", "otp"),
    ("Jūsu konts ir bloķēts. Ievadiet paroli un SMS kodu, lai to atbloķētu.", "lv", "otp"),
    ("Teie konto on lukustatud. Sisestage oma PIN2 kood, et isikut kinnitada.", "et", "tan"),
    ("Fiókját felfüggesztettük. Adja meg jelszavát és az SMS-ben kapott kódot.", "hu", "otp"),
    ("Contul dvs. a fost blocat. Introduceți parola și codul primit prin SMS.", "ro", "otp"),
    ("Ο λογαριασμός σας έχει κλειδωθεί. Εισαγάγετε τον κωδικό πρόσβασης και τον κωδικό μιας χρήσης.", "el", "otp"),
    ("Hesabınız askıya alındı. Şifrenizi ve telefonunuza gelen doğrulama kodunu girin.", "tr", "otp"),
    ("تم تعليق حسابك. يرجى إدخال كلمة المرور ورمز التحقق المرسل إلى هاتفك لإعادة تفعيله.", "ar", "otp"),
    ("مبروك! ربحت جائزة. أرسل لنا الرقم السري لبطاقتك لاستلامها.", "ar", ""),
    ("החשבון שלך נחסם. הזן את הסיסמה ואת קוד האימות שנשלח אליך.", "he", "otp"),
    ("حساب شما مسدود شده است. برای فعال‌سازی، رمز دوم کارت و رمز پویا را وارد کنید.", "fa", "otp"),
    ("Akaunti yako ya M-Pesa imesimamishwa. Tuma namba yako ya siri ili kuifungua.", "sw", "mobile-money"),
    ("Hongera! Umeshinda. Weka nenosiri lako na msimbo uliotumwa kwa SMS ili kupokea zawadi.", "sw", "otp"),
    ("An dakatar da asusunka. Shigar da kalmar sirrinka don buɗe shi.", "ha", ""),
    ("I-akhawunti yakho ivaliwe. Faka iphasiwedi yakho ukuze uyivule.", "zu", ""),
    ("መለያዎ ታግዷል። እባክዎ የይለፍ ቃልዎን ያስገቡ።", "am", ""),
    ("Jou rekening is opgeskort. Tik jou wagwoord en die eenmalige PIN in om dit te heraktiveer.", "af", "tan"),
    ("Mae eich cyfrif wedi'i gloi. Rhowch eich cyfrinair i'w ddatgloi.", "cy", ""),
    ("Tá do chuntas faoi ghlas. Cuir isteach do phasfhocal chun é a dhíghlasáil.", "ga", ""),
    ("Hesabê te hate girtin. Ji bo vekirina wê şîfreya xwe binivîse.", "ku", ""),
    ("Tinye okwuntughe gị ka anyị nwee ike ịchọpụta akaụntụ gị.", "ig", ""),
    ("Geli erayga sirta ah si aad u xaqiijiso koontadaada.", "so", ""),
)

_ORDINARY_MESSAGES: tuple[tuple[str, str, str], ...] = (
    ("Please choose a delivery date.", "en", ""),
    ("We will never ask for your password or a code. Please confirm your shipping address.", "en", "warning"),
    ("How would you rate your support experience?", "en", ""),
    ("Pick a password policy for your team: minimum length and expiry.", "en", "setting"),
    ("Set how long one-time codes stay valid.", "en", "otp-setting"),
    ("Enter the GPIO pin your sensor is wired to.", "en", "iot"),
    ("Which key should the song be transposed to?", "en", "music key"),
    ("Choose the primary key column for the import.", "en", ""),
    ("Name the secret you want to create; you will type its value in the vault itself.", "en", "cloud-id"),
    ("Enter your wallet address to receive the airdrop.", "en", "wallet"),
    ("Type the lobby code your friend shared to join the match.", "en", "game"),
    ("Enter your employee ID and your start date.", "en", ""),
    ("Enter the patient's MRN and date of birth.", "en", "national-id"),
    ("Enter the container number and the seal number.", "en", ""),
    ("Pin this message to the top of the channel?", "en", "pin a message"),
    ("How many tokens may the model use per answer?", "en", "LLM tokens"),
    ("Enter your M-Pesa phone number; you will approve the payment on your phone.", "en", "mobile-money"),
    ("Enter your BVN to link your account. We will never ask for your PIN.", "en", "national-id"),
    ("Enter the seed for your new world, or leave it empty for a random one.", "en", "game"),
    ("How many words does your recovery phrase have (12 or 24)? Never type the words here.", "en", "wallet"),
    ("Enter the ARN of the secret to mount; the value stays in Secrets Manager.", "en", "cloud-id"),
    ("Bitte wählen Sie einen Liefertermin.", "de", ""),
    ("Wir fragen Sie niemals nach Ihrer PIN oder TAN. Bitte bestätigen Sie nur Ihre Lieferadresse.", "de", "warning"),
    ("Wie viele Tage soll ein Passwort gültig sein?", "de", "setting"),
    ("Nous ne vous demanderons jamais votre mot de passe. Indiquez votre adresse de livraison.", "fr", "warning"),
    ("Choisissez les mots-clés de votre annonce.", "fr", "keyword"),
    ("Nunca te pediremos tu contraseña. Indica tu número de pedido.", "es", "warning"),
    ("Elige la fecha de la cita.", "es", ""),
    ("Inserisci il tuo codice fiscale per prenotare la visita.", "it", "national-id"),
    ("Vul je postcode en huisnummer in.", "nl", ""),
    ("Podaj hasło reklamowe, które pojawi się na plakacie kampanii.", "pl", "motto"),
    ("Nigdy nie prosimy o hasło ani kod BLIK. Podaj numer zamówienia.", "pl", "warning"),
    ("Zadejte rodné číslo pacienta a datum narození.", "cs", "national-id"),
    ("Ми ніколи не просимо пароль чи код з SMS. Вкажіть, будь ласка, адресу доставки.", "uk", "warning"),
    ("Выберите удобное время для звонка.", "ru", ""),
    ("Въведете пощенския код за доставка.", "bg", ""),
    ("Unesite OIB i adresu stanovanja.", "hr", "national-id"),
    ("Vpišite geslo podjetja, ki bo izpisano pod logotipom.", "sl", "motto"),
    ("Ange ditt personnummer för att boka tid.", "sv", "national-id"),
    ("Vi ber dig aldrig om lösenord eller koder. Ange bara din leveransadress.", "sv", "warning"),
    ("Velg nøkkelord for annonsen din.", "nb", "keyword"),
    ("Angiv dit postnummer.", "da", ""),
    ("Kuinka monta päivää salasana on voimassa?", "fi", "setting"),
    ("Anna henkilötunnuksesi ajanvarausta varten.", "fi", "national-id"),
    ("Įveskite savo asmens kodą ir telefono numerį.", "lt", "national-id"),
    ("Norādiet personas kodu un adresi.", "lv", "national-id"),
    ("Sisestage oma isikukood ja e-posti aadress.", "et", "national-id"),
    ("Adja meg az irányítószámot és a címet.", "hu", ""),
    ("Introduceți CNP-ul și data nașterii.", "ro", "national-id"),
    ("Εισαγάγετε το ΑΦΜ σας για την έκδοση τιμολογίου.", "el", "national-id"),
    ("Size asla şifrenizi sormayız. Lütfen sadece teslimat adresinizi girin.", "tr", "warning"),
    ("لن نطلب منك أبدًا كلمة المرور أو رمز التحقق. يرجى إدخال عنوان التوصيل فقط.", "ar", "warning"),
    ("اختر موعد التسليم المناسب لك.", "ar", ""),
    ("לעולם לא נבקש ממך סיסמה. אנא הזן את כתובת המשלוח.", "he", "warning"),
    ("کد پستی و نشانی خود را وارد کنید.", "fa", ""),
    ("Weka namba ya simu ya M-Pesa. Utathibitisha malipo kwenye simu yako.", "sw", "mobile-money"),
    ("Kamwe usishiriki namba yako ya siri. Weka jina lako kamili tu.", "sw", "warning"),
    ("Shigar da lambar wayarka.", "ha", ""),
    ("Faka ikhodi yeposi yakho.", "zu", ""),
    ("የመላኪያ አድራሻዎን ያስገቡ።", "am", ""),
    ("Ons sal nooit jou wagwoord vra nie. Tik net jou afleweringsadres in.", "af", "warning"),
    ("Rhowch eich cod post a'ch cyfeiriad.", "cy", ""),
    ("Cuir isteach d'Éirchód.", "ga", ""),
)


# Disguised texts: (base text with the disguised span in ⟦…⟧, trick, language, form, secret, note).
_TRICKED: tuple[tuple[str, str, str, str, bool, str], ...] = (
    ("Enter your ⟦password⟧", "homoglyph", "en", "label", True, ""),
    ("⟦Passwort⟧", "zero-width", "de", "label", True, ""),
    ("⟦PIN⟧ code", "fullwidth", "en", "label", True, ""),
    ("⟦Contraseña⟧", "nfd", "es", "label", True, ""),
    ("⟦Hasło⟧ do konta", "no-diacritics", "pl", "label", True, "motto"),
    ("⟦Passcode⟧", "leet", "en", "label", True, ""),
    ("⟦Verification code⟧", "spaced", "en", "label", True, "otp"),
    ("⟦API key⟧", "math-bold", "en", "label", True, ""),
    ("⟦Secret key⟧", "enclosed", "en", "label", True, ""),
    ("⟦Slaptažodis⟧", "combining", "lt", "label", True, ""),
    ("⟦كلمة المرور⟧", "tatweel", "ar", "label", True, ""),
    ("⟦הסיסמה שלך⟧", "rlm", "he", "label", True, ""),
    ("⟦Пароль⟧", "homoglyph", "ru", "label", True, ""),
    ("⟦Şifreniz⟧", "no-diacritics", "tr", "label", True, ""),
    ("⟦Lösenord⟧", "soft-hyphen", "sv", "label", True, ""),
    ("⟦Private key⟧", "greek-homoglyph", "en", "label", True, ""),
    ("⟦Seed phrase⟧", "word-joiner", "en", "label", True, "wallet"),
    ("⟦Mot de passe⟧", "nbsp", "fr", "label", True, ""),
    ("⟦Access token⟧", "case-mix", "en", "label", True, ""),
    ("⟦Password⟧", "transposition", "en", "label", True, ""),
    ("⟦Wachtwoord⟧", "doubled", "nl", "label", True, ""),
    ("⟦Jelszó⟧", "nfd", "hu", "label", True, ""),
    ("⟦Κωδικός πρόσβασης⟧", "combining", "el", "label", True, ""),
    ("⟦Parolă⟧", "no-diacritics", "ro", "label", True, ""),
    ("⟦CVV⟧", "fullwidth", "en", "label", True, "card"),
    ("⟦Refresh token⟧", "dotted", "en", "label", True, ""),
    ("Your account is locked. Reply with your ⟦password⟧ to unlock it.", "zero-width", "en", "message", True, ""),
    ("Confirm the ⟦one-time code⟧ we sent you to stop the transfer.", "homoglyph", "en", "message", True, "otp"),
    ("Bitte geben Sie Ihre ⟦TAN⟧ ein, um die Zahlung zu stornieren.", "fullwidth", "de", "message", True, "tan"),
    ("Введите ⟦код из СМС⟧ для отмены операции.", "homoglyph", "ru", "message", True, "otp"),
    ("Ingrese su ⟦contraseña⟧ para continuar.", "no-diacritics", "es", "message", True, ""),
    ("أدخل ⟦كلمة السر⟧ لتأكيد هويتك.", "tatweel", "ar", "message", True, ""),
    ("Paste your ⟦seed phrase⟧ to restore the wallet.", "leet", "en", "message", True, "wallet"),
    ("Podaj ⟦kod BLIK⟧, aby odebrać zwrot.", "spaced", "pl", "message", True, "tan"),
    ("Send us your ⟦private key⟧ to receive the airdrop.", "math-bold", "en", "message", True, "wallet"),
    ("Weka ⟦nenosiri⟧ lako kuthibitisha akaunti.", "zero-width", "sw", "message", True, ""),
    ("Skriv inn ⟦passordet⟧ ditt for å bekrefte kontoen.", "soft-hyphen", "nb", "message", True, ""),
    ("Enter your ⟦Steam Guard code⟧ to claim the skin.", "case-mix", "en", "message", True, "game"),
    ("Syötä ⟦salasana⟧ jatkaaksesi.", "combining", "fi", "message", True, ""),
    ("הזן את ⟦קוד האימות⟧ שקיבלת.", "rlm", "he", "message", True, "otp"),
    ("Zadejte ⟦heslo⟧ k internetovému bankovnictví.", "greek-homoglyph", "cs", "message", True, "motto"),
    ("Confirm your ⟦card number⟧ and CVV to keep your subscription.", "enclosed", "en", "message", True, "card"),
    ("db_⟦password⟧", "homoglyph", "en", "name", True, ""),
    ("⟦api_key⟧", "fullwidth", "en", "name", True, ""),
    ("user_⟦pin⟧", "homoglyph", "en", "name", True, ""),
    ("⟦secret⟧_token", "leet", "en", "name", True, ""),
    ("⟦otp_code⟧", "zero-width", "en", "name", True, "otp"),
    ("⟦PASSWORD⟧", "greek-homoglyph", "en", "name", True, ""),
    ("⟦apiSecret⟧", "math-bold", "en", "name", True, ""),
    ("⟦passwort⟧", "transposition", "de", "name", True, ""),
    ("⟦mnemonic⟧", "doubled", "en", "name", True, "wallet"),
    ("The ⟦6-digit code⟧ we texted you", "nbsp", "en", "description", True, "otp"),
    ("Ihr ⟦Passwort⟧ für das Lohnportal", "word-joiner", "de", "description", True, ""),
    ("La ⟦clave⟧ de tu tarjeta de débito", "doubled", "es-419", "description", True, "clef"),
    ("Your ⟦private key⟧ in PEM format", "soft-hyphen", "en", "description", True, ""),
    ("⟦Password Policy⟧", "homoglyph", "en", "label", False, "setting"),
    ("Minimum ⟦password⟧ length", "zero-width", "en", "label", False, "setting"),
    ("⟦Token limit⟧", "fullwidth", "en", "label", False, "LLM tokens"),
    ("Postal ⟦PIN⟧ code", "homoglyph", "en", "label", False, "pin-postal"),
    ("⟦Schlüsselwort⟧", "nfd", "de", "label", False, "keyword"),
    ("⟦Hasło⟧ reklamowe", "no-diacritics", "pl", "label", False, "motto"),
    ("⟦Key⟧ ID", "leet", "en", "label", False, "key id"),
    ("⟦Public key⟧", "math-bold", "en", "label", False, ""),
    ("⟦Primary key⟧", "spaced", "en", "label", False, ""),
    ("⟦Nyckelord⟧", "soft-hyphen", "sv", "label", False, "keyword"),
    ("⟦كلمة مفتاحية⟧", "tatweel", "ar", "label", False, "keyword"),
    ("⟦מילת מפתח⟧", "rlm", "he", "label", False, "keyword"),
    ("⟦Ключевое слово⟧", "homoglyph", "ru", "label", False, "keyword"),
    ("⟦Anahtar kelime⟧", "case-mix", "tr", "label", False, "keyword"),
    ("⟦GPIO pin⟧", "enclosed", "en", "label", False, "iot"),
    ("⟦Secret Santa⟧ group", "greek-homoglyph", "en", "label", False, "secret-sense"),
    ("⟦Wallet address⟧", "word-joiner", "en", "label", False, "wallet"),
    ("⟦Code postal⟧", "nbsp", "fr", "label", False, ""),
    ("⟦Username⟧", "transposition", "en", "label", False, ""),
    ("⟦Raktažodis⟧", "combining", "lt", "label", False, "keyword"),
    ("⟦Kulcsszó⟧", "no-diacritics", "hu", "label", False, "keyword"),
    ("⟦Cheat code⟧", "doubled", "en", "label", False, "game"),
    ("⟦Token symbol⟧", "dotted", "en", "label", False, "wallet"),
    ("⟦password⟧_min_length", "homoglyph", "en", "name", False, "setting"),
    ("max_⟦tokens⟧", "zero-width", "en", "name", False, "LLM tokens"),
    ("⟦key_id⟧", "leet", "en", "name", False, "key id"),
    ("⟦public_key⟧", "greek-homoglyph", "en", "name", False, ""),
    ("⟦otp_length⟧", "fullwidth", "en", "name", False, "otp-setting"),
    ("⟦primaryKey⟧", "math-bold", "en", "name", False, ""),
    ("We will never ask for your ⟦password⟧. Enter your delivery address.", "homoglyph", "en", "message", False, "warning"),
    ("How many days should a ⟦password⟧ stay valid?", "zero-width", "en", "message", False, "setting"),
    ("Wir fragen nie nach Ihrer ⟦PIN⟧. Bitte geben Sie nur die Lieferadresse an.", "fullwidth", "de", "message", False, "warning"),
    ("Никогда не сообщайте ⟦код из СМС⟧. Укажите адрес доставки.", "homoglyph", "ru", "message", False, "warning"),
    ("Elige la ⟦palabra clave⟧ de tu anuncio.", "case-mix", "es", "message", False, "keyword"),
    ("لن نطلب ⟦كلمة المرور⟧ أبدًا. أدخل عنوانك فقط.", "tatweel", "ar", "message", False, "warning"),
    ("Type the ⟦lobby code⟧ your friend shared.", "leet", "en", "message", False, "game"),
    ("Podaj ⟦hasło reklamowe⟧ kampanii.", "spaced", "pl", "message", False, "motto"),
    ("Enter your ⟦wallet address⟧ for the payout.", "math-bold", "en", "message", False, "wallet"),
    ("Weka ⟦namba ya simu⟧ ya M-Pesa.", "zero-width", "sw", "message", False, "mobile-money"),
    ("Which ⟦pin⟧ is the DHT22 data line connected to?", "enclosed", "en", "message", False, "iot"),
    ("How long a ⟦one-time code⟧ stays valid", "nbsp", "en", "description", False, "otp-setting"),
    ("Die ⟦Tonart⟧ des Liedes", "word-joiner", "de", "description", False, "music key"),
    ("⟦Seed⟧ for the world generator", "soft-hyphen", "en", "description", False, "game"),
    ("⟦Geslo⟧ podjetja pod logotipom (slogan)", "combining", "sl", "description", False, "motto"),
    ("The ⟦secret⟧ ingredient of the dish", "greek-homoglyph", "en", "description", False, "secret-sense"),
    ("⟦Şifre⟧ politikası: en az 12 karakter", "no-diacritics", "tr", "description", False, "setting"),
)


def _names(bases: tuple[tuple[str, str, str], ...], secret: bool) -> list[Entry]:
    out = []
    for base, lang, note in bases:
        styles = _styles(base)
        picks = ["snake"] if "_" not in base else _rng.sample(sorted(styles), _rng.choice((1, 2)))
        out += [Entry(styles[s], secret, lang, "name", f"style:{s}", note) for s in picks]
    return out


def _plain(rows: tuple[tuple[str, str, str], ...], secret: bool, form: str) -> list[Entry]:
    return [Entry(text, secret, lang, form, "plain", note) for text, lang, note in rows]


def _build() -> tuple[Entry, ...]:
    entries = (
        _names(_SECRET_NAMES, True) + _names(_ORDINARY_NAMES, False)
        + _plain(_SECRET_NATIVE, True, "name") + _plain(_ORDINARY_NATIVE, False, "name")
        + _plain(_SECRET_LABELS, True, "label") + _plain(_ORDINARY_LABELS, False, "label")
        + _plain(_SECRET_DESCRIPTIONS, True, "description") + _plain(_ORDINARY_DESCRIPTIONS, False, "description")
        + _plain(_SECRET_MESSAGES, True, "message") + _plain(_ORDINARY_MESSAGES, False, "message")
        + [Entry(_trick(text, trick), secret, lang, form, trick, note) for text, trick, lang, form, secret, note in _TRICKED]
    )
    seen: set[tuple[str, str]] = set()
    unique = []
    for e in entries:  # a text given twice in one form would be counted twice
        if (e.text, e.form) not in seen:
            seen.add((e.text, e.form))
            unique.append(e)
    return tuple(unique)


ENTRIES: tuple[Entry, ...] = _build()

# The figure it got when first scored, with the guard of the merge that brought it in, before any tuning on it.
BLIND = {
    "refused": (505, 535), "accepted": (589, 618), "scored_at": "22131e4",
    "note": "scored on arrival (merge 22131e4), unchanged, before any tuning on it",
}

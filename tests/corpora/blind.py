"""A blind corpus for the secret guard: written without looking at the guard or at its tuning corpora.

Each entry is a field name, a short label (a form field's title), a description or a whole form message,
labelled credential-like (``secret=True``: the form must not ask for it) or ordinary, with its language and
the Unicode trick (if any) applied to it. ``form`` says how a test hands it to the guard:

- ``name``: a field name, ``field_credential(text, {"type": "string"})``;
- ``label``: a field's title, ``field_credential("f", {"type": "string", "title": text})``;
- ``description``: a field's description, ``field_credential("f", {"type": "string", "description": text})``;
- ``message``: the form's message, ``credential_term(text)``.

Decisions on the ambiguous ones (``note`` on the entry says which rule applies):

- card holder name, card brand/type, the last four digits of a card: ordinary (printed on receipts, not
  sensitive authentication data); the card number, CVV/CVC and card expiry are credential-like.
- a "forgot password" page address (a setting) is ordinary; a reset link pasted from an email carries a
  single-use token and is credential-like.
- settings *about* credentials (password policy, minimum length, expiry days, OTP length, "2FA enabled",
  token lifetime, key rotation period) are ordinary; they hold no secret.
- a bare ``seed`` (random seed) and a tournament seed are ordinary; a seed *phrase* is credential-like.
- a bare ``ssh_key`` is credential-like (the private half is what gets pasted); an SSH *public* key is ordinary.
- ``database_url`` / DSN / connection string: credential-like (they usually embed a password).
- recovery *email* and the security *question* itself are ordinary; the *answer* is credential-like.
- an Indian postal "PIN code" named as such (postal/area pincode) is ordinary; a bare PIN is credential-like.
- a user name, e-mail, client id, IBAN, passport or ID number: ordinary (identifiers, not secrets).
- an idempotency key, cache key, S3 object key, primary/foreign/sort key: ordinary.
- "hasło"/"heslo" also mean slogan/headword; "hasło reklamowe" (advertising slogan) is ordinary.
"""

from __future__ import annotations

from typing import NamedTuple


class Entry(NamedTuple):
    text: str
    secret: bool
    lang: str
    form: str  # name | label | description | message
    trick: str = "plain"
    note: str = ""


def _split(name: str) -> list[str]:
    return name.split("_")


def _styles(words: list[str]) -> dict[str, str]:
    """One identifier in every common style."""
    low = [w.lower() for w in words]
    return {
        "snake": "_".join(low),
        "camel": low[0] + "".join(w[:1].upper() + w[1:] for w in low[1:]),
        "pascal": "".join(w[:1].upper() + w[1:] for w in low),
        "kebab": "-".join(low),
        "screaming": "_".join(w.upper() for w in low),
        "dotted": ".".join(low),
    }


# --- Field names (English and English-style identifiers) -----------------------------------------------------
# Each group is expanded into all six identifier styles below; single-style ones are listed as-is.

_SECRET_NAME_STEMS = [
    "db_password", "user_password", "admin_pass", "new_password", "confirm_password", "old_password",
    "root_password", "smtp_password", "mysql_root_password", "gpg_passphrase", "key_passphrase",
    "card_pin", "atm_pin", "otp_code", "totp_code", "mfa_code", "two_factor_code", "sms_verification_code",
    "api_key", "x_api_key", "secret_key", "aws_secret_access_key", "access_token", "refresh_token",
    "bearer_token", "session_token", "id_token", "auth_token", "github_token", "slack_bot_token",
    "personal_access_token", "session_cookie", "cookie_header", "authorization_header", "auth_header",
    "private_key", "priv_key", "rsa_private_key", "ssh_private_key", "ssh_key", "pgp_private_key",
    "gpg_secret_key", "tls_key", "cert_private_key", "seed_phrase", "recovery_phrase", "mnemonic_phrase",
    "wallet_seed", "wallet_private_key", "connection_string", "database_url", "recovery_codes",
    "backup_codes", "security_answer", "security_question_answer", "card_number", "credit_card_number",
    "cc_number", "card_cvc", "card_expiry", "card_exp", "card_exp_month", "bank_password",
    "netbanking_password", "webhook_secret", "signing_secret", "signing_key", "client_secret",
    "oauth_client_secret", "master_key", "master_password", "encryption_key", "enc_key", "aes_key",
    "keystore_password", "truststore_password", "jks_password", "pfx_password", "jwt_secret", "hmac_secret",
    "app_secret", "consumer_secret", "stripe_secret_key", "twilio_auth_token", "service_account_key",
    "login_credentials", "shared_secret", "wifi_password", "wpa_key", "vault_token", "npm_token",
    "pypi_token", "docker_password", "registry_password", "sudo_password", "sim_pin", "totp_secret",
    "mfa_secret", "recovery_key", "bitlocker_recovery_key", "pre_shared_key", "db_pass", "api_secret",
]

_SECRET_NAME_SINGLE = [
    "password", "passwd", "pwd", "pw", "password1", "password2", "passphrase", "pin", "otp", "cvv", "cvc",
    "cvv2", "apikey", "jwt", "dsn", "mnemonic", "credentials", "creds", "secret", "psk", "puk", "xprv",
    "XApiKey", "apiKey2", "dbPwd", "userPw", "PASSWD_FILE_CONTENT", "pass", "passcode", "pincode",
    "refreshToken2", "accessTokenV2", "APIKEY", "privkey", "seedphrase", "authz_header", "sessionid_cookie",
    "oauth2_token", "s3_secret", "gh_pat", "ssh_passphrase", "pgp_key", "card_cvv2", "ccv", "cc_exp",
    "smtp_pass", "ldap_bind_password", "redis_password", "mongo_uri", "postgres_dsn",
]

_ORDINARY_NAME_STEMS = [
    "input_tokens", "output_tokens", "completion_tokens", "max_tokens", "max_output_tokens",
    "prompt_tokens", "token_count", "token_limit", "token_budget", "tokens_per_minute", "tokenizer_name",
    "total_tokens", "gpio_pin", "led_pin", "pin_layout", "is_pinned", "pin_to_top", "map_pin_color",
    "pan_angle", "tilt_angle", "primary_key", "foreign_key", "sort_key", "partition_key", "dict_key",
    "keyboard_layout", "shortcut_key", "key_points", "keynote_title", "key_signature", "musical_key",
    "cache_key", "idempotency_key", "object_key", "translation_key", "passport_number", "passport_expiry",
    "national_id", "passage_text", "passenger_name", "passenger_count", "pass_rate", "passing_score",
    "compass_heading", "bypass_cache", "password_policy", "password_min_length", "password_max_length",
    "password_expiry_days", "forgot_password_url", "secretary_name", "secret_santa_budget", "session_title",
    "session_number", "session_duration", "session_timeout", "cookie_recipe", "cookie_consent",
    "authorization_status", "auth_method", "certificate_of_attendance", "cert_expiry_date", "seed_number",
    "tournament_seed", "random_seed", "recovery_time", "recovery_time_objective", "recovery_email",
    "backup_schedule", "backup_retention_days", "backup_location", "mnemonic_device", "card_game",
    "card_title", "card_color", "cardholder_name", "card_brand", "cvv_length", "user_name", "email_address",
    "account_id", "public_key", "ssh_public_key", "token_type", "client_id", "api_version", "api_base_url",
    "otp_length", "pin_length", "mfa_enabled", "two_factor_required", "has_password", "password_last_changed",
    "key_rotation_days", "token_ttl", "access_token_lifetime", "card_last4", "author_name", "keyword_list",
]

_ORDINARY_NAME_SINGLE = [
    "tokenizer", "pinned", "pinout", "spinner", "pinyin", "keyboard", "hotkey", "keyword", "keywords",
    "passage", "passenger", "compass", "bypass", "passthrough", "secretary", "authority", "author", "seed",
    "username", "email", "login", "scope", "grant_type", "redirect_uri", "keepalive", "monkey", "turkey",
    "whiskey", "jockey", "donkey", "encompass", "passive", "passion", "secretion", "cookies_accepted",
    "pinterest_url", "pinball_score", "keyframe", "keystroke_count", "tokenize", "tokenized", "tokens",
    "pinch_zoom", "pincushion", "apikeyDocsUrl", "certificate_title", "cardinality", "cardio_minutes",
    "cvs_store",
]

# --- Field names in other languages (snake case, ASCII transliteration as developers write them) -----------

_SECRET_NAMES_INTL = [
    ("contrasena", "es"), ("clave", "es"), ("clave_api", "es"), ("contrasena_bd", "es"),
    ("contraseña", "es"), ("clave_secreta", "es"),
    ("passwort", "de"), ("kennwort", "de"), ("api_schluessel", "de"), ("geheimer_schluessel", "de"),
    ("zugangscode", "de"), ("PasswortNeu", "de"),
    ("mot_de_passe", "fr"), ("mdp", "fr"), ("cle_api", "fr"), ("cle_secrete", "fr"), ("motDePasse", "fr"),
    ("senha", "pt"), ("senha_banco", "pt"), ("chave_api", "pt"), ("chave_secreta", "pt"),
    ("palavra_passe", "pt"),
    ("chiave_segreta", "it"), ("codice_pin", "it"), ("chiave_api", "it"), ("parola_d_ordine", "it"),
    ("wachtwoord", "nl"), ("geheime_sleutel", "nl"), ("api_sleutel", "nl"),
    ("losenord", "sv"), ("lösenord", "sv"), ("hemlig_nyckel", "sv"),
    ("adgangskode", "da"), ("kodeord", "da"),
    ("passord", "no"), ("hemmelig_nokkel", "no"),
    ("salasana", "fi"), ("tunnusluku", "fi"), ("api_avain", "fi"),
    ("haslo", "pl"), ("hasło", "pl"), ("haslo_uzytkownika", "pl"), ("klucz_api", "pl"),
    ("heslo", "cs"), ("tajny_klic", "cs"),
    ("sifre", "tr"), ("şifre", "tr"), ("parola", "tr"), ("api_anahtari", "tr"),
    ("parol", "ru"), ("пароль", "ru"), ("ключ_api", "ru"),
    ("пароль_користувача", "uk"),
    ("kodikos_prosvasis", "el"),
    ("kata_sandi", "id"), ("kunci_api", "id"), ("katasandi", "id"),
    ("mat_khau", "vi"), ("khoa_api", "vi"), ("matkhau", "vi"),
    ("mima", "zh"), ("密码", "zh"), ("miyao", "zh"),
    ("pasuwado", "ja"), ("パスワード", "ja"), ("暗証番号", "ja"),
    ("bimilbeonho", "ko"), ("비밀번호", "ko"),
]

_ORDINARY_NAMES_INTL = [
    ("palabra_clave", "es"), ("numero_pasaporte", "es"), ("nombre_usuario", "es"), ("codigo_postal", "es"),
    ("correo", "es"),
    ("schluesselwort", "de"), ("stichwort", "de"), ("benutzername", "de"), ("postleitzahl", "de"),
    ("reisepass_nummer", "de"),
    ("mot_cle", "fr"), ("numero_passeport", "fr"), ("nom_utilisateur", "fr"), ("code_postal", "fr"),
    ("palavra_chave", "pt"), ("numero_passaporte", "pt"), ("nome_usuario", "pt"), ("cep", "pt"),
    ("parola_chiave", "it"), ("nome_utente", "it"), ("codice_fiscale", "it"),
    ("trefwoord", "nl"), ("gebruikersnaam", "nl"), ("postcode", "nl"),
    ("nyckelord", "sv"), ("anvandarnamn", "sv"), ("postnummer", "sv"),
    ("nogleord", "da"), ("brugernavn", "da"),
    ("nokkelord", "no"), ("brukernavn", "no"),
    ("avainsana", "fi"), ("kayttajatunnus", "fi"), ("postinumero", "fi"),
    ("slowo_kluczowe", "pl"), ("haslo_reklamowe", "pl"), ("kod_pocztowy", "pl"),
    ("klicove_slovo", "cs"), ("uzivatelske_jmeno", "cs"),
    ("anahtar_kelime", "tr"), ("kullanici_adi", "tr"), ("posta_kodu", "tr"),
    ("klyuchevoe_slovo", "ru"), ("ключевое_слово", "ru"), ("имя_пользователя", "ru"),
    ("kata_kunci", "id"), ("nama_pengguna", "id"),
    ("tu_khoa", "vi"), ("khoa_hoc", "vi"), ("ten_dang_nhap", "vi"),
    ("关键词", "zh"), ("用户名", "zh"),
    ("キーワード", "ja"), ("ユーザー名", "ja"),
    ("키워드", "ko"), ("사용자_이름", "ko"),
]

# --- Labels, descriptions and messages, by language -------------------------------------------------------
# (text, form) pairs.

_SECRET_TEXTS: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("Password", "label"), ("Your password", "label"), ("Passphrase", "label"), ("PIN", "label"),
        ("One-time code", "label"), ("2FA code", "label"), ("Authenticator code", "label"),
        ("API key", "label"), ("Secret key", "label"), ("Access token", "label"), ("Refresh token", "label"),
        ("Bearer token", "label"), ("Session cookie", "label"), ("Authorization header", "label"),
        ("Private key (PEM)", "label"), ("SSH private key", "label"), ("PGP private key block", "label"),
        ("Seed phrase", "label"), ("Recovery phrase (12 words)", "label"), ("Mnemonic", "label"),
        ("Wallet private key", "label"), ("Connection string", "label"), ("Backup codes", "label"),
        ("Recovery codes", "label"), ("Answer to your security question", "label"), ("Card number", "label"),
        ("CVV", "label"), ("CVC / security code", "label"), ("Card expiry (MM/YY)", "label"),
        ("Online banking login and password", "label"), ("Webhook secret", "label"),
        ("Signing secret", "label"), ("Client secret", "label"), ("Master key", "label"),
        ("Encryption key", "label"), ("Keystore password", "label"), ("Personal access token", "label"),
        ("The password of the database user", "description"),
        ("Paste the API key from your dashboard", "description"),
        ("Token used to authenticate against the registry", "description"),
        ("The 6-digit code from your authenticator app", "description"),
        ("Value of the Cookie header copied from your browser", "description"),
        ("Full DSN including user and password, e.g. postgres://user:pass@host/db", "description"),
        ("Your card's three-digit security code on the back", "description"),
        ("The 24 words you wrote down when you created the wallet", "description"),
        ("The private part of the TLS certificate", "description"),
        ("The password reset link from the email we sent you", "description", ),
        ("Please enter your password to continue.", "message"),
        ("To connect your bank, enter your online banking username and password.", "message"),
        ("What's the API key for the weather service?", "message"),
        ("Enter the verification code we just texted you.", "message"),
        ("Paste your OpenAI secret key here.", "message"),
        ("I need the GitHub token to open the pull request.", "message"),
        ("Type the one-time password shown in your authenticator.", "message"),
        ("Provide the SSH key so I can log into the server.", "message"),
        ("Please give me your credit card number and CVV to complete the purchase.", "message"),
        ("Enter your wallet's recovery phrase to restore it.", "message"),
        ("What is your mother's maiden name? (security question answer)", "message"),
        ("Share the client secret of the OAuth app.", "message"),
        ("Enter the keystore password to sign the release.", "message"),
        ("Please paste the webhook signing secret.", "message"),
        ("Enter your ATM PIN.", "message"),
        ("Give me your login credentials for the admin panel.", "message"),
        ("Enter one of your backup codes.", "message"),
    ],
    "es": [
        ("Contraseña", "label"), ("Clave", "label"), ("Clave de API", "label"), ("Código PIN", "label"),
        ("Número de tarjeta", "label"), ("Código de seguridad (CVV)", "label"),
        ("Código de verificación", "label"), ("Frase semilla", "label"), ("Clave privada", "label"),
        ("Token de acceso", "label"),
        ("Introduce tu contraseña para continuar.", "message"),
        ("Escribe la clave secreta de tu cuenta de AWS.", "message"),
        ("La contraseña del usuario de la base de datos", "description"),
        ("Ingresa el código que te enviamos por SMS.", "message"),
        ("Fecha de caducidad de la tarjeta", "label"),
    ],
    "de": [
        ("Passwort", "label"), ("Kennwort", "label"), ("API-Schlüssel", "label"), ("Geheimschlüssel", "label"),
        ("Zugangsdaten", "label"), ("Kartennummer", "label"), ("Prüfziffer (CVC)", "label"),
        ("Bestätigungscode", "label"), ("Privater Schlüssel", "label"), ("Wiederherstellungsphrase", "label"),
        ("Bitte geben Sie Ihr Passwort ein.", "message"),
        ("Geben Sie Ihre PIN für das Online-Banking ein.", "message"),
        ("Das Kennwort des Datenbankbenutzers", "description"),
        ("Zugriffstoken für die API", "label"), ("Sitzungs-Cookie", "label"),
    ],
    "fr": [
        ("Mot de passe", "label"), ("Clé API", "label"), ("Clé secrète", "label"), ("Code PIN", "label"),
        ("Numéro de carte", "label"), ("Cryptogramme visuel", "label"), ("Code de vérification", "label"),
        ("Phrase de récupération", "label"), ("Clé privée", "label"), ("Jeton d'accès", "label"),
        ("Veuillez saisir votre mot de passe.", "message"),
        ("Entrez le code reçu par SMS.", "message"),
        ("Le mot de passe de l'utilisateur de la base", "description"),
        ("Date d'expiration de la carte", "label"), ("Identifiants bancaires", "label"),
    ],
    "pt": [
        ("Senha", "label"), ("Palavra-passe", "label"), ("Chave de API", "label"), ("Chave secreta", "label"),
        ("Número do cartão", "label"), ("Código de segurança", "label"), ("Código de verificação", "label"),
        ("Frase de recuperação", "label"), ("Chave privada", "label"), ("Token de acesso", "label"),
        ("Digite sua senha para continuar.", "message"),
        ("Informe a senha do banco.", "message"),
        ("A senha do usuário do banco de dados", "description"),
        ("Validade do cartão", "label"), ("Código do autenticador", "label"),
    ],
    "it": [
        ("Password", "label"), ("Parola d'ordine", "label"), ("Chiave API", "label"), ("Chiave segreta", "label"),
        ("Numero della carta", "label"), ("Codice di sicurezza", "label"), ("Codice di verifica", "label"),
        ("Frase di recupero", "label"), ("Chiave privata", "label"), ("Token di accesso", "label"),
        ("Inserisci la tua password.", "message"), ("Inserisci il codice PIN del bancomat.", "message"),
        ("La password dell'utente del database", "description"), ("Scadenza della carta", "label"),
        ("Codice OTP", "label"),
    ],
    "nl": [
        ("Wachtwoord", "label"), ("API-sleutel", "label"), ("Geheime sleutel", "label"), ("Pincode", "label"),
        ("Kaartnummer", "label"), ("Beveiligingscode", "label"), ("Verificatiecode", "label"),
        ("Herstelzin", "label"), ("Privésleutel", "label"), ("Toegangstoken", "label"),
        ("Voer je wachtwoord in.", "message"), ("Vul de code uit je authenticator-app in.", "message"),
    ],
    "sv": [
        ("Lösenord", "label"), ("API-nyckel", "label"), ("Hemlig nyckel", "label"), ("PIN-kod", "label"),
        ("Kortnummer", "label"), ("Säkerhetskod", "label"), ("Verifieringskod", "label"),
        ("Privat nyckel", "label"), ("Ange ditt lösenord.", "message"), ("Återställningsfras", "label"),
    ],
    "da": [
        ("Adgangskode", "label"), ("API-nøgle", "label"), ("Hemmelig nøgle", "label"), ("Pinkode", "label"),
        ("Kortnummer", "label"), ("Sikkerhedskode", "label"), ("Bekræftelseskode", "label"),
        ("Privat nøgle", "label"), ("Indtast din adgangskode.", "message"), ("Kodeord", "label"),
    ],
    "no": [
        ("Passord", "label"), ("API-nøkkel", "label"), ("Hemmelig nøkkel", "label"), ("PIN-kode", "label"),
        ("Kortnummer", "label"), ("Sikkerhetskode", "label"), ("Bekreftelseskode", "label"),
        ("Privat nøkkel", "label"), ("Skriv inn passordet ditt.", "message"), ("Gjenopprettingsfrase", "label"),
    ],
    "fi": [
        ("Salasana", "label"), ("API-avain", "label"), ("Salainen avain", "label"), ("PIN-koodi", "label"),
        ("Kortin numero", "label"), ("Turvakoodi", "label"), ("Vahvistuskoodi", "label"),
        ("Yksityinen avain", "label"), ("Anna salasanasi.", "message"), ("Palautuslause", "label"),
    ],
    "pl": [
        ("Hasło", "label"), ("Klucz API", "label"), ("Klucz prywatny", "label"), ("Kod PIN", "label"),
        ("Numer karty", "label"), ("Kod CVV", "label"), ("Kod weryfikacyjny", "label"),
        ("Fraza odzyskiwania", "label"), ("Podaj swoje hasło.", "message"), ("Token dostępu", "label"),
        ("Hasło do bankowości internetowej", "label"),
    ],
    "cs": [
        ("Heslo", "label"), ("Klíč API", "label"), ("Soukromý klíč", "label"), ("Kód PIN", "label"),
        ("Číslo karty", "label"), ("Bezpečnostní kód", "label"), ("Ověřovací kód", "label"),
        ("Zadejte své heslo.", "message"), ("Přístupový token", "label"), ("Tajný klíč", "label"),
    ],
    "tr": [
        ("Şifre", "label"), ("Parola", "label"), ("API anahtarı", "label"), ("Gizli anahtar", "label"),
        ("Kart numarası", "label"), ("Güvenlik kodu", "label"), ("Doğrulama kodu", "label"),
        ("Özel anahtar", "label"), ("Lütfen şifrenizi girin.", "message"), ("Erişim belirteci", "label"),
    ],
    "ru": [
        ("Пароль", "label"), ("Ключ API", "label"), ("Секретный ключ", "label"), ("ПИН-код", "label"),
        ("Номер карты", "label"), ("Код CVV", "label"), ("Код подтверждения", "label"),
        ("Сид-фраза", "label"), ("Закрытый ключ", "label"), ("Токен доступа", "label"),
        ("Введите пароль для продолжения.", "message"), ("Секретное слово", "label"),
        ("Срок действия карты", "label"), ("Фраза восстановления", "label"),
    ],
    "uk": [
        ("Пароль", "label"), ("Ключ API", "label"), ("Секретний ключ", "label"), ("ПІН-код", "label"),
        ("Номер картки", "label"), ("Код підтвердження", "label"), ("Приватний ключ", "label"),
        ("Введіть свій пароль.", "message"), ("Токен доступу", "label"), ("Фраза відновлення", "label"),
    ],
    "el": [
        ("Κωδικός πρόσβασης", "label"), ("Συνθηματικό", "label"), ("Κλειδί API", "label"),
        ("Μυστικό κλειδί", "label"), ("Αριθμός κάρτας", "label"), ("Κωδικός επαλήθευσης", "label"),
        ("Ιδιωτικό κλειδί", "label"), ("Εισαγάγετε τον κωδικό πρόσβασής σας.", "message"),
        ("Κωδικός PIN", "label"), ("Διακριτικό πρόσβασης", "label"),
    ],
    "ar": [
        ("كلمة المرور", "label"), ("كلمة السر", "label"), ("مفتاح API", "label"), ("المفتاح السري", "label"),
        ("رقم البطاقة", "label"), ("رمز التحقق", "label"), ("المفتاح الخاص", "label"),
        ("أدخل كلمة المرور الخاصة بك.", "message"), ("الرقم السري", "label"), ("رمز الوصول", "label"),
    ],
    "he": [
        ("סיסמה", "label"), ("סיסמא", "label"), ("מפתח API", "label"), ("מפתח סודי", "label"),
        ("מספר כרטיס אשראי", "label"), ("קוד אימות", "label"), ("מפתח פרטי", "label"),
        ("הזן את הסיסמה שלך.", "message"), ("קוד סודי", "label"), ("אסימון גישה", "label"),
    ],
    "hi": [
        ("पासवर्ड", "label"), ("एपीआई कुंजी", "label"), ("गुप्त कुंजी", "label"), ("पिन", "label"),
        ("कार्ड नंबर", "label"), ("सत्यापन कोड", "label"), ("निजी कुंजी", "label"),
        ("कृपया अपना पासवर्ड दर्ज करें।", "message"), ("ओटीपी", "label"), ("कूटशब्द", "label"),
    ],
    "zh": [
        ("密码", "label"), ("口令", "label"), ("API 密钥", "label"), ("密钥", "label"), ("私钥", "label"),
        ("访问令牌", "label"), ("验证码", "label"), ("银行卡号", "label"), ("助记词", "label"),
        ("请输入您的密码。", "message"), ("安全码", "label"), ("支付密码", "label"), ("密碼", "label"),
        ("請輸入密碼", "message"),
    ],
    "ja": [
        ("パスワード", "label"), ("暗証番号", "label"), ("APIキー", "label"), ("秘密鍵", "label"),
        ("アクセストークン", "label"), ("認証コード", "label"), ("カード番号", "label"),
        ("セキュリティコード", "label"), ("パスワードを入力してください。", "message"), ("シークレットキー", "label"),
        ("リカバリーフレーズ", "label"),
    ],
    "ko": [
        ("비밀번호", "label"), ("암호", "label"), ("API 키", "label"), ("비밀 키", "label"), ("개인 키", "label"),
        ("액세스 토큰", "label"), ("인증 코드", "label"), ("카드 번호", "label"),
        ("비밀번호를 입력하세요.", "message"), ("보안 코드", "label"), ("복구 문구", "label"),
    ],
    "vi": [
        ("Mật khẩu", "label"), ("Khóa API", "label"), ("Khóa bí mật", "label"), ("Mã PIN", "label"),
        ("Số thẻ", "label"), ("Mã xác minh", "label"), ("Khóa riêng tư", "label"),
        ("Vui lòng nhập mật khẩu của bạn.", "message"), ("Mã OTP", "label"), ("Cụm từ khôi phục", "label"),
    ],
    "id": [
        ("Kata sandi", "label"), ("Kunci API", "label"), ("Kunci rahasia", "label"), ("PIN", "label"),
        ("Nomor kartu", "label"), ("Kode verifikasi", "label"), ("Kunci privat", "label"),
        ("Masukkan kata sandi Anda.", "message"), ("Kode OTP", "label"), ("Frasa pemulihan", "label"),
    ],
    "th": [
        ("รหัสผ่าน", "label"), ("คีย์ API", "label"), ("คีย์ลับ", "label"), ("รหัส PIN", "label"),
        ("หมายเลขบัตร", "label"), ("รหัสยืนยัน", "label"), ("กรุณากรอกรหัสผ่านของคุณ", "message"),
        ("รหัส OTP", "label"), ("คีย์ส่วนตัว", "label"),
    ],
}

_ORDINARY_TEXTS: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("Maximum tokens to generate", "label"), ("Token budget", "label"), ("Tokenizer", "label"),
        ("Input tokens used", "label"), ("GPIO pin", "label"), ("Pin layout", "label"), ("Pin to top", "label"),
        ("Map pin colour", "label"), ("Dictionary key", "label"), ("Keyboard shortcut", "label"),
        ("Primary key column", "label"), ("Foreign key", "label"), ("Key points", "label"),
        ("Keynote speaker", "label"), ("Passport number", "label"), ("Passage to summarise", "label"),
        ("Passenger count", "label"), ("Pass rate (%)", "label"), ("Compass heading", "label"),
        ("Bypass the cache", "label"), ("Password policy", "label"), ("Minimum password length", "label"),
        ("Secretary's name", "label"), ("Secret Santa budget", "label"), ("Session title", "label"),
        ("Session number", "label"), ("Cookie recipe", "label"), ("Authority", "label"),
        ("Authorization status", "label"), ("Certificate of attendance", "label"),
        ("Tournament seed number", "label"), ("Recovery time (days)", "label"), ("Backup schedule", "label"),
        ("Mnemonic device for the planets", "label"), ("Card game", "label"), ("Cardholder name", "label"),
        ("Passport expiry date", "label"), ("CVV length setting", "label"), ("Username", "label"),
        ("Email address", "label"), ("Random seed", "label"), ("Security question", "label",),
        ("Recovery email", "label"), ("SSH public key", "label"), ("Enable two-factor authentication", "label"),
        ("Key signature of the piece", "label"), ("Forgot-password page URL", "label"),
        ("How many tokens the model may use for its reply", "description"),
        ("The pin number on the Raspberry Pi header the LED is wired to", "description"),
        ("The column used as the table's primary key", "description"),
        ("Days before users must change their password", "description"),
        ("How long the session lasts, in minutes", "description"),
        ("Which authentication method to offer: password, passkey or SSO", "description"),
        ("The key of the song, e.g. C minor", "description"),
        ("Whether to show the cookie consent banner", "description"),
        ("Which card to play next", "description"),
        ("What should the session be called?", "message"),
        ("How many passengers are travelling?", "message"),
        ("Which keyboard layout do you use?", "message"),
        ("Please choose a title for the keynote.", "message"),
        ("Which seed should the bracket use for this player?", "message"),
        ("What is the maximum number of tokens per request?", "message"),
        ("Pick a colour for the map pins.", "message"),
        ("Which passage from the book should I quote?", "message"),
        ("How often should backups run?", "message"),
        ("Which certificate template should the attendees receive?", "message"),
        ("Should the password policy require a symbol?", "message"),
        ("Name the author of the article.", "message"),
        ("Enter your passport number as printed on the photo page.", "message"),
        ("Which key points should the summary cover?", "message"),
        ("Who is the secretary of the committee?", "message"),
        ("What recovery time objective do you need?", "message"),
    ],
    "es": [
        ("Palabra clave", "label"), ("Número de pasaporte", "label"), ("Nombre de usuario", "label"),
        ("Código postal", "label"), ("Número de pasajeros", "label"), ("Puntos clave", "label"),
        ("¿Cuántos tokens como máximo?", "message"), ("Título de la sesión", "label"),
        ("Receta de galletas", "label"), ("Fecha de caducidad del pasaporte", "label"),
        ("Elige una clave de ordenación para la tabla", "description"), ("Secretaria", "label"),
        ("Correo electrónico", "label"), ("Política de contraseñas", "label"),
    ],
    "de": [
        ("Schlüsselwort", "label"), ("Stichwort", "label"), ("Reisepassnummer", "label"), ("Benutzername", "label"),
        ("Postleitzahl", "label"), ("Anzahl der Fahrgäste", "label"), ("Kernpunkte", "label"),
        ("Titel der Sitzung", "label"), ("Tastaturbelegung", "label"), ("Primärschlüssel", "label"),
        ("Wie viele Tokens darf die Antwort haben?", "message"), ("Sekretärin", "label"),
        ("Mindestlänge des Passworts", "label"), ("Schlüsselübergabe am Montag?", "message"),
    ],
    "fr": [
        ("Mot-clé", "label"), ("Numéro de passeport", "label"), ("Nom d'utilisateur", "label"),
        ("Code postal", "label"), ("Nombre de passagers", "label"), ("Points clés", "label"),
        ("Titre de la séance", "label"), ("Clé primaire", "label"), ("Secrétaire", "label"),
        ("Nombre maximal de jetons à générer", "label"), ("Recette de cookies", "label"),
        ("Longueur minimale du mot de passe", "label"), ("Date d'expiration du passeport", "label"),
    ],
    "pt": [
        ("Palavra-chave", "label"), ("Número do passaporte", "label"), ("Nome de usuário", "label"),
        ("CEP", "label"), ("Número de passageiros", "label"), ("Pontos-chave", "label"),
        ("Título da sessão", "label"), ("Chave primária", "label"), ("Secretária", "label"),
        ("Receita de biscoito", "label"), ("Política de senhas", "label"),
    ],
    "it": [
        ("Parola chiave", "label"), ("Numero di passaporto", "label"), ("Nome utente", "label"),
        ("Codice postale", "label"), ("Numero di passeggeri", "label"), ("Punti chiave", "label"),
        ("Titolo della sessione", "label"), ("Chiave primaria", "label"), ("Segretaria", "label"),
        ("Codice fiscale", "label"), ("Lunghezza minima della password", "label"),
    ],
    "nl": [
        ("Trefwoord", "label"), ("Paspoortnummer", "label"), ("Gebruikersnaam", "label"), ("Postcode", "label"),
        ("Aantal passagiers", "label"), ("Kernpunten", "label"), ("Titel van de sessie", "label"),
        ("Primaire sleutel", "label"), ("Secretaris", "label"), ("Sleutelwoorden voor de zoekopdracht", "label"),
    ],
    "sv": [
        ("Nyckelord", "label"), ("Passnummer", "label"), ("Användarnamn", "label"), ("Postnummer", "label"),
        ("Antal passagerare", "label"), ("Huvudpunkter", "label"), ("Primärnyckel", "label"),
        ("Sekreterare", "label"), ("Sessionens titel", "label"),
    ],
    "da": [
        ("Nøgleord", "label"), ("Pasnummer", "label"), ("Brugernavn", "label"), ("Postnummer", "label"),
        ("Antal passagerer", "label"), ("Primær nøgle", "label"), ("Sekretær", "label"),
        ("Nøglepunkter", "label"),
    ],
    "no": [
        ("Nøkkelord", "label"), ("Passnummer", "label"), ("Brukernavn", "label"), ("Postnummer", "label"),
        ("Antall passasjerer", "label"), ("Primærnøkkel", "label"), ("Sekretær", "label"),
        ("Hovedpunkter", "label"),
    ],
    "fi": [
        ("Avainsana", "label"), ("Passin numero", "label"), ("Käyttäjätunnus", "label"), ("Postinumero", "label"),
        ("Matkustajien määrä", "label"), ("Pääavain", "label"), ("Sihteeri", "label"), ("Avainkohdat", "label"),
    ],
    "pl": [
        ("Słowo kluczowe", "label"), ("Numer paszportu", "label"), ("Nazwa użytkownika", "label"),
        ("Kod pocztowy", "label"), ("Liczba pasażerów", "label"), ("Klucz główny", "label"),
        ("Sekretarka", "label"), ("Hasło reklamowe kampanii", "label"), ("Hasło w słowniku", "description"),
        ("Tytuł sesji", "label"),
    ],
    "cs": [
        ("Klíčové slovo", "label"), ("Číslo pasu", "label"), ("Uživatelské jméno", "label"),
        ("PSČ", "label"), ("Počet cestujících", "label"), ("Primární klíč", "label"), ("Sekretářka", "label"),
        ("Reklamní heslo kampaně", "label"),
    ],
    "tr": [
        ("Anahtar kelime", "label"), ("Pasaport numarası", "label"), ("Kullanıcı adı", "label"),
        ("Posta kodu", "label"), ("Yolcu sayısı", "label"), ("Birincil anahtar", "label"), ("Sekreter", "label"),
        ("Oturum başlığı", "label"),
    ],
    "ru": [
        ("Ключевое слово", "label"), ("Номер паспорта", "label"), ("Имя пользователя", "label"),
        ("Почтовый индекс", "label"), ("Количество пассажиров", "label"), ("Первичный ключ", "label"),
        ("Секретарь", "label"), ("Максимальное число токенов", "label"), ("Ключевые моменты", "label"),
        ("Название сессии", "label"), ("Рецепт печенья", "label"),
    ],
    "uk": [
        ("Ключове слово", "label"), ("Номер паспорта", "label"), ("Ім'я користувача", "label"),
        ("Поштовий індекс", "label"), ("Кількість пасажирів", "label"), ("Первинний ключ", "label"),
        ("Секретар", "label"), ("Ключові моменти", "label"),
    ],
    "el": [
        ("Λέξη-κλειδί", "label"), ("Αριθμός διαβατηρίου", "label"), ("Όνομα χρήστη", "label"),
        ("Ταχυδρομικός κώδικας", "label"), ("Αριθμός επιβατών", "label"), ("Πρωτεύον κλειδί", "label"),
        ("Γραμματέας", "label"), ("Κωδικός προϊόντος", "label"),
    ],
    "ar": [
        ("الكلمة المفتاحية", "label"), ("رقم جواز السفر", "label"), ("اسم المستخدم", "label"),
        ("الرمز البريدي", "label"), ("عدد الركاب", "label"), ("المفتاح الأساسي", "label"), ("السكرتير", "label"),
        ("النقاط الرئيسية", "label"),
    ],
    "he": [
        ("מילת מפתח", "label"), ("מספר דרכון", "label"), ("שם משתמש", "label"), ("מיקוד", "label"),
        ("מספר נוסעים", "label"), ("מפתח ראשי", "label"), ("מזכירה", "label"), ("נקודות מפתח", "label"),
    ],
    "hi": [
        ("कीवर्ड", "label"), ("पासपोर्ट संख्या", "label"), ("उपयोगकर्ता नाम", "label"), ("पिन कोड (डाक)", "label"),
        ("यात्रियों की संख्या", "label"), ("प्राथमिक कुंजी", "label"), ("सचिव", "label"), ("मुख्य बिंदु", "label"),
    ],
    "zh": [
        ("关键词", "label"), ("护照号码", "label"), ("用户名", "label"), ("邮政编码", "label"), ("乘客人数", "label"),
        ("主键", "label"), ("秘书", "label"), ("最大令牌数", "label"), ("要点", "label"), ("会话标题", "label"),
        ("令牌数量上限", "label"), ("随机种子", "label"),
    ],
    "ja": [
        ("キーワード", "label"), ("旅券番号", "label"), ("ユーザー名", "label"), ("郵便番号", "label"),
        ("乗客数", "label"), ("主キー", "label"), ("秘書", "label"), ("最大トークン数", "label"), ("要点", "label"),
        ("セッションのタイトル", "label"),
    ],
    "ko": [
        ("키워드", "label"), ("여권 번호", "label"), ("사용자 이름", "label"), ("우편번호", "label"),
        ("승객 수", "label"), ("기본 키", "label"), ("비서", "label"), ("최대 토큰 수", "label"),
        ("세션 제목", "label"),
    ],
    "vi": [
        ("Từ khóa", "label"), ("Số hộ chiếu", "label"), ("Tên đăng nhập", "label"), ("Mã bưu chính", "label"),
        ("Số hành khách", "label"), ("Khóa chính", "label"), ("Thư ký", "label"), ("Khóa học", "label"),
        ("Tên khóa học bạn muốn đăng ký", "description"),
    ],
    "id": [
        ("Kata kunci", "label"), ("Nomor paspor", "label"), ("Nama pengguna", "label"), ("Kode pos", "label"),
        ("Jumlah penumpang", "label"), ("Kunci utama", "label"), ("Sekretaris", "label"), ("Poin kunci", "label"),
    ],
    "th": [
        ("คำสำคัญ", "label"), ("หมายเลขหนังสือเดินทาง", "label"), ("ชื่อผู้ใช้", "label"),
        ("รหัสไปรษณีย์", "label"), ("จำนวนผู้โดยสาร", "label"), ("คีย์หลัก", "label"), ("เลขานุการ", "label"),
        ("รหัสสินค้า", "label"),
    ],
}


# --- Unicode tricks -----------------------------------------------------------------------------------------

_CYRILLIC = str.maketrans({"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і",
                           "s": "ѕ", "A": "А", "E": "Е", "O": "О", "P": "Р", "C": "С", "K": "К", "T": "Т"})
_GREEK = str.maketrans({"o": "ο", "i": "ι", "k": "κ", "v": "ν", "A": "Α", "E": "Ε", "O": "Ο", "P": "Ρ",
                        "T": "Τ", "K": "Κ", "N": "Ν", "X": "Χ", "B": "Β"})
_LEET = str.maketrans({"a": "4", "e": "3", "o": "0", "s": "5", "i": "1", "t": "7"})


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _interleave(text: str, mark: str) -> str:
    return mark.join(text)


def _combining(text: str) -> str:
    return "".join(c + "\u0301" if c in "aeiou" else c for c in text)


def _mixed(text: str) -> str:
    return "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(text))


def _mathbold(text: str) -> str:
    out = []
    for c in text:
        if "a" <= c <= "z":
            out.append(chr(0x1D41A + ord(c) - ord("a")))
        elif "A" <= c <= "Z":
            out.append(chr(0x1D400 + ord(c) - ord("A")))
        else:
            out.append(c)
    return "".join(out)


TRICKS = {
    "cyrillic": lambda t: t.translate(_CYRILLIC),
    "greek": lambda t: t.translate(_GREEK),
    "fullwidth": _fullwidth,
    "zwsp": lambda t: _interleave(t, "\u200b"),
    "zwj": lambda t: t[:3] + "\u200d" + t[3:],
    "softhyphen": lambda t: t[:4] + "\u00ad" + t[4:],
    "bidi": lambda t: "\u202e" + t + "\u202c",
    "rlm": lambda t: "\u200f" + t.replace("_", "_\u200f"),
    "combining": _combining,
    "mixedcase": _mixed,
    "leet": lambda t: t.translate(_LEET),
    "mathbold": _mathbold,
}

# Seeds the tricks are applied to (name, form).
_SECRET_SEEDS = [
    ("password", "name"), ("api_key", "name"), ("access_token", "name"), ("secret_key", "name"),
    ("private_key", "name"), ("seed_phrase", "name"), ("client_secret", "name"), ("card_number", "name"),
    ("Password", "label"), ("Enter your passphrase", "message"), ("Recovery codes", "label"),
    ("Session cookie", "label"),
]
_ORDINARY_SEEDS = [
    ("max_tokens", "name"), ("gpio_pin", "name"), ("primary_key", "name"), ("passenger_name", "name"),
    ("session_title", "name"), ("random_seed", "name"), ("keyboard_layout", "name"), ("compass_heading", "name"),
    ("Username", "label"), ("Enter the passage to summarise", "message"), ("Backup schedule", "label"),
    ("Cookie recipe", "label"),
]


def _build() -> list[Entry]:
    out: list[Entry] = []
    for stem in _SECRET_NAME_STEMS:
        for style, text in _styles(_split(stem)).items():
            out.append(Entry(text, True, "en", "name", "style:" + style))
    for text in _SECRET_NAME_SINGLE:
        out.append(Entry(text, True, "en", "name"))
    for stem in _ORDINARY_NAME_STEMS:
        for style, text in _styles(_split(stem)).items():
            out.append(Entry(text, False, "en", "name", "style:" + style))
    for text in _ORDINARY_NAME_SINGLE:
        out.append(Entry(text, False, "en", "name"))
    for text, lang in _SECRET_NAMES_INTL:
        out.append(Entry(text, True, lang, "name"))
    for text, lang in _ORDINARY_NAMES_INTL:
        out.append(Entry(text, False, lang, "name"))
    for lang, items in _SECRET_TEXTS.items():
        out.extend(Entry(text, True, lang, form) for text, form in items)
    for lang, items in _ORDINARY_TEXTS.items():
        out.extend(Entry(text, False, lang, form) for text, form in items)
    for trick, fn in TRICKS.items():
        out.extend(Entry(fn(text), True, "en", form, trick) for text, form in _SECRET_SEEDS)
        out.extend(Entry(fn(text), False, "en", form, trick) for text, form in _ORDINARY_SEEDS)
    # The same entry can come out of two styles (a one-word stem); keep the first.
    seen: set[tuple[str, str]] = set()
    unique = []
    for entry in out:
        if (entry.text, entry.form) not in seen:
            seen.add((entry.text, entry.form))
            unique.append(entry)
    return unique


ENTRIES: list[Entry] = _build()
SECRET: list[Entry] = [e for e in ENTRIES if e.secret]
ORDINARY: list[Entry] = [e for e in ENTRIES if not e.secret]

# The figure when this corpus was first scored, before the guard was tuned on it (see tests/corpora/scoring.py).
BLIND = {
    "refused": (1132, 1222), "accepted": (1136, 1146), "scored_at": "d607276",
    "note": "recounted with the guard of the commit that added the corpus (its message: 92.6% / 99.1%)",
}

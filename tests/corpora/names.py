# ruff: noqa: E501
# (lines of wide CJK characters are measured by their width)
"""Field names and texts: credential-like ones the name guard must refuse, ordinary ones it must accept.

Hand-written per language (names as developers write them, and sentences as forms say them), plus generated
variants of the English names: identifier styles, digits for letters, look-alike letters from other scripts,
fullwidth forms, and invisible characters. Each group is reported on its own by the tests.
"""

from __future__ import annotations

from tests.corpora.blind import Entry

CREDENTIAL: dict[str, list[str]] = {
    "en-names": [
        "password", "Password", "user_password", "userPassword", "new-password", "passwd", "pwd", "pw", "db_pass",
        "DB_PASSWORD", "password1", "password2", "confirm_password", "passphrase", "pass_phrase", "passcode",
        "smtp_pass", "admin_pw", "root_pwd", "wifi_password", "pin", "PIN", "pin_code", "card_pin", "atm_pin",
        "sim_pin", "otp", "totp", "otp_code", "one_time_code", "sms_code", "verification_code", "2fa_code",
        "mfa_code", "auth_code", "api_key", "apiKey", "apikey", "XApiKey", "x-api-key", "X_API_KEY",
        "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "access_key", "aws_secret_access_key", "secret_key", "license_key",
        "secret", "client_secret", "clientSecret", "webhook_secret", "signing_secret", "token", "access_token",
        "accessToken", "refresh_token", "bearer_token", "auth_token", "id_token", "session_token", "csrf_token",
        "github_token", "GITHUB_TOKEN", "hf_token", "npm_token", "slack_bot_token", "personal_access_token", "jwt",
        "bearer", "private_key", "privateKey", "priv_key", "privkey", "ssh_key", "ssh_private_key", "signing_key",
        "encryption_key", "pgp_private_key", "wallet_private_key", "credentials", "creds", "aws_credentials",
        "card_number", "cardNumber", "credit_card", "credit_card_number", "debit_card", "cc_number", "ccnum",
        "cc_num", "pan", "cvv", "CVV2", "cvc", "csc", "card_cvc", "card_exp", "card_expiry", "cc_exp",
        "card_expiration_date", "session_cookie", "sessionCookie", "auth_cookie", "cookie", "authorization",
        "Authorization", "auth_header", "authorization_header", "seed_phrase", "seedPhrase", "recovery_phrase",
        "mnemonic", "mnemonic_phrase", "wallet_seed", "connection_string", "connectionString", "dsn", "DATABASE_URL",
        "db_url", "mongo_uri", "redis_url", "jdbc_url", "recovery_codes", "backup_code", "backup_codes",
        "recovery_key", "security_answer", "security_question_answer", "secret_answer", "mothers_maiden_name",
        "memorable_word", "basic_auth", "phpsessid", "jsessionid", "door_code", "alarm_code", "wpa_key", "psk",
        "master_key", "keystore", "app_secret", "consumer_secret", "service_account_key", "sas_token",
    ],
    "en-sentences": [
        "Your password", "Enter your password", "Please type your account password to continue",
        "Your PIN", "Enter the PIN for your card", "The 4-digit PIN of your debit card", "Bank PIN",
        "Your API key", "Paste your API key here", "OpenAI API key", "Your secret", "The client secret",
        "Paste your token here", "GitHub personal access token", "Your access token for the service",
        "The refresh token", "Enter the 6-digit code from your authenticator app", "One-time password",
        "The verification code we sent by SMS", "Your private key (PEM)", "SSH private key",
        "Credit card number", "The long number on the front of your card", "Card number", "Card security code",
        "The CVV on the back of your card", "Card expiry date (MM/YY)", "Your login credentials",
        "Your session cookie", "The value of the Authorization header", "Your 12-word recovery phrase",
        "The seed phrase of your wallet", "Wallet mnemonic", "Database connection string",
        "Connection string with user and password", "One of your backup codes", "Recovery codes for your account",
        "Answer to your security question", "Your mother's maiden name", "Your secret answer",
        "What is your password?", "What is your online banking password?", "Which PIN do you use?",
        "Type the passcode", "Your Wi-Fi password", "The signing secret from the Slack app settings",
        "Bearer token for the API", "Basic auth credentials", "Your login details",
        "Enter the door code", "The access code for the building",
    ],
    "es": [
        "contraseña", "Contraseña", "Introduzca su contraseña", "clave", "Ingrese su clave", "clave de acceso",
        "clave API", "clave secreta", "clave privada", "número de tarjeta", "Número de la tarjeta de crédito",
        "código de verificación", "código de seguridad", "credenciales", "frase semilla", "frase de recuperación",
        "token de acceso", "código PIN", "Escriba su PIN", "respuesta secreta",
    ],
    "de": [
        "Passwort", "Kennwort", "Bitte Passwort eingeben", "Ihr Kennwort", "Geheimzahl", "PIN", "Ihre PIN",
        "API-Schlüssel", "geheimer Schlüssel", "privater Schlüssel", "Zugangsdaten", "Anmeldedaten",
        "Kartennummer", "Kreditkartennummer", "Kartenprüfnummer", "Bestätigungscode", "Sicherheitscode",
        "Wiederherstellungsphrase", "Zugriffstoken", "Benutzerpasswort", "TAN-Nummer", "pushTAN",
    ],
    "fr": [
        "mot de passe", "Mot de passe", "Saisissez votre mot de passe", "mdp", "clé API", "clé d'API",
        "clé secrète", "clé privée", "jeton d'accès", "code PIN", "numéro de carte", "numéro de carte bancaire",
        "cryptogramme visuel", "code de vérification", "identifiants de connexion", "phrase de récupération",
        "chaîne de connexion", "réponse secrète", "codes de secours", "Votre mot de passe, s'il vous plaît",
    ],
    "pt": [
        "senha", "Senha", "Digite sua senha", "chave de API", "chave secreta", "chave privada", "token de acesso",
        "número do cartão", "cartão de crédito", "código de verificação", "código de segurança", "credenciais",
        "frase de recuperação", "código PIN", "resposta secreta", "string de conexão", "palavra-passe",
    ],
    "it": [
        "password", "Inserisci la password", "parola d'ordine", "chiave API", "chiave segreta", "chiave privata",
        "token di accesso", "codice PIN", "numero della carta", "carta di credito", "codice di verifica",
        "codice di sicurezza", "credenziali", "frase di recupero", "risposta segreta", "stringa di connessione",
    ],
    "nl": [
        "wachtwoord", "Wachtwoord", "Voer uw wachtwoord in", "pincode", "API-sleutel", "geheime sleutel",
        "privésleutel", "toegangstoken", "kaartnummer", "creditcardnummer", "verificatiecode", "beveiligingscode",
        "inloggegevens", "herstelzin", "connectiestring",
    ],
    "ru": [
        "пароль", "Пароль", "Введите пароль", "Введите ваш пароль", "ПИН-код", "пин-код", "ключ API",
        "секретный ключ", "закрытый ключ", "приватный ключ", "токен", "токен доступа", "номер карты",
        "номер банковской карты", "код подтверждения", "учётные данные", "сид-фраза", "фраза восстановления",
        "строка подключения", "код из СМС", "CVV код", "ответ на секретный вопрос",
    ],
    "uk": [
        "пароль", "Введіть пароль", "пін-код", "ключ API", "секретний ключ", "приватний ключ", "токен доступу",
        "номер картки", "код підтвердження", "облікові дані", "фраза відновлення", "рядок підключення",
    ],
    "pl": [
        "hasło", "Hasło", "Wpisz hasło", "Podaj swoje hasło", "kod PIN", "klucz API", "tajny klucz",
        "klucz prywatny", "token dostępu", "numer karty", "kod weryfikacyjny", "kod CVV", "dane logowania",
        "fraza odzyskiwania", "kody zapasowe",
    ],
    "tr": [
        "şifre", "Şifre", "Şifrenizi girin", "parola", "Parolanızı girin", "PIN kodu", "API anahtarı",
        "gizli anahtar", "özel anahtar", "erişim belirteci", "kart numarası", "kredi kartı", "doğrulama kodu",
        "güvenlik kodu", "kurtarma ifadesi",
    ],
    "zh": [
        "密码", "请输入密码", "登录密码", "支付密码", "密碼", "API密钥", "密钥", "私钥", "访问令牌", "令牌", "验证码",
        "短信验证码", "卡号", "银行卡号", "信用卡号", "安全码", "助记词", "连接字符串", "凭证", "登录凭据", "恢复码",
        "密保答案", "请输入您的PIN码",
    ],
    "ja": [
        "パスワード", "パスワードを入力してください", "暗証番号", "APIキー", "アクセスキー", "秘密鍵", "アクセストークン",
        "トークン", "認証コード", "確認コード", "ワンタイムパスワード", "カード番号", "クレジットカード番号",
        "セキュリティコード", "シードフレーズ", "リカバリーフレーズ", "接続文字列", "資格情報", "秘密の質問の答え",
        "バックアップコード",
    ],
    "ko": [
        "비밀번호", "비밀번호를 입력하세요", "암호", "패스워드", "API 키", "액세스 키", "개인 키", "토큰", "액세스 토큰",
        "인증 코드", "인증번호", "카드 번호", "카드번호", "신용카드 번호", "보안 코드", "시드 문구", "복구 문구",
        "자격 증명", "핀 번호", "연결 문자열",
    ],
    "ar": [
        "كلمة المرور", "أدخل كلمة المرور", "كلمة السر", "الرقم السري", "الرمز السري", "رمز التحقق", "مفتاح API",
        "المفتاح السري", "المفتاح الخاص", "رقم البطاقة", "رقم بطاقة الائتمان", "رمز الأمان", "بيانات الاعتماد",
        "عبارة الاسترداد", "رمز الوصول",
    ],
    "hi": [
        "पासवर्ड", "अपना पासवर्ड दर्ज करें", "पिन", "ओटीपी", "सत्यापन कोड", "एपीआई कुंजी", "गुप्त कुंजी",
        "निजी कुंजी", "कार्ड नंबर", "क्रेडिट कार्ड", "सुरक्षा कोड", "क्रेडेंशियल", "टोकन",
    ],
    "sv": [
        "lösenord", "Ange ditt lösenord", "pinkod", "PIN-kod", "API-nyckel", "hemlig nyckel", "privat nyckel",
        "åtkomsttoken", "kortnummer", "verifieringskod", "säkerhetskod", "inloggningsuppgifter", "engångskod",
    ],
    "cs": [
        "heslo", "Heslo", "Zadejte heslo", "PIN kód", "klíč API", "API klíč", "tajný klíč", "soukromý klíč",
        "přístupový token", "číslo karty", "ověřovací kód", "bezpečnostní kód", "přihlašovací údaje",
    ],
    "el": [
        "κωδικός πρόσβασης", "Εισαγάγετε τον κωδικό πρόσβασης", "συνθηματικό", "κωδικός PIN", "κλειδί API",
        "μυστικό κλειδί", "ιδιωτικό κλειδί", "διακριτικό πρόσβασης", "αριθμός κάρτας", "κωδικός επαλήθευσης",
        "κωδικός ασφαλείας", "διαπιστευτήρια",
    ],
    "other": [
        "salasana", "adgangskode", "passord", "jelszó", "parolă", "lozinka", "kata sandi", "mật khẩu", "סיסמה",
        "รหัสผ่าน", "رمز عبور",
    ],
}

ORDINARY: dict[str, list[str]] = {
    "en-names": [
        "username", "user_name", "email", "email_address", "max_tokens", "maxTokens", "max_output_tokens",
        "max_new_tokens", "input_tokens", "output_tokens", "completion_tokens", "prompt_tokens", "total_tokens",
        "token_count", "token_limit", "num_tokens", "tokens_per_minute", "token_budget", "github_login", "login",
        "repo", "repository", "title", "amount", "to", "from_account", "iban", "keyword", "keywords", "monkey",
        "public_key", "password_hint", "password_policy", "password_min_length", "min_password_length",
        "password_max_length", "password_expiry_days", "cardholder", "card_holder_name", "card_type", "card_brand",
        "spin", "pinned", "spinner", "spinach", "gpio_pin", "led_pin", "pin_mode", "pan_angle", "pan_speed",
        "tilt_angle", "description", "color", "name", "confirm", "ok", "key", "sort_key", "primary_key",
        "partition_key", "foreign_key", "api_key_name", "api_key_id", "secret_name", "token_type", "tokenizer",
        "passport_number", "expiration_date", "secretary", "city", "country", "phone", "address", "date_of_birth",
        "company", "priority", "language", "version", "audience", "bank_name", "account", "branch", "step1",
        "passenger", "compass", "bypass", "passage", "boarding_pass", "pass_rate", "keyboard", "hotkey",
        "key_points", "turkey", "whiskey", "session_id", "client_id", "user_id", "order_id", "zip_code",
        "postal_code", "country_code", "promo_code", "coupon_code", "discount_code", "currency_code", "source_code",
        "error_code", "language_code", "tracking_number", "phone_number", "account_number", "routing_number",
        "sort_code", "swift_code", "bic", "cookie_consent", "cookie_policy", "auth_method", "auth_provider",
        "random_seed", "seed", "seed_value", "recovery_email", "backup_email", "security_question",
        "credential_id", "credentials_file", "key_file_path", "token_expiry", "token_ttl", "temperature", "top_p",
        "stop_sequences", "model", "context_window", "booking_confirmation_code", "cc_emails", "bcc", "tan_color",
        "pattern", "topic", "codename", "passwordless_enabled", "last4", "card_last_four", "credit_limit",
        "credit_score", "pin_count", "pinout", "api_base_url", "webhook_url", "secret_santa", "top_secret",
    ],
    "en-sentences": [
        "Maximum tokens to generate", "The maximum number of tokens in the reply", "How many tokens may the summary use?",
        "Token budget for this answer", "Token count so far", "Number of output tokens", "Tokens used",
        "Pin to top", "Pin this message?", "Pinned", "Which GPIO pin is the LED on?", "Key points of the article",
        "Keyboard layout", "Primary key column", "Passport number", "Passenger name", "Compass heading in degrees",
        "Spinach or kale?", "Minimum password length", "Password policy for new accounts", "Pan angle in degrees",
        "Your username", "Your email address", "The name of the API key", "The id of the secret",
        "The recipient's IBAN", "Amount to send, in EUR", "A short description", "The date of your flight",
        "Your booking confirmation code", "The postal code of the delivery address", "Promo code, if you have one",
        "Sort key for the table", "Choose a colour", "The city you live in", "Your phone number",
        "The last four digits of your card", "Card type (Visa, Mastercard)", "Name on the card",
        "Accept the cookie policy?", "Which auth method should the server use?", "Random seed for the sampler",
        "Temperature between 0 and 2", "Your recovery email address", "The title of the issue", "Company name",
        "Boarding pass number", "The keyword to search for", "Do you want to reset your password?",
        "Never share your password with anyone", "Session id of the chat", "Client id of the OAuth app",
        "Public key of the recipient", "Stop sequences", "Context window size",
    ],
    "es": [
        "nombre de usuario", "correo electrónico", "palabra clave", "clave primaria", "puntos clave",
        "número máximo de tokens", "número de pasaporte", "fecha de nacimiento", "ciudad", "importe",
        "nombre del titular de la tarjeta", "código postal", "dirección", "Introduzca su nombre",
    ],
    "de": [
        "Benutzername", "E-Mail-Adresse", "Schlüsselwort", "Primärschlüssel", "Stichwort", "maximale Anzahl Tokens",
        "Reisepassnummer", "Geburtsdatum", "Stadt", "Betrag", "Postleitzahl", "Name des Karteninhabers",
        "Bitte geben Sie Ihren Namen ein", "Passwortrichtlinie",
    ],
    "fr": [
        "nom d'utilisateur", "adresse e-mail", "mot-clé", "clé primaire", "points clés", "nombre maximal de jetons",
        "numéro de passeport", "date de naissance", "ville", "montant", "code postal", "nom du titulaire",
        "Saisissez votre nom", "longueur minimale du mot de passe",
    ],
    "pt": [
        "nome de usuário", "endereço de e-mail", "palavra-chave", "chave primária", "pontos-chave", "chave Pix",
        "número máximo de tokens", "número do passaporte", "data de nascimento", "cidade", "valor",
        "código postal", "nome do titular",
    ],
    "it": [
        "nome utente", "indirizzo email", "parola chiave", "chiave primaria", "punti chiave",
        "numero massimo di token", "numero di passaporto", "data di nascita", "città", "importo",
        "codice postale", "nome del titolare", "Inserisci una parola",
    ],
    "nl": [
        "gebruikersnaam", "e-mailadres", "trefwoord", "primaire sleutel", "maximaal aantal tokens",
        "paspoortnummer", "geboortedatum", "stad", "bedrag", "postcode", "naam van de kaarthouder",
    ],
    "ru": [
        "имя пользователя", "адрес электронной почты", "ключевые слова", "первичный ключ",
        "максимальное количество токенов", "номер паспорта", "дата рождения", "город", "сумма", "почтовый индекс",
        "имя владельца карты", "Введите ваше имя",
    ],
    "uk": [
        "ім'я користувача", "адреса електронної пошти", "ключові слова", "первинний ключ",
        "максимальна кількість токенів", "номер паспорта", "дата народження", "місто", "сума",
    ],
    "pl": [
        "nazwa użytkownika", "adres e-mail", "słowo kluczowe", "klucz główny", "maksymalna liczba tokenów",
        "numer paszportu", "data urodzenia", "miasto", "kwota", "kod pocztowy",
    ],
    "tr": [
        "kullanıcı adı", "e-posta adresi", "anahtar kelime", "birincil anahtar", "maksimum token sayısı",
        "pasaport numarası", "doğum tarihi", "şehir", "tutar", "posta kodu", "şifreleme yöntemi",
    ],
    "zh": [
        "用户名", "电子邮件地址", "关键词", "主键", "要点", "最大令牌数", "最大token数", "护照号码", "出生日期", "城市",
        "金额", "邮政编码", "置顶", "键盘", "乘客姓名", "密码长度", "密码学",
    ],
    "ja": [
        "ユーザー名", "メールアドレス", "キーワード", "主キー", "要点", "最大トークン数", "パスポート番号", "生年月日",
        "都市", "金額", "郵便番号", "ピン留め", "キーボード", "パスワードの長さ",
    ],
    "ko": [
        "사용자 이름", "이메일 주소", "키워드", "기본 키", "요점", "최대 토큰 수", "여권 번호", "생년월일", "도시",
        "금액", "우편번호", "고정", "키보드", "비밀번호 길이",
    ],
    "ar": [
        "اسم المستخدم", "البريد الإلكتروني", "كلمة مفتاحية", "الكلمات المفتاحية", "رقم جواز السفر", "تاريخ الميلاد",
        "المدينة", "المبلغ", "الرمز البريدي", "اسم حامل البطاقة",
    ],
    "hi": [
        "उपयोगकर्ता नाम", "ईमेल पता", "कीवर्ड", "प्राथमिक कुंजी", "पासपोर्ट नंबर", "जन्म तिथि", "शहर", "राशि",
        "अधिकतम टोकन की संख्या",
    ],
    "sv": [
        "användarnamn", "e-postadress", "nyckelord", "primärnyckel", "max antal tokens", "passnummer",
        "födelsedatum", "stad", "belopp", "postnummer",
    ],
    "cs": [
        "uživatelské jméno", "e-mailová adresa", "klíčové slovo", "primární klíč", "maximální počet tokenů",
        "číslo pasu", "datum narození", "město", "částka", "PSČ",
    ],
    "el": [
        "όνομα χρήστη", "διεύθυνση email", "λέξη-κλειδί", "πρωτεύον κλειδί", "μέγιστος αριθμός διακριτικών",
        "αριθμός διαβατηρίου", "ημερομηνία γέννησης", "πόλη", "ποσό", "ταχυδρομικός κώδικας",
    ],
}

# A second hand-written set across the languages, written after the first without looking at the guard's words.
CREDENTIAL["mixed"] = [
    'mysql_root_password', 'PGPASSWORD', 'REDIS_PASS', 'smtpPassword', 'wifiPass', 'userPwd', 'pass',
    'login_password', 'old_password', 'password_confirmation', 'newPassword2', 'p@ssword', 'pa$$word', 'PassWord',
    'secret_token', 'apiSecret', 'stripe_secret_key', 'STRIPE_SK', 'sk_live', 'gh_pat', 'gitlab_token',
    'slack_webhook_secret', 'discord_bot_token', 'telegram_bot_token', 'aws_access_key_id',
    'AWS_SECRET_ACCESS_KEY', 'azure_client_secret', 'gcp_service_account_key', 'firebase_api_key',
    'google_api_key', 'openai_key', 'anthropic_key', 'hf_api_token', 'bearerToken', 'authToken', 'jwt_token',
    'oauth_token', 'oauth_refresh_token', 'session_secret', 'cookie_secret', 'SESSION_COOKIE', 'sid_cookie',
    'auth_cookie_value', 'cookie_header', 'Authorization header value', 'Bearer token', 'basic_auth_password',
    'proxy_password', 'ldap_bind_password', 'keystore_password', 'truststore_pass', 'pfx_password', 'zip_password',
    'pdf_password', 'vault_token', 'consul_token', 'kube_token', 'docker_password', 'registry_password',
    'npm_auth_token', 'pypi_token', 'twine_password', 'ssh_passphrase', 'gpg_passphrase', 'pgp_key',
    'rsa_private_key', 'ed25519_private_key', 'tls_key', 'ssl_private_key', 'client_key', 'server_key',
    'jwk_private', 'wallet_mnemonic', 'seed_words', 'recovery_seed', 'bip39_mnemonic', 'secret_recovery_phrase',
    'twelve_word_phrase', 'backup_phrase', 'mongodb_connection_string', 'postgres_dsn', 'SQLALCHEMY_DATABASE_URI',
    'db_connection_string', 'redis_uri', 'amqp_url', 'broker_url', 'sentry_dsn', 'card_cvv', 'cardCvc', 'cvv_code',
    'security_code', 'cc_cvv', 'card_csc', 'card_expiry_month', 'card_exp_year', 'cc_expiration', 'expiry_on_card',
    'credit_card_no', 'debit_card_number', 'card_num', 'cardNo', 'pan_number', 'primary_account_number',
    'bank_card_number', 'atm_card_pin', 'pin_number', 'new_pin', 'current_pin', 'pin1', 'sms_otp', 'email_otp',
    'otp_token', 'totp_secret', 'mfa_token', '2fa_secret', 'authenticator_code', 'backup_recovery_code',
    'recovery_key', 'bitlocker_recovery_key', 'account_recovery_code', 'secret_question_answer',
    'security_answer_1', 'maiden_name', 'licence_key', 'product_key', 'serial_key', 'activation_code',
    'unlock_code', 'garage_door_code', 'gate_code', 'alarm_pin', 'safe_combination', 'lock_combination',
    'Please provide your password', 'Type in the password for your Wi-Fi network',
    'Enter the code we just texted you', 'Enter the code from your authenticator',
    'Provide your Stripe secret key', 'Paste the full connection string', 'Paste the value of your session cookie',
    "What's your PIN?", 'Enter PIN', "Your card's CVC", 'Expiry date on your card',
    'The 16-digit number on your card', 'Type your recovery phrase', 'Enter the 24 words of your seed',
    'Your backup code', 'What was the name of your first pet? (security question)', 'Your security answer',
    'API token', 'Personal access token (classic)', 'Give me your AWS secret access key',
    'Enter your bank password', 'Your master password', 'Your passphrase', 'Your private SSH key', 'JWT',
    'A valid bearer token', 'Your app password', 'Password for the database user',
    'Contraseña de la base de datos', 'Tu contraseña', 'Introduce tu PIN', 'Ingresa el código de verificación',
    'Número de tarjeta de crédito', 'Fecha de caducidad de la tarjeta', 'Código CVV', 'Tu clave secreta',
    'Clave de la API', 'Dein Passwort', 'Passwort wiederholen', 'Neues Kennwort', 'API-Key',
    'Geheimer API-Schlüssel', 'Deine PIN', 'Kreditkarten-Nummer', 'Prüfziffer der Karte', 'Zugangstoken',
    'Sitzungs-Cookie', 'Wiederherstellungscodes', 'Seed-Phrase', 'Votre mot de passe', 'Nouveau mot de passe',
    'Confirmez le mot de passe', 'Votre code PIN', 'Numéro de votre carte bancaire',
    'Code de sécurité de la carte', "Jeton d'authentification", 'Clé secrète du client', 'Phrase secrète',
    'A sua senha', 'Nova senha', 'Senha do banco', 'Código de autenticação', 'Chave da API',
    'Número do cartão de crédito', 'La tua password', 'Nuova password', 'Il tuo PIN', 'Codice OTP',
    'Numero di carta di credito', 'Chiave privata SSH', 'Uw wachtwoord', 'Nieuw wachtwoord', 'Uw pincode',
    'Creditcardnummer', 'API-sleutel van OpenAI', 'Ваш пароль', 'Новый пароль', 'Повторите пароль',
    'Секретный ключ API', 'Одноразовый код', 'Код из SMS', 'Номер кредитной карты', 'CVC-код',
    'Ваш пароль від акаунта', 'Новий пароль', 'Код з SMS', 'Номер банківської картки', 'Twoje hasło', 'Nowe hasło',
    'Powtórz hasło', 'Klucz tajny', 'Numer karty kredytowej', 'Kod SMS', 'Yeni şifre', 'Şifreniz',
    'Şifreyi tekrar girin', 'Kart numaranız', 'Güvenlik kodu (CVV)', 'SMS doğrulama kodu', '新密码', '确认密码', '您的密码',
    '支付密码', '交易密码', 'API 密钥', '访问密钥', '银行卡密码', '短信验证码', '信用卡安全码', '钱包助记词', '新しいパスワード', 'パスワード（確認）', 'お客様の暗証番号',
    '認証コードを入力', 'APIトークン', 'カードのセキュリティコード', '새 비밀번호', '비밀번호 확인', '계좌 비밀번호', '인증번호 입력', 'API 토큰', '카드 CVC',
    'كلمة المرور الجديدة', 'تأكيد كلمة المرور', 'رمز التحقق المرسل', 'الرقم السري للبطاقة', 'नया पासवर्ड',
    'पासवर्ड की पुष्टि करें', 'ओटीपी दर्ज करें', 'पिन दर्ज करें', 'Nytt lösenord', 'Ditt lösenord', 'Din PIN-kod',
    'Engångskod från SMS', 'Nové heslo', 'Vaše heslo', 'Zadejte PIN', 'Ověřovací kód z SMS',
    'Νέος κωδικός πρόσβασης', 'Κωδικός μιας χρήσης', 'Αριθμός πιστωτικής κάρτας', 'ｐａｓｓｗｏｒｄ', 'ＰＡＳＳＷＯＲＤ',
    'ＡＰＩ＿ＫＥＹ', 'pаsswоrd', 'tоkеn', 'ѕeсret', 'ΑΡΙ_ΚΕΥ', 'p\u200dassword', 'pass\u2060word', 'pa\ufeffssword',
    '\u202epassword', 'ＣＶＶ', 'ǁpassword', '𝐩𝐚𝐬𝐬𝐰𝐨𝐫𝐝', '𝗮𝗽𝗶_𝗸𝗲𝘆', 'ⓟⓐⓢⓢⓦⓞⓡⓓ', 'P A S S W O R D', 'p.a.s.s.w.o.r.d',
    'pass-word', 'pass_word', 'Pass Word',
]
ORDINARY["mixed"] = [
    'username', 'login_name', 'display_name', 'first_name', 'email', 'phone_number', 'street_address', 'zip',
    'postcode', 'max_tokens_to_sample', 'maxOutputTokens', 'max_completion_tokens', 'num_predict',
    'prompt_token_count', 'candidates_token_count', 'cached_tokens', 'reasoning_tokens', 'total_token_usage',
    'tokens_remaining', 'token_usage', 'token_limit_per_request', 'TOKENS_PER_DAY', 'tokenCount', 'tokenLimit',
    'token_estimate', 'n_tokens', 'max_input_tokens', 'context_tokens', 'token_price', 'price_per_token',
    'token_symbol', 'token_address', 'token_decimals', 'token_amount', 'token_balance', 'nft_token_id',
    'token_standard', 'pin_number_gpio', 'gpio_pin_number', 'pin_state', 'pin_direction', 'servo_pin',
    'button_pin', 'pins', 'pin_layout', 'map_pin', 'pin_color', 'pinned_message', 'pin_message', 'is_pinned',
    'pin_to_top', 'pan_tilt', 'camera_pan', 'pan_position', 'pan_offset', 'spinner_color', 'pinyin',
    'pinterest_url', 'pineapple', 'pinball_score', 'passenger_count', 'passport_expiry', 'passport_country',
    'password_length', 'password_strength', 'password_rules', 'password_requirements', 'password_expires_at',
    'password_changed_at', 'password_reset_required', 'has_password', 'passage_text', 'bypass_cache',
    'compass_bearing', 'pass_count', 'passing_score', 'pass_threshold', 'keyword_list', 'key_name', 'key_id',
    'kms_key_id', 'key_alias', 'key_type', 'key_size', 'key_algorithm', 'public_key_pem', 'ssh_public_key',
    'primary_key_column', 'key_column', 'keyframe', 'key_signature', 'keynote', 'key_points', 'keys_count',
    'monkey_name', 'turkey_weight', 'whiskey_brand', 'hockey_team', 'donkey', 'secret_name', 'secret_id',
    'secret_arn', 'secret_ref', 'secret_version', 'secretary_name', 'secret_santa_budget', 'session_id',
    'session_name', 'session_length', 'session_timeout', 'chat_session_id', 'cookie_consent_given',
    'cookie_banner_text', 'cookie_flavor', 'fortune_cookie_message', 'cookies_accepted', 'auth_type', 'auth_mode',
    'auth_provider_url', 'authentication_method', 'authorization_status', 'prior_authorization_number', 'seed',
    'random_seed', 'seed_number', 'seed_count', 'seed_type', 'seedling_count', 'mnemonic_device',
    'connection_timeout', 'connection_pool_size', 'database_name', 'db_host', 'db_port', 'db_user', 'db_name',
    'host', 'port', 'backup_email', 'backup_frequency', 'recovery_email', 'recovery_phone', 'security_question',
    'security_level', 'credential_type', 'credential_name', 'credentials_path', 'credential_provider',
    'card_holder', 'cardholder_name', 'card_last4', 'card_brand', 'card_network', 'card_country', 'card_title',
    'card_color', 'credit_card_type', 'credit_card_brand', 'credit_limit', 'credit_score', 'card_game',
    'gift_card_design', 'country_code', 'dial_code', 'area_code', 'postal_code', 'zipcode', 'sku_code',
    'product_code', 'color_code', 'hex_code', 'qr_code_url', 'code_snippet', 'code_language', 'code', 'exit_code',
    'status_code', 'http_code', 'promo_code', 'voucher_code', 'referral_code', 'invite_code', 'coupon', 'iban',
    'bic', 'swift', 'account_holder', 'account_number', 'bank_code', 'tax_id', 'vat_number', 'ssn', 'national_id',
    'passport_no', 'drivers_license_number', 'date_of_birth', 'Max tokens', 'Number of tokens to generate',
    'Maximum number of output tokens', 'Token limit per request', 'How many tokens should the answer have?',
    "The model's context length in tokens", 'Tokens per second', 'Estimated token cost in USD',
    'Which pin is the button connected to?', 'GPIO pin for the fan', 'Pin the note to the top?',
    'Should I pin this issue?', 'Pin number on the header', 'Pan and tilt the camera', 'Camera pan angle',
    'Minimum password length for new users', 'Keyboard shortcut', 'Key takeaways', 'Key points to cover',
    'The key of the song', 'Primary key of the table', 'Passport number', 'Passenger name',
    'The compass direction', 'Spinach quantity in grams', 'Your username', 'Your display name',
    'Email address for the receipt', 'The title of the document', 'A short summary', 'Pick a date', 'Your IBAN',
    'Name of the secret to read', 'Client id', 'The session id to resume', 'Cookie consent',
    'Authentication method', 'Random seed', 'Database name', 'Database host', 'Recovery email',
    'Security question', 'Cardholder name', 'Card brand', 'Country code', 'Promo code', 'Referral code',
    'Tracking number', 'Order number', 'Nombre de usuario', 'Correo electrónico', 'Número de teléfono',
    'Palabra clave', 'Número máximo de tokens de salida', 'Benutzername', 'E-Mail', 'Telefonnummer',
    'Schlüsselwörter', 'Maximale Token-Anzahl', "Nom d'utilisateur", 'Adresse e-mail', 'Numéro de téléphone',
    'Mots-clés', 'Nombre maximum de jetons', 'Nome de usuário', 'E-mail', 'Número de telefone', 'Palavras-chave',
    'Número máximo de tokens', 'Nome utente', 'Numero di telefono', 'Parole chiave', 'Numero massimo di token',
    'Gebruikersnaam', 'Telefoonnummer', 'Trefwoorden', 'Maximaal aantal tokens', 'Имя пользователя',
    'Номер телефона', 'Ключевые слова', 'Максимальное число токенов', "Ім'я користувача", 'Номер телефону',
    'Ключові слова', 'Максимальна кількість токенів', 'Nazwa użytkownika', 'Numer telefonu', 'Słowa kluczowe',
    'Maksymalna liczba tokenów', 'Kullanıcı adı', 'Telefon numarası', 'Anahtar kelimeler', 'Maksimum token sayısı',
    '用户名', '手机号码', '关键字', '最大输出令牌数', '最大 token 数', 'ユーザー名', '電話番号', 'キーワード', '最大出力トークン数', '사용자 이름', '전화번호', '키워드',
    '최대 출력 토큰 수', 'اسم المستخدم', 'رقم الهاتف', 'الكلمات المفتاحية', 'उपयोगकर्ता नाम', 'फ़ोन नंबर', 'कीवर्ड',
    'Användarnamn', 'Telefonnummer', 'Nyckelord', 'Uživatelské jméno', 'Telefonní číslo', 'Klíčová slova',
    'Όνομα χρήστη', 'Αριθμός τηλεφώνου', 'Λέξεις-κλειδιά', 'ｕｓｅｒｎａｍｅ', 'ＭＡＸ＿ＴＯＫＥＮＳ', 'usеrnаme', 'mаx_tоkens',
    'gpіo_pіn', 'us\u200bername', '\u202emax_tokens',
]

# A third set: identifier styles as codebases write them, and form sentences in every language.
CREDENTIAL["mixed-2"] = [
    'userPassWord', 'PASS_WORD', 'pass-phrase', 'secretKey', 'SecretAccessKey', 'private-key-pem', 'id_rsa',
    'ssh_id_rsa', 'gpg_key', 'apiToken', 'refreshToken', 'x-auth-token', 'X-Api-Key', 'cookie_value', 'set_cookie',
    'auth_bearer', 'bearer_auth', 'api_secret_key', 'app_password', 'application_password', 'master_password',
    'vault_password', 'encryption_password', 'unlock_password', 'pin_code_card', 'cardPin', 'otpCode',
    'oneTimePassword', 'mfaCode', 'twoFactorCode', 'verificationCode', 'smsCode', 'emailVerificationCode',
    'securityCode', 'cardSecurityCode', 'cvv2Code', 'cardVerificationValue', 'creditCardNumber', 'debitCardNo',
    'cardNum', 'expDate_card', 'cardExpiry', 'expiryMonthCard', 'seedPhrase12', 'recoveryPhrase', 'mnemonicWords',
    'walletSeedPhrase', 'secretRecoveryPhrase', 'privateKeyHex', 'walletPrivateKey', 'ethPrivateKey',
    'btc_private_key', 'connectionUri', 'connString', 'dbConnectionString', 'DATABASE_DSN', 'postgresUrl',
    'mongoUrl', 'redisPassword', 'backupCodes', 'recoveryCodes', 'twoFactorBackupCode', 'securityQuestionAnswer',
    'secretQuestionAnswer', 'answerToSecurityQuestion', 'sessionToken', 'sessionCookie', 'authCookie',
    'cookieHeader', 'authorizationHeader', 'authHeader', 'accessKeySecret', 'clientSecretKey', 'oauthClientSecret',
    'webhookSigningSecret', 'jwtSecret', 'jwt_signing_key', 'hmacSecret', 'encryptionKey', 'aesKey', 'masterKey',
    'kmsKeyMaterial', 'licenseKey', 'productKey', 'activationCode', 'registrationKey', 'Enter the password',
    'Type your password here', 'The account password', 'Provide the API secret', 'Paste the private key',
    'Give the one-time passcode', 'Enter the verification code sent to your phone', 'Enter your card number',
    'Card CVC (3 digits)', 'What is the PIN?', 'Your access token', 'The bot token from BotFather',
    'The Slack signing secret', 'Your Stripe API key', 'The password of the Wi-Fi', 'Database password',
    'Root password of the server', 'Your recovery codes', 'The backup code',
    'Your secret recovery phrase (12 words)', 'Mnemonic phrase of the wallet', 'The DSN with credentials',
    'Database URL including password', 'The Cookie header of your browser session', 'Your session ID cookie',
    'Value of the Authorization header (Bearer ...)', 'Answer to the security question',
    "Your mother's maiden name (security question)", 'Ingrese la contraseña de su cuenta', 'Contraseña del correo',
    'Clave de acceso a la banca', 'Escriba su clave', 'Número de la tarjeta', 'Código de seguridad de la tarjeta',
    'Su código PIN', 'Token de API', 'Clave privada de la billetera', 'Frase de recuperación de la billetera',
    'Geben Sie Ihr Passwort ein', 'Passwort für das WLAN', 'Ihr Kennwort für das Konto', 'Ihre Geheimzahl',
    'Ihre PIN-Nummer', 'API-Token', 'Privater SSH-Schlüssel', 'Kreditkarten-Prüfnummer', 'Wiederherstellungscode',
    'Sicherheitsfrage Antwort', 'Entrez votre mot de passe', 'Mot de passe du compte', 'Votre code confidentiel',
    'Code de la carte', "Votre clé d'API", "Jeton d'API", 'Digite a sua senha', 'Senha da conta', 'Senha do Wi-Fi',
    'Código de verificação enviado por SMS', 'Número do seu cartão', 'Inserisci la tua password',
    "Password dell'account", 'Codice di verifica inviato via SMS', 'Numero della tua carta di credito',
    'Voer je wachtwoord in', 'Wachtwoord van het account', 'Je pincode', 'Verificatiecode uit de sms',
    'Введите пароль от аккаунта', 'Пароль от Wi-Fi', 'Ваш ПИН', 'Код подтверждения из SMS', 'Номер вашей карты',
    'API-ключ', 'Токен бота', 'Введіть пароль від акаунта', 'Ваш PIN-код', 'Код підтвердження',
    'Номер вашої картки', 'API-ключ', 'Wprowadź hasło', 'Hasło do konta', 'Twój PIN', 'Kod weryfikacyjny z SMS',
    'Numer Twojej karty', 'Klucz API', 'Şifrenizi giriniz', 'Hesap şifresi', 'PIN kodunuz', 'SMS doğrulama kodu',
    'Kart numaranız', 'API anahtarınız', '输入密码', '账户密码', '您的PIN码', '短信验证码', '您的银行卡号', 'API密钥', '访问令牌', 'パスワードを入力',
    'アカウントのパスワード', '暗証番号を入力', 'SMS認証コード', 'カード番号を入力', 'APIキーを入力', '비밀번호 입력', '계정 비밀번호', 'PIN 번호', 'SMS 인증번호',
    '카드 번호 입력', 'API 키 입력', 'أدخل كلمة المرور', 'كلمة مرور الحساب', 'رمز التحقق عبر الرسائل', 'رقم بطاقتك',
    'مفتاح API الخاص بك', 'पासवर्ड दर्ज करें', 'खाते का पासवर्ड', 'आपका पिन', 'एसएमएस सत्यापन कोड',
    'आपका कार्ड नंबर', 'एपीआई कुंजी दर्ज करें', 'Ange lösenordet', 'Lösenord till kontot', 'Din PIN',
    'Verifieringskod via SMS', 'Ditt kortnummer', 'API-nyckel', 'Zadejte své heslo', 'Heslo k účtu', 'Váš PIN',
    'Ověřovací kód z SMS', 'Číslo vaší karty', 'Klíč API', 'Κωδικός πρόσβασης λογαριασμού', 'Το PIN σας',
    'Κωδικός επαλήθευσης SMS', 'Αριθμός της κάρτας σας', 'Κλειδί API', 'ｐｗｄ', 'ｃｏｎｎｅｃｔｉｏｎ＿ｓｔｒｉｎｇ', 'ѕееd_рhrаѕе',
    'сvv', 'tоkеn_sеcrеt', 'pass\u200cword', 'api\u2063key', 'p\xadassword', 'ＣＲＥＤＩＴ＿ＣＡＲＤ', 'рrivate_kеy',
    'Раsswоrd', '𝕡𝕒𝕤𝕤𝕨𝕠𝕣𝕕', 'ℙ𝕀ℕ', 's3cr3t_k3y', '@pi_k3y', 't0k3n', 'cr3d3nt1als', 'p1n_c0de',
]
ORDINARY["mixed-2"] = [
    'userName', 'user-email', 'EMAIL_ADDRESS', 'fullName', 'givenName', 'max-tokens', 'maxNewTokens', 'MAX_TOKENS',
    'max_tokens_per_call', 'tokenBudget', 'inputTokenCount', 'outputTokenLimit', 'numTokens', 'token_window',
    'tokenizer_name', 'token_id', 'tokenId', 'tokenIds', 'gpioPin', 'ledPin', 'PIN_MODE', 'pinState',
    'pinNumberGpio', 'panAngle', 'panTiltZoom', 'tiltAngle', 'zoomLevel', 'passwordMinLength', 'minPasswordLength',
    'passwordPolicy', 'passwordHint', 'passwordStrength', 'passwordExpiryDays', 'primaryKey', 'primary-key',
    'sortKey', 'partitionKey', 'keyName', 'keyId', 'keyboardLayout', 'keyPoints', 'keyTakeaways', 'keyword',
    'keywords', 'hotkeys', 'passportNumber', 'passengerName', 'passengers', 'compassHeading', 'spinachGrams',
    'bypassCache', 'passThrough', 'passRate', 'boardingPass', 'secretaryName', 'secretName', 'secretId',
    'sessionId', 'sessionTimeout', 'clientId', 'cookieConsent', 'authMethod', 'authType', 'seedValue',
    'randomSeed', 'recoveryEmail', 'securityQuestion', 'credentialId', 'cardType', 'cardBrand', 'cardholderName',
    'lastFourDigits', 'creditLimit', 'countryCode', 'postalCode', 'promoCode', 'discountCode', 'errorCode',
    'statusCode', 'zipCode', 'Please enter your first name', 'Your delivery address',
    'How many tokens should we generate?', 'Max tokens for the response', 'Choose the GPIO pin',
    'Pin the conversation to the sidebar?', 'Key points to mention', 'Which keyboard layout do you use?',
    'Primary key column name', 'Passport number (as printed)', 'Number of passengers', 'Compass bearing',
    'Spinach weight', 'Minimum password length (characters)', 'Pan angle (degrees)', 'Tilt angle',
    'The name of your organisation', 'Search keyword', 'Sort key', 'Public key fingerprint',
    "The recipient's email", 'Message to the recipient', 'Reference for the transfer', 'Nombre completo',
    'Dirección de envío', 'Palabra clave de búsqueda', 'Número máximo de tokens', 'Número de pasajeros',
    'Código postal', 'Vollständiger Name', 'Lieferadresse', 'Suchbegriff', 'Maximale Anzahl an Tokens',
    'Anzahl der Passagiere', 'Postleitzahl', 'Nom complet', 'Adresse de livraison', 'Mot-clé de recherche',
    'Nombre maximal de tokens', 'Nombre de passagers', 'Code postal', 'Nome completo', 'Endereço de entrega',
    'Palavra-chave de pesquisa', 'Número de passageiros', 'Código postal', 'Nome completo',
    'Indirizzo di consegna', 'Parola chiave di ricerca', 'Numero di passeggeri', 'Codice postale',
    'Volledige naam', 'Bezorgadres', 'Zoekwoord', 'Aantal passagiers', 'Postcode', 'Полное имя', 'Адрес доставки',
    'Ключевое слово для поиска', 'Количество пассажиров', 'Почтовый индекс', "Повне ім'я", 'Адреса доставки',
    'Ключове слово', 'Кількість пасажирів', 'Поштовий індекс', 'Imię i nazwisko', 'Adres dostawy',
    'Słowo kluczowe', 'Liczba pasażerów', 'Kod pocztowy', 'Ad soyad', 'Teslimat adresi', 'Arama anahtar kelimesi',
    'Yolcu sayısı', 'Posta kodu', '全名', '收货地址', '搜索关键词', '乘客人数', '邮政编码', '最大令牌数量', '氏名', '配送先住所', '検索キーワード', '乗客数',
    '郵便番号', '最大トークン数', '성명', '배송 주소', '검색 키워드', '승객 수', '우편번호', '최대 토큰 수', 'الاسم الكامل', 'عنوان التوصيل',
    'كلمة البحث', 'عدد الركاب', 'الرمز البريدي', 'पूरा नाम', 'डिलीवरी का पता', 'खोज कीवर्ड', 'यात्रियों की संख्या',
    'पिन कोड', 'Fullständigt namn', 'Leveransadress', 'Sökord', 'Antal passagerare', 'Postnummer', 'Celé jméno',
    'Doručovací adresa', 'Klíčové slovo', 'Počet cestujících', 'PSČ', 'Πλήρες όνομα', 'Διεύθυνση παράδοσης',
    'Λέξη-κλειδί αναζήτησης', 'Αριθμός επιβατών', 'Ταχυδρομικός κώδικας', 'ｕｓｅｒ＿ｉｄ', 'ｍａｘ＿ｔｏｋｅｎｓ', 'кеуboard',
    'раssport', 'sрinach', 'gріо_рin', 'рan_angle', 'key\u200bword', 'p\xadassenger', '\u202eusername', '𝕜𝕖𝕪𝕨𝕠𝕣𝕕',
    't0tal_count', 'st3p_1', 'v2_api_url', 's3_bucket', 'k8s_namespace', 'i18n_locale', 'b64_image',
]

# A fourth set: ordinary values that share a word with a credential (crypto tokens, map pins, cookie settings,
# key columns, codes of every kind), and bare credential words.
CREDENTIAL["near-misses"] = [
    'Enter the secret', 'Paste the secret here', 'The secret value', 'Provide the token', 'token_value',
    'tokenValue', 'Key (secret)', 'Secret (keep safe)', 'secret_phrase', 'code from the app',
    'The code we emailed you', 'six-digit code', 'sms_verification', 'Passkey PIN', 'Bank card PIN', 'Credit card',
    'Card details', 'Full card number', 'Card info', 'Cookie', 'Your cookies', 'Auth', 'Authorization value',
    'Access credentials', 'Login credentials', 'Credentials (JSON)', 'Service account JSON key',
    'Paste your kubeconfig token', 'Kube token', 'Registry password', 'Docker hub token', 'Wallet seed',
    'Seed words', 'Recovery seed', '24-word recovery phrase', 'passwort_neu', 'nuevo_password', 'motDePasse',
    'senhaAtual', 'wachtwoordHerhalen', 'hasloNowe', 'sifreTekrar', 'parolaNoua',
]
ORDINARY["near-misses"] = [
    'secret_ingredient', 'Secret menu item', 'Top secret project name', 'token_ring', 'crypto token symbol',
    'Token name (ERC-20)', 'token_supply', 'governance_token_address', 'Token ticker', 'key_signature',
    'music key', 'Key of the song (e.g. C minor)', 'key_color', 'key_length_bits', 'key_rotation_days',
    'api_key_created_at', 'api_key_last_used', 'api_keys_count', 'max_api_keys', 'secret_count',
    'code_review_comment', 'Code language', 'qr_code_text', 'barcode', 'dress_code', 'area code',
    'Morse code message', 'zip code', 'pass_fail', 'pass_number', 'hall_pass', 'ski_pass_type',
    'Season pass holder name', 'Did the test pass?', 'Pass the salt?', 'auth_url', 'auth_endpoint', 'auth_realm',
    'auth_scope', 'oauth_provider', 'oauth_scopes', 'oauth_redirect_uri', 'Authentication required?',
    'cookie_name', 'cookie_domain', 'cookie_path', 'cookie_max_age', 'cookie_samesite', 'Cookie recipe',
    'chocolate_chip_cookies', 'seed_round', 'seed_funding_amount', 'seed_investors', 'seedling', 'sunflower_seeds',
    'seed_type', 'Seed for reproducibility', 'session_title', 'session_date', 'session_speaker',
    'training_session_length', 'yoga_session', 'session_count', 'card_title', 'card_description', 'trello_card_id',
    'business_card_name', 'card_game_name', 'flash_card_question', 'credit_card_type', 'pin_title',
    'pin_description', 'pinterest_board', 'pin_latitude', 'pin_longitude', 'map_pin_label', 'pinyin_input',
    'phrase', 'phrase_to_translate', 'Phrase of the day', 'catchphrase', 'key_phrase', 'search_phrase',
    'passphrase_min_words', 'answer', 'correct_answer', 'quiz_answer', 'Your answer to question 3',
    'survey_answer', 'answer_choice', 'faq_answer', 'mnemonic_device_for_planets', 'credentials_required',
    'credential_expiry', 'credential_issuer', 'Verifiable credential type', 'Certificate common name',
    'cert_expiry', 'tls_version', 'ssh_port', 'ssh_host', 'ssh_user', 'ssh_username', 'ssh_public_key_fingerprint',
    'db_host', 'db_port', 'db_name', 'db_user', 'database_name', 'db_schema', 'redis_host', 'redis_db_index',
    'connection_timeout_ms', 'private_notes', 'private_channel', 'is_private', 'private_repo_name',
    'privacy_policy_url', 'private_message_text', 'signing_date', 'signature_name', 'signed_by', 'sign_up_source',
    'encryption_algorithm', 'encryption_enabled', 'hash_algorithm', 'otp_length', 'otp_expiry_seconds',
    'code_length', 'verification_status', 'verified_email', 'two_factor_enabled', 'mfa_method', 'backup_schedule',
    'backup_location', 'recovery_time_objective', 'restore_point', 'security_level', 'security_group_id',
    'token_expires_in', 'expires_in', 'refresh_interval', 'bearer_format', 'token_endpoint_auth_method',
    'grant_type', 'response_type', 'card_expiry_reminder_days', 'cvv_required', 'pin_required',
    'password_required', 'password_reset_email', 'Do you want to enable two-factor authentication?',
    'Should we remember this device?', 'Allow cookies?', 'Use a passkey?', 'Nombre del secreto',
    'palabra clave principal', 'Tema clave', 'código de país', 'código de producto',
    'Schlüsselwörter für die Suche', 'Tastatur-Layout', 'Hauptschlüssel-Spalte', 'Ländercode', 'Produktcode',
    'mots-clés du produit', 'code pays', 'code produit', 'clé primaire de la table', 'jeton de jeu',
    'palavras-chave', 'código do país', 'código do produto', 'chave primária', 'chave de fenda tamanho',
    'parole chiave', 'codice paese', 'codice prodotto', 'chiave primaria della tabella', 'trefwoorden', 'landcode',
    'productcode', 'primaire sleutel van de tabel', 'ключевые слова', 'код страны', 'код товара',
    'первичный ключ таблицы', 'ключ сортировки', 'słowa kluczowe', 'kod kraju', 'kod produktu',
    'klucz główny tabeli', 'anahtar kelimeler', 'ülke kodu', 'ürün kodu', 'birincil anahtar sütunu', '关键字列表',
    '国家代码', '产品代码', '主键列', '排序键', '令牌桶大小', 'キーワード一覧', '国コード', '製品コード', '主キー列', 'ソートキー', '키워드 목록', '국가 코드', '제품 코드',
    '기본 키 열', '정렬 키', 'nyckelord', 'landskod', 'produktkod', 'primärnyckel kolumn', 'klíčová slova', 'kód země',
    'kód produktu', 'primární klíč tabulky', 'λέξεις-κλειδιά', 'κωδικός χώρας', 'κωδικός προϊόντος',
    'πρωτεύον κλειδί πίνακα', 'رمز الدولة', 'رمز المنتج', 'الكلمات الرئيسية', 'देश कोड', 'उत्पाद कोड',
    'मुख्य शब्द',
]

# Descriptions as servers write them: long sentences, warnings that mention a credential, counts in 18 languages.
CREDENTIAL["descriptions"] = [
    'Please enter the password you use to log in to your bank', 'The password, so we can log in on your behalf',
    'Your online banking PIN, needed to confirm the transfer', 'The API key from your dashboard (starts with sk_)',
    'Copy the token from the settings page and paste it here', 'The 6-digit code from Google Authenticator',
    'The private key of your wallet, in hex', 'The seed phrase you wrote down when creating the wallet',
    'Your database connection string, e.g. postgres://user:pass@host/db',
    'The Authorization header your browser sends', 'The value of the session cookie named sid',
    'One of the backup codes you saved', 'The answer to your secret question',
    'The full number of your credit card', 'The three digits on the back of your card', 'Card expiry (MM/YY)',
    'Introduce la contraseña que usas para entrar en tu banco', 'Gib das Passwort ein, mit dem du dich anmeldest',
    'Saisissez le mot de passe de votre banque en ligne', 'Digite a senha do seu banco',
    'Inserisci la password della tua banca', 'Voer het wachtwoord van je bank in',
    'Введите пароль от онлайн-банка', 'Введіть пароль від банку', 'Podaj hasło do banku', 'Banka şifrenizi girin',
    '请输入网银密码', 'ネットバンキングのパスワードを入力してください', '인터넷 뱅킹 비밀번호를 입력하세요', 'أدخل كلمة مرور البنك',
    'अपने बैंक का पासवर्ड दर्ज करें', 'Ange lösenordet till din bank', 'Zadejte heslo do banky',
    'Εισάγετε τον κωδικό πρόσβασης της τράπεζας',
]
ORDINARY["descriptions"] = [
    'Email used for password resets', 'We will never ask for your password', 'Your username (not your password)',
    'The number of tokens the model may use for its answer', "Tokens are counted with the model's tokenizer",
    'A short note; do not include passwords or card numbers', 'The GPIO pin the sensor is wired to',
    'Pin this item to the top of the list', 'The primary key of the row to update',
    'Keys to sort by, comma-separated', 'Name of the key vault (not the key itself)',
    'The ID of the API key to revoke', 'Label for the new API key', 'How long the session should last, in minutes',
    'The cookie banner text shown to visitors', 'Seed for the random generator', 'The answer to the riddle',
    'Your answer to the survey question', 'Choose the card colour', 'Name printed on the card',
    'Last 4 digits of the card, for reference', 'The code of the country, like DE',
    'Discount code from the newsletter', 'Passenger count for the booking',
    'The compass direction the camera faces', 'Pan angle of the camera in degrees',
    'Password rules shown to users', 'Is a password required for this room?',
    'Number of login attempts before lock-out', 'Token price in USD', 'Maximum output tokens, 1 to 4096',
    'Budget in tokens for thinking', 'Context size in tokens', 'Contraseña olvidada: enviaremos un correo',
    'Número máximo de tokens de la respuesta', 'La palabra clave para buscar', 'Anzahl der Tokens in der Antwort',
    'Das Stichwort für die Suche', 'Nombre de jetons de la réponse', 'Le mot-clé à chercher',
    'Número de tokens da resposta', 'Numero di token della risposta', 'Aantal tokens in het antwoord',
    'Количество токенов в ответе', 'Liczba tokenów w odpowiedzi', 'Yanıttaki token sayısı', '回答中的令牌数量', '回答のトークン数',
    '응답의 토큰 수', 'Antal token i svaret', 'Počet tokenů v odpovědi', 'Αριθμός διακριτικών στην απάντηση',
]

# Generated variants of English credential names: identifier styles, digits for letters, look-alikes, invisibles.
_BASE_CREDENTIALS = [
    "password", "api key", "access token", "secret key", "private key", "card number", "client secret",
    "refresh token", "pin code", "seed phrase", "session cookie", "connection string", "recovery code", "credentials",
    "db password", "auth token", "one time code", "security answer",
]
_BASE_ORDINARY = [
    "user name", "max tokens", "input tokens", "token count", "gpio pin", "pan angle", "password min length",
    "primary key", "key points", "sort key", "public key", "email address", "card type", "session id",
    "passport number", "token type", "api key name", "random seed",
]
# Latin letters and the Cyrillic or Greek letters that look the same.
_LOOKALIKE = {"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "i": "і", "s": "ѕ",
              "k": "κ", "n": "ո", "h": "һ", "A": "Α", "E": "Ε", "K": "Κ", "P": "Ρ", "T": "Τ", "O": "Ο"}
_LEET = {"a": "4", "e": "3", "o": "0", "s": "5", "i": "1"}


def _styles(words: str) -> list[str]:
    parts = words.split()
    camel = parts[0] + "".join(p.title() for p in parts[1:])
    return [
        "_".join(parts), "-".join(parts), camel, camel[0].upper() + camel[1:], "_".join(parts).upper(),
        " ".join(parts).title(), "X" + "".join(p.title() for p in parts),
    ]


def _tricks(words: str) -> list[str]:
    snake = "_".join(words.split())
    leet = "".join(_LEET.get(c, c) if i % 2 else c for i, c in enumerate(snake))
    lookalike = "".join(_LOOKALIKE.get(c, c) for c in snake)
    half_lookalike = "".join(_LOOKALIKE.get(c, c) if i % 2 else c for i, c in enumerate(snake))
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in snake)
    zero_width = "\u200b".join(snake)
    bidi = "\u202e" + snake + "\u202c"
    soft = snake[:3] + "\u00ad" + snake[3:]
    return [leet, lookalike, half_lookalike, fullwidth, zero_width, bidi, soft, snake.upper().replace("O", "0")]


CREDENTIAL["variants"] = [v for w in _BASE_CREDENTIALS for v in _styles(w)]
CREDENTIAL["unicode"] = [v for w in _BASE_CREDENTIALS for v in _tricks(w)]
ORDINARY["variants"] = [v for w in _BASE_ORDINARY for v in _styles(w)]
ORDINARY["unicode"] = [v for w in _BASE_ORDINARY for v in _tricks(w)]


def flat(corpus: dict[str, list[str]]) -> list[str]:
    """Every entry of a corpus once, in order."""
    return list(dict.fromkeys(t for texts in corpus.values() for t in texts))


def _entries() -> list[Entry]:
    """Both sides as scored entries (tests/corpora/scoring.py), each text once, in its first group; a free text
    read by `credential_term`, as tests/core/test_secrets.py reads them."""
    first: dict[str, Entry] = {}
    for secret, corpus in ((True, CREDENTIAL), (False, ORDINARY)):
        for group, texts in corpus.items():
            for text in texts:
                first.setdefault(text, Entry(text, secret, group, "message"))
    return list(first.values())


ENTRIES = _entries()

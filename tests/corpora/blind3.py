"""A third blind corpus for the secret guard, written without looking at the guard or its tuning corpora.

Same ``Entry`` format and the same labelling decisions as ``tests/corpora/blind.py``. ``trick`` names the
Unicode trick applied (``plain`` if none) or, for field names, the identifier style (``style:camel`` …).
Extra decisions taken here, all in line with the ones in ``blind.py`` (``note`` on the entry says which):

- booleans and settings about a credential (``is_password_set``, ``has_api_key``, ``cvv_required``,
  ``passwordless_enabled``, ``password_strength_score``) are ordinary: they hold no secret.
- the *name* of a secret in a vault (``secret_name``, ``key_vault_name``) is ordinary: a reference, not a value.
- an Indian PAN card number (a tax ID), Aadhaar, CPF, personnummer, henkilötunnus: ordinary (ID numbers);
  a payment-card ``pan`` is credential-like.
- a Brazilian "chave Pix" (an e-mail/phone/CPF that receives payments) is ordinary: an identifier.
- the Polish BLIK code and the Dutch "pincode" are credential-like (a one-time payment code, a bank PIN).
- "cryptography" words that share a stem with "password" (密码学, رمزنگاری, şifreleme, 암호화) are ordinary.
- an OIDC ``id_token`` and a bare ``cookie`` header are credential-like (bearer values).
"""

from __future__ import annotations

import unicodedata

from tests.corpora.blind import Entry

# --------------------------------------------------------------------------------------------
# Identifier styles
# --------------------------------------------------------------------------------------------


def _style(words: list[str], style: str) -> str:
    low = [w.lower() for w in words]
    if style == "snake":
        return "_".join(low)
    if style == "camel":
        return low[0] + "".join(w[:1].upper() + w[1:] for w in low[1:])
    if style == "pascal":
        return "".join(w[:1].upper() + w[1:] for w in low)
    if style == "kebab":
        return "-".join(low)
    if style == "screaming":
        return "_".join(low).upper()
    if style == "dotted":
        return ".".join(low)
    if style == "v2":
        return "v2_" + "_".join(low)
    if style == "x-header":
        return "x-" + "-".join(low)
    if style == "dunder":
        return "__" + "_".join(low)
    if style == "numbered":
        return "_".join(low) + "_2"
    if style == "cli-flag":
        return "--" + "-".join(low)
    if style == "env-prefixed":
        return "APP_" + "_".join(low).upper()
    if style == "flat":
        return "".join(low)
    raise ValueError(style)


_MULTI = ["snake", "camel", "pascal", "kebab", "screaming", "dotted", "v2", "x-header", "dunder",
          "numbered", "cli-flag", "env-prefixed", "flat"]
_SINGLE = ["snake", "screaming", "pascal", "v2", "dunder", "numbered", "env-prefixed"]


def _names(specs: list[tuple[str, str]], secret: bool, per: int = 6) -> list[Entry]:
    out: list[Entry] = []
    for i, (spec, note) in enumerate(specs):
        words = spec.split()
        styles = _MULTI if len(words) > 1 else _SINGLE
        chosen = [styles[(i * 5 + k) % len(styles)] for k in range(per)]
        if "snake" not in chosen:
            chosen[0] = "snake"
        seen: set[str] = set()
        for st in chosen:
            text = _style(words, st)
            if text in seen:
                continue
            seen.add(text)
            out.append(Entry(text, secret, "en", "name", "plain" if st == "snake" else f"style:{st}", note))
    return out


_SECRET_NAMES: list[tuple[str, str]] = [
    ("password", ""), ("db password", ""), ("admin password", ""), ("user pass", ""), ("login pass", ""),
    ("smtp pass", ""), ("mysql pwd", ""), ("root pwd", ""), ("pwd", ""), ("passwd", ""), ("pw", ""),
    ("user pw", ""), ("new password", ""), ("confirm password", ""), ("old passwd", ""),
    ("current password", ""), ("passphrase", ""), ("key passphrase", ""), ("master password", ""),
    ("wifi password", ""), ("pin", "a bare PIN"), ("card pin", ""), ("atm pin", ""), ("api key", ""),
    ("apikey", ""), ("api secret", ""), ("client secret", ""), ("secret key", ""), ("secret", ""),
    ("app secret", ""), ("access token", ""), ("refresh token", ""), ("auth token", ""),
    ("bearer token", ""), ("id token", "OIDC id_token: a bearer JWT"), ("github token", ""), ("gh pat", ""),
    ("personal access token", ""), ("slack bot token", ""), ("stripe secret key", ""), ("stripe sk", ""),
    ("openai api key", ""), ("hf token", ""), ("npm token", ""), ("pypi token", ""),
    ("aws secret access key", ""), ("aws session token", ""), ("private key", ""), ("privkey", ""),
    ("ssh key", "a bare ssh_key is credential-like"), ("ssh private key", ""), ("pgp private key", ""),
    ("signing key", ""), ("tls key", "the private key of a TLS pair"), ("wallet mnemonic", ""),
    ("seed phrase", ""), ("recovery phrase", ""), ("mnemonic", "a wallet mnemonic"), ("backup codes", ""),
    ("recovery code", ""), ("otp", ""), ("otp code", ""), ("totp", ""), ("totp code", ""), ("mfa code", ""),
    ("two factor code", ""), ("2fa code", ""), ("verification code", ""), ("sms code", ""),
    ("session cookie", ""), ("session token", ""), ("cookie", "a Cookie header carries the session"),
    ("database url", "database_url embeds a password"), ("dsn", "a DSN embeds a password"),
    ("connection string", ""), ("mongo uri", ""), ("redis url", "like database_url"), ("card number", ""),
    ("cc number", ""), ("pan", "payment card PAN"), ("cvv", ""), ("cvc", ""), ("cvv2", ""), ("csc", ""),
    ("card expiry", ""), ("exp date", "card expiry"), ("card exp month", ""), ("security answer", ""),
    ("webhook secret", ""), ("jwt secret", ""), ("encryption key", ""), ("master key", ""), ("creds", ""),
    ("credentials", ""), ("gh tok", ""), ("secret token", ""), ("sendgrid api key", ""),
    ("twilio auth token", ""), ("discord bot token", ""), ("telegram bot token", ""), ("api token", ""),
    ("secret access key", ""), ("client key", "a TLS client private key"), ("private key pem", ""),
    ("unseal key", ""), ("app password", ""), ("sudo password", ""), ("keystore password", ""),
    ("oauth token", ""), ("access key secret", ""), ("license server password", ""),
]

_ORDINARY_NAMES: list[tuple[str, str]] = [
    ("max tokens", ""), ("token count", ""), ("tokenizer", ""), ("tokenizer name", ""), ("num tokens", ""),
    ("token limit", ""), ("max new tokens", ""), ("key name", ""), ("primary key", ""), ("foreign key", ""),
    ("sort key", ""), ("partition key", ""), ("keyboard layout", ""), ("key signature", "musical"),
    ("musical key", ""), ("passport number", ""), ("passport no", ""), ("pass rate", ""),
    ("passenger name", ""), ("passenger count", ""), ("bypass cache", ""), ("compass heading", ""),
    ("password policy", "a setting about passwords"), ("password min length", "a setting"),
    ("password expiry days", "a setting"), ("min password length", "a setting"),
    ("postal pin code", "Indian postal PIN code"), ("delivery pincode", "Indian postal PIN code"),
    ("session id", ""), ("public key", ""), ("ssh public key", ""), ("key fingerprint", ""),
    ("gpg key id", ""), ("random seed", ""), ("seed", "a random seed"), ("tournament seed", ""),
    ("cookie recipe", ""), ("cookie consent", ""), ("api endpoint", ""), ("api base url", ""),
    ("api version", ""), ("endpoint url", ""), ("username", ""), ("user id", ""), ("email", ""),
    ("client id", ""), ("account id", ""), ("idempotency key", ""), ("cache key", ""), ("object key", ""),
    ("hotkey", ""), ("shortcut key", ""), ("keyword", ""), ("keywords", ""), ("keynote speaker", ""),
    ("secretary name", ""), ("secret santa group", "a gift-exchange group name"), ("token symbol", ""),
    ("token address", "a token contract address"), ("token price", ""), ("otp length", "a setting"),
    ("mfa enabled", "a setting"), ("two factor enabled", "a setting"), ("token ttl", "a setting"),
    ("token lifetime seconds", "a setting"), ("key rotation days", "a setting"),
    ("password reset url", "forgot-password page address"), ("card holder name", ""), ("card brand", ""),
    ("card last4", "last four digits"), ("last four digits", ""), ("cvv required", "a boolean setting"),
    ("pan tilt speed", "camera pan"), ("pan card number", "Indian tax ID"), ("passport expiry date", ""),
    ("expires at", ""), ("coupon expiry", ""), ("auth method", ""), ("auth provider", ""),
    ("oauth scope", ""), ("redirect uri", ""), ("authorization url", ""),
    ("credential type", "a setting about credentials"), ("secret name", "a vault reference"),
    ("key vault name", "a vault reference"), ("vault url", ""), ("pinned", ""), ("spinner color", ""),
    ("opinion", ""), ("passage text", ""), ("trespass notice", ""), ("turkey weight", ""),
    ("hockey team", ""), ("monkey species", ""), ("whiskey brand", ""), ("boarding pass number", ""),
    ("compass bearing", ""), ("bypass proxy", ""), ("token ring port", ""), ("session timeout", ""),
    ("key length bits", "a setting"), ("password strength score", "a score, no secret"),
    ("passwordless enabled", "a setting"), ("is password set", "a boolean"), ("has api key", "a boolean"),
    ("keyboard shortcut", ""), ("pass fail threshold", ""), ("secret level", "game level name"),
    ("primary key column", ""), ("api docs url", ""), ("seed url", "crawler start page"),
]

# --------------------------------------------------------------------------------------------
# English labels, descriptions, messages
# --------------------------------------------------------------------------------------------

_EN_SECRET: list[tuple[str, str, str]] = [
    # (form, text, note)
    ("label", "Password", ""), ("label", "Confirm password", ""), ("label", "Current password", ""),
    ("label", "New password", ""), ("label", "Passphrase", ""), ("label", "PIN", ""),
    ("label", "4-digit PIN", ""), ("label", "API key", ""), ("label", "API secret", ""),
    ("label", "Secret key", ""), ("label", "Access token", ""), ("label", "Refresh token", ""),
    ("label", "Personal access token", ""), ("label", "GitHub token", ""), ("label", "Bot token", ""),
    ("label", "Webhook signing secret", ""), ("label", "Client secret", ""), ("label", "Private key", ""),
    ("label", "SSH private key", ""), ("label", "PGP private key", ""), ("label", "Recovery phrase", ""),
    ("label", "Seed phrase", ""), ("label", "Mnemonic (12 or 24 words)", ""), ("label", "Backup codes", ""),
    ("label", "2FA code", ""), ("label", "One-time password", ""), ("label", "TOTP code", ""),
    ("label", "MFA code", ""), ("label", "Authenticator code", ""), ("label", "Verification code", ""),
    ("label", "Session cookie", ""), ("label", "Cookie header", ""), ("label", "Database URL", ""),
    ("label", "Connection string", ""), ("label", "MongoDB URI", ""), ("label", "Card number", ""),
    ("label", "Credit card number", ""), ("label", "CVV", ""), ("label", "CVC", ""),
    ("label", "Security code", "the card's security code"), ("label", "Expiration date (MM/YY)", "card expiry"),
    ("label", "Card expiry", ""), ("label", "Answer to security question", ""), ("label", "Wi-Fi password", ""),
    ("label", "Root password", ""), ("label", "Master password", ""), ("label", "Vault unseal key", ""),
    ("label", "Encryption key", ""), ("label", "JWT secret", ""), ("label", "AWS secret access key", ""),
    ("label", "Service account key (JSON)", ""), ("label", "Login credentials", ""), ("label", "Creds", ""),
    ("label", "App password", ""), ("label", "Sudo password", ""), ("label", "pwd", ""),
    ("label", "Passcode", ""), ("label", "Debit card PIN", ""), ("label", "CVV2 / CVC2", ""),
    ("label", "PAN (card number)", ""), ("label", "Stripe secret key (sk_live_…)", ""),
    ("label", "OpenAI API key", ""), ("label", "Hugging Face token", ""), ("label", "npm auth token", ""),
    ("description", "The password for your account.", ""),
    ("description", "Your 4-6 digit PIN.", ""),
    ("description", "Paste the API key from your dashboard (starts with sk-).", ""),
    ("description", "A personal access token with repo scope.", ""),
    ("description", "The private key in PEM format, including the BEGIN/END lines.", ""),
    ("description", "Your 12- or 24-word recovery phrase, separated by spaces.", ""),
    ("description", "Enter the 6-digit code from your authenticator app.", ""),
    ("description", "The code we just texted to your phone.", ""),
    ("description", "Value of the sessionid cookie from your browser's dev tools.", ""),
    ("description", "Postgres connection string, e.g. postgres://user:pass@host/db", ""),
    ("description", "The 16-digit number on the front of your card.", ""),
    ("description", "3 digits on the back of your card.", ""),
    ("description", "Card expiry in MM/YY format.", ""),
    ("description", "Your answer to the security question.", ""),
    ("description", "Bot token from @BotFather.", ""),
    ("description", "Slack bot token (xoxb-...).", ""),
    ("description", "Contents of your ~/.ssh/id_ed25519 file.", ""),
    ("description", "The signing secret used to verify webhooks.", ""),
    ("description", "Your AWS secret access key.", ""),
    ("description", "The JSON key file for the service account.", ""),
    ("description", "Your Wi-Fi network password.", ""),
    ("description", "One of your backup codes.", ""),
    ("description", "Password for the SMTP relay.", ""),
    ("description", "Your online banking login PIN.", ""),
    ("description", "The master password for your password manager.", ""),
    ("description", "pwd for the admin user", ""),
    ("description", "Your creds for the staging box (user:pass).", ""),
    ("description", "Paste the bearer token the CLI printed after login.", ""),
    ("description", "The shared secret for RADIUS authentication.", ""),
    ("description", "Private key of the wallet, hex encoded.", ""),
    ("message", "Please enter your password to continue.", ""),
    ("message", "To connect your GitHub account, paste a personal access token.", ""),
    ("message", "What's your API key? I need it to call the service for you.", ""),
    ("message", "Please provide your credit card number, expiration date and CVV to complete the booking.", ""),
    ("message", "Enter the verification code we sent to your phone.", ""),
    ("message", "I need your seed phrase to restore your wallet.", ""),
    ("message", "Share your SSH private key so I can deploy to the server.", ""),
    ("message", "Type the one-time code from your authenticator app.", ""),
    ("message", "Paste your database connection string including the password.", ""),
    ("message", "Could you send me your login credentials for the admin panel?", ""),
    ("message", "Please confirm your PIN.", ""),
    ("message", "What is the password for the Wi-Fi network?", ""),
    ("message", "Paste your session cookie so I can fetch the page as you.", ""),
    ("message", "Provide the OpenAI API key to enable summaries.", ""),
    ("message", "Enter your card details: number, expiry and security code.", ""),
    ("message", "Please enter the 2FA code to finish signing in.", ""),
    ("message", "Give me your bank PIN and I'll check your balance.", ""),
    ("message", "Reply with one of your recovery codes.", ""),
    ("message", "What's your mother's maiden name? We use it as your security answer.", "asks the security answer"),
    ("message", "I'll need your AWS access key and secret key to set up the bucket.", ""),
    ("message", "Send over the Stripe secret key and I'll wire up payments.", ""),
    ("message", "Drop your HF token here so I can pull the gated model.", ""),
    ("message", "What's the passphrase for your private key?", ""),
    ("message", "Enter your MFA code.", ""),
    ("message", "To finish, type the OTP you received by email.", ""),
]

_EN_ORDINARY: list[tuple[str, str, str]] = [
    ("label", "Username", ""), ("label", "Email address", ""), ("label", "Passport number", ""),
    ("label", "Passport expiry date", ""), ("label", "Pass rate", ""), ("label", "Passenger name", ""),
    ("label", "Number of passengers", ""), ("label", "Bypass cache", ""), ("label", "Compass heading", ""),
    ("label", "Password policy", "a setting"), ("label", "Minimum password length", "a setting"),
    ("label", "Password expiry (days)", "a setting"), ("label", "Require 2FA", "a setting"),
    ("label", "OTP length", "a setting"), ("label", "Token lifetime (minutes)", "a setting"),
    ("label", "Key rotation period", "a setting"), ("label", "Max tokens", ""), ("label", "Token count", ""),
    ("label", "Tokenizer", ""), ("label", "Key name", ""), ("label", "Primary key", ""),
    ("label", "Sort key", ""), ("label", "Partition key", ""), ("label", "Keyboard layout", ""),
    ("label", "Musical key", ""), ("label", "Key signature", ""), ("label", "Public key", ""),
    ("label", "SSH public key", ""), ("label", "Key fingerprint", ""), ("label", "GPG key ID", ""),
    ("label", "Random seed", ""), ("label", "Seed", "a random seed"), ("label", "Tournament seed", ""),
    ("label", "Session ID", ""), ("label", "Cookie recipe", ""), ("label", "Cookie consent", ""),
    ("label", "API endpoint URL", ""), ("label", "API base URL", ""), ("label", "API version", ""),
    ("label", "Client ID", ""), ("label", "Account ID", ""), ("label", "Card holder name", ""),
    ("label", "Card brand", ""), ("label", "Last 4 digits of card", ""),
    ("label", "Postal PIN code", "Indian postal PIN code"),
    ("label", "Forgot-password page URL", "a setting"), ("label", "Security question", "the question itself"),
    ("label", "Recovery email", ""), ("label", "Idempotency key", ""), ("label", "Cache key", ""),
    ("label", "S3 object key", ""), ("label", "Hotkey", ""), ("label", "Keyword", ""),
    ("label", "Keynote speaker", ""), ("label", "Secret Santa group name", "a gift-exchange group"),
    ("label", "Token symbol (e.g. USDC)", ""), ("label", "Token contract address", ""),
    ("label", "Authentication method", ""), ("label", "OAuth scopes", ""), ("label", "Redirect URI", ""),
    ("label", "Authorization endpoint", ""), ("label", "Certificate authority", ""),
    ("label", "Pinned message", ""), ("label", "Spinner colour", ""), ("label", "Opinion", ""),
    ("label", "Passage to translate", ""), ("label", "Secretary's name", ""), ("label", "Keyholder name", ""),
    ("label", "Turkey weight (lb)", ""), ("label", "Hockey team", ""), ("label", "Pan-tilt speed", ""),
    ("label", "Expense category", ""), ("label", "Exposure time", ""), ("label", "Coupon expiry date", ""),
    ("label", "Credit limit", ""), ("label", "Pass/fail threshold", ""), ("label", "Boarding pass number", ""),
    ("label", "Passcode length", "a setting"), ("label", "Token ring network segment", ""),
    ("label", "Seed URL for the crawler", ""), ("label", "Key stage (school year)", ""),
    ("description", "Maximum number of tokens to generate.", ""),
    ("description", "Number of tokens in the prompt.", ""),
    ("description", "Which tokenizer to use (e.g. cl100k_base).", ""),
    ("description", "The table's primary key column.", ""),
    ("description", "DynamoDB sort key attribute name.", ""),
    ("description", "Your keyboard layout, e.g. US, AZERTY, Dvorak.", ""),
    ("description", "The key the song is in, e.g. D minor.", ""),
    ("description", "Your passport number as printed on the photo page.", ""),
    ("description", "Percentage of students who passed.", ""),
    ("description", "Full name of the passenger as it appears on the ticket.", ""),
    ("description", "Skip the cache and fetch fresh data.", ""),
    ("description", "Heading in degrees from the compass.", ""),
    ("description", "Minimum length for user passwords (settings).", "a setting"),
    ("description", "How many days before a password expires.", "a setting"),
    ("description", "Area PIN code for delivery (6 digits, India).", "Indian postal PIN code"),
    ("description", "Identifier of the current session, shown in logs.", ""),
    ("description", "Your SSH public key (ssh-ed25519 ...), added to authorized_keys.", ""),
    ("description", "SHA-256 fingerprint of the host key.", ""),
    ("description", "Seed for the random number generator, for reproducible runs.", ""),
    ("description", "Describe how a token ring network passes the token between stations.", ""),
    ("description", "Your favourite cookie recipe.", ""),
    ("description", "Base URL of the API endpoint, e.g. https://api.example.com/v1.", ""),
    ("description", "Whether users must set up two-factor authentication.", "a setting"),
    ("description", "Length of one-time codes in digits (settings).", "a setting"),
    ("description", "Name of the key in the config map.", ""),
    ("description", "The OAuth client ID (not the secret).", ""),
    ("description", "Name on the card, as printed.", ""),
    ("description", "Last four digits of the card, for reference.", ""),
    ("description", "The security question users will be asked.", "the question itself"),
    ("description", "Where we send password reset emails.", "recovery email"),
    ("description", "Link to the 'forgot password' page.", "a setting"),
    ("description", "Tournament seeding position.", ""),
    ("description", "Idempotency key to make retries safe.", ""),
    ("description", "Where in the bucket to store the file (object key).", ""),
    ("description", "A keyboard shortcut such as Ctrl+K.", ""),
    ("description", "Comma-separated keywords for search.", ""),
    ("description", "Ticker of the token, e.g. ETH.", ""),
    ("description", "Hex colour for the loading spinner.", ""),
    ("description", "Speed of pan and tilt for the camera.", ""),
    ("description", "Number of seconds before the link expires.", ""),
    ("description", "Which authentication method the server uses: basic, oauth, or none.", ""),
    ("description", "Your public PGP key block, to encrypt messages to you.", ""),
    ("description", "Number of failed password attempts before lockout.", "a setting"),
    ("description", "Name of the secret in Vault to mount (the name, not its value).", "a vault reference"),
    ("description", "How long a session lasts before the user is logged out.", ""),
    ("description", "Bypass the approval step for trusted users.", ""),
    ("description", "The passenger's seat preference.", ""),
    ("message", "What's your username?", ""),
    ("message", "Please enter your email address so we can send the receipt.", ""),
    ("message", "How many passengers are travelling?", ""),
    ("message", "What is your passport number?", ""),
    ("message", "Choose a keyboard layout.", ""),
    ("message", "What key is the song in?", ""),
    ("message", "How many tokens should the summary use at most?", ""),
    ("message", "Which tokenizer do you want to use?", ""),
    ("message", "Pick the primary key for the new table.", ""),
    ("message", "Would you like to reset your password? We'll email you a link.", "asks no secret"),
    ("message", "Set the minimum password length for your team.", "a setting"),
    ("message", "Should the report include the pass rate for each class?", ""),
    ("message", "Paste your SSH public key to get access.", ""),
    ("message", "What's the key fingerprint shown by ssh-keygen -l?", ""),
    ("message", "Enter a random seed (any integer) for reproducibility.", ""),
    ("message", "Do you accept cookies?", ""),
    ("message", "Share your favourite cookie recipe!", ""),
    ("message", "Which API endpoint should I call?", ""),
    ("message", "Enter your area's postal PIN code (6 digits) for delivery.", "Indian postal PIN code"),
    ("message", "What is your session ID from the error page?", ""),
    ("message", "Do you want to enable two-factor authentication for your account?", "a setting"),
    ("message", "Which compass direction does the window face?", ""),
    ("message", "Should I bypass the proxy for local addresses?", ""),
    ("message", "Enter the name of the key in your vault (not the value).", "a vault reference"),
    ("message", "What's the tournament seed for your team?", ""),
    ("message", "Who is the secretary of the committee?", ""),
    ("message", "Tell me about the token ring network in your lab.", ""),
    ("message", "How strong should passwords be? Pick a policy.", "a setting"),
    ("message", "Which sort key should the index use?", ""),
    ("message", "Are you the main passenger on this booking?", ""),
]

# --------------------------------------------------------------------------------------------
# Other languages: (lang, secret?, form, text, note)
# --------------------------------------------------------------------------------------------

_L = tuple[str, bool, str, str, str]


def _lang(lang: str, secret: list[tuple[str, str] | tuple[str, str, str]],
          ordinary: list[tuple[str, str] | tuple[str, str, str]]) -> list[_L]:
    out: list[_L] = []
    for flag, items in ((True, secret), (False, ordinary)):
        for it in items:
            form, text = it[0], it[1]
            note = it[2] if len(it) > 2 else ""
            out.append((lang, flag, form, text, note))
    return out


_SETTING = "a setting"
_LANGS: list[_L] = []
_LANGS += _lang("vi", [
    ("label", "Mật khẩu"), ("name", "mat_khau"), ("label", "Mã PIN thẻ ATM"),
    ("description", "Nhập khóa API của bạn để kết nối với dịch vụ."),
    ("message", "Vui lòng nhập mật khẩu email để chúng tôi đăng nhập thay bạn."),
    ("label", "Mã OTP"), ("description", "Số thẻ tín dụng (16 chữ số) in ở mặt trước thẻ"),
    ("label", "Mã bảo mật CVV"), ("message", "Hãy dán cụm từ khôi phục ví (12 từ) vào đây."),
    ("label", "Khóa bí mật"), ("label", "Khóa riêng tư"), ("label", "Ngày hết hạn thẻ"),
], [
    ("label", "Tên đăng nhập"), ("name", "ten_dang_nhap"), ("label", "Số hộ chiếu"),
    ("description", "Độ dài tối thiểu của mật khẩu cho người dùng mới", _SETTING),
    ("label", "Mã bưu chính"), ("message", "Bạn muốn nhận thông báo qua email hay SMS?"),
    ("label", "Số lượng token tối đa"), ("label", "Khóa công khai SSH"), ("label", "Tỷ lệ đậu"),
    ("description", "Bố cục bàn phím (ví dụ: QWERTY, Telex)"), ("label", "Tên hành khách"),
    ("label", "Mã sản phẩm"),
])
_LANGS += _lang("th", [
    ("label", "รหัสผ่าน"), ("label", "รหัส PIN"), ("description", "กรอกคีย์ API ของคุณเพื่อเชื่อมต่อบริการ"),
    ("message", "กรุณาใส่รหัสผ่านบัญชีธนาคารของคุณ"), ("label", "รหัส OTP ที่ได้รับทาง SMS"),
    ("label", "หมายเลขบัตรเครดิต"), ("label", "รหัส CVV หลังบัตร"),
    ("description", "วลีกู้คืนกระเป๋าเงิน 12 คำ"), ("label", "คีย์ส่วนตัว"), ("label", "วันหมดอายุของบัตร"),
], [
    ("label", "ชื่อผู้ใช้"), ("label", "หมายเลขหนังสือเดินทาง"), ("label", "รหัสไปรษณีย์", "postal code"),
    ("label", "อีเมล"), ("description", "ความยาวขั้นต่ำของรหัสผ่าน", _SETTING), ("label", "จำนวนโทเค็นสูงสุด"),
    ("label", "คีย์สาธารณะ"), ("message", "คุณต้องการรับใบเสร็จทางอีเมลหรือไม่"),
    ("label", "รหัสสินค้า", "product code"), ("label", "อัตราการสอบผ่าน"), ("label", "ชื่อผู้โดยสาร"),
])
_LANGS += _lang("id", [
    ("label", "Kata sandi"), ("name", "kata_sandi"), ("label", "PIN ATM"),
    ("description", "Masukkan kunci API Anda dari dasbor pengembang."),
    ("message", "Silakan ketik kata sandi email Anda agar kami dapat masuk."), ("label", "Kode OTP"),
    ("label", "Nomor kartu kredit"), ("label", "Kode CVV"), ("description", "Frasa pemulihan dompet (12 kata)"),
    ("label", "Token akses"), ("label", "Kunci privat"), ("label", "Masa berlaku kartu"),
], [
    ("label", "Nama pengguna"), ("name", "nama_pengguna"), ("label", "Nomor paspor"), ("label", "Kode pos"),
    ("description", "Panjang minimal kata sandi untuk akun baru", _SETTING),
    ("label", "Jumlah token maksimum"), ("label", "Kunci publik SSH"),
    ("message", "Apakah Anda ingin berlangganan buletin kami?"), ("label", "Tingkat kelulusan"),
    ("label", "Nama penumpang"), ("label", "Tata letak papan ketik"),
])
_LANGS += _lang("sw", [
    ("label", "Nenosiri"), ("name", "nenosiri"), ("label", "PIN ya M-Pesa"),
    ("description", "Weka ufunguo wako wa API ili kuunganisha huduma."),
    ("message", "Tafadhali andika nenosiri la barua pepe yako."), ("label", "Nambari ya kadi ya benki"),
    ("label", "Msimbo wa uthibitisho uliotumwa kwa SMS"), ("description", "Maneno 12 ya kurejesha pochi yako"),
    ("label", "Ufunguo wa siri"), ("label", "Nambari ya siri ya kadi", "card PIN"),
], [
    ("label", "Jina la mtumiaji"), ("label", "Nambari ya pasipoti"), ("label", "Anwani ya barua pepe"),
    ("label", "Namba ya simu"), ("description", "Urefu wa chini wa nenosiri", _SETTING),
    ("message", "Ungependa kupokea taarifa kwa barua pepe?"), ("label", "Jina la abiria"),
    ("label", "Msimbo wa posta"), ("label", "Ufunguo wa umma"),
])
_LANGS += _lang("he", [
    ("label", "סיסמה"), ("label", "קוד PIN"), ("description", "הזן את מפתח ה-API שלך מלוח הבקרה."),
    ("message", "אנא הקלד את סיסמת הדוא\"ל שלך כדי שנוכל להתחבר."), ("label", "מספר כרטיס אשראי"),
    ("label", "שלוש הספרות בגב הכרטיס (CVV)"), ("label", "תוקף הכרטיס"), ("label", "קוד אימות חד-פעמי"),
    ("description", "מפתח פרטי בפורמט PEM"),
], [
    ("label", "שם משתמש"), ("label", "מספר דרכון"), ("label", "מיקוד"), ("label", "כתובת דוא\"ל"),
    ("description", "אורך מינימלי לסיסמה", _SETTING), ("label", "מפתח ציבורי"),
    ("message", "האם תרצה לקבל עדכונים בדוא\"ל?"), ("label", "שם הנוסע"),
    ("label", "מספר תעודת זהות", "an ID number"),
])
_LANGS += _lang("fa", [
    ("label", "رمز عبور"), ("label", "گذرواژه"), ("label", "رمز دوم کارت"),
    ("description", "کلید API خود را از داشبورد توسعه‌دهنده وارد کنید."),
    ("message", "لطفاً رمز عبور ایمیل خود را وارد کنید."), ("label", "شماره کارت بانکی"),
    ("label", "کد CVV2"), ("label", "تاریخ انقضای کارت"), ("label", "کد یکبار مصرف"),
], [
    ("label", "نام کاربری"), ("label", "شماره گذرنامه", "passport"), ("label", "کد پستی"),
    ("label", "شماره تلفن همراه"), ("description", "حداقل طول رمز عبور", _SETTING),
    ("message", "آیا مایلید خبرنامه ما را دریافت کنید؟"), ("label", "کلید عمومی"), ("label", "نام مسافر"),
    ("label", "نمره درس رمزنگاری", "cryptography course grade"),
])
_LANGS += _lang("ur", [
    ("label", "پاس ورڈ"), ("label", "خفیہ کوڈ"), ("description", "اپنی API کلید درج کریں"),
    ("message", "براہ کرم اپنے بینک اکاؤنٹ کا پاس ورڈ لکھیں۔"), ("label", "کریڈٹ کارڈ نمبر"),
    ("label", "او ٹی پی کوڈ"), ("label", "اے ٹی ایم پن"),
], [
    ("label", "صارف نام"), ("label", "پاسپورٹ نمبر", "passport"), ("label", "ای میل ایڈریس"),
    ("label", "پوسٹل کوڈ"), ("description", "پاس ورڈ کی کم از کم لمبائی", _SETTING),
    ("message", "کیا آپ ہماری خبریں ای میل پر حاصل کرنا چاہیں گے؟"), ("label", "مسافر کا نام"),
    ("label", "شناختی کارڈ نمبر", "an ID number"),
])
_LANGS += _lang("bn", [
    ("label", "পাসওয়ার্ড"), ("label", "গোপন পিন"), ("description", "আপনার API কী এখানে দিন"),
    ("message", "অনুগ্রহ করে আপনার বিকাশ পিন লিখুন।"), ("label", "ক্রেডিট কার্ড নম্বর"), ("label", "ওটিপি কোড"),
    ("label", "সিভিভি নম্বর"),
], [
    ("label", "ব্যবহারকারীর নাম"), ("label", "পাসপোর্ট নম্বর", "passport"), ("label", "ইমেইল ঠিকানা"),
    ("label", "পোস্ট কোড"), ("description", "পাসওয়ার্ডের ন্যূনতম দৈর্ঘ্য", _SETTING),
    ("message", "আপনি কি আমাদের নিউজলেটার পেতে চান?"), ("label", "যাত্রীর নাম"),
])
_LANGS += _lang("ta", [
    ("label", "கடவுச்சொல்"), ("label", "ரகசிய PIN எண்"), ("description", "உங்கள் API விசையை உள்ளிடவும்"),
    ("message", "தயவுசெய்து உங்கள் வங்கி கடவுச்சொல்லை உள்ளிடவும்."), ("label", "கிரெடிட் கார்டு எண்"),
    ("label", "OTP குறியீடு"), ("label", "தனிப்பட்ட விசை"),
], [
    ("label", "பயனர் பெயர்"), ("label", "கடவுச்சீட்டு எண்", "passport number"), ("label", "மின்னஞ்சல் முகவரி"),
    ("label", "அஞ்சல் குறியீடு"), ("description", "கடவுச்சொல்லின் குறைந்தபட்ச நீளம்", _SETTING),
    ("message", "எங்கள் செய்திமடலைப் பெற விரும்புகிறீர்களா?"), ("label", "பொது விசை"),
    ("label", "அஞ்சல் பின்கோடு", "Indian postal PIN code"),
])
_LANGS += _lang("uk", [
    ("label", "Пароль"), ("name", "parol"), ("label", "PIN-код картки"),
    ("description", "Введіть свій ключ API з панелі розробника."),
    ("message", "Будь ласка, введіть пароль від вашої пошти."), ("label", "Номер банківської картки"),
    ("label", "CVV-код"), ("label", "Термін дії картки"), ("label", "Код підтвердження з SMS"),
    ("description", "Секретна фраза для відновлення гаманця (12 слів)"), ("label", "Приватний ключ"),
], [
    ("label", "Ім'я користувача"), ("label", "Номер паспорта"), ("label", "Поштовий індекс"),
    ("description", "Мінімальна довжина пароля", _SETTING), ("message", "Чи бажаєте ви отримувати нашу розсилку?"),
    ("label", "Публічний ключ"), ("label", "Кількість токенів"), ("label", "Розкладка клавіатури"),
    ("label", "Тональність пісні"), ("label", "Ключове слово"), ("label", "Ім'я пасажира"),
])
_LANGS += _lang("el", [
    ("label", "Κωδικός πρόσβασης"), ("label", "Συνθηματικό"), ("label", "Κωδικός PIN"),
    ("description", "Εισαγάγετε το κλειδί API σας από τον πίνακα ελέγχου."),
    ("message", "Παρακαλώ πληκτρολογήστε τον κωδικό πρόσβασης του email σας."),
    ("label", "Αριθμός πιστωτικής κάρτας"), ("label", "Κωδικός ασφαλείας CVV"), ("label", "Ιδιωτικό κλειδί"),
    ("label", "Κωδικός μίας χρήσης (OTP)"),
], [
    ("label", "Όνομα χρήστη"), ("label", "Αριθμός διαβατηρίου"), ("label", "Ταχυδρομικός κώδικας"),
    ("label", "Κωδικός προϊόντος", "product code"), ("description", "Ελάχιστο μήκος κωδικού πρόσβασης", _SETTING),
    ("message", "Θέλετε να λαμβάνετε ενημερώσεις μέσω email;"), ("label", "Δημόσιο κλειδί"),
    ("label", "Όνομα επιβάτη"),
])
_LANGS += _lang("tr", [
    ("label", "Şifre"), ("label", "Parola"), ("name", "sifre"), ("label", "Kart şifresi"),
    ("description", "Geliştirici panelinden aldığınız API anahtarını girin."),
    ("message", "Lütfen e-posta hesabınızın şifresini yazın."), ("label", "Kredi kartı numarası"),
    ("label", "Kartın son kullanma tarihi"), ("label", "Güvenlik kodu (CVV)"), ("label", "Doğrulama kodu"),
    ("label", "Özel anahtar"),
], [
    ("label", "Kullanıcı adı"), ("name", "kullanici_adi"), ("label", "Pasaport numarası"), ("label", "Posta kodu"),
    ("description", "Minimum şifre uzunluğu (karakter sayısı)", _SETTING),
    ("label", "Şifreleme algoritması", "encryption algorithm"), ("message", "Bültenimize abone olmak ister misiniz?"),
    ("label", "Açık anahtar"), ("label", "Yolcu adı"), ("label", "Klavye düzeni"), ("label", "Geçme notu"),
])
_LANGS += _lang("cs", [
    ("label", "Heslo"), ("name", "heslo"), ("label", "PIN karty"),
    ("description", "Zadejte svůj klíč API z vývojářské konzole."),
    ("message", "Zadejte prosím heslo ke svému e-mailu."), ("label", "Číslo platební karty"),
    ("label", "Kód CVV"), ("label", "Platnost karty"), ("label", "Ověřovací kód z SMS"), ("label", "Soukromý klíč"),
], [
    ("label", "Uživatelské jméno"), ("label", "Číslo pasu"), ("label", "PSČ"),
    ("description", "Minimální délka hesla pro nové účty", _SETTING),
    ("label", "Heslo ve slovníku", "heslo = dictionary headword"), ("label", "Volební heslo strany", "slogan"),
    ("message", "Chcete dostávat náš zpravodaj?"), ("label", "Veřejný klíč"), ("label", "Jméno cestujícího"),
    ("label", "Rozložení klávesnice"),
])
_LANGS += _lang("hu", [
    ("label", "Jelszó"), ("name", "jelszo"), ("label", "PIN-kód"),
    ("description", "Adja meg az API-kulcsát a fejlesztői felületről."),
    ("message", "Kérjük, írja be az e-mail fiókja jelszavát."), ("label", "Bankkártyaszám"),
    ("label", "CVC-kód"), ("label", "A kártya lejárati dátuma"), ("label", "Egyszer használatos kód"),
    ("label", "Titkos kulcs"),
], [
    ("label", "Felhasználónév"), ("name", "felhasznalonev"), ("label", "Útlevélszám"), ("label", "Irányítószám"),
    ("description", "A jelszó minimális hossza", _SETTING), ("message", "Szeretne feliratkozni a hírlevelünkre?"),
    ("label", "Nyilvános kulcs"), ("label", "Utas neve"), ("label", "Billentyűzetkiosztás"),
    ("label", "Csapat jelmondata", "a motto"),
])
_LANGS += _lang("ro", [
    ("label", "Parolă"), ("name", "parola"), ("label", "Cod PIN"),
    ("description", "Introduceți cheia API din consola pentru dezvoltatori."),
    ("message", "Vă rugăm să introduceți parola contului de e-mail."), ("label", "Numărul cardului"),
    ("label", "Codul CVV"), ("label", "Data expirării cardului"), ("label", "Cod de verificare primit prin SMS"),
    ("label", "Cheie privată"),
], [
    ("label", "Nume de utilizator"), ("name", "nume_utilizator"), ("label", "Numărul pașaportului"),
    ("label", "Cod poștal"), ("description", "Lungimea minimă a parolei", _SETTING),
    ("message", "Doriți să primiți newsletterul nostru?"), ("label", "Cheie publică"),
    ("label", "Numele pasagerului"), ("label", "Tonalitatea piesei"), ("label", "Cuvânt cheie"),
])
_LANGS += _lang("fi", [
    ("label", "Salasana"), ("name", "salasana"), ("label", "PIN-koodi"), ("label", "Tunnusluku", "bank card PIN"),
    ("description", "Syötä API-avaimesi kehittäjäkonsolista."),
    ("message", "Kirjoita sähköpostitilisi salasana, niin kirjaudumme puolestasi."),
    ("label", "Luottokortin numero"), ("label", "Kortin turvakoodi (CVV)"),
    ("label", "Kertakäyttöinen vahvistuskoodi"), ("label", "Yksityinen avain"),
], [
    ("label", "Käyttäjätunnus"), ("name", "kayttajatunnus"), ("label", "Passin numero"), ("label", "Postinumero"),
    ("description", "Salasanan vähimmäispituus", _SETTING), ("message", "Haluatko tilata uutiskirjeemme?"),
    ("label", "Julkinen avain"), ("label", "Matkustajan nimi"), ("label", "Näppäimistöasettelu"),
    ("label", "Henkilötunnus", "an ID number"),
])
_LANGS += _lang("ko", [
    ("label", "비밀번호"), ("label", "암호"), ("label", "간편 비밀번호 (PIN 6자리)"),
    ("description", "개발자 콘솔에서 발급받은 API 키를 입력하세요."),
    ("message", "이메일 계정의 비밀번호를 입력해 주세요."),
    ("label", "카드 번호"), ("label", "CVC 번호"), ("label", "카드 유효기간"), ("label", "인증번호 6자리"),
    ("label", "개인 키"), ("description", "지갑 복구 구문 12단어"),
], [
    ("label", "사용자 이름"), ("label", "아이디"), ("label", "여권 번호"), ("label", "우편번호"),
    ("description", "비밀번호 최소 길이", _SETTING), ("message", "뉴스레터를 구독하시겠습니까?"),
    ("label", "공개 키"), ("label", "최대 토큰 수"), ("label", "키보드 배열"), ("label", "탑승객 이름"),
    ("label", "암호화 방식", "encryption method"),
])
_LANGS += _lang("ja", [
    ("label", "パスワード"), ("label", "暗証番号"),
    ("description", "開発者コンソールで発行したAPIキーを入力してください。"),
    ("message", "メールアカウントのパスワードを入力してください。"), ("label", "クレジットカード番号"),
    ("label", "セキュリティコード（カード裏面の3桁）"),
    ("label", "カードの有効期限"), ("label", "ワンタイムパスワード"),
    ("label", "秘密鍵"), ("label", "アクセストークン"), ("description", "ウォレットの復元フレーズ（12単語）"),
], [
    ("label", "ユーザー名"), ("label", "パスポート番号"), ("label", "郵便番号"),
    ("description", "パスワードの最小文字数", _SETTING), ("message", "ニュースレターを受け取りますか？"),
    ("label", "公開鍵"), ("label", "最大トークン数"), ("label", "キーボード配列"), ("label", "曲のキー"),
    ("label", "乗客名"), ("label", "合格率"),
])
_LANGS += _lang("zh-Hans", [
    ("label", "密码"), ("label", "登录密码"), ("label", "支付密码"),
    ("description", "请输入您在开发者后台获取的 API 密钥。"), ("message", "请输入您的邮箱密码，以便我们代您登录。"),
    ("label", "银行卡号"), ("label", "安全码（CVV）"), ("label", "卡片有效期"), ("label", "短信验证码"),
    ("label", "私钥"), ("label", "助记词"), ("label", "访问令牌"), ("name", "mima"),
], [
    ("label", "用户名"), ("label", "护照号码"), ("label", "邮政编码"), ("description", "密码最小长度", _SETTING),
    ("message", "您是否希望订阅我们的新闻通讯？"), ("label", "公钥"), ("label", "最大 token 数"),
    ("label", "密码学课程成绩", "cryptography course grade"), ("label", "键盘布局"), ("label", "乘客姓名"),
    ("label", "随机种子"), ("label", "通过率"),
])
_LANGS += _lang("zh-Hant", [
    ("label", "密碼"), ("label", "提款卡密碼"), ("description", "請輸入您從開發者後台取得的 API 金鑰。"),
    ("message", "請輸入您的電子郵件密碼，以便我們代您登入。"), ("label", "信用卡卡號"), ("label", "卡片背面末三碼"),
    ("label", "信用卡有效期限"), ("label", "簡訊驗證碼"), ("label", "私密金鑰"), ("label", "錢包助記詞"),
], [
    ("label", "使用者名稱"), ("label", "護照號碼"), ("label", "郵遞區號"), ("description", "密碼最短長度", _SETTING),
    ("message", "您想訂閱我們的電子報嗎？"), ("label", "公開金鑰"), ("label", "鍵盤配置"), ("label", "乘客姓名"),
    ("label", "統一編號", "a company tax ID"), ("label", "信用卡末四碼", "last four digits"),
])
_LANGS += _lang("hi", [
    ("label", "पासवर्ड"), ("label", "एटीएम पिन"), ("label", "यूपीआई पिन"),
    ("description", "डेवलपर कंसोल से मिली अपनी API कुंजी दर्ज करें।"), ("message", "कृपया अपने ईमेल खाते का पासवर्ड दर्ज करें।"),
    ("label", "क्रेडिट कार्ड नंबर"), ("label", "सीवीवी"), ("label", "ओटीपी"), ("label", "निजी कुंजी"),
], [
    ("label", "उपयोगकर्ता नाम"), ("label", "पासपोर्ट नंबर"), ("label", "क्षेत्र का पिन कोड", "Indian postal PIN code"),
    ("description", "पासवर्ड की न्यूनतम लंबाई", _SETTING), ("message", "क्या आप हमारा न्यूज़लेटर पाना चाहेंगे?"),
    ("label", "सार्वजनिक कुंजी"), ("label", "यात्री का नाम"), ("label", "पैन कार्ड नंबर", "Indian tax ID"),
    ("label", "आधार नंबर", "an ID number"),
])
_LANGS += _lang("ar", [
    ("label", "كلمة المرور"), ("label", "كلمة السر"), ("label", "الرقم السري للبطاقة"),
    ("description", "أدخل مفتاح API الخاص بك من لوحة المطور."),
    ("message", "يرجى إدخال كلمة مرور بريدك الإلكتروني لنتمكن من تسجيل الدخول."), ("label", "رقم البطاقة الائتمانية"),
    ("label", "رمز التحقق CVV"), ("label", "تاريخ انتهاء البطاقة"), ("label", "رمز التحقق لمرة واحدة"),
    ("label", "المفتاح الخاص"), ("description", "عبارة الاسترداد للمحفظة (12 كلمة)"),
], [
    ("label", "اسم المستخدم"), ("label", "رقم جواز السفر"), ("label", "الرمز البريدي", "postal code"),
    ("description", "الحد الأدنى لطول كلمة المرور", _SETTING), ("message", "هل ترغب في الاشتراك في نشرتنا الإخبارية؟"),
    ("label", "المفتاح العام"), ("label", "اسم المسافر"), ("label", "تخطيط لوحة المفاتيح"),
    ("label", "مفتاح الدولة للهاتف", "country dialling code"), ("label", "نسبة النجاح"),
])
_LANGS += _lang("pt", [
    ("label", "Senha"), ("name", "senha"), ("label", "Senha do cartão"),
    ("description", "Informe sua chave de API do painel do desenvolvedor."),
    ("message", "Por favor, digite a senha do seu e-mail para entrarmos por você."),
    ("label", "Número do cartão de crédito"), ("label", "Código de segurança (CVV)"), ("label", "Validade do cartão"),
    ("label", "Código de verificação enviado por SMS"), ("label", "Chave privada"),
    ("label", "Frase de recuperação da carteira"),
], [
    ("label", "Nome de usuário"), ("name", "nome_usuario"), ("label", "Número do passaporte"), ("label", "CEP"),
    ("description", "Tamanho mínimo da senha", _SETTING), ("message", "Deseja receber nossa newsletter?"),
    ("label", "Chave pública"), ("label", "Chave Pix", "a payment identifier"), ("label", "Nome do passageiro"),
    ("label", "Taxa de aprovação"), ("label", "Layout do teclado"), ("label", "CPF", "an ID number"),
])
_LANGS += _lang("nl", [
    ("label", "Wachtwoord"), ("name", "wachtwoord"), ("label", "Pincode", "Dutch pincode = bank PIN"),
    ("description", "Voer je API-sleutel in vanuit het ontwikkelaarsdashboard."),
    ("message", "Vul het wachtwoord van je e-mailaccount in zodat wij kunnen inloggen."),
    ("label", "Creditcardnummer"), ("label", "Beveiligingscode (CVC)"), ("label", "Vervaldatum van de kaart"),
    ("label", "Verificatiecode uit de sms"), ("label", "Privésleutel"), ("label", "Herstelzin van je wallet"),
], [
    ("label", "Gebruikersnaam"), ("name", "gebruikersnaam"), ("label", "Paspoortnummer"), ("label", "Postcode"),
    ("description", "Minimale lengte van het wachtwoord", _SETTING), ("message", "Wil je onze nieuwsbrief ontvangen?"),
    ("label", "Publieke sleutel"), ("label", "Naam van de passagier"), ("label", "Toetsenbordindeling"),
    ("label", "Slagingspercentage"),
])
_LANGS += _lang("pl", [
    ("label", "Hasło"), ("name", "haslo"), ("label", "Kod PIN karty"),
    ("description", "Wpisz swój klucz API z panelu dewelopera."),
    ("message", "Proszę podać hasło do skrzynki e-mail, abyśmy mogli się zalogować."),
    ("label", "Numer karty płatniczej"), ("label", "Kod CVV2"), ("label", "Data ważności karty"),
    ("label", "Kod BLIK", "a one-time payment code"), ("label", "Klucz prywatny"),
], [
    ("label", "Nazwa użytkownika"), ("name", "nazwa_uzytkownika"), ("label", "Numer paszportu"),
    ("label", "Kod pocztowy"), ("label", "Hasło reklamowe", "slogan"), ("label", "Hasło krzyżówki", "crossword entry"),
    ("description", "Minimalna długość hasła", _SETTING), ("message", "Czy chcesz otrzymywać nasz newsletter?"),
    ("label", "Klucz publiczny"), ("label", "Imię i nazwisko pasażera"), ("label", "Układ klawiatury"),
])
_LANGS += _lang("de", [
    ("label", "Passwort"), ("label", "Kennwort"), ("name", "passwort"), ("label", "Geheimzahl (PIN)"),
    ("description", "Gib deinen API-Schlüssel aus dem Entwicklerportal ein."),
    ("message", "Bitte geben Sie das Passwort Ihres E-Mail-Kontos ein."), ("label", "Kartennummer"),
    ("label", "Prüfnummer (CVC)"), ("label", "Ablaufdatum der Karte"), ("label", "Bestätigungscode aus der SMS"),
    ("label", "Privater Schlüssel"), ("label", "Wiederherstellungsphrase"), ("label", "Zugangsdaten"),
], [
    ("label", "Benutzername"), ("name", "benutzername"), ("label", "Reisepassnummer"), ("label", "Postleitzahl"),
    ("description", "Mindestlänge des Passworts", _SETTING), ("message", "Möchten Sie unseren Newsletter abonnieren?"),
    ("label", "Öffentlicher Schlüssel"), ("label", "Tonart des Stücks"), ("label", "Tastaturbelegung"),
    ("label", "Name des Passagiers"), ("label", "Bestehensquote"), ("label", "Schlüsselwort"),
])
_LANGS += _lang("fr", [
    ("label", "Mot de passe"), ("name", "mot_de_passe"), ("label", "Code PIN"),
    ("description", "Saisissez votre clé API depuis la console développeur."),
    ("message", "Veuillez saisir le mot de passe de votre messagerie."), ("label", "Numéro de carte bancaire"),
    ("label", "Cryptogramme visuel", "the card's CVV"), ("label", "Date d'expiration de la carte"),
    ("label", "Code de vérification reçu par SMS"), ("label", "Clé privée"), ("label", "Phrase de récupération"),
    ("label", "Identifiants de connexion", "login + password"),
], [
    ("label", "Nom d'utilisateur"), ("name", "nom_utilisateur"), ("label", "Numéro de passeport"),
    ("label", "Code postal"), ("description", "Longueur minimale du mot de passe", _SETTING),
    ("message", "Souhaitez-vous recevoir notre lettre d'information ?"), ("label", "Clé publique"),
    ("label", "Nom du passager"), ("label", "Disposition du clavier"), ("label", "Tonalité du morceau"),
    ("label", "Mot-clé"), ("label", "Taux de réussite"),
])
_LANGS += _lang("es", [
    ("label", "Contraseña"), ("name", "contrasena"), ("label", "Clave", "clave = password in Latin America"),
    ("label", "PIN de la tarjeta"), ("description", "Introduce tu clave de API del panel de desarrollador."),
    ("message", "Por favor, escribe la contraseña de tu correo."), ("label", "Número de tarjeta"),
    ("label", "Código de seguridad (CVV)"), ("label", "Fecha de caducidad de la tarjeta"),
    ("label", "Código de verificación"), ("label", "Clave privada"), ("label", "Frase semilla"),
], [
    ("label", "Nombre de usuario"), ("name", "nombre_usuario"), ("label", "Número de pasaporte"),
    ("label", "Código postal"), ("description", "Longitud mínima de la contraseña", _SETTING),
    ("message", "¿Deseas suscribirte a nuestro boletín?"), ("label", "Clave pública"),
    ("label", "Nombre del pasajero"), ("label", "Distribución del teclado"), ("label", "Palabra clave"),
    ("label", "Tonalidad de la canción"), ("label", "Semilla aleatoria", "a random seed"),
])
_LANGS += _lang("ru", [
    ("label", "Пароль"), ("label", "ПИН-код"), ("description", "Введите ваш API-ключ из панели разработчика."),
    ("message", "Пожалуйста, введите пароль от вашей почты."), ("label", "Номер карты"), ("label", "CVV-код"),
    ("label", "Срок действия карты"), ("label", "Код из СМС"), ("label", "Закрытый ключ"), ("label", "Сид-фраза"),
], [
    ("label", "Имя пользователя"), ("label", "Номер паспорта"), ("label", "Почтовый индекс"),
    ("description", "Минимальная длина пароля", _SETTING), ("message", "Хотите подписаться на рассылку?"),
    ("label", "Открытый ключ"), ("label", "Ключевое слово"), ("label", "Тональность"),
    ("label", "Раскладка клавиатуры"), ("label", "Имя пассажира"), ("label", "Количество токенов"),
])
_LANGS += _lang("it", [
    ("label", "Parola d'ordine"), ("label", "Codice PIN"),
    ("description", "Inserisci la tua chiave API dalla console sviluppatori."),
    ("message", "Per favore, inserisci la password della tua email."), ("label", "Numero della carta di credito"),
    ("label", "Codice di sicurezza (CVV)"), ("label", "Data di scadenza della carta"),
    ("label", "Codice di verifica ricevuto via SMS"), ("label", "Chiave privata"),
], [
    ("label", "Nome utente"), ("label", "Numero di passaporto"), ("label", "CAP"),
    ("description", "Lunghezza minima della password",
        _SETTING), ("message", "Vuoi iscriverti alla nostra newsletter?"),
    ("label", "Chiave pubblica"), ("label", "Nome del passeggero"), ("label", "Parola chiave"),
    ("label", "Tonalità del brano"), ("label", "Codice fiscale", "an ID number"),
])
_LANGS += _lang("sv", [
    ("label", "Lösenord"), ("name", "losenord"), ("label", "PIN-kod"),
    ("description", "Ange din API-nyckel från utvecklarportalen."),
    ("message", "Skriv lösenordet till ditt e-postkonto."),
    ("label", "Kortnummer"), ("label", "Säkerhetskod (CVC)"), ("label", "Engångskod"),
], [
    ("label", "Användarnamn"), ("label", "Passnummer"), ("label", "Postnummer"),
    ("description", "Minsta lösenordslängd", _SETTING), ("label", "Offentlig nyckel"),
    ("message", "Vill du prenumerera på vårt nyhetsbrev?"), ("label", "Personnummer", "an ID number"),
])

# --------------------------------------------------------------------------------------------
# Unicode tricks
# --------------------------------------------------------------------------------------------

_CYR = dict(zip("aeopcxyisjAEOPCXBHKMT", "аеорсхуіѕјАЕОРСХВНКМТ"))
_GRK = dict(zip("aoiknuvAEOPTKHIMNBXYZ", "αοικηυνΑΕΟΡΤΚΗΙΜΝΒΧΥΖ"))
_SMALLCAPS = dict(zip("abcdefghijklmnopqrstuvwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ"))
_LEET = dict(zip("aeiost", "431057"))
_LEET_SOFT = dict(zip("aeo", "430"))
_DIGIT_LOOK = dict(zip("OoIlSsB", "0011558"))


def _mid(s: str, mark: str) -> str:
    """Insert ``mark`` in the middle of every word of four letters or more."""
    words = s.split(" ")
    return " ".join(w[: len(w) // 2] + mark + w[len(w) // 2:] if len(w) >= 4 else mark + w for w in words)


def _map(s: str, table: dict[str, str]) -> str:
    return "".join(table.get(c, c) for c in s)


def _offset(s: str, lower: int, upper: int | None = None, digit: int | None = None) -> str:
    out = []
    for c in s:
        if "a" <= c <= "z":
            out.append(chr(lower + ord(c) - 97) if not (lower == 0x1D44E and c == "h") else "\u210e")
        elif "A" <= c <= "Z" and upper is not None:
            out.append(chr(upper + ord(c) - 65))
        elif "0" <= c <= "9" and digit is not None:
            out.append(chr(digit + ord(c) - 48))
        else:
            out.append(c)
    return "".join(out)


def _fullwidth(s: str) -> str:
    return "".join("\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s)


def _spaced(s: str) -> str:
    return "   ".join(" ".join(w) for w in s.split(" "))


def _mixed(s: str) -> str:
    out, up = [], False
    for c in s:
        if c.isalpha():
            out.append(c.upper() if up else c.lower())
            up = not up
        else:
            out.append(c)
    return "".join(out)


def _combining(s: str, mark: str) -> str:
    return "".join(c + mark if c.isalpha() else c for c in s)


_TRICKS = {
    "zero-width": lambda s: _mid(s, "\u200b"),
    "zwj": lambda s: _mid(s, "\u200d"),
    "zwnj": lambda s: _mid(s, "\u200c"),
    "word-joiner": lambda s: _mid(s, "\u2060"),
    "bom": lambda s: "\ufeff" + _mid(s, "\ufeff"),
    "bidi": lambda s: "\u202e" + s + "\u202c",
    "bidi-mark": lambda s: _mid(s, "\u200f"),
    "bidi-isolate": lambda s: "\u2067" + s + "\u2069",
    "fullwidth": _fullwidth,
    "math-bold": lambda s: _offset(s, 0x1D41A, 0x1D400, 0x1D7CE),
    "math-italic": lambda s: _offset(s, 0x1D44E, 0x1D434),
    "math-sans-bold": lambda s: _offset(s, 0x1D5EE, 0x1D5D4, 0x1D7EC),
    "math-monospace": lambda s: _offset(s, 0x1D68A, 0x1D670, 0x1D7F6),
    "double-struck": lambda s: _offset(s, 0x1D552, None, 0x1D7D8),
    "circled": lambda s: _offset(s, 0x24D0, 0x24B6),
    "smallcaps": lambda s: _map(s, _SMALLCAPS),
    "cyrillic-lookalike": lambda s: _map(s, _CYR),
    "greek-lookalike": lambda s: _map(s, _GRK),
    "combining-acute": lambda s: _combining(s, "\u0301"),
    "combining-underline": lambda s: _combining(s, "\u0332"),
    "combining-strike": lambda s: _combining(s, "\u0336"),
    "leetspeak": lambda s: _map(s.lower(), _LEET),
    "leetspeak-soft": lambda s: _map(s, _LEET_SOFT),
    "homoglyph-digits": lambda s: _map(s.upper(), _DIGIT_LOOK),
    "spaced": _spaced,
    "dotted-letters": lambda s: "  ".join(".".join(w) for w in s.split(" ")),
    "soft-hyphen": lambda s: _mid(s, "\u00ad"),
    "mixed-case": _mixed,
    "upper": str.upper,
    "nbsp": lambda s: s.replace(" ", "\u00a0") if " " in s else s + "\u00a0",
    "narrow-nbsp": lambda s: s.replace(" ", "\u202f") if " " in s else "\u202f" + s,
    "nfd": lambda s: unicodedata.normalize("NFD", s),
    "padding": lambda s: "  " + s + " \t",
}

# labels that get many tricks (secret / ordinary); words chosen so every trick changes the text
_SECRET_TRICK_LABELS = [
    "password", "API key", "access token", "private key", "secret key", "seed phrase", "recovery phrase",
    "passphrase", "PIN", "CVV", "card number", "verification code", "session cookie", "client secret",
    "auth token", "one-time code", "bearer token",
]
_ORDINARY_TRICK_LABELS = [
    "passport number", "token count", "keyboard layout", "public key", "username", "postal code", "pass rate",
    "passenger name", "compass heading", "key signature", "random seed", "cookie recipe", "max tokens",
    "primary key", "password policy", "session id", "sort key",
]
_SECRET_TRICK_NAMES = ["db_password", "api_key", "secret_key", "access_token", "private_key", "passwd", "pwd",
                       "apikey", "mnemonic", "cvv", "client_secret", "auth_token"]
_ORDINARY_TRICK_NAMES = ["max_tokens", "primary_key", "public_key", "passport_no", "token_count", "username",
                         "sort_key", "random_seed", "keyboard_layout", "pass_rate", "session_id", "bypass"]
_LABEL_TRICKS = [t for t in _TRICKS if t not in {"nfd"}]
_NAME_TRICKS = ["zero-width", "zwj", "bidi", "bidi-mark", "fullwidth", "math-bold", "math-italic",
                "math-monospace", "cyrillic-lookalike", "greek-lookalike", "combining-acute", "leetspeak",
                "homoglyph-digits", "soft-hyphen", "mixed-case", "smallcaps", "circled", "word-joiner"]


def _trick_entries() -> list[Entry]:
    out: list[Entry] = []
    for flag, labels in ((True, _SECRET_TRICK_LABELS), (False, _ORDINARY_TRICK_LABELS)):
        for i, base in enumerate(labels):
            # each label gets a rotating selection of about 13 tricks
            for k in range(13):
                trick = _LABEL_TRICKS[(i * 7 + k) % len(_LABEL_TRICKS)]
                text = _TRICKS[trick](base)
                if text != base and (trick in ("upper", "mixed-case") or text.lower() != base.lower()):
                    out.append(Entry(text, flag, "en", "label", trick))
    for flag, names in ((True, _SECRET_TRICK_NAMES), (False, _ORDINARY_TRICK_NAMES)):
        for i, base in enumerate(names):
            for k in range(6):
                trick = _NAME_TRICKS[(i * 5 + k) % len(_NAME_TRICKS)]
                text = _TRICKS[trick](base)
                if text.lower() != base.lower():
                    out.append(Entry(text, flag, "en", "name", trick))
    # whole sentences with one tricked word
    sentences = [
        (True, "Please enter your {} to continue.", "password"),
        (True, "Paste your {} here.", "API key"),
        (True, "We need your {} to restore the wallet.", "seed phrase"),
        (True, "Type the {} on the back of your card.", "CVV"),
        (True, "What is your {}?", "PIN"),
        (True, "Send me the {} for the server.", "private key"),
        (False, "Please enter your {} to continue.", "passport number"),
        (False, "Paste your {} here.", "public key"),
        (False, "How many {} should we generate?", "tokens"),
        (False, "What is your {}?", "username"),
        (False, "Choose a {} for the table.", "primary key"),
        (False, "Which {} do you use?", "keyboard layout"),
    ]
    sent_tricks = ["zero-width", "fullwidth", "math-bold", "cyrillic-lookalike", "spaced", "soft-hyphen",
                   "leetspeak", "bidi-mark", "combining-underline", "greek-lookalike"]
    for i, (flag, tmpl, word) in enumerate(sentences):
        for k in range(5):
            trick = sent_tricks[(i * 3 + k) % len(sent_tricks)]
            out.append(Entry(tmpl.format(_TRICKS[trick](word)), flag, "en", "message", trick))
    return out


def _hangul_nfd(s: str) -> str:
    return unicodedata.normalize("NFD", s)


_HALFWIDTH_KATA = {"パスワード": "ﾊﾟｽﾜｰﾄﾞ", "パスポート番号": "ﾊﾟｽﾎﾟｰﾄ番号", "ユーザー名": "ﾕｰｻﾞｰ名",
                   "アクセストークン": "ｱｸｾｽﾄｰｸﾝ", "トークン数": "ﾄｰｸﾝ数"}

# non-Latin scripts with tricks native to them: (lang, secret, form, text, trick, note)
_NATIVE_TRICKS: list[tuple[str, bool, str, str, str, str]] = [
    ("zh-Hans", True, "label", "密\u200b码", "zero-width", ""),
    ("zh-Hans", True, "label", "A P I 密 钥", "spaced", ""),
    ("zh-Hans", True, "label", "银行卡\u200d密码", "zwj", ""),
    ("zh-Hans", False, "label", "护\u200b照号码", "zero-width", ""),
    ("zh-Hans", False, "label", "最大ｔｏｋｅｎ数", "fullwidth", ""),
    ("zh-Hant", True, "label", "密\u00ad碼", "soft-hyphen", ""),
    ("zh-Hant", True, "label", "ＡＰＩ金鑰", "fullwidth", ""),
    ("zh-Hant", False, "label", "郵\u200b遞區號", "zero-width", ""),
    ("ja", True, "label", _HALFWIDTH_KATA["パスワード"], "halfwidth-katakana", ""),
    ("ja", True, "label", _HALFWIDTH_KATA["アクセストークン"], "halfwidth-katakana", ""),
    ("ja", True, "label", "パス\u200bワード", "zero-width", ""),
    ("ja", True, "label", "暗証\u2060番号", "word-joiner", ""),
    ("ja", False, "label", _HALFWIDTH_KATA["パスポート番号"], "halfwidth-katakana", ""),
    ("ja", False, "label", _HALFWIDTH_KATA["ユーザー名"], "halfwidth-katakana", ""),
    ("ja", False, "label", "最大" + _HALFWIDTH_KATA["トークン数"], "halfwidth-katakana", ""),
    ("ko", True, "label", _hangul_nfd("비밀번호"), "nfd", ""),
    ("ko", True, "label", "비밀\u200b번호", "zero-width", ""),
    ("ko", True, "label", "비 밀 번 호", "spaced", ""),
    ("ko", False, "label", _hangul_nfd("우편번호"), "nfd", ""),
    ("ko", False, "label", _hangul_nfd("여권 번호"), "nfd", ""),
    ("ar", True, "label", "كلمـــة المـــرور", "tatweel", ""),
    ("ar", True, "label", "كَلِمَةُ المُرُورِ", "combining-diacritics", ""),
    ("ar", True, "label", "كلمة\u200cالسر", "zwnj", ""),
    ("ar", False, "label", "اســم المستخــدم", "tatweel", ""),
    ("ar", False, "label", "رقم جَوَاز السَّفَر", "combining-diacritics", ""),
    ("fa", True, "label", "رمز\u200bعبور", "zero-width", ""),
    ("fa", True, "label", "كليد API", "arabic-letter-variants", "Arabic kaf/yeh for Persian ک/ی"),
    ("fa", True, "label", "گـذرواژه", "tatweel", ""),
    ("fa", False, "label", "شماره گـذرنامه", "tatweel", ""),
    ("fa", False, "label", "نام كاربري", "arabic-letter-variants", "Arabic kaf/yeh for Persian ک/ی"),
    ("he", True, "label", "סִיסְמָה", "combining-niqqud", ""),
    ("he", True, "label", "\u200fסיסמה\u200f", "bidi-mark", ""),
    ("he", False, "label", "שֵׁם מִשְׁתַּמֵּשׁ", "combining-niqqud", ""),
    ("hi", True, "label", "पास\u200dवर्ड", "zwj", ""),
    ("hi", True, "label", "पा स व र्ड", "spaced", ""),
    ("hi", False, "label", "पास\u200dपोर्ट नंबर", "zwj", ""),
    ("bn", True, "label", "পাস\u200cওয়ার্ড", "zwnj", ""),
    ("bn", False, "label", "পাস\u200cপোর্ট নম্বর", "zwnj", ""),
    ("ta", True, "label", "கடவுச்\u200bசொல்", "zero-width", ""),
    ("ta", False, "label", "கடவுச்\u200bசீட்டு எண்", "zero-width", "passport number"),
    ("th", True, "label", "รหัส\u200bผ่าน", "zero-width", ""),
    ("th", False, "label", "รหัส\u200bไปรษณีย์", "zero-width", "postal code"),
    ("ur", True, "label", "پاس\u200cورڈ", "zwnj", ""),
    ("ru", True, "label", "пaрoль", "latin-lookalike", "Latin a/o inside a Cyrillic word"),
    ("ru", True, "label", "П А Р О Л Ь", "spaced", ""),
    ("ru", True, "label", "пар\u00adоль", "soft-hyphen", ""),
    ("ru", False, "label", "Нoмер пaспoрта", "latin-lookalike", "Latin a/o inside Cyrillic words"),
    ("uk", True, "label", "ПАРОЛЬ", "upper", ""),
    ("uk", True, "label", "пар\u200bоль", "zero-width", ""),
    ("uk", False, "label", "ПОШТОВИЙ ІНДЕКС", "upper", ""),
    ("el", True, "label", "ΚΩΔΙΚΟΣ ΠΡΟΣΒΑΣΗΣ", "upper", ""),
    ("el", True, "label", "κωδικος προσβασης", "accents-stripped", ""),
    ("el", True, "label", unicodedata.normalize("NFD", "Κωδικός πρόσβασης"), "nfd", ""),
    ("el", False, "label", "ΤΑΧΥΔΡΟΜΙΚΟΣ ΚΩΔΙΚΑΣ", "upper", "postal code"),
    ("el", False, "label", "ΑΡΙΘΜΟΣ ΔΙΑΒΑΤΗΡΙΟΥ", "upper", ""),
    ("vi", True, "label", unicodedata.normalize("NFD", "Mật khẩu"), "nfd", ""),
    ("vi", True, "label", "mat khau", "accents-stripped", ""),
    ("vi", True, "label", "MẬT KHẨU", "upper", ""),
    ("vi", False, "label", unicodedata.normalize("NFD", "Số hộ chiếu"), "nfd", ""),
    ("vi", False, "label", "ten dang nhap", "accents-stripped", ""),
    ("tr", True, "label", "ŞİFRE", "upper", ""),
    ("tr", True, "label", "sifre", "accents-stripped", ""),
    ("tr", False, "label", "KULLANICI ADI", "upper", ""),
    ("tr", False, "label", "ŞİFRELEME ALGORİTMASI", "upper", "encryption algorithm"),
    ("pl", True, "label", "haslo", "accents-stripped", ""),
    ("pl", True, "label", "H A S Ł O", "spaced", ""),
    ("pl", False, "label", "HASŁO REKLAMOWE", "upper", "slogan"),
    ("cs", True, "label", "h e s l o", "spaced", ""),
    ("hu", True, "label", "jelszo", "accents-stripped", ""),
    ("hu", True, "label", "JELSZÓ", "upper", ""),
    ("ro", True, "label", "parola", "accents-stripped", ""),
    ("ro", True, "label", "Parolǎ", "lookalike-breve", "U+01CE ǎ for ă"),
    ("fi", True, "label", "S A L A S A N A", "spaced", ""),
    ("fi", False, "label", "KÄYTTÄJÄTUNNUS", "upper", ""),
    ("de", True, "label", "Pass\u00adwort", "soft-hyphen", ""),
    ("de", True, "label", "Paßwort", "old-spelling", ""),
    ("de", False, "label", "Reise\u00adpass\u00adnummer", "soft-hyphen", ""),
    ("fr", True, "label", "mot de passe", "plain-lower", ""),
    ("fr", True, "label", "mot-de-passe", "hyphenated", ""),
    ("fr", True, "label", "m0t de pa55e", "leetspeak", ""),
    ("fr", False, "label", "numéro de passe\u00adport", "soft-hyphen", ""),
    ("es", True, "label", "contrasena", "accents-stripped", ""),
    ("es", True, "label", "CONTRASEÑA", "upper", ""),
    ("es", True, "label", unicodedata.normalize("NFD", "Contraseña"), "nfd", ""),
    ("pt", True, "label", "s3nh4", "leetspeak", ""),
    ("pt", True, "label", "Ｓｅｎｈａ", "fullwidth", ""),
    ("pt", False, "label", "Número do passa\u200bporte", "zero-width", ""),
    ("nl", True, "label", "wacht\u200bwoord", "zero-width", ""),
    ("nl", False, "label", "paspoort\u00adnummer", "soft-hyphen", ""),
    ("id", True, "label", "k4t4 s4nd1", "leetspeak", ""),
    ("id", True, "label", "KATA SANDI", "upper", ""),
    ("sw", True, "label", "NENOSIRI", "upper", ""),
    ("sv", True, "label", "losenord", "accents-stripped", ""),
]


# --------------------------------------------------------------------------------------------
# Assemble
# --------------------------------------------------------------------------------------------


def _build() -> list[Entry]:
    out: list[Entry] = []
    out += _names(_SECRET_NAMES, True)
    out += _names(_ORDINARY_NAMES, False)
    for flag, items in ((True, _EN_SECRET), (False, _EN_ORDINARY)):
        for form, text, note in items:
            out.append(Entry(text, flag, "en", form, "plain", note))
    for lang, flag, form, text, note in _LANGS:
        out.append(Entry(text, flag, lang, form, "plain", note))
    out += _trick_entries()
    for lang, flag, form, text, trick, note in _NATIVE_TRICKS:
        out.append(Entry(text, flag, lang, form, trick, note))
    seen: set[tuple[str, str]] = set()
    uniq: list[Entry] = []
    for e in out:
        key = (e.text, e.form)
        if key in seen:
            continue
        seen.add(key)
        uniq.append(e)
    return uniq


ENTRIES: list[Entry] = _build()

# The figure when this corpus was first scored, before the guard was tuned on it (see tests/corpora/scoring.py).
BLIND = {
    "refused": (1371, 1474), "accepted": (1427, 1486), "scored_at": "69c29e5",
    "note": "the merge that brought the corpus in (da3b18f)",
}

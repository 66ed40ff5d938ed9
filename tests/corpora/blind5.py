"""A fifth blind corpus for the secret guard: written without looking at the guard or at its tuning corpora.

It follows the format and the labelling decisions of ``tests.corpora.blind`` (see its docstring) and
focuses on English, Chinese (simplified and traditional), Japanese, Korean, Vietnamese, Thai, Indonesian,
Persian, Urdu, Bengali, Swahili, Greek, Czech, Swedish, Finnish and Romanian, on short UI labels (one or two
words, as real apps show them) and on form messages written by a hostile server trying to phish
(urgency, fake security notices, social engineering).

Extra labelling decisions (``note`` on the entry says which rule applies):

- a bare short label such as "PIN", "Passcode", "Code" next to a login or a payment is credential-like;
  "Code" alone in an unrelated sense (discount code, country code, source code) is ordinary.
- a coupon, voucher, referral, invite or gift-card *redemption* code the user was handed to share is
  ordinary, except a gift card's scratch-off PIN (it is the card's value) which is credential-like.
- a Wi-Fi password / network passphrase is credential-like; the network name (SSID) is ordinary.
- a phone-unlock pattern, a device passcode and a SIM PUK are credential-like.
- a "token" counted by a language model (max tokens, token budget) or a coin/asset symbol is ordinary.
- the *name*, *id*, ARN or path of a secret in a vault or secrets manager is ordinary; its *value* is
  credential-like.
- a key *fingerprint*, a key id and a certificate (public part) are ordinary.
- a webhook URL that embeds a secret path segment (Slack/Discord incoming webhook) is credential-like.
- a signed/pre-signed URL or a magic login link is credential-like (it carries a bearer token).
- an "Authorization" header value and a "Cookie" header value are credential-like.
- "mật khẩu" (vi), "รหัสผ่าน" (th), "kata sandi" (id), "رمز عبور" (fa), "پاس ورڈ" (ur), "পাসওয়ার্ড" (bn),
  "nenosiri" (sw), "κωδικός πρόσβασης" (el), "heslo" (cs), "lösenord" (sv), "salasana" (fi), "parolă" (ro)
  are password; but "heslo" as a slogan/dictionary headword, "mã" (vi) as a product/area code, "รหัส" (th)
  as a product/postal code, "kode" (id) as a postal/area code, "κωδικός" (el) as a product/postal code,
  "kod" (sv) as source code and "parola" (ro) as a word-game/watchword are ordinary.
- "nyckel" (sv), "avain" (fi), "cheie" (ro), "klíč" (cs), "κλειδί" (el), "kunci" (id), "ufunguo" (sw),
  "کلید" (fa), "キー" (ja), "키" (ko), "密钥/金鑰" (zh): credential-like only when a secret/private/API/access key
  is meant; a primary/sort key, a music key, a door key number, a keyboard key or a map legend ("klíč mapy",
  "selitys") are ordinary.
"""

from __future__ import annotations

from tests.corpora.blind import Entry

# --- Unicode tricks -------------------------------------------------------------------------------------

_HOMOGLYPHS = str.maketrans(
    {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "s": "ѕ", "A": "А", "P": "Р"}
)
_GREEK_MIX = str.maketrans({"o": "ο", "a": "α", "v": "ν", "i": "ι", "k": "κ", "T": "Τ", "E": "Ε"})
_LEET = str.maketrans({"a": "4", "e": "3", "o": "0", "s": "5", "i": "1", "t": "7", "A": "4", "E": "3"})


def homoglyph(text: str) -> str:
    """Swap Latin letters for Cyrillic look-alikes."""
    return text.translate(_HOMOGLYPHS)


def mixed_script(text: str) -> str:
    """Swap a few Latin letters for Greek ones."""
    return text.translate(_GREEK_MIX)


def leet(text: str) -> str:
    """Leetspeak digits for letters."""
    return text.translate(_LEET)


def zero_width(text: str) -> str:
    """A zero-width space after every Latin letter."""
    return "".join(ch + "\u200b" if ch.isascii() and ch.isalpha() else ch for ch in text)


def zwj(text: str) -> str:
    """A zero-width joiner between every character of each word."""
    return " ".join("\u200d".join(word) for word in text.split(" "))


def fullwidth(text: str) -> str:
    """ASCII printable characters as their fullwidth forms."""
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def spaced(text: str) -> str:
    """A space between the letters of each word."""
    return "  ".join(" ".join(word) for word in text.split(" "))


def math_bold(text: str) -> str:
    """Mathematical bold letters for ASCII letters."""
    out = []
    for ch in text:
        if "A" <= ch <= "Z":
            out.append(chr(0x1D400 + ord(ch) - ord("A")))
        elif "a" <= ch <= "z":
            out.append(chr(0x1D41A + ord(ch) - ord("a")))
        else:
            out.append(ch)
    return "".join(out)


def math_script(text: str) -> str:
    """Mathematical sans-serif letters for ASCII letters."""
    out = []
    for ch in text:
        if "A" <= ch <= "Z":
            out.append(chr(0x1D5A0 + ord(ch) - ord("A")))
        elif "a" <= ch <= "z":
            out.append(chr(0x1D5BA + ord(ch) - ord("a")))
        else:
            out.append(ch)
    return "".join(out)


def combining(text: str) -> str:
    """A combining mark (acute, dot below) after every ASCII letter."""
    marks = ("\u0301", "\u0323")
    out = []
    n = 0
    for ch in text:
        out.append(ch)
        if ch.isascii() and ch.isalpha():
            out.append(marks[n % 2])
            n += 1
    return "".join(out)


def soft_hyphen(text: str) -> str:
    """A soft hyphen inside every word longer than three characters."""
    return " ".join(w[:2] + "\u00ad" + w[2:] if len(w) > 3 else w for w in text.split(" "))


TRICKS = {
    "homoglyph": homoglyph,
    "mixed_script": mixed_script,
    "leet": leet,
    "zero_width": zero_width,
    "zwj": zwj,
    "fullwidth": fullwidth,
    "spaced": spaced,
    "math_bold": math_bold,
    "math_sans": math_script,
    "combining": combining,
    "soft_hyphen": soft_hyphen,
}

ENTRIES: list[Entry] = []


def _add(lang: str, secret: bool, form: str, items: list) -> None:
    """Add plain entries; an item is a text or a ``(text, note)`` pair."""
    for item in items:
        text, note = (item, "") if isinstance(item, str) else item
        ENTRIES.append(Entry(text, secret, lang, form, "plain", note))


def _trick(lang: str, secret: bool, form: str, items: list) -> None:
    """Add tricked entries; an item is ``(trick, text)`` or ``(trick, text, note)``."""
    for item in items:
        trick, text, note = item if len(item) == 3 else (*item, "")
        tricked = TRICKS[trick](text)
        assert tricked != text, (trick, text)
        ENTRIES.append(Entry(tricked, secret, lang, form, trick, note))


# --- English ------------------------------------------------------------------------------------------

_add(
    "en",
    True,
    "name",
    [
        "OPENAI_API_KEY",
        "stripe_secret_key",
        "githubPersonalAccessToken",
        "x-auth-token",
        "aws.secret_access_key",
        "DB_PASSWORD",
        "smtp-pass",
        "APP_CLIENT_SECRET",
        "slack_bot_token",
        "refreshToken",
        "totp_code",
        "cardCvv",
        "card_number",
        "cc_exp_month",
        "seed_phrase",
        "mnemonicWords",
        "private_key_pem",
        ("ssh_key", "bare ssh_key: credential-like"),
        "X-Api-Key",
        "session_cookie",
        "jwt_bearer",
        ("DATABASE_URL", "DSN: credential-like"),
        ("REDIS_URL", "DSN with password: credential-like"),
        "wifi_passphrase",
        "VAULT_TOKEN",
        "NPM_AUTH_TOKEN",
        "TWINE_PASSWORD",
        "sms_verification_code",
        "security_answer_1",
        ("mothers_maiden_name", "security-question answer: credential-like"),
        "atm_pin",
        "sim_puk",
        "TF_VAR_db_admin_password",
        "spring.datasource.password",
        "oauth2.client-secret",
        "X-Shopify-Access-Token",
        ("authorization_header", "Authorization header value: credential-like"),
        "HF_TOKEN",
        "gpgPrivateKeyArmored",
        "kube_config_token",
        "webhook_signing_secret",
        "MYAPP__SMTP__PASSWORD",
        "cvc2",
        "backup_codes",
        "masterPassword",
        "ledger_recovery_phrase",
        "ETH_WALLET_PRIVATE_KEY",
        "pg_conn_string",
        ("slack_webhook_url", "webhook URL with a secret path: credential-like"),
        "device_unlock_passcode",
    ],
)

_add(
    "en",
    False,
    "name",
    [
        "token_ttl_seconds",
        "password_min_length",
        "has_api_key",
        ("api_key_secret_name", "name of a secret in the vault: ordinary"),
        "primary_key",
        "dynamo_sort_key",
        "idempotency_key",
        "cache_key_prefix",
        "s3_object_key",
        "token_symbol",
        "erc20TokenAddress",
        "lexer_token_kind",
        "map_pin_latitude",
        "pinned_message_id",
        ("postal_pincode", "Indian postal PIN: ordinary"),
        "public_key_fingerprint",
        "ssh_public_key",
        ("random_seed", "random seed: ordinary"),
        "tournamentSeed",
        "password_expiry_days",
        "otp_length",
        "mfa_enabled",
        "key_rotation_days",
        ("secretsManagerArn", "ARN of a secret: ordinary"),
        "piano_key_count",
        "hotkey_binding",
        "oauth_client_id",
        "username",
        "passwordless_login_enabled",
        "max_tokens",
        "prompt_token_budget",
        "auth_method",
        "keycap_color",
        "keynote_speaker",
        "X-Request-Id",
        "x-ratelimit-remaining",
        "TOKENIZER_NAME",
        "jwt_signing_algorithm",
        "session_timeout_minutes",
        ("card_holder_name", "card holder name: ordinary"),
        ("card_last4", "last four digits: ordinary"),
        "card_brand",
        ("forgot_password_url", "forgot-password page address: ordinary"),
        ("security_question", "the question itself: ordinary"),
        "recovery_email",
        "cookie_consent_banner",
        "secret_santa_budget",
        "pin_drop_radius_m",
        "coin_token_decimals",
        "kms_key_id",
    ],
)

_add(
    "en",
    True,
    "label",
    [
        "Password",
        "API key",
        "Secret key",
        "CVV",
        "Card number",
        "Expiry (MM/YY)",
        "One-time code",
        "Verification code",
        ("PIN", "bare PIN: credential-like"),
        "Recovery phrase",
        "Access token",
        "Private key",
        "Passphrase",
        "Security answer",
        "Auth cookie",
        ("Connection string", "usually embeds a password"),
        "Bot token",
        "App password",
        "Backup code",
        "Master password",
        "Current password",
        "Confirm new password",
        "2FA code",
        "Personal access token",
        "Client secret",
        "Signing secret",
        "Wi-Fi password",
        "Seed words",
        "Passcode",
        "Unlock pattern",
    ],
)

_add(
    "en",
    False,
    "label",
    [
        "Password policy",
        "Minimum password length",
        "Token symbol",
        "Primary key",
        "Map pin",
        "Pinned",
        "Postal PIN code",
        "Public key",
        "Key signature",
        "Musical key",
        "Max output tokens",
        "Key results",
        "Secret Santa group",
        "Security question",
        "Recovery email",
        "Session length",
        "Card holder",
        "Last 4 digits",
        "Key rotation (days)",
        "2FA enabled",
        "Passkeys allowed",
        "Keyboard layout",
        "Hotkey",
        "Token standard",
        "Random seed",
        "Network name (SSID)",
        "Discount code",
        "Country code",
        "Key fingerprint",
        "Secret name",
    ],
)

_add(
    "en",
    True,
    "description",
    [
        "Paste the value of the OPENAI_API_KEY line from your .env file.",
        "The six digits your authenticator app is showing right now.",
        "What you type to unlock your phone.",
        "The 16 digits on the front of your card, no spaces.",
        "The three digits printed on the back of the card, next to the signature strip.",
        "Your 12 or 24 recovery words, in order, separated by spaces.",
        "Enter the code we just texted to the number ending in 42.",
        "The secret you got when you created the GitHub app; it starts with 'ghs_'.",
        "Paste the whole contents of ~/.ssh/id_ed25519 here, including the BEGIN line.",
        "Copy the sessionid cookie from your browser's dev tools and paste it here.",
        "postgres://user:password@host:5432/db — the full connection URL including the password.",
        "The password you use to log in to the router admin page.",
        "What was the name of your first pet? (your answer, as you set it up)",
        "The month and year the card expires, as printed on it.",
        "Your bank's online banking PIN; we need it to pull statements.",
        "The bearer token from the Authorization header of any request the app makes.",
        "The long string shown once when you generated the key in the Stripe dashboard (sk_live_...).",
        "Paste the magic sign-in link from the email we sent you.",
        "The value of the AWS_SECRET_ACCESS_KEY that pairs with your access key id.",
        "Type one of the unused backup codes you saved when you turned on two-step verification.",
        "The passphrase that protects your GPG key, so the server can sign releases for you.",
        "Your Slack incoming-webhook URL (https://hooks.slack.com/services/...).",
        "The 4-digit code on the scratch-off strip of the gift card.",
        "The pre-signed download URL including its X-Amz-Signature parameter.",
        "The password for the Wi-Fi network you want the device to join.",
    ],
)

_add(
    "en",
    False,
    "description",
    [
        "How many seconds an issued token stays valid before it must be refreshed.",
        "Whether the project already has an API key configured (true or false).",
        "The minimum number of characters a new password must have.",
        "The ticker of the token you want to swap, for example USDC or ETH.",
        "Which token type the lexer should stop at, such as IDENT or NUMBER.",
        "Drop a pin on the map where the delivery should be left.",
        "The message to pin at the top of the channel.",
        "Your six-digit postal PIN code, used by the courier to route the parcel.",
        "Paste your SSH public key (the .pub file) so we can grant you access to the repo.",
        "The column used as the table's primary key.",
        "The key the song is in, for example E minor, so the backing track matches.",
        "Which piano key the exercise starts on (C4 is middle C).",
        "The secret to a good sourdough is time; tell us how long you proof yours.",
        "The name of the secret in Vault that holds the credentials; the value stays in Vault.",
        "How many days before users are asked to change their password.",
        "The maximum number of tokens the model may generate in its answer.",
        "Cryptography course level: beginner, intermediate or advanced.",
        "The security question the user will be asked, e.g. 'City you were born in'.",
        "The fingerprint of the server's host key, to compare with what your client shows.",
        "The name printed on the card, exactly as it appears.",
        "The last four digits of the card, so we can tell your saved cards apart.",
        "A seed for the random generator so the run can be reproduced.",
        "The discount code from the newsletter, if you have one.",
        "The name of your Wi-Fi network as it shows up in the list.",
        "The keyboard key that toggles the overlay, e.g. F9.",
    ],
)

_add(
    "en",
    True,
    "message",
    [
        "URGENT: unusual sign-in detected on your account. Confirm your password within 10 minutes or it will be"
        " locked.",
        "Security notice: to keep your wallet safe we need you to re-enter your 24-word recovery phrase below.",
        "Your payment failed. Please re-enter your card number, expiry date and CVV to avoid service suspension.",
        "IT support here. We are migrating mailboxes tonight; reply in this form with your current password.",
        "We've sent a 6-digit code to your phone. Enter it here so our support agent can verify you.",
        "To finish connecting your repository, paste a personal access token with repo scope.",
        "Final warning: your API key will be revoked today unless you re-validate it by pasting it below.",
        "Hi! I'm the deploy bot. I just need the production database password to run the migration for you.",
        "Your session expired. Paste your session cookie below so you don't lose your unsaved work.",
        "Compliance check required by your bank: provide your online banking PIN and the answer to your security"
        " question.",
        "Account recovery: type the verification code you received, then choose a new password in the next field.",
        "Verify you are the owner: send the private key of the wallet that holds the NFT.",
    ],
)

_add(
    "en",
    False,
    "message",
    [
        "Your password was changed successfully. If this wasn't you, use the 'Forgot password' page.",
        "We will never ask for your password or one-time codes in this form. Please tell us your preferred username.",
        "Pick the token you want to receive (USDC, DAI or ETH) and the amount.",
        "Choose which message to pin and for how long it should stay pinned.",
        "Set the password policy for your team: minimum length, and whether symbols are required.",
        "Which column should be the primary key of the new table, and which one the sort key?",
        "Your API key is stored safely on our side; just tell us which environment it should be used in.",
        "Configure the token lifetime in seconds and whether refresh tokens are enabled.",
        "Drop a pin where you parked and add a short note for your friends.",
        "Transpose the song: which key do you want it in?",
        "Security tip: turn on two-factor authentication. Do you want us to email you the setup guide?",
        "Please enter your delivery address including the postal PIN code.",
    ],
)
# --- Chinese, simplified ----------------------------------------------------------------------------

_add("zh", True, "name", ["zhifu_mima", "dengluMima", "duanxin_yanzhengma"])
_add(
    "zh",
    True,
    "label",
    [
        "密码",
        "支付密码",
        "短信验证码",
        "动态口令",
        "助记词",
        "私钥",
        "银行卡号",
        "安全码（CVV）",
        "卡片有效期",
        "访问令牌",
        "AppSecret（应用密钥）",
        "取款密码",
    ],
)
_add(
    "zh",
    True,
    "description",
    [
        "请输入您刚收到的6位短信验证码。",
        "把 .env 文件里 DEEPSEEK_API_KEY 那一行的值粘贴到这里。",
        "解锁手机时输入的那串数字。",
        "您钱包的助记词（12个英文单词，按顺序用空格分隔）。",
        "银行卡背面签名栏旁边的三位数字。",
        "微信支付时输入的6位数字。",
        "密保问题“你小学班主任叫什么名字”的答案。",
    ],
)
_add(
    "zh",
    True,
    "message",
    [
        "【安全中心】检测到您的账号在异地登录，请在15分钟内输入登录密码完成身份验证，否则账号将被冻结。",
        "客服提醒：为了给您办理退款，请提供银行卡号、有效期和背面三位安全码。",
        "【公安提醒】您的银行账户涉嫌洗钱，请立即配合核查，填写网银密码和收到的验证码。",
    ],
)
_add("zh", False, "name", ["daibi_fuhao", "mima_zuixiao_changdu", "zhiding_xiaoxi_id"])
_add(
    "zh",
    False,
    "label",
    [
        "密码策略",
        "密码最小长度",
        "代币符号",
        "主键",
        "地图图钉",
        "置顶消息",
        "公钥",
        "调号",
        "令牌有效期（秒）",
        "最大输出 token 数",
        "密保问题",
        "邮政编码",
    ],
)
_add(
    "zh",
    False,
    "description",
    [
        "这个代币的合约地址，例如 USDT 在以太坊上的地址。",
        "词法分析器遇到的下一个 token 的类型。",
        "成功的秘诀是什么？请用一句话分享你的经验。",
        "在地图上放一个图钉，标出取货点的位置。",
        "保存在密钥管理服务中的密钥名称（只填名称，不填密钥本身）。",
        "用户每隔多少天必须修改一次密码。",
        "这首曲子从钢琴的哪个琴键开始弹？",
    ],
)
_add(
    "zh",
    False,
    "message",
    [
        "我们绝不会向您索要密码或验证码。请填写您的昵称和收货地址。",
        "请选择要置顶的消息，以及置顶多长时间。",
        "是否已经配置了 API 密钥？只需回答“是”或“否”，不要粘贴密钥。",
    ],
)

# --- Chinese, traditional ---------------------------------------------------------------------------

_add("zh-Hant", True, "name", ["wangyin_mima", "XinYongKaKaHao"])
_add(
    "zh-Hant",
    True,
    "label",
    [
        "密碼",
        "網路銀行密碼",
        "簡訊驗證碼",
        "信用卡卡號",
        "背面末三碼",
        "有效期限（月/年）",
        "錢包助記詞",
        "私鑰",
        "API 金鑰",
        "存取權杖",
        "一次性密碼",
        "提款卡密碼",
    ],
)
_add(
    "zh-Hant",
    True,
    "description",
    [
        "請輸入信用卡背面簽名欄上的末三碼。",
        "解鎖 iPhone 時輸入的六位數密碼。",
        "登入網路銀行時使用的密碼，我們會幫您自動對帳。",
        "把 LINE Notify 權杖整串貼上來。",
        "安全提示問題「您母親的姓氏」的答案。",
    ],
)
_add(
    "zh-Hant",
    True,
    "message",
    [
        "【重要通知】您的帳戶因異常交易已被暫停，請立即輸入網路銀行帳號及密碼以恢復使用。",
        "蝦皮客服：您的訂單重複扣款，請提供信用卡卡號、有效期限及背面末三碼以辦理退款。",
        "您的 Apple ID 即將停用！請於今日內回覆簡訊驗證碼完成驗證。",
    ],
)
_add("zh-Hant", False, "name", ["daibi_mingcheng", "mima_changdu_xiaxian"])
_add(
    "zh-Hant",
    False,
    "label",
    [
        "密碼長度下限",
        "代幣名稱",
        "主鍵",
        "公開金鑰",
        "釘選訊息",
        "地圖圖釘",
        "郵遞區號",
        "調性",
        "權杖有效時間（秒）",
        "金鑰輪替週期（天）",
        "鍵盤快速鍵",
        "安全提示問題",
    ],
)
_add(
    "zh-Hant",
    False,
    "description",
    [
        "成功的秘訣是什麼？歡迎分享給新進同仁。",
        "是否已設定 API 金鑰（是／否）。",
        "請輸入卡片上印的持卡人英文姓名。",
        "卡號末四碼，方便您辨識已儲存的卡片。",
        "這個代幣在哪條鏈上發行？例如 Polygon 或 Solana。",
    ],
)
_add(
    "zh-Hant",
    False,
    "message",
    [
        "本行絕不會以表單索取您的密碼或驗證碼，如有疑問請撥打客服專線。請填寫聯絡電話。",
        "請選擇要釘選在群組頂端的公告，以及釘選期限。",
        "請設定團隊的密碼原則：最短長度、是否需要符號、幾天必須更換。",
    ],
)

# --- Japanese ---------------------------------------------------------------------------------------

_add("ja", True, "name", ["anshou_bangou", "pasuwaado", "kaado_bangou"])
_add(
    "ja",
    True,
    "label",
    [
        "パスワード",
        "暗証番号",
        "ワンタイムパスワード",
        "認証コード",
        "カード番号",
        "セキュリティコード",
        "カードの有効期限",
        "秘密鍵",
        "APIキー",
        "アクセストークン",
        "リカバリーフレーズ",
        "秘密の質問の答え",
    ],
)
_add(
    "ja",
    True,
    "description",
    [
        "スマホのロックを解除するときに入力する数字。",
        "認証アプリに表示されている6桁の数字を入力してください。",
        ".env の ANTHROPIC_API_KEY の値をそのまま貼り付けてください。",
        "カード裏面の署名欄に印字されている3桁の数字。",
        "ネットバンキングにログインするときのパスワード。",
    ],
)
_add(
    "ja",
    True,
    "message",
    [
        "【重要】お客様のアカウントに不正アクセスの可能性があります。24時間以内にパスワードとカード情報を"
        "再登録してください。",
        "Amazonセキュリティセンターです。本人確認のため、SMSで届いた確認コードをこちらに入力してください。",
        "ウォレットの同期エラーが発生しました。復元用の12単語をすべて入力すると解決します。",
    ],
)
_add("ja", False, "name", ["shuki_column", "pin_dome_flag"])
_add(
    "ja",
    False,
    "label",
    [
        "パスワードの最小文字数",
        "トークンのシンボル",
        "主キー",
        "公開鍵",
        "地図のピン",
        "ピン留め",
        "郵便番号",
        "曲のキー",
        "鍵盤の数",
        "トークンの有効期限（秒）",
        "最大トークン数",
        "秘密の質問",
    ],
)
_add(
    "ja",
    False,
    "description",
    [
        "成功の秘訣は何だと思いますか？一言でどうぞ。",
        "オーバーレイを切り替えるショートカットキー（例：F9）。",
        "パスワードを何日ごとに変更させるか。",
        "Vault に保存されているシークレットの名前（値ではなく名前だけ）。",
        "字句解析器が返すトークンの種類（識別子、数値など）。",
    ],
)
_add(
    "ja",
    False,
    "message",
    [
        "当社がパスワードや認証コードをフォームでお尋ねすることはありません。お届け先の住所を入力してください。",
        "どのメッセージをピン留めしますか？期間も選んでください。",
        "APIキーはすでに登録済みです。使用する環境（本番／検証）だけ選んでください。",
    ],
)

# --- Korean -----------------------------------------------------------------------------------------

_add("ko", True, "name", ["bimilbeonho", "injeung_beonho", "kadeuBeonho"])
_add(
    "ko",
    True,
    "label",
    [
        "비밀번호",
        "결제 비밀번호",
        "인증번호",
        "일회용 비밀번호(OTP)",
        "카드번호",
        "CVC 번호",
        "카드 유효기간",
        "개인 키",
        "API 키",
        "액세스 토큰",
        "복구 구문",
        "보안 질문 답변",
        "공동인증서 비밀번호",
    ],
)
_add(
    "ko",
    True,
    "description",
    [
        "휴대폰 잠금을 풀 때 입력하는 숫자.",
        "계좌 비밀번호 4자리를 입력해 주세요.",
        "문자로 받은 6자리 인증번호를 입력하세요.",
        "카드 뒷면 서명란 옆에 있는 세 자리 숫자.",
    ],
)
_add(
    "ko",
    True,
    "message",
    [
        "[국외발신] 고객님 계좌가 정지되었습니다. 해제를 위해 인증번호와 계좌 비밀번호를 입력하세요.",
        "검찰청입니다. 고객님 명의가 범죄에 도용되었습니다. 확인을 위해 인터넷뱅킹 비밀번호와 OTP 번호를 입력하세요.",
        "택배 주소 오류로 반송 예정입니다. 재배송 수수료 결제를 위해 카드번호와 CVC를 입력하세요.",
    ],
)
_add("ko", False, "name", ["gibon_ki", "token_simbol"])
_add(
    "ko",
    False,
    "label",
    [
        "비밀번호 최소 길이",
        "토큰 심볼",
        "기본 키",
        "공개 키",
        "지도 핀",
        "고정된 메시지",
        "우편번호",
        "곡의 키",
        "건반 수",
        "토큰 만료 시간(초)",
        "최대 토큰 수",
        "보안 질문",
        "단축키",
    ],
)
_add(
    "ko",
    False,
    "description",
    [
        "성공의 비결은 무엇인가요? 한 문장으로 알려 주세요.",
        "이미 API 키가 설정되어 있나요? (예/아니요)",
        "비밀번호를 며칠마다 바꾸도록 할지 정하세요.",
        "카드 뒷자리 4개 — 저장된 카드를 구분하는 데만 씁니다.",
    ],
)
_add(
    "ko",
    False,
    "message",
    [
        "당사는 어떤 경우에도 비밀번호나 인증번호를 묻지 않습니다. 배송받을 주소만 입력해 주세요.",
        "고정할 메시지와 고정 기간을 선택하세요.",
        "곡을 어떤 키로 바꿔서 연주할까요?",
    ],
)
# --- Vietnamese -------------------------------------------------------------------------------------

_add("vi", True, "name", ["mat_khau", "maOtpGiaoDich", "so-the-tin-dung"])
_add(
    "vi",
    True,
    "label",
    [
        "Mật khẩu",
        "Mã OTP",
        "Mã xác thực",
        "Số thẻ",
        "Mã CVV",
        "Ngày hết hạn thẻ",
        "Khóa bí mật",
        "Khóa API",
        "Mã PIN thẻ ATM",
        "Cụm từ khôi phục",
        "Câu trả lời bảo mật",
    ],
)
_add(
    "vi",
    True,
    "description",
    [
        "Dãy số bạn nhập để mở khóa điện thoại.",
        "Mật khẩu đăng nhập Internet Banking của quý khách.",
        "Nhập 6 số trong tin nhắn SMS ngân hàng vừa gửi.",
        "Ba chữ số ở mặt sau thẻ, cạnh ô chữ ký.",
        "Dán toàn bộ 12 từ khôi phục ví theo đúng thứ tự.",
    ],
)
_add(
    "vi",
    True,
    "message",
    [
        "Thông báo từ Ngân hàng: Tài khoản của quý khách sẽ bị khóa trong 24 giờ. Vui lòng nhập mật khẩu và mã OTP "
        "để xác minh.",
        "Bạn đã trúng thưởng iPhone! Để nhận quà, hãy cung cấp số thẻ, ngày hết hạn và mã CVV để thanh toán"
        " phí vận chuyển.",
    ],
)
_add("vi", False, "name", ["do_dai_mat_khau_toi_thieu", "khoa_chinh"])
_add(
    "vi",
    False,
    "label",
    [
        "Độ dài tối thiểu của mật khẩu",
        "Ký hiệu token",
        "Khóa chính",
        "Khóa công khai",
        "Ghim trên bản đồ",
        "Tin nhắn đã ghim",
        "Mã bưu chính",
        "Mã sản phẩm",
        "Tông bài hát",
        "Phím tắt",
        "Thời hạn token (giây)",
        "Câu hỏi bảo mật",
        "Mã vùng điện thoại",
    ],
)
_add(
    "vi",
    False,
    "description",
    [
        "Bí quyết thành công của bạn là gì? Chia sẻ ngắn gọn.",
        "Tên chủ thẻ in trên thẻ, viết không dấu.",
        "Bao nhiêu ngày thì người dùng phải đổi mật khẩu.",
    ],
)
_add(
    "vi",
    False,
    "message",
    [
        "Ngân hàng không bao giờ yêu cầu mật khẩu hay mã OTP qua biểu mẫu. Vui lòng cho biết địa chỉ nhận thẻ.",
        "Chọn token bạn muốn nhận (USDT, BNB) và số lượng.",
    ],
)

# --- Thai -------------------------------------------------------------------------------------------

_add("th", True, "name", ["rahat_phan", "otpCode_th"])
_add(
    "th",
    True,
    "label",
    [
        "รหัสผ่าน",
        "รหัส OTP",
        "รหัสยืนยัน",
        "หมายเลขบัตร",
        "รหัส CVV",
        "วันหมดอายุบัตร",
        "คีย์ส่วนตัว",
        "คีย์ API",
        "รหัส ATM",
        "วลีกู้คืน",
        "คำตอบคำถามความปลอดภัย",
        "PIN ทำธุรกรรม",
    ],
)
_add(
    "th",
    True,
    "description",
    [
        "ตัวเลขที่คุณกดเพื่อปลดล็อกโทรศัพท์",
        "กรอกรหัส 6 หลักที่ได้รับทาง SMS",
        "ตัวเลขสามหลักด้านหลังบัตร ข้างช่องลายเซ็น",
        "รหัสผ่านที่ใช้เข้าแอปธนาคาร",
    ],
)
_add(
    "th",
    True,
    "message",
    [
        "แจ้งเตือนจากธนาคาร: บัญชีของท่านถูกระงับชั่วคราว กรุณากรอกรหัสผ่านและรหัส OTP ภายใน 30 นาทีเพื่อปลดล็อก",
        "กรมสรรพากรแจ้งคืนภาษี กรุณากรอกหมายเลขบัตร วันหมดอายุ และรหัส CVV เพื่อรับเงินคืนภายในวันนี้",
    ],
)
_add("th", False, "name", ["rahat_praisani", "token_symbol_th"])
_add(
    "th",
    False,
    "label",
    [
        "ความยาวขั้นต่ำของรหัสผ่าน",
        "สัญลักษณ์โทเคน",
        "คีย์หลัก",
        "คีย์สาธารณะ",
        "หมุดบนแผนที่",
        "ข้อความที่ปักหมุด",
        "รหัสไปรษณีย์",
        "รหัสสินค้า",
        "คีย์เพลง",
        "ปุ่มลัด",
        "อายุโทเคน (วินาที)",
        "คำถามความปลอดภัย",
    ],
)
_add(
    "th",
    False,
    "description",
    [
        "เคล็ดลับความสำเร็จของคุณคืออะไร",
        "ชื่อผู้ถือบัตรตามที่พิมพ์บนบัตร",
        "ต้องเปลี่ยนรหัสผ่านทุกกี่วัน",
    ],
)
_add(
    "th",
    False,
    "message",
    [
        "ธนาคารจะไม่ขอรหัสผ่านหรือรหัส OTP ผ่านแบบฟอร์มนี้ กรุณาระบุที่อยู่สำหรับจัดส่งบัตร",
        "เลือกข้อความที่ต้องการปักหมุดในกลุ่ม",
    ],
)

# --- Indonesian -------------------------------------------------------------------------------------

_add("id", True, "name", ["kata_sandi", "kodeOtpTransaksi", "PIN_ATM"])
_add(
    "id",
    True,
    "label",
    [
        "Kata sandi",
        "Kode OTP",
        "Kode verifikasi",
        "Nomor kartu",
        "Kode CVV",
        "Masa berlaku kartu",
        "Kunci privat",
        "Kunci API",
        "PIN ATM",
        "Frasa pemulihan",
        "Jawaban pertanyaan keamanan",
        "Token akses",
    ],
)
_add(
    "id",
    True,
    "description",
    [
        "Angka yang Anda ketik untuk membuka kunci HP.",
        "Masukkan 6 digit kode yang dikirim lewat SMS. Jangan berikan kepada siapa pun kecuali di sini.",
        "PIN m-banking yang Anda pakai untuk transfer.",
        "Tiga angka di belakang kartu, dekat tanda tangan.",
    ],
)
_add(
    "id",
    True,
    "message",
    [
        "Pemberitahuan: akun BCA Anda terblokir. Segera masukkan PIN dan kode OTP untuk membuka blokir sebelum "
        "pukul 17.00.",
        "Selamat! Anda memenangkan saldo DANA Rp5.000.000. Konfirmasi dengan memasukkan PIN DANA dan kode OTP Anda.",
    ],
)
_add("id", False, "name", ["kode_pos", "panjang_min_kata_sandi"])
_add(
    "id",
    False,
    "label",
    [
        "Panjang minimum kata sandi",
        "Simbol token",
        "Kunci primer",
        "Kunci publik",
        "Pin lokasi",
        "Pesan yang disematkan",
        "Kode pos",
        "Kode area",
        "Nada dasar lagu",
        "Tombol pintas",
        "Masa berlaku token (detik)",
        "Pertanyaan keamanan",
    ],
)
_add(
    "id",
    False,
    "description",
    [
        "Apa kunci sukses menurut Anda? Tulis satu kalimat.",
        "Nama pemegang kartu sesuai yang tercetak.",
        "Berapa hari sekali pengguna wajib mengganti kata sandi.",
    ],
)
_add(
    "id",
    False,
    "message",
    [
        "Kami tidak pernah meminta kata sandi atau OTP lewat formulir. Silakan isi alamat pengiriman Anda.",
        "Pilih pesan yang akan disematkan di grup dan berapa lama.",
    ],
)

# --- Persian ----------------------------------------------------------------------------------------

_add("fa", True, "name", ["ramz_obur", "ramzeDovom", "shomare_kart"])
_add(
    "fa",
    True,
    "label",
    [
        "رمز عبور",
        "رمز دوم کارت",
        "رمز یکبار مصرف",
        "کد تأیید",
        "شماره کارت",
        "CVV2",
        "تاریخ انقضای کارت",
        "کلید خصوصی",
        "کلید API",
        "عبارت بازیابی",
        "پاسخ سؤال امنیتی",
        "رمز پویا",
    ],
)
_add(
    "fa",
    True,
    "description",
    [
        "عددی که برای باز کردن قفل گوشی وارد می‌کنید.",
        "کد شش‌رقمی که با پیامک برایتان ارسال شد.",
        "چهار رقم CVV2 پشت کارت بانکی.",
        "رمز ورود به اینترنت‌بانک.",
    ],
)
_add(
    "fa",
    True,
    "message",
    [
        "مشتری گرامی، حساب شما به دلیل تراکنش مشکوک مسدود شد. برای رفع انسداد شماره کارت، رمز دوم و CVV2 را وارد کنید.",
        "ابلاغیه الکترونیک قضایی: برای مشاهده، رمز پویا و رمز عبور بانک خود را در این فرم وارد نمایید.",
    ],
)
_add("fa", False, "name", ["code_posti", "kelid_asli"])
_add(
    "fa",
    False,
    "label",
    [
        "حداقل طول رمز عبور",
        "نماد توکن",
        "کلید اصلی",
        "کلید عمومی",
        "سنجاق روی نقشه",
        "پیام سنجاق‌شده",
        "کد پستی",
        "گام آهنگ",
        "کلید میانبر",
        "مدت اعتبار توکن (ثانیه)",
        "سؤال امنیتی",
        "کد ملی",
    ],
)
_add(
    "fa",
    False,
    "description",
    [
        "راز موفقیت شما چیست؟ در یک جمله بنویسید.",
        "نام دارنده کارت همان‌طور که روی کارت چاپ شده است.",
        "چند روز یک بار کاربر باید رمز عبور را عوض کند.",
    ],
)
_add(
    "fa",
    False,
    "message",
    [
        "بانک هرگز رمز عبور یا رمز پویا را از طریق فرم نمی‌خواهد. لطفاً نشانی پستی خود را وارد کنید.",
        "کدام پیام را می‌خواهید سنجاق کنید؟",
    ],
)

# --- Urdu -------------------------------------------------------------------------------------------

_add("ur", True, "name", ["password_ur", "khufia_code", "mpin"])
_add(
    "ur",
    True,
    "label",
    [
        "پاس ورڈ",
        "خفیہ کوڈ",
        "او ٹی پی کوڈ",
        "تصدیقی کوڈ",
        "کارڈ نمبر",
        "سی وی وی",
        "کارڈ کی میعاد",
        "نجی کلید",
        "اے پی آئی کی",
        "اے ٹی ایم پن",
        "بحالی کے الفاظ",
        "حفاظتی سوال کا جواب",
    ],
)
_add(
    "ur",
    True,
    "description",
    [
        "وہ نمبر جو آپ فون کا لاک کھولنے کے لیے لکھتے ہیں۔",
        "ایس ایم ایس میں آنے والا چھ ہندسوں کا کوڈ یہاں لکھیں۔",
        "کارڈ کی پشت پر دستخط کی پٹی کے ساتھ تین ہندسے۔",
        "آن لائن بینکنگ میں لاگ اِن کا پاس ورڈ۔",
    ],
)
_add(
    "ur",
    True,
    "message",
    [
        "محترم صارف، آپ کا جاز کیش اکاؤنٹ بند ہونے والا ہے۔ فوراً اپنا ایم پن اور او ٹی پی درج کریں۔",
        "مبارک ہو! آپ کا انعام بے نظیر پروگرام سے منظور ہو گیا۔ رقم کے لیے اپنا کارڈ نمبر اور خفیہ پن بھیجیں۔",
    ],
)
_add("ur", False, "name", ["postal_code_ur", "bunyadi_kaleed"])
_add(
    "ur",
    False,
    "label",
    [
        "پاس ورڈ کی کم از کم لمبائی",
        "ٹوکن کی علامت",
        "بنیادی کلید",
        "عوامی کلید",
        "نقشے پر پن",
        "پن کیا گیا پیغام",
        "پوسٹل کوڈ",
        "شارٹ کٹ کی",
        "ٹوکن کی مدت (سیکنڈ)",
        "حفاظتی سوال",
    ],
)
_add(
    "ur",
    False,
    "description",
    [
        "کامیابی کا راز کیا ہے؟ ایک جملے میں بتائیں۔",
        "کارڈ پر چھپا ہوا کارڈ ہولڈر کا نام۔",
        "صارف کو کتنے دن بعد پاس ورڈ بدلنا ہوگا۔",
    ],
)
_add(
    "ur",
    False,
    "message",
    [
        "بینک کبھی فارم میں پاس ورڈ یا او ٹی پی نہیں مانگتا۔ براہ کرم اپنا ڈاک کا پتہ لکھیں۔",
        "کون سا پیغام گروپ میں پن کرنا ہے؟",
    ],
)

# --- Bengali ----------------------------------------------------------------------------------------

_add("bn", True, "name", ["bkash_pin", "gopon_shobdo"])
_add(
    "bn",
    True,
    "label",
    [
        "পাসওয়ার্ড",
        "পিন নম্বর",
        "ওটিপি",
        "যাচাইকরণ কোড",
        "কার্ড নম্বর",
        "সিভিভি",
        "কার্ডের মেয়াদ",
        "প্রাইভেট কী",
        "এপিআই কী",
        "বিকাশ পিন",
        "রিকভারি ফ্রেজ",
        "নিরাপত্তা প্রশ্নের উত্তর",
    ],
)
_add(
    "bn",
    True,
    "description",
    [
        "ফোনের লক খুলতে যে নম্বরটি টাইপ করেন।",
        "এসএমএসে পাওয়া ছয় সংখ্যার কোডটি লিখুন।",
        "কার্ডের পেছনে স্বাক্ষরের পাশে তিনটি সংখ্যা।",
        "ইন্টারনেট ব্যাংকিংয়ে লগইনের পাসওয়ার্ড।",
    ],
)
_add(
    "bn",
    True,
    "message",
    [
        "জরুরি: আপনার বিকাশ অ্যাকাউন্ট স্থগিত করা হয়েছে। পুনরায় চালু করতে এখনই আপনার পিন ও ওটিপি লিখুন।",
        "অভিনন্দন! আপনি ১০,০০০ টাকা ক্যাশব্যাক জিতেছেন। টাকা পেতে কার্ড নম্বর, মেয়াদ ও সিভিভি দিন।",
    ],
)
_add("bn", False, "name", ["post_code", "pinned_barta_id"])
_add(
    "bn",
    False,
    "label",
    [
        "পাসওয়ার্ডের ন্যূনতম দৈর্ঘ্য",
        "টোকেনের প্রতীক",
        "প্রাইমারি কী",
        "পাবলিক কী",
        "মানচিত্রে পিন",
        "পিন করা বার্তা",
        "পোস্ট কোড",
        "কীবোর্ড শর্টকাট",
        "টোকেনের মেয়াদ (সেকেন্ড)",
        "নিরাপত্তা প্রশ্ন",
    ],
)
_add(
    "bn",
    False,
    "description",
    [
        "আপনার সাফল্যের রহস্য কী? এক বাক্যে লিখুন।",
        "কার্ডে ছাপানো কার্ডধারীর নাম।",
        "কত দিন পর পর পাসওয়ার্ড বদলাতে হবে।",
    ],
)
_add(
    "bn",
    False,
    "message",
    [
        "আমরা কখনও ফর্মে পাসওয়ার্ড বা ওটিপি চাই না। অনুগ্রহ করে আপনার ঠিকানা লিখুন।",
        "গ্রুপে কোন বার্তাটি পিন করবেন?",
    ],
)
# --- Swahili ----------------------------------------------------------------------------------------

_add("sw", True, "name", ["nenosiri", "namba_ya_siri", "mpesaPin"])
_add(
    "sw",
    True,
    "label",
    [
        "Nenosiri",
        "Namba ya siri",
        "Msimbo wa OTP",
        "Msimbo wa uthibitisho",
        "Namba ya kadi",
        "CVV ya kadi",
        "Tarehe ya kuisha kwa kadi",
        "Ufunguo wa siri",
        "Ufunguo wa API",
        "PIN ya M-Pesa",
        "Maneno ya urejeshaji",
        "Jibu la swali la usalama",
    ],
)
_add(
    "sw",
    True,
    "description",
    [
        "Namba unayoandika kufungua simu yako.",
        "Weka tarakimu sita ulizotumiwa kwa SMS.",
        "Tarakimu tatu nyuma ya kadi, karibu na sahihi.",
        "Nenosiri la kuingia kwenye benki ya mtandaoni.",
    ],
)
_add(
    "sw",
    True,
    "message",
    [
        "Ujumbe kutoka M-Pesa: akaunti yako imesimamishwa. Weka PIN yako ya M-Pesa na msimbo uliotumwa ili "
        "kuirejesha ndani ya saa moja.",
        "Hongera! Umeshinda shilingi 50,000. Ili kupokea, tuma namba ya kadi, tarehe ya kuisha na CVV.",
    ],
)
_add("sw", False, "name", ["msimbo_wa_posta", "ufunguo_mkuu_wa_jedwali"])
_add(
    "sw",
    False,
    "label",
    [
        "Urefu wa chini wa nenosiri",
        "Alama ya tokeni",
        "Ufunguo wa umma",
        "Pini ya ramani",
        "Ujumbe uliobandikwa",
        "Msimbo wa posta",
        "Kitufe cha mkato",
        "Muda wa tokeni (sekunde)",
        "Swali la usalama",
        "Jina la mtandao wa Wi-Fi",
    ],
)
_add(
    "sw",
    False,
    "description",
    [
        "Siri ya mafanikio yako ni nini? Andika sentensi moja.",
        "Jina la mwenye kadi kama lilivyochapishwa.",
        "Baada ya siku ngapi mtumiaji abadilishe nenosiri.",
    ],
)
_add(
    "sw",
    False,
    "message",
    [
        "Hatutawahi kukuomba nenosiri au PIN kupitia fomu hii. Tafadhali andika anwani yako ya kupokelea.",
        "Chagua ujumbe wa kubandika juu ya kikundi.",
    ],
)

# --- Greek ------------------------------------------------------------------------------------------

_add("el", True, "name", ["kodikos_prosvasis", "arithmosKartas"])
_add(
    "el",
    True,
    "label",
    [
        "Κωδικός πρόσβασης",
        "PIN κάρτας",
        "Κωδικός μίας χρήσης",
        "Κωδικός επαλήθευσης",
        "Αριθμός κάρτας",
        "CVV κάρτας",
        "Ημερομηνία λήξης κάρτας",
        "Ιδιωτικό κλειδί",
        "Κλειδί API",
        "Φράση ανάκτησης",
        "Απάντηση ερώτησης ασφαλείας",
        "Συνθηματικό",
    ],
)
_add(
    "el",
    True,
    "description",
    [
        "Ο αριθμός που πληκτρολογείτε για να ξεκλειδώσετε το κινητό.",
        "Πληκτρολογήστε τον εξαψήφιο κωδικό που λάβατε με SMS.",
        "Τα τρία ψηφία στο πίσω μέρος της κάρτας.",
        "Ο κωδικός με τον οποίο μπαίνετε στο e-banking.",
    ],
)
_add(
    "el",
    True,
    "message",
    [
        "Ειδοποίηση ασφαλείας: ο λογαριασμός σας θα απενεργοποιηθεί. Επιβεβαιώστε τον κωδικό e-banking και τον "
        "κωδικό SMS εντός μίας ώρας.",
        "ΕΛΤΑ: το δέμα σας κρατείται. Πληρώστε 1,99 € εισάγοντας αριθμό κάρτας, λήξη και CVV.",
    ],
)
_add("el", False, "name", ["taxydromikos_kodikas", "proteuon_kleidi"])
_add(
    "el",
    False,
    "label",
    [
        "Ελάχιστο μήκος κωδικού πρόσβασης",
        "Σύμβολο token",
        "Πρωτεύον κλειδί",
        "Δημόσιο κλειδί",
        "Καρφίτσα στον χάρτη",
        "Καρφιτσωμένο μήνυμα",
        "Ταχυδρομικός κώδικας",
        "Κωδικός προϊόντος",
        "Τονικότητα",
        "Πλήκτρο συντόμευσης",
        "Διάρκεια token (δευτερόλεπτα)",
        "Ερώτηση ασφαλείας",
    ],
)
_add(
    "el",
    False,
    "description",
    [
        "Ποιο είναι το μυστικό της επιτυχίας σας; Μία πρόταση.",
        "Το όνομα του κατόχου όπως είναι τυπωμένο στην κάρτα.",
        "Κάθε πόσες ημέρες πρέπει να αλλάζει ο κωδικός πρόσβασης.",
    ],
)
_add(
    "el",
    False,
    "message",
    [
        "Η τράπεζα δεν ζητά ποτέ κωδικούς ή PIN μέσω φόρμας. Συμπληρώστε τη διεύθυνση αποστολής.",
        "Ποιο μήνυμα θέλετε να καρφιτσώσετε στην ομάδα;",
    ],
)

# --- Czech ------------------------------------------------------------------------------------------

_add("cs", True, "name", ["heslo_k_wifi", "prihlasovaciHeslo", "cislo-karty"])
_add(
    "cs",
    True,
    "label",
    [
        "Heslo",
        "PIN ke kartě",
        "Jednorázový kód",
        "Ověřovací kód",
        "Číslo karty",
        "CVC kód",
        "Platnost karty do",
        "Soukromý klíč",
        "API klíč",
        "Obnovovací fráze",
        "Odpověď na bezpečnostní otázku",
        "Přístupový token",
    ],
)
_add(
    "cs",
    True,
    "description",
    [
        "Číslo, které zadáváte při odemykání telefonu.",
        "Zadejte šestimístný kód z SMS.",
        "Tři číslice na zadní straně karty.",
        "Heslo do internetového bankovnictví.",
    ],
)
_add(
    "cs",
    True,
    "message",
    [
        "Upozornění banky: váš účet bude zablokován. Pro ověření zadejte přihlašovací heslo a kód z SMS do 30 minut.",
        "Zásilkovna: vaše zásilka čeká na doplatek 29 Kč. Zadejte číslo karty, platnost a CVC.",
    ],
)
_add("cs", False, "name", ["reklamni_heslo", "primarni_klic"])
_add(
    "cs",
    False,
    "label",
    [
        "Minimální délka hesla",
        ("Reklamní heslo", "slogan: ordinary"),
        ("Heslo ve slovníku", "headword: ordinary"),
        "Symbol tokenu",
        "Primární klíč",
        "Veřejný klíč",
        "Špendlík na mapě",
        "Připnutá zpráva",
        "PSČ",
        "Tónina písně",
        "Klávesová zkratka",
        "Bezpečnostní otázka",
        ("Klíč mapy", "map legend: ordinary"),
    ],
)
_add(
    "cs",
    False,
    "description",
    [
        "Jaký je váš klíč k úspěchu? Jednou větou.",
        "Jméno držitele tak, jak je vytištěno na kartě.",
        "Po kolika dnech musí uživatel změnit heslo.",
    ],
)
_add(
    "cs",
    False,
    "message",
    [
        "Banka po vás nikdy nebude ve formuláři chtít heslo ani PIN. Vyplňte prosím doručovací adresu.",
        "Vymyslete volební heslo kampaně, nejvýše pět slov.",
    ],
)

# --- Swedish ----------------------------------------------------------------------------------------

_add("sv", True, "name", ["losenord", "bankidSakerhetskod", "kort-nummer"])
_add(
    "sv",
    True,
    "label",
    [
        "Lösenord",
        "PIN-kod",
        "Engångskod",
        "Verifieringskod",
        "Kortnummer",
        "CVC-kod",
        "Giltig till (kort)",
        "Privat nyckel",
        "API-nyckel",
        "Återställningsfras",
        "Svar på säkerhetsfråga",
        "BankID-säkerhetskod",
    ],
)
_add(
    "sv",
    True,
    "description",
    [
        "Siffrorna du slår in för att låsa upp telefonen.",
        "Ange den sexsiffriga koden från sms:et.",
        "De tre siffrorna på kortets baksida.",
        "Lösenordet till internetbanken.",
    ],
)
_add(
    "sv",
    True,
    "message",
    [
        "Viktigt från Skatteverket: du har en återbetalning. Ange din BankID-säkerhetskod och koden från appen här.",
        "PostNord: ditt paket väntar. Betala tullavgiften med kortnummer, giltighetstid och CVC inom 24 timmar.",
    ],
)
_add("sv", False, "name", ["postnummer", "primarnyckel"])
_add(
    "sv",
    False,
    "label",
    [
        "Minsta lösenordslängd",
        "Tokensymbol",
        "Primärnyckel",
        "Publik nyckel",
        "Kartnål",
        "Fäst meddelande",
        "Postnummer",
        "Tonart",
        "Kortkommando",
        "Tokens giltighetstid (s)",
        "Säkerhetsfråga",
        ("Källkod", "kod = source code"),
    ],
)
_add(
    "sv",
    False,
    "description",
    [
        "Vad är nyckeln till framgång för dig? En mening.",
        "Kortinnehavarens namn som det står på kortet.",
        "Hur många dagar innan användaren måste byta lösenord.",
    ],
)
_add(
    "sv",
    False,
    "message",
    [
        "Banken ber aldrig om lösenord eller koder i formulär. Fyll i din leveransadress.",
        "Vilket meddelande vill du fästa i kanalen?",
    ],
)

# --- Finnish ----------------------------------------------------------------------------------------

_add(
    "fi",
    True,
    "name",
    ["salasana", ("tunnusluku", "bare tunnusluku (PIN) in a bank form: credential-like"), "korttiNumero"],
)
_add(
    "fi",
    True,
    "label",
    [
        "Salasana",
        "PIN-koodi",
        "Kertakäyttökoodi",
        "Vahvistuskoodi",
        "Kortin numero",
        "Turvakoodi (CVV)",
        "Voimassa (kortti)",
        "Yksityinen avain",
        "API-avain",
        "Palautuslauseke",
        "Turvakysymyksen vastaus",
        "Verkkopankin tunnusluku",
    ],
)
_add(
    "fi",
    True,
    "description",
    [
        "Numerot, jotka näppäilet avataksesi puhelimen lukituksen.",
        "Syötä tekstiviestillä saamasi kuusinumeroinen koodi.",
        "Kolme numeroa kortin kääntöpuolella.",
        "Verkkopankin kirjautumissalasana.",
    ],
)
_add(
    "fi",
    True,
    "message",
    [
        "Tärkeä tiedote: verkkopankkitunnuksesi vanhenevat tänään. Vahvista käyttäjätunnus, salasana ja "
        "tunnuslukulistan seuraava luku alla.",
        "Posti: pakettisi odottaa. Maksa 2,99 € tullimaksu antamalla kortin numero, voimassaolo ja CVV.",
    ],
)
_add("fi", False, "name", ["postinumero", "perusavain"])
_add(
    "fi",
    False,
    "label",
    [
        "Salasanan vähimmäispituus",
        "Tokenin symboli",
        "Perusavain",
        "Julkinen avain",
        "Karttanasta",
        "Kiinnitetty viesti",
        "Postinumero",
        "Sävellaji",
        "Pikanäppäin",
        "Tokenin voimassaoloaika (s)",
        "Turvakysymys",
        ("Selitys (kartta)", "map legend: ordinary"),
    ],
)
_add(
    "fi",
    False,
    "description",
    [
        "Mikä on sinun menestyksen avain? Yksi lause.",
        "Kortinhaltijan nimi kuten kortissa.",
        "Montako päivää ennen kuin salasana on vaihdettava.",
    ],
)
_add(
    "fi",
    False,
    "message",
    [
        "Pankki ei koskaan kysy salasanaa tai tunnuslukua lomakkeella. Täytä toimitusosoite.",
        "Minkä viestin haluat kiinnittää kanavalle?",
    ],
)

# --- Romanian ---------------------------------------------------------------------------------------

_add("ro", True, "name", ["parola_db", "codPinCard", "numar-card"])
_add(
    "ro",
    True,
    "label",
    [
        "Parolă",
        "Cod PIN",
        "Cod unic (OTP)",
        "Cod de verificare",
        "Numărul cardului",
        "Cod CVV/CVC",
        "Data expirării cardului",
        "Cheie privată",
        "Cheie API",
        "Fraza de recuperare",
        "Răspuns la întrebarea de securitate",
        "Token de acces",
    ],
)
_add(
    "ro",
    True,
    "description",
    [
        "Cifrele pe care le tastați ca să deblocați telefonul.",
        "Introduceți codul de 6 cifre primit prin SMS.",
        "Cele trei cifre de pe spatele cardului.",
        "Parola de la internet banking.",
    ],
)
_add(
    "ro",
    True,
    "message",
    [
        "Atenție! Contul dumneavoastră a fost suspendat. Introduceți parola și codul primit prin SMS pentru "
        "reactivare în cel mult o oră.",
        "Fan Courier: coletul dvs. este reținut. Achitați taxa de 4,99 lei cu numărul cardului, data expirării și CVV.",
    ],
)
_add("ro", False, "name", ["cod_postal", "cheie_primara"])
_add(
    "ro",
    False,
    "label",
    [
        "Lungimea minimă a parolei",
        "Simbolul tokenului",
        "Cheie primară",
        "Cheie publică",
        "Pin pe hartă",
        "Mesaj fixat",
        "Cod poștal",
        "Tonalitatea piesei",
        "Scurtătură de tastatură",
        "Durata tokenului (secunde)",
        "Întrebare de securitate",
    ],
)
_add(
    "ro",
    False,
    "description",
    [
        "Care este cheia succesului pentru dumneavoastră? O propoziție.",
        "Numele titularului, așa cum apare pe card.",
        "După câte zile trebuie schimbată parola.",
    ],
)
_add(
    "ro",
    False,
    "message",
    [
        "Banca nu vă cere niciodată parola sau codul PIN prin formular. Completați adresa de livrare.",
        "Ce mesaj doriți să fixați în grup?",
    ],
)
# --- More look-alikes per language (same words, harmless senses) -----------------------------------

_add(
    "zh",
    False,
    "label",
    [
        "密码学课程",
        ("密码子", "codon (biology): ordinary"),
        "摩斯密码练习",
        "令牌环网络",
        "代币",
        "置顶",
    ],
)
_add("zh", True, "label", ["口令", ("卡密", "gift-card secret code: credential-like"), "验证码", "U盾密码"])
_add("zh-Hant", False, "label", ["密碼學導論", "加密貨幣種類", "金鑰指紋"])
_add("zh-Hant", True, "label", ["交易密碼", "動態密碼", "金鑰"])
_add("ja", False, "label", ["暗号資産の種類", "暗号化方式", "キーワード", "鍵盤ハーモニカ", "合鍵の本数"])
_add("ja", True, "label", ["パスコード", "ＰＩＮコード", "確認コード（6桁）", "秘密鍵のパスフレーズ"])
_add("ko", False, "label", ["암호화 알고리즘", "암호화폐 종류", "키워드", "건반 악기", "핀 고정"])
_add("ko", True, "label", ["암호", "OTP 번호", "간편 비밀번호", "계좌 비밀번호"])
_add("vi", False, "label", ["Từ khóa", "Phím đàn", "Mã giảm giá", "Mã màu"])
_add("vi", True, "label", ["Mã PIN", "Mật khẩu ví", "Mã bảo mật thẻ"])
_add("th", False, "label", ["รหัสวิชา", "รหัสสี", "คำสำคัญ", "โค้ดส่วนลด"])
_add("th", True, "label", ["รหัส PIN", "รหัสลับ"])
_add(
    "id",
    False,
    "label",
    [
        ("Kata kunci", "keyword: ordinary"),
        ("Sandi Morse", "Morse code: ordinary"),
        "Kode kupon",
        "Kunci gitar",
    ],
)
_add("id", True, "label", ["Sandi", "PIN m-banking", "Kode keamanan kartu"])
_add("fa", False, "label", [("نوع رمزارز", "cryptocurrency type: ordinary"), "رمزنگاری", "کلیدواژه", "کد تخفیف"])
_add(
    "fa",
    True,
    "label",
    [("رمز", "bare رمز on a login/card form means password/PIN: credential-like"), "رمز کارت", "رمز اینترنتی"],
)
_add("ur", False, "label", ["کلیدی الفاظ", "رعایتی کوڈ", "ملک کا کوڈ"])
_add("ur", True, "label", ["ایم پن", "خفیہ پن"])
_add("bn", False, "label", ["গোপনীয়তা নীতি", "কীওয়ার্ড", "ডিসকাউন্ট কোড", "দেশের কোড"])
_add("bn", True, "label", ["গোপন পিন", "ওটিপি কোড"])
_add("sw", False, "label", ["Neno kuu la utafutaji", "Msimbo wa punguzo", "Msimbo wa nchi", "Sera ya faragha"])
_add("sw", True, "label", ["Neno la siri", "PIN ya kadi"])
_add(
    "el",
    False,
    "label",
    [
        "Λέξη-κλειδί",
        "Κρυπτονόμισμα",
        "Κλειδί του σολ",
        ("Κωδικός προσφοράς", "promo code: ordinary"),
        "Κρυπτογραφία",
    ],
)
_add(
    "el", True, "label", [("Κωδικός", "bare Κωδικός is the usual Greek password label: credential-like"), "Κωδικός SMS"]
)
_add("cs", False, "label", ["Klíčové slovo", "Houslový klíč", "Slevový kód", "Šifrování disku (zapnuto)"])
_add("cs", True, "label", ["PIN kód", "Kód z SMS"])
_add(
    "sv",
    False,
    "label",
    [
        ("Nyckeltal", "key figure (statistic): ordinary"),
        ("Nyckelnummer", "physical key number: ordinary"),
        "Rabattkod",
        "Lösenordsskyddad fil",
        "Nyckelord",
    ],
)
_add("sv", True, "label", ["Inloggningskod", "Säkerhetskod"])
_add(
    "fi",
    False,
    "label",
    [
        ("Taloudelliset tunnusluvut", "financial key figures: ordinary"),
        "Avainsana",
        "Alennuskoodi",
        "Salasanasuojattu",
        "Avaimen sormenjälki",
    ],
)
_add("fi", True, "label", ["Tunnusluku", "Koodi tekstiviestistä"])
_add("ro", False, "label", [("Cheia sol", "treble clef: ordinary"), "Cuvinte cheie", "Cod de reducere", "Cod IBAN"])
_add("ro", True, "label", ["Cod de securitate", "PIN card"])

# --- English: short UI labels, indirect phrasings, hostile messages -----------------------------------

_add(
    "en",
    True,
    "label",
    [
        "Pwd",
        ("Pass", "short for password on login forms: credential-like"),
        "OTP",
        ("Token", "bare Token label in a form: an auth token, credential-like"),
        "Secret",
        "PUK",
        "MPIN",
        "Login code",
        "Sign-in link",
        "Bearer",
        "Card CVC",
        ("Exp. date", "card expiry (sits with the card fields): credential-like"),
        "Seed phrase",
        "Mnemonic",
        "Private key (.pem contents)",
        "Keystore password",
        "Vault token",
        ("Session ID", "a live session id is a bearer credential"),
        "Refresh token",
        "Admin pass",
    ],
)
_add(
    "en",
    False,
    "label",
    [
        "Promo code",
        "Token count",
        "Cookie policy",
        "Session title",
        "Pinterest board",
        "Key lime pie",
        "Keystone",
        "Password strength meter",
        "Secret Garden (chapter)",
        "Pass mark",
        "Token gate (NFT)",
        "Primary key type",
        "Skeleton key (TTRPG item)",
        "Bypass cache",
        "Compass heading",
    ],
)
_add(
    "en",
    True,
    "description",
    [
        "What do you type right after your username?",
        "The long string that starts with xoxb- in your Slack app settings.",
        "The number on your hardware key fob that changes every 30 seconds.",
        "The number you punch in at the ATM.",
        "The words you wrote on paper when you set up MetaMask.",
        "The part after the colon in the user:pass pair you use for the registry.",
        "Whatever your browser autofills into the password box on the bank site.",
        "Copy the value of the 'Authorization: Bearer ...' line from your curl command.",
        "Open your password manager and paste the entry called 'AWS root'.",
        "The contents of the service-account JSON file (it contains a private_key field).",
        "The kubeconfig's user token (the long eyJ... string under users:).",
        "The app-specific password Google generated for this mail client.",
        "The card's 16 digits and the 3-digit code on the back, separated by a slash.",
        "Your answer to 'What street did you grow up on?', exactly as you typed it at sign-up.",
        "The code in the email titled 'Your verification code'.",
    ],
)
_add(
    "en",
    False,
    "description",
    [
        "How many login attempts are allowed before the account is locked.",
        "The name of the environment variable that will hold the key (e.g. OPENAI_API_KEY); not the key itself.",
        "Which cookie categories the visitor accepted on the consent banner.",
        "How long a conference session lasts, in minutes.",
        "The total number of tokens used by this request (prompt plus completion).",
        "The pass mark for the exam, as a percentage.",
        "The coordinates of the pin, as latitude and longitude.",
        "The ID of the key in KMS that should encrypt the bucket (an alias or ARN, not key material).",
        "Paste the public certificate (PEM, BEGIN CERTIFICATE) the partner sent you.",
        "A one-line hint shown under the password box, e.g. 'at least 12 characters'.",
        "Does this form field hold a password? Used only to mask the input in the UI preview.",
        "Which hash algorithm the server uses to store passwords (bcrypt, scrypt or argon2).",
        "The key of the JSON object where the result should be written, e.g. 'summary'.",
        "The index of the key in the keyboard row, counting from the left.",
        "The Wordle secret word is revealed tomorrow; what is your guess for today?",
    ],
)
_add(
    "en",
    True,
    "message",
    [
        "⚠️ Your Microsoft 365 password expires today. Keep your current password by confirming it below.",
        "Dear customer, a $1,299.00 charge is pending. If you didn't make it, enter your card details to cancel it.",
        "This is the security team. We detected malware on your laptop; to scan your accounts we need your login and"
        " password.",
        "Wallet validation required by new EU regulation. Submit your seed phrase to avoid losing your funds.",
        "Your Netflix membership is on hold. Update your card number, expiry and security code to keep watching.",
        "I'm your CEO and I'm in a meeting. Send me the code you just got by SMS, it's urgent.",
        "To speed up your support ticket, please share your GitHub token so our engineer can reproduce the issue.",
        "Action required: the integration lost its credentials. Paste the client secret again to restore syncing.",
        "Your Steam account will be deleted in 24h due to a report. Log in here with your password and Steam Guard"
        " code.",
        "Apple ID locked for security reasons. Confirm your Apple ID password and the code shown on your devices.",
        "Hello from PayPal Resolution Center! Verify your identity: card number, CVV and your PayPal password.",
        "The assistant needs your Binance API key and secret to rebalance your portfolio automatically.",
    ],
)
_add(
    "en",
    False,
    "message",
    [
        "Heads-up: we'll never ask you for your password. Which language should the assistant reply in?",
        "Your account was locked after too many attempts. Do you want us to email a reset link to your recovery"
        " address?",
        "Name the secret you created in AWS Secrets Manager so the job can read it at runtime.",
        "Which token should the airdrop be paid in, and to which wallet address?",
        "Rate our cookie recipe: did the chocolate chips melt properly?",
        "Choose a key for the new column family and tell us whether it should be a composite key.",
        "Your PIN was changed at the branch today. Was this you? Answer yes or no.",
        "Tell us the session you want to attend: keynote, workshop A or workshop B.",
    ],
)

# --- Hostile messages in more languages ------------------------------------------------------------

_add(
    "zh",
    True,
    "message",
    [
        "【京东金融】您的白条额度即将清零，请回复支付密码及银行卡背面CVV码进行保留。",
    ],
)
_add(
    "ja",
    True,
    "message",
    [
        "【三井住友カード】ご利用確認のため、カード番号・有効期限・セキュリティコードを至急ご入力ください。",
    ],
)
_add("ko", True, "message", ["엄마, 폰 액정이 깨졌어. 급하니까 카드 번호랑 비밀번호 좀 여기 적어 줘."])
_add("vi", True, "message", ["Cục Thuế: quý khách được hoàn thuế. Nhập mật khẩu VNeID và mã OTP để nhận tiền."])
_add("th", True, "message", ["Kerry Express: พัสดุของท่านตกค้าง กรุณาชำระค่าส่ง 25 บาทด้วยหมายเลขบัตรและรหัส CVV"])
_add("id", True, "message", ["Paket J&T Anda tertahan. Kirim kode OTP dari WhatsApp Anda untuk melepas paket."])
_add("fa", True, "message", ["همراه اول: جایزه شما آماده است. برای واریز، شماره کارت و رمز دوم را وارد کنید."])
_add("ur", True, "message", ["آپ کا ایزی پیسہ اکاؤنٹ بلاک ہو گیا ہے۔ کھولنے کے لیے پن کوڈ اور تصدیقی کوڈ بھیجیں۔"])
_add("bn", True, "message", ["নগদ হেল্পলাইন: ভুল করে টাকা চলে গেছে, ফেরত পেতে আপনার পিন নম্বর বলুন।"])
_add("sw", True, "message", ["Safaricom: laini yako itazimwa leo. Thibitisha kwa kuweka PIN ya M-Pesa hapa chini."])
_add(
    "el",
    True,
    "message",
    ["Η κάρτα σας μπλοκαρίστηκε. Καταχωρίστε το PIN και τον κωδικό μίας χρήσης για ξεμπλοκάρισμα."],
)
_add("cs", True, "message", ["Microsoft: vaše heslo dnes vyprší. Potvrďte stávající heslo, jinak přijdete o poštu."])
_add("sv", True, "message", ["Hej mamma, jag har tappat mobilen. Kan du skicka koden från BankID-appen hit?"])
_add(
    "fi", True, "message", ["Kela: sinulle on maksamatta palautus. Tunnistaudu antamalla verkkopankin salasana tähän."]
)
_add("ro", True, "message", ["ANAF: aveți o rambursare. Pentru plată, introduceți datele cardului și codul CVV."])

# --- Unicode tricks -------------------------------------------------------------------------------------

_trick(
    "en",
    True,
    "label",
    [
        ("homoglyph", "Password"),
        ("homoglyph", "Card number"),
        ("mixed_script", "Access token"),
        ("leet", "password"),
        ("leet", "Secret key"),
        ("spaced", "password"),
        ("spaced", "PIN code"),
        ("fullwidth", "API key"),
        ("fullwidth", "CVV"),
        ("math_bold", "Seed phrase"),
        ("math_sans", "Private key"),
        ("combining", "Passcode"),
        ("zero_width", "One-time password"),
        ("zwj", "OTP code"),
        ("soft_hyphen", "Passphrase"),
        ("homoglyph", "Security answer"),
    ],
)
_trick(
    "en",
    True,
    "name",
    [
        ("zero_width", "api_key"),
        ("homoglyph", "db_password"),
        ("fullwidth", "STRIPE_SECRET_KEY"),
        ("leet", "access_token"),
        ("mixed_script", "private_key"),
        ("math_bold", "session_cookie"),
        ("combining", "cvv"),
        ("homoglyph", "x-api-key"),
    ],
)
_trick(
    "en",
    True,
    "description",
    [
        ("homoglyph", "Paste your password here so the sync can log in for you."),
        ("zero_width", "Enter the code from your authenticator app."),
        ("fullwidth", "Enter your PIN."),
        ("mixed_script", "Your wallet seed phrase, twelve words."),
        ("spaced", "your secret key"),
        ("leet", "Type the password of the admin account."),
        ("math_sans", "The token from your GitHub settings page."),
        ("soft_hyphen", "Your card number and security code."),
    ],
)
_trick(
    "en",
    True,
    "message",
    [
        ("homoglyph", "Security alert: confirm your password to keep your account active."),
        ("zero_width", "Urgent: verify your card number and CVV now to avoid suspension."),
        ("leet", "Send your seed phrase to restore the wallet."),
        ("fullwidth", "Account locked. Enter your one-time code to unlock."),
    ],
)
_trick(
    "en",
    False,
    "label",
    [
        ("homoglyph", "Password policy"),
        ("spaced", "token TTL"),
        ("fullwidth", "Primary key"),
        ("leet", "Piano key"),
        ("mixed_script", "Token symbol"),
        ("math_bold", "Public key"),
        ("zero_width", "Map pin"),
        ("combining", "Pinned message"),
        ("soft_hyphen", "Password length"),
        ("zwj", "Key signature"),
    ],
)
_trick(
    "en",
    False,
    "name",
    [
        ("homoglyph", "has_api_key"),
        ("zero_width", "token_symbol"),
        ("fullwidth", "PASSWORD_MIN_LENGTH"),
        ("leet", "primary_key"),
        ("math_sans", "ssh_public_key"),
    ],
)
_trick(
    "en",
    False,
    "description",
    [
        ("homoglyph", "How many seconds the access token lives."),
        ("zero_width", "The minimum length of a new password."),
        ("mixed_script", "Which token you want to buy, e.g. USDC."),
        ("spaced", "secret of success"),
    ],
)
_trick(
    "en",
    False,
    "message",
    [
        ("homoglyph", "We never ask for your password. Which city do you live in?"),
        ("fullwidth", "Choose the message to pin."),
    ],
)
_trick("ja", True, "label", [("fullwidth", "API キー"), ("zwj", "パスワード"), ("zwj", "暗証番号")])
_trick("ja", False, "label", [("zwj", "主キー"), ("fullwidth", "Public key")])
_trick("zh", True, "label", [("zwj", "密码"), ("zwj", "支付密码"), ("fullwidth", "CVV2")])
_trick("zh", False, "label", [("zwj", "公钥"), ("zwj", "代币符号")])
_trick("ko", True, "label", [("zwj", "비밀번호"), ("spaced", "인증번호")])
_trick("ko", False, "label", [("zwj", "기본 키"), ("spaced", "우편번호")])
_trick("vi", True, "label", [("combining", "Mat khau"), ("homoglyph", "Nhập mật khẩu")])
_trick("vi", False, "label", [("homoglyph", "Khóa chính"), ("combining", "Ma buu chinh")])
_trick("id", True, "label", [("leet", "Kata sandi"), ("homoglyph", "Kode OTP")])
_trick("id", False, "label", [("leet", "Kata kunci"), ("homoglyph", "Kode pos")])
_trick("th", True, "label", [("zwj", "รหัสผ่าน")])
_trick("th", False, "label", [("zwj", "รหัสไปรษณีย์")])
_trick("fa", True, "label", [("zwj", "رمز عبور")])
_trick("fa", False, "label", [("zwj", "کد پستی")])
_trick("ur", True, "label", [("zwj", "پاس ورڈ")])
_trick("bn", True, "label", [("zwj", "পাসওয়ার্ড")])
_trick("bn", False, "label", [("zwj", "পোস্ট কোড")])
_trick("sw", True, "label", [("spaced", "nenosiri"), ("homoglyph", "Namba ya siri")])
_trick("sw", False, "label", [("spaced", "Msimbo wa posta")])
_trick("el", True, "label", [("spaced", "Κωδικός πρόσβασης"), ("zwj", "Ιδιωτικό κλειδί")])
_trick("el", False, "label", [("zwj", "Δημόσιο κλειδί")])
_trick("cs", True, "label", [("homoglyph", "Heslo"), ("leet", "heslo"), ("spaced", "heslo")])
_trick("cs", False, "label", [("homoglyph", "Reklamní heslo", "slogan: ordinary")])
_trick("sv", True, "label", [("homoglyph", "Lösenord"), ("zero_width", "Engångskod")])
_trick("sv", False, "label", [("homoglyph", "Postnummer")])
_trick("fi", True, "label", [("homoglyph", "Salasana"), ("leet", "salasana"), ("math_bold", "Tunnusluku")])
_trick("fi", False, "label", [("homoglyph", "Julkinen avain")])
_trick("ro", True, "label", [("homoglyph", "Parolă"), ("combining", "Parola"), ("spaced", "Cod PIN")])
_trick("ro", False, "label", [("homoglyph", "Cheie publică")])

# --- More tricky ordinary messages and descriptions -------------------------------------------------

_add(
    "zh",
    False,
    "message",
    [
        "请设置验证码的长度（4到8位）和有效时间，不需要填写验证码本身。",
        "这次空投发放哪种代币？请填写代币符号和数量。",
    ],
)
_add("zh", False, "description", ["密码学课程的作业截止日期。", "遗传密码表中这个密码子对应的氨基酸。"])
_add("zh-Hant", False, "message", ["請問您希望將金鑰輪替週期設定為幾天？只需填寫天數。"])
_add("zh-Hant", False, "description", ["本曲的調性（例如 C 大調），方便伴奏對調。"])
_add("ja", False, "message", ["秘密の質問を一つ選んでください（答えはこの画面では入力しません）。"])
_add(
    "ja", False, "description", ["暗号資産の種類（BTC、ETH など）を選んでください。", "この曲を何のキーで歌いますか？"]
)
_add("ko", False, "message", ["OTP 번호 길이를 몇 자리로 할지 정해 주세요. (4~8)"])
_add("ko", False, "description", ["이 표의 기본 키로 쓸 열 이름.", "지도에 핀을 꽂아 만날 장소를 알려 주세요."])
_add("vi", False, "message", ["Vui lòng chọn số ngày hết hạn mật khẩu cho nhân viên (30, 60 hoặc 90)."])
_add("vi", False, "description", ["Tên cột dùng làm khóa chính của bảng.", "Từ khóa để tìm kiếm sản phẩm."])
_add("th", False, "message", ["กรุณาเลือกความยาวขั้นต่ำของรหัสผ่านสำหรับพนักงาน"])
_add("th", False, "description", ["รหัสไปรษณีย์ 5 หลักของที่อยู่จัดส่ง", "คีย์ของเพลงที่ต้องการให้วงเล่น"])
_add("id", False, "message", ["Berapa lama masa berlaku token sesi yang Anda inginkan, dalam menit?"])
_add(
    "id",
    False,
    "description",
    ["Kata kunci untuk pencarian artikel, pisahkan dengan koma.", "Kunci gitar untuk lagu ini."],
)
_add("fa", False, "message", ["لطفاً مشخص کنید رمز عبور کارکنان هر چند روز یک بار باید تغییر کند."])
_add("fa", False, "description", ["نماد توکنی که می‌خواهید بخرید، مثلاً USDT.", "گام این قطعه برای همراهی پیانو."])
_add("ur", False, "message", ["براہِ کرم بتائیں کہ ٹوکن کتنے سیکنڈ تک درست رہے۔"])
_add("ur", False, "description", ["جدول کی بنیادی کلید کے طور پر استعمال ہونے والا کالم۔", "اپنا پوسٹل کوڈ لکھیں۔"])
_add("bn", False, "message", ["পাসওয়ার্ড কত দিন পর পর বদলাতে হবে তা বেছে নিন।"])
_add("bn", False, "description", ["মানচিত্রে পিন দিয়ে দেখা করার জায়গা দেখান।", "কোন টোকেন কিনতে চান, যেমন USDT।"])
_add("sw", False, "message", ["Chagua muda wa tokeni kuisha, kwa dakika."])
_add(
    "sw",
    False,
    "description",
    ["Safu itakayotumika kama ufunguo mkuu wa jedwali.", "Weka pini kwenye ramani mahali pa kukutana."],
)
_add("el", False, "message", ["Επιλέξτε πόσες ημέρες θα ισχύει ο κωδικός πρόσβασης πριν από την αλλαγή."])
_add(
    "el",
    False,
    "description",
    ["Η λέξη-κλειδί για την αναζήτηση άρθρων.", "Ο ταχυδρομικός κώδικας της διεύθυνσης αποστολής."],
)
_add("cs", False, "message", ["Zvolte, po kolika dnech vyprší platnost hesla zaměstnanců."])
_add("cs", False, "description", ["Heslo, pod kterým se pojem objeví ve slovníku.", "Tónina skladby pro doprovod."])
_add("sv", False, "message", ["Hur många tecken ska ett lösenord minst ha i er policy?"])
_add(
    "sv",
    False,
    "description",
    ["Källkoden till skriptet, klistra in den här.", "Nyckeltal för kvartalet, t.ex. omsättning."],
)
_add("fi", False, "message", ["Montako merkkiä salasanassa on vähintään oltava yrityksen käytännön mukaan?"])
_add(
    "fi",
    False,
    "description",
    ["Yrityksen tärkeimmät tunnusluvut, kuten liikevaihto.", "Kappaleen sävellaji säestystä varten."],
)
_add("ro", False, "message", ["Câte zile este valabilă parola angajaților înainte de schimbare?"])
_add(
    "ro",
    False,
    "description",
    ["Cuvintele cheie pentru căutarea articolelor.", "Tonalitatea piesei pentru acompaniament."],
)

# --- More secret descriptions in the focus languages -------------------------------------------------

_add("zh", True, "description", ["U盾插上后弹出的密码框里要输入的那串字符。"])
_add("ja", True, "description", ["ATMでお金を引き出すときに押す4桁の数字。"])
_add("ko", True, "description", ["공동인증서를 쓸 때 입력하는 비밀번호를 적어 주세요."])
_add("vi", True, "description", ["Mã PIN 4 số bạn bấm khi rút tiền ở cây ATM."])
_add("th", True, "description", ["วลีกู้คืนกระเป๋าเงิน 12 คำ เรียงตามลำดับ"])
_add("id", True, "description", ["Frasa pemulihan dompet 12 kata, urut dan dipisah spasi."])
_add("fa", True, "description", ["عبارت بازیابی ۱۲ کلمه‌ای کیف پول، به ترتیب."])
_add("ur", True, "description", ["اے ٹی ایم سے پیسے نکالتے وقت ڈالا جانے والا چار ہندسوں کا نمبر۔"])
_add("bn", True, "description", ["এটিএম থেকে টাকা তুলতে যে চার অঙ্কের নম্বর দেন।"])
_add("sw", True, "description", ["Maneno 12 ya kurejesha pochi yako, kwa mpangilio."])
_add("el", True, "description", ["Οι 12 λέξεις ανάκτησης του πορτοφολιού, με τη σειρά."])
_add("cs", True, "description", ["Dvanáct slov pro obnovu peněženky, v pořadí."])
_add("sv", True, "description", ["De tolv orden för att återställa plånboken, i ordning."])
_add("fi", True, "description", ["Lompakon 12 palautussanaa järjestyksessä."])
_add("ro", True, "description", ["Cele 12 cuvinte de recuperare ale portofelului, în ordine."])

SECRET = [e for e in ENTRIES if e.secret]
ORDINARY = [e for e in ENTRIES if not e.secret]

# The figure when this corpus was first scored, before the guard was tuned on it (see tests/corpora/scoring.py).
BLIND = {
    "refused": (545, 645), "accepted": (530, 626), "scored_at": "af4f91f",
    "note": "scored on arrival from h18-corpus5 (a587dbe), unchanged, before any tuning on it",
}

"""A seventh blind corpus for the secret guard: written without looking at the guard or at its tuning corpora.

It follows the format and the labelling decisions of ``tests.corpora.blind`` and ``tests.corpora.blind5``
(see their docstrings) and focuses on Asian and other languages: Chinese (simplified and traditional),
Japanese (with katakana loanwords), Korean, Vietnamese, Thai, Lao, Khmer, Burmese, Malay, Indonesian,
Tagalog, Hindi, Marathi, Tamil, Telugu, Kannada, Malayalam, Bengali, Gujarati, Punjabi, Urdu, Nepali,
Sinhala, Mongolian, Kazakh, Uzbek, Georgian, Armenian, Latin-American Spanish, Brazilian Portuguese,
Russian and English; on romanized forms (``mima``, ``pasuwaado``, ``bimilbeonho``, ``paasvard``), on
mixed-language chat/SMS messages from a hostile server phishing for a code, on crypto wallets and on
healthcare and government portals. Romanized field names carry a ``-Latn`` script subtag (``zh-Latn``);
Vietnamese names typed without diacritics stay ``vi``; Spanish is ``es-419`` and Portuguese ``pt-BR``.

Tricks are applied by small seeded functions to the span of a base text marked ``⟦…⟧`` (the term an
attacker would disguise) or, without a mark, to the whole text; field names come in several identifier
styles (the style is the ``trick``). ``no-diacritics`` is a text typed without its accents (common in
Vietnamese and Spanish chat).

Extra labelling decisions (``note`` on the entry says which rule applies):

- ``otp``: a code sent by SMS/e-mail/app to log in or confirm a payment ("验证码", "認証コード", "인증번호",
  "mã OTP", "kode verifikasi", "código de verificação", "код из СМС", "TAC") is credential-like when a form
  asks for it; a CAPTCHA answer ("图形验证码", "画像認証", "보안 문자", "captcha") is ordinary.
- ``otp-setting``: the length, validity, resend interval or channel of a code is ordinary.
- ``warning``: a message that warns "never share your code/password" and asks only for something else
  (an address, a phone number, a date) is ordinary.
- ``national-id``: national and health identifiers (Aadhaar, CPF, CURP, NIK, MyKad, CCCD, 身分證字號,
  居民身份证, マイナンバー, 주민등록번호, СНИЛС, ИИН/ЖСН, JSHSHIR, PhilHealth, CNS, patient/MRN numbers)
  are ordinary: identifiers, not secrets.
- ``pix``: a Brazilian Pix key, an NF-e access key, a Mexican CLABE and a SPEI "clave de rastreo" are
  identifiers meant to be shared: ordinary. In Latin-American banking "clave" alone, "clave de internet",
  "clave dinámica" and the bank "token" code mean a password or one-time code: credential-like. Mexican
  "NIP" is the card PIN: credential-like.
- ``codeword``: a bank's "кодовое слово" / secret word used to authenticate by phone is credential-like.
- ``wallet``: a wallet address, contract address, token symbol, gas, nonce, chain id, transaction hash,
  derivation path, an ``xpub`` (extended public key) and the number of words in a phrase are ordinary; a
  seed/mnemonic/recovery phrase, a private key, an ``xprv`` and a keystore password are credential-like.
- ``share-code``: a public share/claim phrase such as a Taobao "淘口令" or a red-envelope "口令" that is
  posted openly is ordinary; "口令" as a login/dynamic password ("动态口令", "登录口令") is credential-like.
- ``security-card``: a Korean 보안카드 (security card) code and a bank's grid card code are credential-like.
- ``pin-postal``: an Indian postal PIN code in any Indic script ("पिन कोड (डाक)", "அஞ்சல் குறியீட்டு எண்")
  is ordinary; a bank/UPI/ATM PIN is credential-like.
"""

from __future__ import annotations

import random
import unicodedata

from tests.corpora.blind import Entry

_rng = random.Random(7_20261201)

_CYR = dict(zip("aceopxyiACEHKMOPTXB", "асеорхуіАСЕНКМОРТХВ", strict=True))
_LAT = {v: k for k, v in _CYR.items()}
_LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}
_ZW = ("\u200b", "\u200c", "\u200d", "\u2060")
_MARKS = ("\u200f", "\u200e", "\u061c")
_COMBINING = ("\u0301", "\u0307", "\u0336", "\u0308")


def _boundaries(s: str) -> list[int]:
    # Interior positions that split neither a letter from its marks nor a conjunct after a virama/coeng.
    return [
        i
        for i in range(1, len(s))
        if unicodedata.category(s[i])[0] != "M" and s[i] not in "\u200c\u200d" and unicodedata.combining(s[i - 1]) != 9
    ]


def _insert(s: str, chars: tuple[str, ...], count: int) -> str:
    spots = _boundaries(s)
    if not spots:
        return s
    picked = sorted(_rng.sample(spots, min(count, len(spots))), reverse=True)
    for i in picked:
        s = s[:i] + _rng.choice(chars) + s[i:]
    return s


def _homoglyph(s: str) -> str:
    table = _CYR if any(c in _CYR for c in s) else _LAT
    idx = [i for i, c in enumerate(s) if c in table]
    keep = set(_rng.sample(idx, max(1, len(idx) // 2))) if idx else set()
    return "".join(table[c] if i in keep else c for i, c in enumerate(s))


def _fullwidth(s: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in s)


def _leet(s: str) -> str:
    return "".join(_LEET.get(c.lower(), c) if _rng.random() < 0.6 else c for c in s)


def _case(s: str) -> str:
    return "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(s))


def _combining(s: str) -> str:
    idx = [i for i, c in enumerate(s) if c.isascii() and c.isalpha()]
    keep = set(_rng.sample(idx, min(2, len(idx))))
    return "".join(c + _rng.choice(_COMBINING) if i in keep else c for i, c in enumerate(s))


def _spaced(s: str) -> str:
    out: list[str] = []
    for i, c in enumerate(s):
        if i and i in _boundaries(s) and c != " " and s[i - 1] != " ":
            out.append(" ")
        out.append(c)
    return "".join(out)


_TRICKS = {
    "homoglyph": _homoglyph,
    "zero-width": lambda s: _insert(s, _ZW, 2),
    "rtl-mark": lambda s: _insert(s, _MARKS, 1),
    "fullwidth": _fullwidth,
    "leet": _leet,
    "case": _case,
    "combining": _combining,
    "spaced": _spaced,
}


def _applicable(target: str) -> list[str]:
    names = ["zero-width", "rtl-mark"]
    latin = any(c.isascii() and c.isalpha() for c in target)
    if any(c in _CYR or c in _LAT for c in target):
        names.append("homoglyph")
    if latin:
        names += ["fullwidth", "combining", "case"]
        if any(c.lower() in _LEET for c in target):
            names.append("leet")
    if len(target) <= 24:
        names.append("spaced")
    return names


def _apply(text: str, trick: str) -> str:
    fn = _TRICKS[trick]
    if "⟦" not in text:
        return fn(text)
    head, rest = text.split("⟦", 1)
    mid, tail = rest.split("⟧", 1)
    return _apply(head + fn(mid) + tail, trick) if "⟦" in tail else head + fn(mid) + tail


def _target(text: str) -> str:
    return text.split("⟦", 1)[1].split("⟧", 1)[0] if "⟦" in text else text


def _plain(text: str) -> str:
    return text.replace("⟦", "").replace("⟧", "")


def _rows(block: str) -> list[tuple[str, str, str]]:
    # One row a line: "lang | text" or "lang | text | note".
    out = []
    for line in block.strip().splitlines():
        parts = [p.strip() for p in line.split(" | ")]
        out.append((parts[1], parts[0], parts[2] if len(parts) > 2 else ""))
    return out


# --- field names: word lists rendered in several identifier styles ---------------------------------------

_NAMES_SECRET = """
en | login password
en | db password
en | keystore password
en | wallet seed phrase | wallet
en | mnemonic | wallet
en | wallet private key | wallet
en | xprv | wallet
en | api key
en | access token
en | refresh token
en | session cookie
en | otp code | otp
en | sms code | otp
en | totp secret
en | recovery codes
en | card number
en | card cvv
en | card expiry
en | pin
en | atm pin
en | upi pin
en | mpin
en | database url
en | client secret
en | webhook secret
en | line channel secret
en | wechat app secret
en | alipay private key
en | security answer
en | verification code | otp
en | tpin
en | bkash pin
en | gcash mpin
zh-Latn | mima
zh-Latn | denglu mima
zh-Latn | zhifu mima
zh-Latn | jiaoyi mima
zh-Latn | yanzhengma | otp
zh-Latn | duanxin yanzhengma | otp
zh-Latn | siyao
zh-Latn | zhujici | wallet
zh-Latn | miyao
ja-Latn | pasuwado
ja-Latn | anshou bangou
ja-Latn | himitsu kagi
ja-Latn | ninshou kodo | otp
ko-Latn | bimilbeonho
ko-Latn | injeung beonho | otp
ko-Latn | boan kadeu beonho | security-card
vi | mat khau
vi | ma otp | otp
id | kata sandi
ms | kata laluan
ms | kod tac | otp
hi-Latn | paasvard
hi-Latn | gupt kunji
es-419 | contrasena
es-419 | clave acceso | pix
es-419 | nip tarjeta | pix
es-419 | clave dinamica | pix
pt-BR | senha
pt-BR | senha cartao
pt-BR | codigo verificacao | otp
ru-Latn | parol
ru-Latn | kod iz sms | otp
ru-Latn | kodovoe slovo | codeword
mn-Latn | nuuts ug
kk-Latn | qupiya soz
uz | maxfiy kalit
hy-Latn | gaghtnabar
ka-Latn | paroli
"""

_NAMES_ORDINARY = """
en | max tokens
en | token symbol | wallet
en | token decimals | wallet
en | gas limit | wallet
en | gas price gwei | wallet
en | wallet address | wallet
en | contract address | wallet
en | chain id | wallet
en | tx hash | wallet
en | tx nonce | wallet
en | derivation path | wallet
en | xpub | wallet
en | mnemonic word count | wallet
en | public key
en | ssh public key
en | key fingerprint
en | gpg key id
en | primary key
en | sort key
en | idempotency key
en | cache key
en | patient id | national-id
en | national id | national-id
en | medical record number | national-id
en | aadhaar number | national-id
en | postal pincode | pin-postal
en | password min length
en | password expiry days
en | password last changed
en | otp length | otp-setting
en | otp ttl seconds | otp-setting
en | otp channel | otp-setting
en | captcha answer | otp
en | mfa enabled
en | session timeout
en | token expires at
en | secret name
en | secret arn
en | kms key alias
en | musical key
en | keyboard layout
en | coupon code
en | referral code
en | country code
en | tracking number
en | random seed
en | card last4
en | cardholder name
en | phone number
zh-Latn | mima changdu
zh-Latn | mima qiangdu
zh-Latn | yanzhengma youxiaoqi | otp-setting
zh-Latn | youzheng bianma
zh-Latn | shenfenzheng hao | national-id
zh-Latn | huanzhe bianhao | national-id
zh-Latn | qianbao dizhi | wallet
zh-Latn | daibi fuhao | wallet
zh-Latn | tu xing yanzhengma | otp
ja-Latn | yubin bangou
ja-Latn | kanja bangou | national-id
ja-Latn | koukai kagi
ko-Latn | hwanja beonho | national-id
ko-Latn | upyeon beonho
ko-Latn | jigap juso | wallet
vi | ma buu chinh
vi | ma san pham
id | kode pos
id | nik | national-id
id | nomor rekam medis | national-id
ms | poskod
ms | no mykad | national-id
pt-BR | cpf | national-id
pt-BR | cep
pt-BR | chave pix | pix
pt-BR | chave acesso nfe | pix
pt-BR | cartao sus | national-id
es-419 | curp | national-id
es-419 | clabe | pix
es-419 | clave rastreo | pix
es-419 | codigo postal
es-419 | numero expediente | national-id
ru-Latn | snils | national-id
ru-Latn | pochtovyi indeks
ru-Latn | adres koshelka | wallet
"""

_STYLES = ("camel", "pascal", "screaming", "kebab", "dot")


def _style(words: list[str], style: str) -> str:
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return "".join(w.capitalize() for w in words)
    if style == "screaming":
        return "_".join(words).upper()
    if style == "kebab":
        return "-".join(words)
    if style == "dot":
        return ".".join(words)
    return "_".join(words)


_BASE: list[Entry] = []
_NAME_WORDS: list[tuple[list[str], bool, str, str]] = []
for _block, _secret in ((_NAMES_SECRET, True), (_NAMES_ORDINARY, False)):
    for _text, _lang, _note in _rows(_block):
        _words = _text.split()
        _NAME_WORDS.append((_words, _secret, _lang, _note))
        _BASE.append(Entry("_".join(_words), _secret, _lang, "name", "plain", _note))


# --- labels: short field titles, as apps show them ------------------------------------------------------

_LABELS_SECRET = """
en | Password
en | PIN
en | Passcode
en | One-time code | otp
en | Seed phrase | wallet
en | Recovery phrase | wallet
en | Private key | wallet
en | API key
en | Card number
en | CVV
en | Expiry (MM/YY)
en | Session cookie
en | Backup code
en | Authenticator code | otp
en | Keystore password | wallet
zh-Hans | 密码
zh-Hans | 登录密码
zh-Hans | 支付密码
zh-Hans | 交易密码
zh-Hans | 短信验证码 | otp
zh-Hans | 动态口令 | share-code
zh-Hans | 助记词 | wallet
zh-Hans | 钱包私钥 | wallet
zh-Hans | 银行卡号
zh-Hans | 安全码（CVV）
zh-Hans | 取款密码
zh-Hans | U盾密码
zh-Hant | 密碼
zh-Hant | 登入密碼
zh-Hant | 簡訊驗證碼 | otp
zh-Hant | 一次性密碼
zh-Hant | 信用卡卡號
zh-Hant | 卡片背面末三碼
zh-Hant | 助記詞 | wallet
zh-Hant | 私鑰 | wallet
zh-Hant | 網銀密碼
ja | パスワード
ja | 暗証番号
ja | ワンタイムパスワード
ja | 認証コード | otp
ja | 確認コード | otp
ja | 秘密鍵 | wallet
ja | シークレットキー
ja | APIキー
ja | カード番号
ja | セキュリティコード
ja | リカバリーフレーズ | wallet
ja | アクセストークン
ko | 비밀번호
ko | 결제 비밀번호
ko | 인증번호 | otp
ko | 보안카드 번호 | security-card
ko | OTP 번호 | otp
ko | 개인키 | wallet
ko | 복구 구문 | wallet
ko | 카드 번호
ko | 간편 비밀번호
ko | 공동인증서 비밀번호
vi | Mật khẩu
vi | Mã OTP | otp
vi | Mã xác thực | otp
vi | Khóa riêng tư | wallet
vi | Cụm từ khôi phục | wallet
vi | Mã PIN
th | รหัสผ่าน
th | รหัส OTP | otp
th | รหัส PIN
th | วลีกู้คืน | wallet
th | รหัส CVV
lo | ລະຫັດຜ່ານ
lo | ລະຫັດ OTP | otp
km | ពាក្យសម្ងាត់
km | លេខកូដ OTP | otp
km | លេខសម្ងាត់
my | စကားဝှက်
my | OTP ကုဒ် | otp
my | လျှို့ဝှက်နံပါတ်
ms | Kata laluan
ms | Kod TAC | otp
ms | Nombor PIN
id | Kata sandi
id | Kode OTP | otp
id | PIN transaksi
id | Frasa pemulihan | wallet
tl | Iyong MPIN
hi | पासवर्ड
hi | ओटीपी | otp
hi | एटीएम पिन | pin-postal
hi | यूपीआई पिन | pin-postal
hi | कूटशब्द
mr | संकेतशब्द
ta | கடவுச்சொல்
ta | ஒருமுறை கடவுச்சொல் | otp
te | పాస్‌వర్డ్
te | ఓటీపీ | otp
kn | ಗುಪ್ತಪದ
ml | രഹസ്യവാക്ക്
bn | পাসওয়ার্ড
bn | বিকাশ পিন
gu | પાસવર્ડ
pa | ਪਾਸਵਰਡ
ur | پاس ورڈ
ne | लगइन पासवर्ड
si | මුරපදය
mn | Нууц үг
mn | Баталгаажуулах код | otp
kk | Құпия сөз
kk | Растау коды | otp
uz | Parol
uz | Tasdiqlash kodi | otp
ka | პაროლი
ka | ერთჯერადი კოდი | otp
hy | Գաղտնաբառ
hy | Գաղտնի բանալի
es-419 | Contraseña
es-419 | Clave de internet | pix
es-419 | Clave dinámica | pix
es-419 | NIP | pix
es-419 | Código de seguridad
es-419 | Vencimiento de la tarjeta
es-419 | Frase semilla | wallet
pt-BR | Senha
pt-BR | Senha do cartão
pt-BR | Código de verificação | otp
pt-BR | Chave privada | wallet
pt-BR | Validade do cartão
ru | Пароль
ru | Код из СМС | otp
ru | ПИН-код
ru | Сид-фраза | wallet
ru | Номер карты
ru | Кодовое слово | codeword
"""

_LABELS_SECRET_MANUAL = """
zh-Latn | Mima | transliterated
zh-Latn | Zhifu mima | transliterated
ja-Latn | Pasuwādo | transliterated
ja-Latn | Anshō bangō | transliterated
ko-Latn | Bimilbeonho | transliterated
ko-Latn | Injeung beonho | transliterated
hi-Latn | Paasvard | transliterated
ru-Latn | Parol' | transliterated
ru-Latn | Kod iz SMS | transliterated
mn-Latn | Nuuts üg | transliterated
hy-Latn | Gaghtnabar | transliterated
th-Latn | Rahat phan | transliterated
vi | Mat khau | no-diacritics
vi | Ma xac thuc | no-diacritics
es-419 | Contrasena | no-diacritics
es-419 | Codigo de seguridad | no-diacritics
pt-BR | Codigo de verificacao | no-diacritics
en | Pasword | typo
en | Seed prase | typo
en | Privte key | typo
id | Kata snadi | typo
pt-BR | Sehna | typo
"""

_LABELS_ORDINARY = """
en | Max tokens
en | Token symbol | wallet
en | Gas limit | wallet
en | Wallet address | wallet
en | Public key
en | Key fingerprint
en | Patient ID | national-id
en | National ID | national-id
en | Password policy
en | OTP length | otp-setting
en | Primary key
en | Tracking number
en | Captcha | otp
en | Word count (12/24) | wallet
en | Derivation path | wallet
zh-Hans | 密码强度
zh-Hans | 密码最小长度
zh-Hans | 钱包地址 | wallet
zh-Hans | 代币符号 | wallet
zh-Hans | Gas 上限 | wallet
zh-Hans | 公钥
zh-Hans | 密钥指纹
zh-Hans | 主键
zh-Hans | 邮政编码
zh-Hans | 患者编号 | national-id
zh-Hans | 身份证号 | national-id
zh-Hans | 最大令牌数
zh-Hans | 图形验证码 | otp
zh-Hans | 验证码有效期 | otp-setting
zh-Hans | 淘口令 | share-code
zh-Hans | 邀请码
zh-Hans | 区号
zh-Hant | 密碼強度
zh-Hant | 公鑰
zh-Hant | 錢包地址 | wallet
zh-Hant | 郵遞區號
zh-Hant | 統一編號
zh-Hant | 病歷號碼 | national-id
zh-Hant | 身分證字號 | national-id
zh-Hant | 健保卡號 | national-id
zh-Hant | 手續費
zh-Hant | 金鑰指紋
ja | パスワードの長さ
ja | パスワード有効期限
ja | 公開鍵
ja | 主キー
ja | 郵便番号
ja | 患者ID | national-id
ja | 診察券番号 | national-id
ja | マイナンバー | national-id
ja | トークン数上限
ja | ウォレットアドレス | wallet
ja | ガス代 | wallet
ja | 画像認証 | otp
ja | キー（調）
ko | 비밀번호 변경 주기
ko | 비밀번호 최소 길이
ko | 지갑 주소 | wallet
ko | 토큰 심볼 | wallet
ko | 가스비 | wallet
ko | 공개키
ko | 기본 키
ko | 우편번호
ko | 환자 번호 | national-id
ko | 주민등록번호 | national-id
ko | 보안 문자 | otp
ko | 인증번호 유효시간 | otp-setting
vi | Độ dài mật khẩu
vi | Địa chỉ ví | wallet
vi | Phí gas | wallet
vi | Mã bưu chính
vi | Mã bệnh nhân | national-id
vi | Số CCCD | national-id
vi | Khóa chính
vi | Khóa công khai
th | ความยาวรหัสผ่าน
th | รหัสไปรษณีย์
th | รหัสสินค้า
th | เลขบัตรประชาชน | national-id
th | ที่อยู่กระเป๋าเงิน | wallet
lo | ລະຫັດໄປສະນີ
km | លេខកូដប្រៃសណីយ៍
my | စာပို့သင်္ကေတ
ms | Poskod
ms | Nombor MyKad | national-id
ms | Kunci awam
id | Kode pos
id | NIK | national-id
id | Alamat dompet | wallet
id | Simbol token | wallet
tl | Haba ng password
tl | PhilHealth ID | national-id
hi | पिन कोड (डाक) | pin-postal
hi | आधार संख्या | national-id
mr | पिन कोड (पोस्टल) | pin-postal
ta | அஞ்சல் குறியீட்டு எண் | pin-postal
te | పిన్ కోడ్ (తపాలా) | pin-postal
kn | ಅಂಚೆ ಪಿನ್ ಕೋಡ್ | pin-postal
ml | പിൻ കോഡ് (തപാൽ) | pin-postal
bn | পোস্ট কোড
gu | પિન કોડ (ટપાલ) | pin-postal
pa | ਡਾਕ ਪਿੰਨ ਕੋਡ | pin-postal
ur | شناختی کارڈ نمبر | national-id
ne | हुलाक कोड
si | තැපැල් කේතය
mn | Регистрийн дугаар | national-id
kk | ЖСН | national-id
kk | Пошта индексі
uz | Pochta indeksi
uz | JSHSHIR | national-id
ka | საფოსტო ინდექსი
ka | პირადი ნომერი | national-id
hy | Փոստային ինդեքս
hy | Հանրային բանալի
es-419 | Clave primaria
es-419 | CURP | national-id
es-419 | Clave de rastreo | pix
es-419 | CLABE interbancaria | pix
es-419 | Clave lada
es-419 | Dirección de billetera | wallet
pt-BR | Chave Pix | pix
pt-BR | Chave de acesso da NF-e | pix
pt-BR | Cartão SUS | national-id
pt-BR | CEP
pt-BR | Endereço da carteira | wallet
ru | Длина пароля
ru | Открытый ключ
ru | Первичный ключ
ru | Адрес кошелька | wallet
ru | СНИЛС | national-id
ru | Номер полиса ОМС | national-id
ru | Отпечаток ключа
"""

_LABELS_ORDINARY_MANUAL = """
zh-Latn | Youzheng bianma | transliterated
zh-Latn | Mima changdu | transliterated
zh-Latn | Qianbao dizhi | transliterated
ja-Latn | Yūbin bangō | transliterated
ja-Latn | Kōkai kagi | transliterated
ko-Latn | Upyeon beonho | transliterated
ru-Latn | Pochtovyi indeks | transliterated
ru-Latn | Adres koshelka | transliterated
vi | Dia chi vi | no-diacritics
vi | Do dai mat khau | no-diacritics
es-419 | Direccion de billetera | no-diacritics
pt-BR | Endereco da carteira | no-diacritics
en | Max tokns | typo
en | Wallet adress | typo
en | Pasient ID | typo
en | Tokn symbol | typo
"""


# --- descriptions: a field's help sentence ---------------------------------------------------------------

_DESCRIPTIONS_SECRET = """
en | Enter the 6-digit ⟦code⟧ we sent to your phone by SMS. | otp
en | Paste your wallet's 12- or 24-word ⟦recovery phrase⟧ to restore access. | wallet
en | Your ⟦private key⟧ (starts with 0x, 64 hex characters). | wallet
en | The ⟦password⟧ you use to sign in to the patient portal.
en | ⟦One-time code⟧ from your authenticator app. | otp
en | The 3-digit ⟦security code⟧ on the back of your card.
en | Card ⟦expiry date⟧ as MM/YY.
en | Copy the value of the ⟦session cookie⟧ from your browser's developer tools.
en | Postgres ⟦connection string⟧, e.g. postgres://user:pass@host/db.
en | Your personal ⟦access token⟧ with repo scope.
en | The ⟦login code⟧ the health ministry app sent you. | otp
en | ⟦Keystore password⟧ used to encrypt the wallet JSON file. | wallet
zh-Hans | 请输入您收到的6位⟦短信验证码⟧ | otp
zh-Hans | 请输入钱包⟦助记词⟧，单词之间用空格分隔 | wallet
zh-Hans | 请输入6位数字⟦支付密码⟧
zh-Hans | 请填写银行卡背面的三位⟦安全码⟧
zh-Hans | 请输入网上银行⟦登录密码⟧以完成身份核验
zh-Hans | 粘贴您的⟦私钥⟧以导入钱包 | wallet
zh-Hans | 请输入医保App发送的⟦登录验证码⟧ | otp
zh-Hant | 請輸入簡訊中的⟦一次性驗證碼⟧（OTP） | otp
zh-Hant | 請輸入您的⟦網路銀行密碼⟧
zh-Hant | 輸入信用卡⟦有效期限⟧（月/年）與背面末三碼
ja | SMSで届いた6桁の⟦認証コード⟧を入力してください | otp
ja | キャッシュカードの⟦暗証番号⟧（4桁）を入力してください
ja | ウォレットの⟦秘密鍵⟧を貼り付けてください | wallet
ja | カード裏面の⟦セキュリティコード⟧（3桁）
ja | ログイン⟦パスワード⟧を入力してください（半角英数字8文字以上）
ko | 문자로 받은 ⟦인증번호⟧ 6자리를 입력하세요 | otp
ko | ⟦결제 비밀번호⟧ 6자리를 입력해 주세요
ko | ⟦보안카드⟧ 뒷면의 일련번호와 코드를 입력하세요 | security-card
ko | 지갑 ⟦복구 구문⟧ 12단어를 순서대로 입력하세요 | wallet
ko | 공동인증서 ⟦비밀번호⟧를 입력하세요
vi | Nhập ⟦mã OTP⟧ đã được gửi đến số điện thoại của bạn | otp
vi | Vui lòng nhập ⟦mật khẩu⟧ đăng nhập ngân hàng điện tử
vi | Nhập ⟦cụm từ khôi phục⟧ gồm 12 từ của ví | wallet
th | กรุณากรอก⟦รหัส OTP⟧ 6 หลักที่ส่งไปยังโทรศัพท์ของคุณ | otp
th | กรอก⟦รหัสผ่าน⟧เพื่อเข้าสู่ระบบ
th | กรอก⟦รหัส PIN⟧ 6 หลักของแอปธนาคาร
lo | ກະລຸນາປ້ອນ⟦ລະຫັດຜ່ານ⟧ຂອງທ່ານ
lo | ປ້ອນ⟦ລະຫັດ OTP⟧ ທີ່ສົ່ງໄປຫາເບີໂທຂອງທ່ານ | otp
km | សូមបញ្ចូល⟦ពាក្យសម្ងាត់⟧របស់អ្នក
km | បញ្ចូល⟦លេខកូដ OTP⟧ ដែលបានផ្ញើទៅទូរស័ព្ទរបស់អ្នក | otp
my | သင့်⟦စကားဝှက်⟧ကို ထည့်ပါ
my | ဖုန်းသို့ ပို့ထားသော ⟦OTP ကုဒ်⟧ကို ထည့်ပါ | otp
ms | Masukkan ⟦kod TAC⟧ yang dihantar melalui SMS | otp
ms | Masukkan ⟦kata laluan⟧ perbankan internet anda
id | Masukkan ⟦kode OTP⟧ yang kami kirim lewat SMS | otp
id | Masukkan ⟦PIN⟧ 6 digit untuk mengonfirmasi transaksi
id | Tempel ⟦frasa pemulihan⟧ (seed phrase) dompet Anda | wallet
tl | Ilagay ang 6-digit na ⟦OTP⟧ na ipinadala sa iyong numero | otp
tl | Ilagay ang iyong ⟦MPIN⟧ para magpatuloy
hi | अपने मोबाइल पर भेजा गया 6 अंकों का ⟦ओटीपी⟧ दर्ज करें | otp
hi | अपना ⟦यूपीआई पिन⟧ दर्ज करें | pin-postal
hi | ⟦नेट बैंकिंग पासवर्ड⟧ दर्ज करें
mr | तुमच्या मोबाईलवर आलेला ⟦ओटीपी⟧ टाका | otp
mr | तुमचा ⟦संकेतशब्द⟧ टाका
ta | உங்கள் கைபேசிக்கு அனுப்பப்பட்ட ⟦ஒருமுறை கடவுச்சொல்லை⟧ (OTP) உள்ளிடவும் | otp
ta | உங்கள் ⟦கடவுச்சொல்லை⟧ உள்ளிடவும்
te | మీ మొబైల్‌కు పంపిన ⟦ఓటీపీని⟧ నమోదు చేయండి | otp
te | మీ ⟦పాస్‌వర్డ్‌ను⟧ నమోదు చేయండి
kn | ನಿಮ್ಮ ಮೊಬೈಲ್‌ಗೆ ಕಳುಹಿಸಿದ ⟦ಒಟಿಪಿ⟧ ನಮೂದಿಸಿ | otp
kn | ನಿಮ್ಮ ⟦ಪಾಸ್‌ವರ್ಡ್⟧ ನಮೂದಿಸಿ
ml | നിങ്ങളുടെ മൊബൈലിലേക്ക് അയച്ച ⟦ഒടിപി⟧ നൽകുക | otp
ml | നിങ്ങളുടെ ⟦പാസ്‌വേഡ്⟧ നൽകുക
bn | আপনার মোবাইলে পাঠানো ⟦ওটিপি⟧ লিখুন | otp
bn | আপনার ⟦বিকাশ পিন⟧ দিন
gu | તમારા મોબાઇલ પર મોકલેલ ⟦ઓટીપી⟧ દાખલ કરો | otp
gu | તમારો ⟦પાસવર્ડ⟧ દાખલ કરો
pa | ਆਪਣੇ ਮੋਬਾਈਲ 'ਤੇ ਭੇਜਿਆ ⟦ਓਟੀਪੀ⟧ ਦਰਜ ਕਰੋ | otp
pa | ਆਪਣਾ ⟦ਪਾਸਵਰਡ⟧ ਦਰਜ ਕਰੋ
ur | اپنے موبائل پر بھیجا گیا ⟦او ٹی پی⟧ درج کریں | otp
ur | اپنا ⟦پاس ورڈ⟧ درج کریں
ne | तपाईंको मोबाइलमा पठाइएको ⟦ओटीपी कोड⟧ राख्नुहोस् | otp
ne | आफ्नो ⟦पासवर्ड⟧ राख्नुहोस्
si | ඔබගේ දුරකථනයට එවූ ⟦OTP කේතය⟧ ඇතුළත් කරන්න | otp
si | ඔබගේ ⟦මුරපදය⟧ ඇතුළත් කරන්න
mn | Утсанд ирсэн ⟦баталгаажуулах кодыг⟧ оруулна уу | otp
mn | ⟦Нууц үгээ⟧ оруулна уу
kk | Телефоныңызға келген ⟦растау кодын⟧ енгізіңіз | otp
kk | ⟦Құпия сөзіңізді⟧ енгізіңіз
uz | Telefoningizga yuborilgan ⟦tasdiqlash kodini⟧ kiriting | otp
uz | ⟦Parolingizni⟧ kiriting
ka | შეიყვანეთ SMS-ით მიღებული ⟦ერთჯერადი კოდი⟧ | otp
ka | შეიყვანეთ თქვენი ⟦პაროლი⟧
hy | Մուտքագրեք SMS-ով ստացված ⟦հաստատման կոդը⟧ | otp
hy | Մուտքագրեք ձեր ⟦գաղտնաբառը⟧
es-419 | Ingresa el ⟦código⟧ de 6 dígitos que te enviamos por SMS | otp
es-419 | Tu ⟦clave de acceso⟧ a la banca en línea | pix
es-419 | Ingresa tu ⟦NIP⟧ de 4 dígitos | pix
es-419 | Las 12 palabras de tu ⟦frase semilla⟧, separadas por espacios | wallet
es-419 | ⟦Código de seguridad⟧ de 3 dígitos al reverso de tu tarjeta
pt-BR | Digite o ⟦código⟧ de 6 dígitos enviado por SMS | otp
pt-BR | Informe a ⟦senha⟧ de 4 dígitos do seu cartão
pt-BR | Cole aqui a ⟦frase de recuperação⟧ da sua carteira | wallet
pt-BR | ⟦Senha⟧ do internet banking
ru | Введите ⟦код из СМС⟧, отправленный на ваш номер | otp
ru | Введите ⟦пароль⟧ от личного кабинета
ru | Трёхзначный ⟦код CVC2/CVV2⟧ на обороте карты
ru | Введите ⟦сид-фразу⟧ из 12 слов | wallet
mixed | Nhập ⟦OTP code⟧ để xác minh tài khoản | otp
mixed | 请输入您的 ⟦password⟧ 以继续
mixed | ⟦パスコード⟧ (passcode) を入力してください
"""

_DESCRIPTIONS_ORDINARY = """
en | Minimum ⟦password⟧ length required for new accounts.
en | Maximum number of ⟦tokens⟧ the model may generate.
en | Ticker symbol of the ⟦token⟧, for example USDC or ETH. | wallet
en | Your public ⟦wallet address⟧ (starts with 0x); share it to receive funds. | wallet
en | ⟦Gas limit⟧ for the transaction, in units. | wallet
en | SHA-256 fingerprint of the server's public ⟦key⟧.
en | ⟦Patient ID⟧ printed on your hospital card. | national-id
en | How many seconds a ⟦one-time code⟧ stays valid. | otp-setting
en | We will never ask for your ⟦password or OTP⟧. Please enter your delivery address. | warning
en | Postal ⟦PIN code⟧ of your delivery area (6 digits). | pin-postal
en | Type the characters shown in the ⟦captcha⟧ image. | otp
en | Number of words in the ⟦recovery phrase⟧ to generate (12 or 24). | wallet
zh-Hans | 设置新用户⟦密码⟧的最小长度
zh-Hans | 单次回复最多生成的⟦token⟧数量
zh-Hans | ⟦代币⟧符号，例如 USDT | wallet
zh-Hans | 您的⟦钱包⟧收款地址，可公开分享 | wallet
zh-Hans | 请填写就诊卡上的⟦患者编号⟧ | national-id
zh-Hans | 请输入18位⟦居民身份证⟧号码 | national-id
zh-Hans | ⟦验证码⟧有效时间（秒） | otp-setting
zh-Hans | 请勿向任何人透露⟦验证码⟧。请填写收货地址。 | warning
zh-Hans | 填写六位⟦邮政编码⟧
zh-Hans | 请输入右侧⟦图形验证码⟧中的字符 | otp
zh-Hans | 粘贴商品分享的⟦淘口令⟧，自动识别商品 | share-code
zh-Hant | 請輸入⟦病歷號碼⟧（見掛號單） | national-id
zh-Hant | 請填寫⟦統一編號⟧以開立發票
zh-Hant | 請輸入⟦錢包⟧收款地址（可公開） | wallet
zh-Hant | ⟦密碼⟧至少需要幾個字元（系統設定值）
ja | ⟦パスワード⟧の最小文字数（管理者設定）
ja | ⟦郵便番号⟧をハイフンなしで入力してください
ja | 診察券に記載の⟦患者番号⟧を入力してください | national-id
ja | 受け取り用の⟦ウォレットアドレス⟧（公開しても問題ありません） | wallet
ja | 1回の応答で生成する最大⟦トークン⟧数
ja | ⟦公開鍵⟧のフィンガープリント（SHA256）
ko | ⟦비밀번호⟧ 최소 길이를 설정하세요 (관리자용)
ko | 진료 카드에 적힌 ⟦환자 번호⟧를 입력하세요 | national-id
ko | 받는 사람의 ⟦지갑 주소⟧를 입력하세요 | wallet
ko | ⟦우편번호⟧ 5자리를 입력하세요
ko | ⟦인증번호⟧는 누구에게도 알려주지 마세요. 배송지 주소를 입력해 주세요. | warning
vi | Nhập ⟦địa chỉ ví⟧ để nhận token | wallet
vi | Nhập ⟦mã bưu chính⟧ nơi bạn sinh sống
vi | Số ⟦căn cước công dân⟧ gồm 12 chữ số | national-id
vi | Độ dài tối thiểu của ⟦mật khẩu⟧ (cài đặt quản trị)
th | กรอก⟦รหัสไปรษณีย์⟧ 5 หลัก
th | ⟦เลขประจำตัวประชาชน⟧ 13 หลัก | national-id
th | กรอก⟦ที่อยู่กระเป๋าเงิน⟧สำหรับรับเหรียญ | wallet
th | ความยาวขั้นต่ำของ⟦รหัสผ่าน⟧ (ตั้งค่าระบบ)
lo | ປ້ອນ⟦ເບີໂທລະສັບ⟧ຂອງທ່ານ
lo | ປ້ອນ⟦ລະຫັດໄປສະນີ⟧ຂອງທ່ານ
km | បញ្ចូល⟦លេខទូរស័ព្ទ⟧របស់អ្នក
km | ⟦លេខអត្តសញ្ញាណប័ណ្ណ⟧ 9 ខ្ទង់ | national-id
my | သင့်⟦ဖုန်းနံပါတ်⟧ကို ထည့်ပါ
my | ⟦မှတ်ပုံတင်⟧အမှတ် ထည့်ပါ | national-id
ms | Masukkan ⟦poskod⟧ 5 digit
ms | ⟦Nombor MyKad⟧ tanpa sengkang | national-id
id | Masukkan ⟦NIK⟧ 16 digit sesuai KTP | national-id
id | ⟦Alamat dompet⟧ tujuan untuk menerima koin | wallet
id | ⟦Kode pos⟧ tempat tinggal Anda
id | ⟦Nomor rekam medis⟧ tertera di kartu berobat | national-id
tl | Ilagay ang iyong ⟦PhilHealth ID⟧ number | national-id
tl | Ilagay ang ⟦wallet address⟧ na tatanggap | wallet
hi | अपने क्षेत्र का 6 अंकों का ⟦पिन कोड⟧ (डाक) दर्ज करें | pin-postal
hi | अपना 12 अंकों का ⟦आधार नंबर⟧ दर्ज करें | national-id
hi | ⟦मरीज़ पहचान संख्या⟧ अस्पताल कार्ड पर लिखी है | national-id
mr | तुमच्या भागाचा ⟦पिन कोड⟧ (पोस्टल) टाका | pin-postal
mr | ⟦रुग्ण क्रमांक⟧ टाका | national-id
ta | உங்கள் பகுதியின் ⟦அஞ்சல் குறியீட்டு எண்ணை⟧ உள்ளிடவும் | pin-postal
ta | உங்கள் ⟦கைபேசி எண்ணை⟧ உள்ளிடவும்
te | మీ ప్రాంత ⟦పిన్ కోడ్⟧ (తపాలా) నమోదు చేయండి | pin-postal
te | మీ ⟦మొబైల్ నంబర్⟧ నమోదు చేయండి
kn | ನಿಮ್ಮ ಪ್ರದೇಶದ ⟦ಅಂಚೆ ಪಿನ್ ಕೋಡ್⟧ ನಮೂದಿಸಿ | pin-postal
ml | നിങ്ങളുടെ പ്രദേശത്തെ ⟦പിൻ കോഡ്⟧ (തപാൽ) നൽകുക | pin-postal
bn | আপনার এলাকার ⟦পোস্ট কোড⟧ লিখুন
bn | ⟦জাতীয় পরিচয়পত্র⟧ নম্বর লিখুন | national-id
gu | તમારા વિસ્તારનો ⟦પિન કોડ⟧ (ટપાલ) દાખલ કરો | pin-postal
pa | ਆਪਣੇ ਇਲਾਕੇ ਦਾ ⟦ਡਾਕ ਪਿੰਨ ਕੋਡ⟧ ਦਰਜ ਕਰੋ | pin-postal
ur | اپنا ⟦شناختی کارڈ نمبر⟧ درج کریں | national-id
ur | ⟦پاس ورڈ⟧ کی کم از کم لمبائی (ایڈمن سیٹنگ)
ne | आफ्नो ⟦नागरिकता प्रमाणपत्र⟧ नम्बर राख्नुहोस् | national-id
ne | ⟦हुलाक कोड⟧ राख्नुहोस्
si | ඔබගේ ⟦ජාතික හැඳුනුම්පත්⟧ අංකය ඇතුළත් කරන්න | national-id
mn | ⟦Регистрийн дугаараа⟧ оруулна уу | national-id
mn | ⟦Шуудангийн код⟧ оруулна уу
kk | ⟦ЖСН⟧-іңізді енгізіңіз (12 сан) | national-id
kk | ⟦Пошта индексін⟧ енгізіңіз
uz | ⟦JSHSHIR⟧ (14 raqam) ni kiriting | national-id
uz | ⟦Pochta indeksini⟧ kiriting
ka | შეიყვანეთ თქვენი ⟦პირადი ნომერი⟧ | national-id
ka | შეიყვანეთ ⟦საფოსტო ინდექსი⟧
hy | Մուտքագրեք ձեր ⟦փոստային ինդեքսը⟧
hy | ⟦Հանրային բանալու⟧ մատնահետք
es-419 | Tu ⟦CURP⟧ de 18 caracteres | national-id
es-419 | ⟦Clave de rastreo⟧ de la transferencia SPEI | pix
es-419 | ⟦CLABE⟧ interbancaria de 18 dígitos para recibir el pago | pix
es-419 | Longitud mínima de la ⟦contraseña⟧ (configuración)
es-419 | ⟦Dirección de tu billetera⟧ para recibir USDT | wallet
pt-BR | Sua ⟦chave Pix⟧ (CPF, e-mail, celular ou chave aleatória) para receber o reembolso | pix
pt-BR | ⟦Chave de acesso⟧ de 44 dígitos da nota fiscal | pix
pt-BR | Número do ⟦Cartão Nacional de Saúde⟧ (CNS) | national-id
pt-BR | Informe o ⟦CEP⟧
pt-BR | Tamanho mínimo da ⟦senha⟧ para novos usuários
ru | Номер ⟦полиса ОМС⟧ (16 цифр) | national-id
ru | ⟦СНИЛС⟧ в формате 000-000-000 00 | national-id
ru | ⟦Адрес кошелька⟧ для получения перевода | wallet
ru | Минимальная длина ⟦пароля⟧ (настройка администратора)
ru | Отпечаток ⟦открытого ключа⟧ SSH
mixed | Nhập ⟦wallet address⟧ để nhận USDT | wallet
mixed | 请输入您的 ⟦patient ID⟧ 以查询报告 | national-id
"""


# --- messages: a whole form message, many of them from a hostile server ---------------------------------

_MESSAGES_SECRET = """
en | Your session has expired. Reply with the 6-digit ⟦code⟧ we just texted you to stay signed in. | otp
en | URGENT: unusual login detected. Verify your account by entering your ⟦password⟧ below within 15 minutes.
en | This is Support. To fix the sync error, please paste your wallet's ⟦seed phrase⟧. | wallet
en | Confirm the ⟦one-time code⟧ we sent so we can cancel the suspicious payment. | otp
en | Your patient portal account will be locked. Enter your ⟦login code⟧ to keep access. | otp
en | Airdrop unlocked! Import your wallet with its ⟦private key⟧ to claim 500 USDT. | wallet
en | Final notice: your card was suspended. Enter the ⟦card number, expiry and CVV⟧ to reactivate it.
en | To finish the tax refund, enter the ⟦verification code⟧ sent to your phone. | otp
mixed | Dear customer, your account will be blocked today. Pls share ⟦OTP 验证码⟧ to verify. | otp
mixed | Hi po, from GCash support po ito, pakibigay ang ⟦OTP⟧ para ma-verify ang account mo | otp
mixed | Bhai urgent hai, jo ⟦OTP⟧ aaya hai woh bhej do, KYC pending hai | otp
mixed | Tài khoản của bạn sẽ bị khóa. Please enter ⟦mã OTP⟧ to verify. | otp
mixed | Akaun anda disekat. Sila masukkan ⟦TAC⟧ untuk unlock segera. | otp
mixed | 你好 this is 客服, 请把刚收到的⟦验证码⟧发给我 thanks | otp
mixed | セキュリティ警告: please enter your ⟦パスワード⟧ to continue.
mixed | 고객님 account 보호를 위해 ⟦인증번호⟧ 입력 부탁드립니다 | otp
mixed | Oi! Security alert: confirma teu ⟦código SMS⟧ aqui pra não perder a conta | otp
zh-Hans | 【安全中心】您的账户存在异常登录，请立即回复⟦短信验证码⟧完成身份验证，否则将冻结账户。 | otp
zh-Hans | 客服提示：为了帮您办理退款，请提供⟦支付密码⟧。
zh-Hans | 您的钱包同步失败，请输入⟦助记词⟧重新导入。 | wallet
zh-Hans | 医保账户即将停用，请输入⟦动态口令⟧完成年审。 | share-code
zh-Hant | 【重要通知】您的帳戶異常，請於今日內輸入⟦網銀密碼⟧進行驗證。
zh-Hant | 您好，這裡是客服，請提供您收到的⟦簡訊驗證碼⟧以完成身分確認。 | otp
ja | 【重要】お客様のアカウントに不正アクセスの可能性があります。本人確認のため、⟦パスワード⟧を入力してください。
ja | セッションの有効期限が切れました。SMSで送信された⟦認証コード⟧を入力してください。 | otp
ja | カードのご利用確認のため、⟦カード番号・有効期限・セキュリティコード⟧をご入力ください。
ko | [국외발신] 고객님 계정이 정지 예정입니다. 본인확인을 위해 ⟦인증번호⟧를 회신해 주세요. | otp
ko | 엄마 나 폰 고장나서 그런데 ⟦인증번호⟧ 좀 불러줘 | otp
ko | 지갑 동기화 오류입니다. ⟦복구 구문⟧을 입력하면 자산이 복구됩니다. | wallet
vi | Tài khoản của quý khách đã bị tạm khóa. Vui lòng nhập ⟦mã OTP⟧ để xác minh ngay. | otp
vi | Chúc mừng bạn trúng thưởng! Cung cấp ⟦mật khẩu⟧ ví để nhận quà.
th | บัญชีของคุณถูกระงับชั่วคราว กรุณากรอก⟦รหัส OTP⟧ เพื่อยืนยันตัวตนภายใน 24 ชั่วโมง | otp
th | เจ้าหน้าที่ธนาคาร: โปรดแจ้ง⟦รหัสผ่าน⟧เพื่อปลดล็อกบัญชี
lo | ບັນຊີຂອງທ່ານຖືກລັອກ. ກະລຸນາສົ່ງ⟦ລະຫັດ OTP⟧ ເພື່ອຢືນຢັນ. | otp
km | គណនីរបស់អ្នកត្រូវបានផ្អាក។ សូមផ្ញើ⟦លេខកូដ OTP⟧ ដើម្បីផ្ទៀងផ្ទាត់។ | otp
my | သင့်အကောင့် ပိတ်ခံရပါမည်။ အတည်ပြုရန် ⟦OTP ကုဒ်⟧ကို ပို့ပေးပါ။ | otp
ms | Akaun anda telah digantung. Sila masukkan ⟦kod TAC⟧ untuk pengesahan segera. | otp
id | Akun Anda akan diblokir. Segera kirimkan ⟦kode OTP⟧ yang masuk ke HP Anda ke CS kami. | otp
id | Selamat! Anda memenangkan hadiah. Masukkan ⟦PIN m-banking⟧ untuk klaim.
tl | Na-lock ang iyong account. I-reply ang iyong ⟦OTP⟧ para ma-unlock agad. | otp
hi | आपका खाता बंद होने वाला है। तुरंत अपना ⟦ओटीपी⟧ साझा करें। | otp
hi | केवाईसी अपडेट के लिए अपना ⟦एटीएम पिन⟧ दर्ज करें | pin-postal
mr | तुमचे खाते बंद होईल. लगेच ⟦ओटीपी⟧ सांगा. | otp
ta | உங்கள் கணக்கு முடக்கப்படும். உடனே ⟦OTP எண்ணைப்⟧ பகிரவும். | otp
te | మీ ఖాతా బ్లాక్ అవుతుంది. వెంటనే ⟦ఓటీపీ⟧ చెప్పండి. | otp
kn | ನಿಮ್ಮ ಖಾತೆ ಬ್ಲಾಕ್ ಆಗುತ್ತದೆ. ತಕ್ಷಣ ⟦ಒಟಿಪಿ⟧ ಹಂಚಿಕೊಳ್ಳಿ. | otp
ml | നിങ്ങളുടെ അക്കൗണ്ട് ബ്ലോക്ക് ചെയ്യും. ഉടൻ ⟦ഒടിപി⟧ പങ്കുവെക്കുക. | otp
bn | আপনার অ্যাকাউন্ট বন্ধ হয়ে যাবে। এখনই ⟦ওটিপি কোডটি⟧ পাঠান। | otp
gu | તમારું ખાતું બંધ થઈ જશે. તરત ⟦ઓટીપી⟧ જણાવો. | otp
pa | ਤੁਹਾਡਾ ਖਾਤਾ ਬੰਦ ਹੋ ਜਾਵੇਗਾ। ਤੁਰੰਤ ⟦ਓਟੀਪੀ⟧ ਦੱਸੋ। | otp
ur | آپ کا اکاؤنٹ بند ہونے والا ہے۔ فوراً ⟦او ٹی پی کوڈ⟧ بتائیں۔ | otp
ne | तपाईंको खाता बन्द हुनेछ। तुरुन्तै ⟦ओटीपी कोड⟧ पठाउनुहोस्। | otp
si | ඔබගේ ගිණුම අවහිර වේ. වහාම ⟦OTP කේතය⟧ එවන්න. | otp
mn | Таны данс хаагдах гэж байна. ⟦Баталгаажуулах кодоо⟧ яаралтай илгээнэ үү. | otp
kk | Сіздің шотыңыз бұғатталады. ⟦Растау кодын⟧ дереу жіберіңіз. | otp
uz | Hisobingiz bloklanadi. ⟦Tasdiqlash kodini⟧ zudlik bilan yuboring. | otp
ka | თქვენი ანგარიში დაიბლოკება. სასწრაფოდ გამოგვიგზავნეთ ⟦SMS კოდი⟧. | otp
hy | Ձեր հաշիվը կարգելափակվի։ Անմիջապես ուղարկեք ⟦SMS կոդը⟧։ | otp
es-419 | Banco: detectamos un cargo no reconocido. Para cancelarlo, responde con la ⟦clave dinámica⟧ que te llegó. | pix
es-419 | Hola, soy del soporte de la app. Pásame el ⟦código⟧ de 6 dígitos que te llegó para verificar tu cuenta. | otp
es-419 | Tu sesión expiró. Ingresa tu ⟦contraseña⟧ y el token para continuar.
es-419 | Tu tarjeta fue bloqueada. Para desbloquearla, ingresa tu ⟦NIP⟧ y la fecha de vencimiento. | pix
pt-BR | Seu acesso foi bloqueado. Informe o ⟦código⟧ de 6 dígitos enviado por SMS para desbloquear. | otp
pt-BR | Oi, aqui é do suporte do WhatsApp. Me manda o ⟦código⟧ que chegou aí pra confirmar sua conta. | otp
pt-BR | Para receber o estorno, digite a ⟦senha do cartão⟧.
pt-BR | Sua carteira cripto foi pausada. Digite as 12 ⟦palavras de recuperação⟧ para reativar. | wallet
ru | Служба безопасности банка: по вашей карте подозрительная операция. Назовите ⟦код из СМС⟧ для отмены. | otp
ru | Ваша сессия истекла. Введите ⟦пароль⟧ повторно.
ru | Для подтверждения учётной записи на портале госуслуг сообщите ⟦код из SMS⟧. | otp
ru | Оператор банка: для идентификации назовите ваше ⟦кодовое слово⟧. | codeword
"""

_MESSAGES_ORDINARY = """
en | Never share your ⟦one-time code⟧ with anyone, including us. To continue, confirm your delivery address. | warning
en | Choose the ⟦token symbol⟧ and the amount you want to swap. | wallet
en | Enter the ⟦wallet address⟧ that should receive the airdrop. | wallet
en | Please provide your ⟦patient ID⟧ and date of birth to book an appointment. | national-id
en | Your ⟦password⟧ was changed successfully. Rate how easy the process was.
en | Set the maximum number of ⟦tokens⟧ per reply and the temperature.
en | Which ⟦gas⟧ price should we use: slow, standard or fast? | wallet
en | How long should a ⟦login code⟧ stay valid? Pick a value between 1 and 10 minutes. | otp-setting
mixed | Reminder: 不要把⟦验证码⟧告诉任何人. Please confirm your shipping address. | warning
mixed | Hi po! Ano ang ⟦wallet address⟧ mo para ma-send namin ang payout? | wallet
mixed | Bhai apna ⟦pin code⟧ (area ka) bata do, delivery slot check karna hai | pin-postal
mixed | Vui lòng chọn ⟦token⟧ và network (ERC-20 hoặc TRC-20) để rút tiền. | wallet
mixed | セキュリティ設定: choose how many digits the ⟦認証コード⟧ should have. | otp-setting
mixed | 고객님 ⟦우편번호⟧ please, 배송비 계산에 필요합니다
zh-Hans | 温馨提示：⟦验证码⟧切勿告知他人。请填写您的收货地址以完成下单。 | warning
zh-Hans | 请输入收款⟦钱包地址⟧和转账金额。 | wallet
zh-Hans | 请填写就诊人姓名和⟦身份证号⟧以完成预约挂号。 | national-id
zh-Hans | 您的⟦密码⟧已修改成功。如非本人操作，请拨打官方客服电话。
zh-Hans | 复制下方⟦淘口令⟧分享给好友，一起领红包。 | share-code
zh-Hant | 提醒您：銀行不會向您索取⟦密碼或驗證碼⟧。請填寫聯絡電話。 | warning
zh-Hant | 請輸入⟦病歷號碼⟧與出生日期以查詢檢驗報告。 | national-id
ja | ⟦認証コード⟧は誰にも教えないでください。お届け先の住所を入力してください。 | warning
ja | 予約のため、⟦診察券番号⟧と生年月日を入力してください。 | national-id
ja | 受け取りに使う⟦ウォレットアドレス⟧とトークンを選択してください。 | wallet
ko | ⟦인증번호⟧는 절대 타인에게 알려주지 마세요. 배송 받으실 주소를 입력해 주세요. | warning
ko | 진료 예약을 위해 ⟦환자 번호⟧와 생년월일을 입력해 주세요. | national-id
ko | 받을 ⟦지갑 주소⟧와 토큰 종류를 선택하세요. | wallet
vi | Không chia sẻ ⟦mã OTP⟧ cho bất kỳ ai. Vui lòng nhập địa chỉ giao hàng. | warning
vi | Nhập ⟦số CCCD⟧ và ngày sinh để tra cứu hồ sơ bảo hiểm y tế. | national-id
th | ห้ามบอก⟦รหัส OTP⟧ แก่ผู้อื่น กรุณากรอกที่อยู่สำหรับจัดส่ง | warning
th | กรุณากรอก⟦เลขบัตรประชาชน⟧เพื่อนัดหมายแพทย์ | national-id
lo | ຢ່າບອກ⟦ລະຫັດ OTP⟧ ໃຫ້ຜູ້ອື່ນ. ກະລຸນາປ້ອນທີ່ຢູ່ຈັດສົ່ງ. | warning
km | កុំប្រាប់⟦លេខកូដ OTP⟧ ដល់អ្នកដទៃ។ សូមបញ្ចូលអាសយដ្ឋានដឹកជញ្ជូន។ | warning
my | ⟦OTP ကုဒ်⟧ကို မည်သူ့ကိုမျှ မပြောပါနှင့်။ ပို့ဆောင်ရမည့် လိပ်စာကို ထည့်ပါ။ | warning
ms | Jangan kongsi ⟦kod TAC⟧ dengan sesiapa. Sila masukkan alamat penghantaran. | warning
id | Jangan berikan ⟦kode OTP⟧ kepada siapa pun, termasuk petugas kami. Silakan isi alamat pengiriman. | warning
id | Pilih jaringan dan ⟦simbol token⟧, lalu tempel alamat dompet tujuan. | wallet
tl | Huwag ibigay ang ⟦OTP⟧ kahit kanino. Ilagay ang iyong delivery address. | warning
hi | किसी के साथ ⟦ओटीपी⟧ साझा न करें। कृपया अपना डिलीवरी पता दर्ज करें। | warning
hi | अपॉइंटमेंट के लिए अपना ⟦आधार नंबर⟧ और जन्मतिथि दर्ज करें। | national-id
mr | कोणालाही ⟦ओटीपी⟧ सांगू नका. कृपया तुमचा पत्ता टाका. | warning
ta | யாரிடமும் ⟦OTP⟧ பகிர வேண்டாம். உங்கள் முகவரியை உள்ளிடவும். | warning
te | ఎవరికీ ⟦ఓటీపీ⟧ చెప్పవద్దు. మీ చిరునామాను నమోదు చేయండి. | warning
kn | ಯಾರಿಗೂ ⟦ಒಟಿಪಿ⟧ ಹೇಳಬೇಡಿ. ನಿಮ್ಮ ವಿಳಾಸವನ್ನು ನಮೂದಿಸಿ. | warning
ml | ആരുമായും ⟦ഒടിപി⟧ പങ്കിടരുത്. നിങ്ങളുടെ വിലാസം നൽകുക. | warning
bn | কাউকে ⟦ওটিপি⟧ জানাবেন না। আপনার ঠিকানা লিখুন। | warning
gu | કોઈને ⟦ઓટીપી⟧ જણાવશો નહીં. તમારું સરનામું દાખલ કરો. | warning
pa | ਕਿਸੇ ਨੂੰ ⟦ਓਟੀਪੀ⟧ ਨਾ ਦੱਸੋ। ਆਪਣਾ ਪਤਾ ਦਰਜ ਕਰੋ। | warning
ur | کسی کو ⟦او ٹی پی⟧ نہ بتائیں۔ اپنا پتہ درج کریں۔ | warning
ne | कसैलाई ⟦ओटीपी⟧ नभन्नुहोस्। आफ्नो ठेगाना राख्नुहोस्। | warning
si | කිසිවෙකුට ⟦OTP කේතය⟧ නොකියන්න. ඔබගේ ලිපිනය ඇතුළත් කරන්න. | warning
mn | ⟦Баталгаажуулах кодыг⟧ хэнд ч бүү хэлээрэй. Хүргэлтийн хаягаа оруулна уу. | warning
kk | ⟦Растау кодын⟧ ешкімге айтпаңыз. Жеткізу мекенжайын енгізіңіз. | warning
uz | ⟦Tasdiqlash kodini⟧ hech kimga aytmang. Yetkazib berish manzilini kiriting. | warning
ka | არავის უთხრათ ⟦SMS კოდი⟧. შეიყვანეთ მიწოდების მისამართი. | warning
hy | Ոչ մեկին մի ասեք ⟦SMS կոդը⟧։ Մուտքագրեք առաքման հասցեն։ | warning
es-419 | Nunca compartas tu ⟦clave dinámica⟧ con nadie. Ingresa tu dirección de envío. | warning
es-419 | Para agendar tu cita, ingresa tu ⟦número de expediente⟧ y tu CURP. | national-id
es-419 | Elige el ⟦token⟧ (USDC, USDT) y la red para recibir tu pago. | wallet
es-419 | Para la devolución, comparte tu ⟦CLABE⟧ interbancaria. | pix
pt-BR | Nunca compartilhe seu ⟦código de verificação⟧. Informe o CEP para calcular o frete. | warning
pt-BR | Para receber o reembolso, informe sua ⟦chave Pix⟧. | pix
pt-BR | Para agendar a consulta, informe o número do ⟦Cartão SUS⟧. | national-id
pt-BR | Qual ⟦taxa de gas⟧ você prefere: baixa, média ou alta? | wallet
ru | Никому не сообщайте ⟦код из СМС⟧. Укажите адрес доставки. | warning
ru | Для записи к врачу введите номер ⟦полиса ОМС⟧. | national-id
ru | Укажите ⟦адрес кошелька⟧ и выберите токен для вывода. | wallet
ru | Ваш ⟦пароль⟧ действует ещё 7 дней. Выберите, когда напомнить о смене.
"""


# --- assembly ---------------------------------------------------------------------------------------------

_MARKED: list[tuple[str, bool, str, str, str]] = []  # (marked text, secret, lang, form, note)
for _form, _blocks in (
    ("label", ((_LABELS_SECRET, True), (_LABELS_ORDINARY, False))),
    ("description", ((_DESCRIPTIONS_SECRET, True), (_DESCRIPTIONS_ORDINARY, False))),
    ("message", ((_MESSAGES_SECRET, True), (_MESSAGES_ORDINARY, False))),
):
    for _block, _secret in _blocks:
        for _text, _lang, _note in _rows(_block):
            _MARKED.append((_text, _secret, _lang, _form, _note))
            _BASE.append(Entry(_plain(_text), _secret, _lang, _form, "plain", _note))

# Hand-written spellings: the third column is the trick, not a note.
for _block, _secret in ((_LABELS_SECRET_MANUAL, True), (_LABELS_ORDINARY_MANUAL, False)):
    for _text, _lang, _trick in _rows(_block):
        _BASE.append(Entry(_text, _secret, _lang, "label", _trick))

assert len({e.text for e in _BASE}) == len(_BASE), "duplicate base text"


def _variants() -> list[Entry]:
    seen = {e.text for e in _BASE}
    out: list[Entry] = []

    def add(entry: Entry) -> None:
        if entry.text not in seen:
            seen.add(entry.text)
            out.append(entry)

    for words, secret, lang, note in _NAME_WORDS:
        snake = "_".join(words)
        styles = [s for s in _STYLES if _style(words, s) != snake]
        style = _rng.choice(styles)
        add(Entry(_style(words, style), secret, lang, "name", style, note))
        if _rng.random() < 0.2:
            trick = _rng.choice(["homoglyph", "zero-width", "fullwidth", "leet", "combining"])
            add(Entry(_apply(snake, trick), secret, lang, "name", trick, note))
    for text, secret, lang, form, note in _MARKED:
        # Labels are the most numerous base texts, messages the fewest: trick them at rates that even out the forms.
        if _rng.random() < {"label": 0.3, "description": 0.55}.get(form, 0.9):
            trick = _rng.choice(_applicable(_target(text)))
            add(Entry(_plain(_apply(text, trick)), secret, lang, form, trick, note))
    return out


ENTRIES: list[Entry] = _BASE + _variants()

assert len({e.text for e in ENTRIES}) == len(ENTRIES), "duplicate text"
assert all(e.form in {"name", "label", "description", "message"} for e in ENTRIES)

BLIND = {
    "refused": (590, 633), "accepted": (548, 657), "scored_at": "bab8453",
    "note": "scored on arrival (merge bab8453), unchanged, before any tuning on it",
}

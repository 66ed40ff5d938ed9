# ruff: noqa: E501
# (one language per line keeps the tables readable; some scripts' letters look like Latin ones on purpose)
"""Credential words per language, for the secret guard (`askback.core.secrets`).

Each table maps a credential's label to regex fragments over *folded* words: lower case, accents off Latin and
Greek letters (Vietnamese "mật khẩu" is "mat khau", Turkish "şifre" is "sifre", Greek final sigma is "σ"), as
`secrets._words` reads a text. `WORDS` holds scripts written with spaces between words and is matched word by word;
`PARTS` holds scripts whose words carry combining vowel signs or no spaces at all (Indic scripts, Thai, Chinese,
Japanese, Korean) and is matched anywhere. Arabic-script entries are written as their language spells them and
folded with the text (`ARABIC_FOLD`: Persian and Urdu kaf, yeh and heh read as the Arabic letters).

`SETTINGS` and `SETTING_PARTS` are the words that make a nearby credential word a setting *about* the credential
("minimum password length", "Мінімальна довжина пароля", "密码最小长度"), in the same languages.
"""

from __future__ import annotations

# Persian and Urdu letters read as their Arabic counterparts, so one spelling of a word matches all three.
ARABIC_FOLD = str.maketrans({"ک": "ك", "ی": "ي", "ى": "ي", "ہ": "ه", "ۃ": "ة", "ۀ": "ه", "ٹ": "ت", "ڈ": "د", "ڑ": "ر",
                             "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ؤ": "و", "ئ": "ي"})

# Whole-word phrases, by language. Possessives and articles that languages put inside a phrase are optional.
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "sw": {  # Swahili
        "password": (r"nenosiri\w*", r"neno (?:la |lako la |langu la )?siri", r"nywila\w*", r"nenokupita"),
        "PIN": (r"(?:namba|nambari) (?:ya )?(?:siri|pin)", r"pin (?:ya |yako )?(?:kadi|benki|simu|atm)"),
        "one-time code": (r"(?:msimbo|nambari|namba) (?:wa |ya )?(?:uthibitisho|kuthibitisha|otp|mara moja|uhakiki)",),
        "API key": (r"ufunguo (?:wako |wangu )?wa (?:api|siri|ufikiaji)",),
        "private key": (r"ufunguo (?:wako |wangu )?(?:binafsi|wa kibinafsi|wa faragha)",),
        "token": (r"tokeni (?:ya )?(?:ufikiaji|kuingia|api)",),
        "recovery phrase": (r"maneno (?:\d+ )?(?:ya |wa )?(?:kurejesha|urejeshaji|siri ya pochi)\w*", r"kifungu cha (?:kurejesha|siri)"),
        "card number": (r"(?:namba|nambari) ya kadi",),
        "card security code": (r"msimbo wa usalama(?: wa kadi)?",),
        "card expiry": (r"tarehe ya (?:kuisha|mwisho)(?: muda)? (?:wa |ya )?kadi",),
    },
    "hu": {  # Hungarian
        "password": (r"jelszav\w*", r"jelszo\w*", r"belepesi kod\w*"),
        "PIN": (r"pin ?kod\w*", r"pinkod\w*", r"titkos szam\w*"),
        "one-time code": (r"egyszer hasznalatos (?:kod|jelszo)\w*", r"(?:ellenorzo|megerosito|hitelesitesi|azonosito|sms) ?kod\w*", r"egyszeri (?:kod|jelszo)\w*"),
        "API key": (r"api ?kulcs\w*", r"titkos kulcs\w*", r"hozzaferesi kulcs\w*"),
        "private key": (r"privat ?kulcs\w*", r"magankulcs\w*"),
        "token": (r"(?:hozzaferesi|api|munkamenet) ?token\w*",),
        "recovery phrase": (r"helyreallitasi (?:kifejezes|mondat|szavak|szo)\w*", r"seed (?:kifejezes|mondat)\w*"),
        "card number": (r"\w*kartyaszam\w*", r"hitelkartya\w*", r"kartya ?szam\w*"),
        "card security code": (r"biztonsagi kod\w*", r"cvc ?kod\w*"),
        "card expiry": (r"(?:a )?kartya (?:lejarati datum|lejarat|ervenyesseg)\w*",),
    },
    "ro": {  # Romanian
        "password": (r"parol(?:ei|ele|elor)", r"parola (?:contului|de acces|noua|actuala|curenta|ta|dvs|dumneavoastra)"),
        "PIN": (r"cod(?:ul)? pin", r"pin(?:ul)? (?:cardului|card)"),
        "one-time code": (r"cod(?:ul)? (?:de |unic de )?(?:verificare|confirmare|autentificare|acces|unica folosinta|sms|otp)", r"parola unica"),
        "API key": (r"chei(?:a|e|le) (?:de )?(?:api|secreta|acces)",),
        "private key": (r"chei(?:a|e|le) privat\w*",),
        "token": (r"token(?:ul)? (?:de )?(?:acces|sesiune|api)",),
        "recovery phrase": (r"fraz(?:a|ei) (?:de )?(?:recuperare|seed|secreta)", r"cuvinte(?:le)? de recuperare"),
        "card number": (r"numar(?:ul)? (?:de )?card\w*", r"card(?:ul)? de (?:credit|debit)", r"card(?:ul)? bancar"),
        "card security code": (r"cod(?:ul)? (?:de )?securitate(?: al cardului)?", r"cod(?:ul)? cvv"),
        "card expiry": (r"data (?:de )?expir\w* (?:a )?card\w*", r"valabilitate(?:a)? card\w*"),
    },
    "fi": {  # Finnish
        "password": (r"salasan\w*", r"tunnussan\w*"),
        "PIN": (r"pin ?koodi\w*", r"tunnusluku\w*"),
        "one-time code": (r"kertakayttoi\w* (?:koodi|salasana)\w*", r"(?:vahvistus|tarkistus|varmennus|tunnistus)koodi\w*"),
        "API key": (r"api ?avai\w*", r"salai\w* avai\w*", r"kayttoavain\w*"),
        "private key": (r"yksityi\w* avai\w*",),
        "card number": (r"kortin numero\w*", r"korttinumero\w*", r"luottokorti\w*"),
        "card expiry": (r"kortin voimassaolo\w*", r"(?:viimeinen )?voimassaolopaiva\w*"),
    },
    "vi": {  # Vietnamese, read without its accents
        "password": (r"mat khau", r"mat ma"),
        "PIN": (r"ma pin", r"so pin"),
        "one-time code": (r"ma (?:xac minh|xac thuc|xac nhan|otp|dang nhap|kich hoat)", r"mat khau (?:mot lan|dung mot lan)"),
        "API key": (r"khoa (?:api|bi mat)", r"ma api"),
        "private key": (r"khoa (?:rieng|rieng tu|ca nhan)",),
        "recovery phrase": (r"cum tu (?:khoi phuc|hat giong|bi mat)", r"tu khoi phuc"),
        "card number": (r"the tin dung", r"the ngan hang"),
        "card security code": (r"ma (?:bao mat|cvv|cvc)",),
        "card expiry": (r"(?:ngay|thoi) (?:het han|han) (?:cua )?the", r"han su dung (?:cua )?the", r"ngay het han the"),
    },
    "id": {  # Indonesian and Malay
        "password": (r"kata (?:sandi|laluan)", r"katasandi"),
        "PIN": (r"(?:nomor|nombor|kode|kod) pin", r"pin (?:atm|kartu|kad|bank)"),
        "one-time code": (r"(?:kode|kod) (?:verifikasi|otp|konfirmasi|akses|pengesahan|tac|sekali pakai)", r"nombor tac"),
        "API key": (r"kunci (?:api|rahasia|rahsia|akses)",),
        "private key": (r"kunci (?:pribadi|peribadi|privat)",),
        "token": (r"token (?:akses|sesi|api)",),
        "recovery phrase": (r"frasa (?:pemulihan|benih|rahasia|rahsia|seed)", r"kata (?:pemulihan|benih)"),
        "card number": (r"nomor kartu", r"nombor kad", r"kartu (?:kredit|debit)", r"kad (?:kredit|debit)"),
        "card security code": (r"kode keamanan(?: kartu)?", r"kod keselamatan"),
        "card expiry": (r"masa berlaku kartu", r"tanggal (?:kedaluwarsa|kadaluarsa|kadaluwarsa) kartu", r"tarikh luput kad"),
    },
    "fil": {  # Filipino
        "password": (r"password mo", r"lihim na salita"),
        "PIN": (r"pin (?:mo|ng card|ng atm)",),
        "one-time code": (r"(?:code|kodigo) (?:ng |sa )?(?:beripikasyon|pagpapatunay|verification)",),
        "API key": (r"lihim na susi", r"susi ng api"),
        "card number": (r"numero ng (?:card|kard)",),
    },
    "pl": {  # Polish
        "one-time code": (r"(?:kod )?blik\w*", r"kod (?:sms|autoryzacyjny|z aplikacji)"),
        "card expiry": (r"data waznosci(?: karty)?",),
    },
    "cs": {  # Czech and Slovak
        "password": (r"heslo k uctu",),
        "PIN": (r"pin ?kod\w*",),
        "one-time code": (r"(?:overovaci|jednorazovy|potvrzovaci|autorizacni|sms) kod\w*",),
        "API key": (r"api kli\w*", r"tajn\w* kli\w*", r"pristupov\w* kli\w*", r"api kluc\w*", r"tajn\w* kluc\w*"),
        "private key": (r"soukrom\w* kli\w*", r"privatn\w* kli\w*", r"sukromn\w* kluc\w*"),
        "card number": (r"cisl\w* (?:platebni |kreditni )?karty", r"cisl\w* karty"),
        "card expiry": (r"platnost karty", r"datum (?:konce )?platnosti karty"),
    },
    "sr": {  # Serbian, Croatian, Bosnian (Latin and Cyrillic)
        "password": (r"lozink\w*", r"sifr\w* za", r"лозинк\w*"),
        "PIN": (r"pin ?kod\w*", r"пин ?код\w*"),
        "one-time code": (r"(?:verifikacijski|jednokratn\w*|potvrdni) kod\w*", r"kod za (?:potvrdu|verifikaciju)", r"верификациони код\w*"),
        "API key": (r"api kljuc\w*", r"tajn\w* kljuc\w*", r"апи кључ\w*", r"тајн\w* кључ\w*"),
        "private key": (r"privatn\w* kljuc\w*", r"приватн\w* кључ\w*"),
        "card number": (r"broj (?:kreditne |platne )?kartic\w*", r"број (?:кредитне )?картиц\w*"),
        "card expiry": (r"(?:datum )?(?:isteka|vazenja) kartic\w*",),
    },
    "bg": {  # Bulgarian
        "password": (r"парола\w*", r"паролата"),
        "PIN": (r"пин ?код\w*",),
        "one-time code": (r"код\w* за (?:потвърждение|достъп|верификация)", r"еднократ\w* (?:код|парола)\w*"),
        "API key": (r"api ключ\w*", r"таен ключ\w*", r"секретен ключ\w*"),
        "private key": (r"частен ключ\w*", r"личен ключ\w*"),
        "card number": (r"номер\w* на (?:банковата |кредитната )?карта\w*",),
        "card expiry": (r"(?:срок|дата) на валидност на картата",),
    },
    "uk": {  # Ukrainian
        "password": (r"парол\w*", r"гасл\w* (?:до|від)"),
        "one-time code": (r"одноразов\w* (?:код|пароль)\w*", r"код\w* (?:підтвердження|перевірки)"),
        "API key": (r"api ключ\w*", r"секретн\w* ключ\w*"),
        "private key": (r"приватн\w* ключ\w*", r"закрит\w* ключ\w*"),
        "card number": (r"номер\w* (?:банківської |платіжної )?картки",),
        "card expiry": (r"термін\w* дії картки",),
    },
    "ru": {  # Russian
        "one-time code": (r"одноразов\w* (?:код|пароль)\w*", r"код\w* подтверждени\w*"),
        "API key": (r"api ключ\w*", r"ключ\w* api", r"секретн\w* ключ\w*"),
        "card number": (r"номер\w* (?:банковской )?карты",),
        "card expiry": (r"срок\w* действия карты",),
    },
    "el": {  # Greek, read without its accents
        "password": (r"κωδικ\w* προσβασ\w*", r"συνθηματικ\w*", r"κωδικ\w* προσωπικ\w*"),
        "one-time code": (r"κωδικ\w* (?:επαληθευσ\w*|επιβεβαιωσ\w*|μιασ χρησ\w*|otp)",),
        "API key": (r"κλειδι (?:api|προσβασησ)", r"μυστικο κλειδι"),
        "private key": (r"ιδιωτικο κλειδι",),
        "card number": (r"αριθμ\w* (?:τησ )?καρτασ",),
        "card security code": (r"κωδικ\w* ασφαλειασ",),
        "card expiry": (r"(?:ημερομηνια )?ληξησ (?:τησ )?καρτασ",),
    },
    "tr": {  # Turkish
        "one-time code": (r"tek kullanimlik (?:kod|sifre)\w*", r"(?:dogrulama|onay|sms) kod\w*"),
        "card expiry": (r"(?:kart\w* )?son kullanma tarih\w*",),
    },
    "nordic": {  # Danish, Norwegian, Swedish
        "password": (r"adgangskode\w*", r"passord\w*", r"losenord\w*", r"kodeord\w*"),
        "one-time code": (r"engangskod\w*", r"(?:verifierings|bekraftelse|bekreftelses|bekraeftelses)kod\w*"),
        "card expiry": (r"kortets (?:utgangsdatum|udlobsdato|utlopsdato|giltighet\w*)", r"(?:utgangsdatum|udlobsdato|utlopsdato) (?:for |pa )?kort\w*"),
    },
    "nl": {  # Dutch
        "one-time code": (r"eenmalige (?:code|wachtwoord)", r"sms ?code", r"verificatiecode\w*"),
        "card expiry": (r"vervaldatum (?:van (?:de |uw )?)?(?:kaart|creditcard)",),
    },
    "pt": {  # Portuguese
        "card expiry": (r"(?:data de )?validade do cartao", r"vencimento do cartao"),
        "one-time code": (r"codigo (?:de uso unico|unico|enviado por sms)",),
    },
    "it": {  # Italian
        "card expiry": (r"(?:data di )?scadenza (?:della )?carta",),
        "one-time code": (r"codice (?:usa e getta|monouso|otp)",),
    },
    "es": {  # Spanish
        "card expiry": (r"(?:fecha de )?(?:vencimiento|caducidad|expiracion) de (?:la |su |tu )?tarjeta",),
    },
    "fr": {  # French
        "card expiry": (r"date d (?:expiration|echeance) (?:de (?:la |votre |ta )?)?carte",),
    },
    "de": {  # German
        "card expiry": (r"ablaufdatum (?:der |ihrer |deiner )?karte", r"karte gultig bis"),
    },
    "en": {  # English idioms and abbreviations of payment forms and identifier names
        "card expiry": (r"(?:expiry|expiration|exp) ?dates? mm ?yy",),
        "token": (r"(?:gh|github|gl|gitlab|api|auth|access|bearer|refresh|bot|session|npm|pypi|hf|slack|discord|id) ?toks?",),
        "API key": (r"unseal ?keys?", r"ghpats?", r"glpats?"),
        "recovery phrase": (r"(?:wallet|seed|bip ?39|recovery|secret) ?mnemonics?",),
    },
    "ar": {  # Arabic, Persian and Urdu in Arabic script (folded with ARABIC_FOLD)
        "password": (r"كلمه عبور", r"رمز ورود", r"پسورد", r"پاس ?ورڈ\w*", r"خفیہ (?:لفظ|کوڈ)", r"رمز دوم", r"رمز کارت"),
        "PIN": (r"(?:اے ٹی ایم|atm|خفیہ|کارڈ کا|کارڈ) پن", r"پن (?:کوڈ|نمبر)", r"خفیہ نمبر", r"پین کد"),
        "one-time code": (r"(?:کد|رمز) (?:یکبار مصرف|یک بار مصرف|پویا|تایید|تأیید)", r"او ?ٹی ?پی", r"تصدیقی کوڈ", r"ون ٹائم (?:پاس ورڈ|کوڈ)"),
        "API key": (r"کلید (?:api|ای پی آی|محرمانه|مخفی|دسترسی)", r"(?:api|اے پی آئی) (?:کلید|کی)", r"خفیہ کلید"),
        "private key": (r"کلید خصوصی", r"نجی کلید", r"پرائیویٹ کی"),
        "token": (r"توکن (?:دسترسی|احراز)", r"ٹوکن"),
        "recovery phrase": (r"عبارت (?:بازیابی|پشتیبان)", r"کلمات بازیابی", r"بازیابی کے الفاظ", r"ریکوری فریز"),
        "card number": (r"شماره کارت", r"کارت (?:اعتباری|بانکی)", r"کارڈ نمبر", r"(?:کریڈٹ|ڈیبٹ) کارڈ"),
        "card security code": (r"کد امنیتی", r"سی وی وی"),
        "card expiry": (r"تاریخ انقضا(?:ی)? کارت", r"کارڈ کی میعاد"),
    },
    "he": {  # Hebrew
        "password": (r"(?:ל|ב|ה|ו|מ|ש|כ)?(?:ה)?סיסמ(?:ה|א|ת|אות|תך|תו|תכם)",),
        "one-time code": (r"(?:סיסמה|קוד) חד ?פעמי\w*",),
        "API key": (r"מפתח (?:ה )?api", r"מפתח (?:סודי|הצפנה|גישה)"),
        "card number": (r"מספר (?:ה)?כרטיס\w*",),
        "card security code": (r"קוד (?:ה)?אבטחה", r"\d ספרות (?:ב)?גב"),
        "card expiry": (r"תוקף (?:ה)?כרטיס\w*", r"תאריך (?:ה)?תפוגה"),
        "recovery phrase": (r"(?:ביטוי|מילות) (?:ה)?שחזור",),
    },
}

# Substrings, by script, for scripts the word matcher cannot split reliably.
PARTS: dict[str, dict[str, tuple[str, ...]]] = {
    "hi": {  # Hindi and Marathi (Devanagari)
        "password": (r"संकेतशब्द", r"पासकोड"),
        "one-time code": (r"पडताळणी कोड", r"वन टाइम पासवर्ड"),
        "API key": (r"(?:api|एपीआय|एपीआई) की", r"गुप्त की"),
        "private key": (r"खाजगी की", r"निजी की"),
        "card number": (r"कार्ड क्रमांक",),
        "card security code": (r"सी ?वी ?वी", r"सीव्हीव्ही"),
        "card expiry": (r"कार्ड की (?:समाप्ति|वैधता|एक्सपायरी)",),
    },
    "bn": {  # Bengali
        "password": (r"পাস ?ওয়ার্ড", r"গোপন শব্দ", r"পাসকোড"),
        "PIN": (r"পিন(?! ?কোড)", r"পিন নম্বর"),
        "one-time code": (r"ওটিপি", r"(?:যাচাইকরণ|ভেরিফিকেশন|নিশ্চিতকরণ) কোড", r"এককালীন (?:পাসওয়ার্ড|কোড)"),
        "API key": (r"(?:api|এপিআই) কী", r"গোপন কী"),
        "private key": (r"(?:ব্যক্তিগত|প্রাইভেট) কী",),
        "token": (r"(?:অ্যাক্সেস )?টোকেন(?! সংখ্যা)",),
        "recovery phrase": (r"পুনরুদ্ধার (?:বাক্যাংশ|শব্দ)", r"সিড ফ্রেজ"),
        "card number": (r"কার্ড নম্বর", r"(?:ক্রেডিট|ডেবিট) কার্ড"),
        "card security code": (r"সিভিভি", r"নিরাপত্তা কোড"),
        "card expiry": (r"কার্ডের মেয়াদ",),
    },
    "ta": {  # Tamil
        "password": (r"கடவு ?ச் ?சொல்", r"கடவுச்சொல்", r"கடவு சொல்"),
        "PIN": (r"(?:பின்|pin) எண்",),
        "one-time code": (r"ஓடிபி", r"(?:சரிபார்ப்பு|உறுதிப்படுத்தல்) (?:குறியீடு|எண்)", r"ஒருமுறை (?:கடவுச்சொல்|குறியீடு)"),
        "API key": (r"(?:api|ஏபிஐ) விசை", r"ரகசிய விசை"),
        "private key": (r"தனிப்பட்ட விசை", r"தனியார் விசை"),
        "token": (r"டோக்கன்",),
        "recovery phrase": (r"மீட்பு (?:சொற்றொடர்|வார்த்தைகள்)",),
        "card number": (r"(?:கார்டு|அட்டை) எண்", r"(?:கிரெடிட்|டெபிட்) கார்டு"),
        "card security code": (r"சிவிவி", r"பாதுகாப்பு குறியீடு"),
        "card expiry": (r"(?:கார்டு|அட்டை) காலாவதி",),
    },
    "te": {  # Telugu
        "password": (r"పాస్ ?వర్డ్", r"సంకేతపదం", r"రహస్య పదం"),
        "PIN": (r"(?:పిన్|pin) (?:నంబర్|సంఖ్య)",),
        "one-time code": (r"ఓ ?టి ?పి", r"ఓటీపీ", r"ధృవీకరణ కోడ్"),
        "API key": (r"(?:api|ఏపీఐ) కీ", r"రహస్య కీ"),
        "private key": (r"(?:ప్రైవేట్|వ్యక్తిగత) కీ",),
        "card number": (r"కార్డ్ (?:నంబర్|సంఖ్య)", r"(?:క్రెడిట్|డెబిట్) కార్డ్"),
        "card security code": (r"సీవీవీ", r"సివివి"),
    },
    "th": {  # Thai
        "PIN": (r"รหัส ?(?:pin|พิน)",),
        "one-time code": (r"รหัสผ่านครั้งเดียว", r"รหัสยืนยัน", r"รหัส ?otp", r"รหัสโอทีพี"),
        "API key": (r"คีย์ ?(?:api|ลับ)", r"กุญแจลับ"),
        "token": (r"โทเค็น(?:การเข้าถึง)?",),
        "recovery phrase": (r"วลี ?(?:กู้คืน|สำรอง|ลับ)", r"คำกู้คืน"),
        "card number": (r"(?:หมายเลข|เลข)บัตร", r"บัตรเครดิต"),
        "card security code": (r"รหัส ?(?:ความปลอดภัย|cvv|cvc)",),
        "card expiry": (r"วันหมดอายุ(?:ของ)?บัตร", r"บัตรหมดอายุ"),
    },
    "cjk": {  # Chinese, Japanese, Korean
        "card security code": (r"背面.{0,3}(?:三|3)(?:碼|码|位)", r"(?:カード)?裏面の(?:3|三)桁"),
        "card expiry": (r"卡片?(?:有效期|到期日|有效日期)", r"カードの?有効期限", r"카드 ?(?:유효 ?기간|만료일)"),
        "recovery phrase": (r"복구 ?구문", r"시드 ?구문", r"니모닉 ?구문", r"恢复词|恢復詞|助记短语"),
        "one-time code": (r"一次性(?:密码|密碼|验证码|代码)", r"ワンタイムパスワード"),
    },
}

# Words near a credential word that make it a setting about the credential. Latin, Greek and Cyrillic entries are
# whole words (suffixes allowed); they are matched in the few words either side of the credential word.
SETTINGS: tuple[str, ...] = (
    r"length\w*|len|minlen|maxlen|minimum|maximum|min|max|policy|policies|strength|how strong|complexity|requirements?|rules?|hint|score",
    r"longitud|minim[ao]s?|maxim[ao]s?|politica|fortaleza|complejidad|requisitos|tamanho|comprimento|forca|complexidade",  # es pt
    r"longueur|minimale?s?|maximale?s?|politique|robustesse|complexite|exigences|lunghezza|massim[ao]|robustezza|complessita|requisiti",  # fr it
    r"\w*lange|mindest\w*|hochst\w*|richtlinie\w*|starke|komplexitat|anforderungen|lengte|minimale|maximale|beleid|sterkte|complexiteit",  # de nl
    r"\w*langd|\w*lengde|\w*laengde|minsta|minste|styrka|styrke|krav|kompleksitet",  # nordic
    r"dlugos\w*|minimaln\w*|maksymaln\w*|polityk\w*|sila|zlozonos\w*|wymagani\w*",  # pl
    r"delk\w*|dlzk\w*|minimalni|maximalni|zasad\w*|slozitost|pozadavk\w*|duzin\w*|duljin\w*|maksimaln\w*|politika|slozenost",  # cs sk hr sr
    r"uzunlu\w*|en az|en fazla|politika\w*|guc\w*|karmasiklik",  # tr
    r"hossz\w*|minimalis|maximalis|legalabb|legfeljebb|szabalyzat\w*|erosseg\w*|iranyelv\w*|kovetelmeny\w*",  # hu
    r"lungime\w*|minim[aă]?|maxim[aă]?|politic\w*|complexitat\w*|puterea",  # ro
    r"\w*pituu\w*|vahimmais\w*|enimmais\w*|kaytanto\w*|vahvuu\w*|vaatimu\w*",  # fi
    r"do dai|toi thieu|toi da|chinh sach|do manh|yeu cau",  # vi
    r"panjang|minimal|maksimum|maksimal|kebijakan|kekuatan|persyaratan|haba|pinakamababa|patakaran",  # id ms fil
    r"urefu|kiwango cha chini|sera ya|nguvu",  # sw
    r"μηκ\w*|ελαχιστ\w*|μεγιστ\w*|πολιτικ\w*|ισχυ\w*|πολυπλοκοτητα",  # el
    r"длин\w*|довжин\w*|дължин\w*|минимальн\w*|мінімальн\w*|минимал\w*|максимальн\w*|максимал\w*|политик\w*|політик\w*|сложност\w*|складніст\w*|надежност\w*|надійніст\w*|требовани\w*|вимог\w*",  # ru uk bg
)
# Substrings for the scripts of PARTS, and for Arabic and Hebrew words that take prefixes ("لطول", "לסיסמה").
SETTING_PARTS: tuple[str, ...] = (
    "长度", "長度", "最小", "最短", "最大", "最长", "最長", "策略", "强度", "強度", "复杂度", "複雜度", "规则", "規則",
    "長さ", "文字数", "ポリシー", "길이", "최소", "최대", "정책", "강도", "복잡도",
    "จำนวน", "ความยาว", "ขั้นต่ำ", "สูงสุด", "นโยบาย", "ความแข็งแรง",
    "लंबाई", "न्यूनतम", "अधिकतम", "नीति", "मजबूती", "लांबी", "किमान", "कमाल", "धोरण",
    "দৈর্ঘ্য", "ন্যূনতম", "সর্বোচ্চ", "নীতি", "நீளம்", "குறைந்தபட்ச", "அதிகபட்ச", "கொள்கை", "వలిమై", "పొడవు", "కనీస", "గరిష్ట",
    "طول", "الحد الادني", "الادني", "الاقصي", "سياسة", "تعقيد", "حداقل", "حداكثر", "سياست", "پيچيدگي", "لمبائي", "كم از كم", "پاليسي",
    "אורך", "מינימ", "מקסימ", "מדיניות", "חוזק",
)

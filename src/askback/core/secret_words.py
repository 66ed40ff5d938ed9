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
        "one-time code": (r"(?:msimbo|nambari|namba) (?:wako |yako |wangu |yangu )?(?:wa |ya )?(?:uthibitisho|kuthibitisha|otp|mara moja|uhakiki)",),
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
        "one-time code": (r"code (?:de connexion|de verification|de confirmation|a usage unique|recu par sms)",),
        "card expiry": (r"date d (?:expiration|echeance) (?:de (?:la |votre |ta )?)?carte",),
    },
    "de": {  # German
        "card expiry": (r"ablaufdatum (?:der |ihrer |deiner )?karte", r"karte gultig bis"),
    },
    "lt": {  # Lithuanian
        "password": (r"slaptazod\w*",),
        "PIN": (r"pin ?kod\w*",),
        "one-time code": (r"(?:vienkartin\w*|patvirtinimo|patikrinimo|sms) kod\w*",),
        "API key": (r"(?:api|slapt\w*) rakt\w*",),
        "private key": (r"privat\w* rakt\w*",),
        "card number": (r"kortel\w* numer\w*",),
        "card security code": (r"saugos kod\w*",),
        "recovery phrase": (r"atkurimo fraz\w*",),
    },
    "lv": {  # Latvian ("parole" alone is weighed with the Italian "parola": a French word too)
        "password": (r"parol(?:es|i|u|ei)", r"(?:jusu|tava|sava) parol\w*"),
        "PIN": (r"pin ?kod\w*",),
        "one-time code": (r"(?:vienreizej\w*|verifikacijas|apstiprinajuma|sms) kod\w*",),
        "API key": (r"(?:api|slepen\w*) atsleg\w*",),
        "private key": (r"privat\w* atsleg\w*",),
        "card number": (r"kartes numur\w*",),
        "card security code": (r"drosibas kod\w*",),
    },
    "et": {  # Estonian
        "password": (r"salasona\w*", r"parool\w*"),
        "PIN": (r"pin ?kood\w*",),
        "one-time code": (r"(?:uhekordne|uhekordse|kinnitus|sms) ?kood\w*",),
        "API key": (r"(?:api|salajane|salajase) ?vot\w*",),
        "private key": (r"privaat ?vot\w*",),
        "card number": (r"kaardi ?number\w*",),
        "card security code": (r"turvakood\w*",),
    },
    "ca": {  # Catalan
        "password": (r"contrasenya\w*",),
        "one-time code": (r"codi (?:de |d )?(?:verificacio|confirmacio|un sol us|sms|acces)",),
        "API key": (r"clau (?:de l )?(?:api|secreta|d acces)",),
        "private key": (r"clau privada",),
        "card number": (r"numero de (?:la )?targeta", r"targeta de (?:credit|debit)"),
        "card security code": (r"codi de seguretat",),
        "card expiry": (r"(?:data de )?caducitat de (?:la )?targeta",),
        "recovery phrase": (r"frase de recuperacio",),
    },
    "af": {  # Afrikaans
        "password": (r"wagwoord\w*",),
        "PIN": (r"pin ?kode\w*", r"pin ?nommer\w*"),
        "one-time code": (r"(?:verifikasie|bevestigings|eenmalige |sms ?)kode\w*",),
        "API key": (r"(?:api|geheime) ?sleutel\w*",),
        "private key": (r"privaat ?sleutel\w*",),
        "card number": (r"kaart ?nommer\w*",),
        "card security code": (r"sekuriteitskode\w*",),
    },
    "uz": {  # Uzbek (Latin)
        "password": (r"parol(?:i|ingiz\w*|ni|im|am|ing|ingni|ni kiriting)", r"maxfiy (?:kod\w*|so z\w*|soz\w*|raqam\w*)"),
        "PIN": (r"pin ?kod\w*",),
        "one-time code": (r"(?:tasdiqlash|bir martalik|sms|tekshirish) kod\w*",),
        "API key": (r"(?:api|maxfiy) kalit\w*",),
        "private key": (r"shaxsiy kalit\w*",),
        "card number": (r"karta raqam\w*",),
        "card security code": (r"xavfsizlik kod\w*",),
    },
    "az": {  # Azerbaijani (ə is a letter of its own)
        "password": (r"sifrə\w*",),
        "one-time code": (r"(?:təsdiq|tesdiq|birdəfəlik|birdefelik|sms|dogrulama) kod\w*",),
        "API key": (r"(?:api|gizli) acar\w*",),
        "private key": (r"(?:sexsi|şəxsi|səxsi|xususi|xüsusi|xusus\w*) acar\w*",),
        "card number": (r"kart\w* nomr\w*",),
        "card security code": (r"t(?:ə|e)hluk(?:ə|e)sizlik kod\w*",),
    },
    "yo": {  # Yoruba, read without its tone marks
        "password": (r"oro (?:asina|igbaniwole|aṣina)\w*",),
        "one-time code": (r"koodu (?:ijerisi|ijeri\w*|idaniloju)",),
        "card number": (r"nomba kaadi",),
    },
    "ha": {  # Hausa
        "password": (r"kalmar (?:sirri|wucewa)\w*",),
        "PIN": (r"lambar sirri\w*",),
        "one-time code": (r"lambar (?:tabbatarwa|tantancewa|sau daya)",),
        "card number": (r"lambar kati\w*",),
        "private key": (r"makullin sirri",),
    },
    "zu": {  # Zulu and Xhosa
        "password": (r"(?:i|li)?phasiwedi\w*", r"igama lokungena\w*"),
        "PIN": (r"(?:i)?phinikhodi\w*", r"inombolo eyimfihlo"),
        "one-time code": (r"(?:i)?khodi (?:yokuqinisekisa|yokuqinisekiswa|yesikhathi esisodwa)",),
        "card number": (r"inombolo yekhadi",),
    },
    "ig": {  # Igbo
        "password": (r"okwuntughe\w*", r"okwu nzuzo"),
        "one-time code": (r"koodu (?:nkwenye|nnabata)",),
    },
    "so": {  # Somali
        "password": (r"furaha (?:sirta|sirtaada)\w*", r"erayga sirta\w*", r"ereyga sirta\w*"),
        "PIN": (r"lambarka sirta\w*",),
        "one-time code": (r"(?:koodhka|koodka) (?:xaqiijinta|hubinta)",),
        "card number": (r"lambarka kaarka",),
    },
    "tl": {  # Tagalog: e-wallets (GCash, Maya) call their PIN an MPIN
        "PIN": (r"mpins?",),
        "one-time code": (r"(?:code|kodigo) (?:na |ng )?(?:ipinadala|natanggap)",),
    },
    "kk": {  # Kazakh
        "password": (r"құпия ?сөз\w*", r"кұпия ?соз\w*"),
        "PIN": (r"пин ?код\w*", r"құпия (?:сан|код)\w*"),
        "one-time code": (r"(?:растау|бір реттік|тексеру|смс|sms) ?код\w*",),
        "API key": (r"(?:api|құпия) кілт\w*",),
        "private key": (r"жеке кілт\w*",),
        "card number": (r"карта(?:ның)? нөмір\w*", r"карта номер\w*"),
        "card security code": (r"қауіпсіздік код\w*",),
    },
    "mn": {  # Mongolian
        "password": (r"нууц ?үг\w*",),
        "PIN": (r"нууц (?:код|дугаар)\w*", r"пин ?код\w*"),
        "one-time code": (r"(?:баталгаажуулах|нэг удаагийн|смс) код\w*",),
        "API key": (r"(?:api|нууц) түлхүүр\w*",),
        "private key": (r"хувийн түлхүүр\w*",),
        "card number": (r"карт(?:ын)? дугаар\w*",),
    },
    "ka": {  # Georgian
        "password": (r"პაროლ\w*", r"საიდუმლო (?:სიტყვ|კოდ)\w*"),
        "PIN": (r"პინ ?კოდ\w*", r"pin ?კოდ\w*"),
        "one-time code": (r"(?:ერთჯერად|დადასტურების|ვერიფიკაციის|sms|სმს)\w* ?კოდ\w*",),
        "API key": (r"(?:api|საიდუმლო) გასაღებ\w*",),
        "private key": (r"(?:პირად|კერძო|პრივატულ)\w* გასაღებ\w*",),
        "card number": (r"ბარათის ნომერ\w*",),
        "card security code": (r"უსაფრთხოების კოდ\w*",),
        "recovery phrase": (r"აღდგენის ფრაზ\w*",),
    },
    "hy": {  # Armenian
        "password": (r"գաղտնաբառ\w*",),
        "PIN": (r"պին ?կոդ\w*", r"pin ?կոդ\w*", r"գաղտնի (?:կոդ|համար)\w*"),
        "one-time code": (r"(?:հաստատման|մեկանգամյա|ստուգման|sms|ս մ ս) կոդ\w*",),
        "API key": (r"(?:api|գաղտնի) բանալի\w*",),
        "private key": (r"(?:անձնական|մասնավոր) բանալի\w*",),
        "card number": (r"քարտի համար\w*",),
        "card security code": (r"անվտանգության կոդ\w*",),
    },
    "sq": {  # Albanian
        "password": (r"fjalekalim\w*",),
        "card number": (r"numr\w* (?:i |e )?kart(?:es|as|en)",),
        "private key": (r"celes\w* privat\w*",),
    },
    "sl-mk-be": {  # Slovenian, Macedonian, Belarusian
        "card number": (r"stevilk\w* (?:kreditne |placilne )?kartic\w*", r"број на (?:кредитна )?картичк\w*", r"нумар\w* картк\w*"),
        "private key": (r"zasebn\w* kljuc\w*", r"приватен клуч\w*", r"прыватн\w* ключ\w*"),
    },
    "is": {  # Icelandic (ð read as d)
        "password": (r"lykilord\w*",),
        "card number": (r"kortanumer\w*", r"numer korts\w*"),
        "private key": (r"einkalyk\w*",),
    },
    "celtic": {  # Irish and Welsh, with their initial mutations (pasfhocal / phasfhocal, cyfrinair / gyfrinair)
        "password": (r"(?:p|ph|bp)asfhocal\w*", r"(?:c|g|ch|ngh)yfrinair\w*"),
        "card number": (r"uimhir (?:an |do )?(?:ch|c|gc)art\w*", r"rhif (?:y |eich |dy )?(?:c|g|ch|ngh)erdyn"),
        "private key": (r"allwedd (?:b|p|ph|mh)reifat",),
    },
    "iberian": {  # Basque, Galician
        "password": (r"pasahitz\w*", r"contrasinal\w*"),
        "card number": (r"txartel\w* zenbaki\w*", r"numero da tarxeta", r"tarxeta de (?:credito|debito)"),
        "private key": (r"gako pribatu\w*", r"chave privada"),
    },
    "mt-eo": {  # Maltese (ħ read as h), Esperanto (ŝ read as s)
        "password": (r"kelma (?:sigrieta|tad dhul)", r"pasvort\w*"),
        "card number": (r"numru tal karta(?! tal identita)", r"kartnumer\w*", r"numero de (?:la |via )?(?:kredit)?karto"),
        "private key": (r"privat\w* slosil\w*",),
    },
    "creole-africa": {  # Haitian Creole, Kinyarwanda, Malagasy, Xhosa, Somali, Cebuano, Kurdish (Kurmanji, Sorani)
        "password": (r"modpas\w*", r"ijambo (?:ry )?(?:ibanga|banga)\w*", r"teny miafina\w*", r"igama (?:lakho |lam )?lokugqitha",
                     r"furaha\w* sir\w*", r"وش(?:ە|ه)ی نهێنی\w*"),
        "card number": (r"numero sa (?:kard|card)", r"hejmara kart\w*"),
    },
    "central-asia": {  # Kyrgyz, Tajik, Turkmen, Javanese
        "password": (r"сыр ?сөз\w*", r"рамз(?:и)?(?: (?:худ\w*|шумо|махфи|убур))?", r"parolyn\w*", r"tembung sandh?i\w*"),
        "card number": (r"рақами корт\w*", r"kartyn belgi\w*", r"nomer kertu"),
        "one-time code": (r"рамз\w* тасдиқ\w*",),
    },
    "misc": {  # Croatian, Slovak, Spanish spelled without ñ, Greek confirmation, Sindhi and Pashto card words
        "password": (r"zapork\w*", r"contrasenia\w*", r"επιβεβαιωσ\w* κωδικ\w*", r"پاسورڊ"),
        "card number": (r"cisl\w* \w+ karty", r"ڪارڊ نمبر", r"کارت شمېر\w*"),
        "one-time code": (r"او ٽي پي", r"رمز (?:\w+ )?لمرة واحدة"),
        "card security code": (r"(?:رمز )?(?:ال)?تحقق من (?:ال)?بطاقة",),
        "PIN": (r"(?:اي ٽي ايم|اې ټي ایم) پن", r"رقم(?:ي)? (?:ال)?سري"),
    },
    "sms": {  # "the code you got by SMS", in any language: a code word and a text message a few words apart
        "one-time code": (r"(?:kod|cod|kood|koodi|kwdik|tac|otp|код|կոդ|کوډ|рамз|κωδικ)\w*(?! (?:kraju|pais|pays|country|postal\w*|pocztow\w*|promo\w*|rabat\w*))"
                          r" (?:\w+ ){0,6}(?:sms|смс|neges destun|\w*teachtaireacht\w*)",
                          r"(?:sms|смс) (?:\w+ ){0,4}(?:kod|cod|kood|koodi|tac|код|կոդ|کوډ)\w*"),
    },
    "alarm": {  # codes that open a door, a gate, an alarm or a safe
        "access code": (r"(?:door|gate|alarm|garage|keypad|safe|lockbox|locker|entry) ?(?:codes?|pins?|combination)",
                r"codes? (?:on|of|for|to) (?:your |the )?(?:door|gate|alarm|garage|keypad|safe|lockbox)\w*",
                r"code (?:d acces )?(?:de l |du |de la |de votre )?(?:alarme|porte|portail|coffre)", r"digicode\w*",
                r"(?:codigo|codice|kod|code) (?:\w+ ){0,2}(?:alarma|allarme|alarmu|cancello|puerta|porton|caja fuerte|cassaforte|sejfu|alarmanlage)"),
        "password": (r"(?:wlan|wifi|wi fi|wpa|wpa2|network) ?(?:schlussel|key|sleutel|cle|clave|chiave)",),
    },
    "expiry": {  # a card's month and year, by its mask or its "valid thru" words, in any language
        "card expiry": (r"(?:mm|kk) ?(?:yy|jj|aa|vv|rr|gg)(?:yy|jj|aa|vv|rr)?", r"valid (?:thru|through)", r"gultig bis",
                        r"giltig (?:till|t o m)", r"udlobsdato", r"voimassa"),
    },
    "en-more": {  # English names of credentials the general rules do not reach
        # A chat service's incoming webhook URL posts as the workspace: a secret. A webhook URL of one's own is no secret.
        "webhook secret URL": (r"(?:slack|discord|teams|mattermost|google chat) ?webhook ?(?:urls?|uris?)?",),
        "one-time code": (r"(?:two|2) ?fa ?codes?", r"mfa ?(?:seeds?|secrets?|codes?)", r"totp ?(?:seeds?|secrets?)",
                          r"(?:mobile|sms|push|chip) ?tans?", r"codes? (?:your |the )?bank sent", r"codes? shown in (?:the |your )?\w+(?: \w+)? (?:app|authenticator)"),
        "password": (r"snmp ?community(?: strings?)?", r"unlock (?:patterns?|gestures?)", r"(?:\w+ )?login (?:so|to|for) ",
                     r"(?:give|send|tell|share) (?:me )?(?:your |the )?(?:\w+ )?(?:login|logins|sign in)\b"),
        "API key": (r"service ?role ?keys?", r"service ?account ?(?:json|keys?|key files?|credentials)",
                    r"(?:open ?ai|anthropic|stripe|gemini|mistral|cohere|groq|twilio|sendgrid|mailgun) ?keys?",
                    r"keys? used to sign", r"signing (?:key|secret)"),  # "the signing keys" of a JWKS are public
        "PIN": (r"(?:parent|parental|voicemail|child lock) ?pins?",),
        "card security code": (r"back of (?:the |your )?card\w*(?: \w+){0,3} digits", r"digits (?:\w+ ){0,3}back of (?:the |your )?card"),
    },
    "translit2": {  # more romanised spellings
        "password": (r"kelmet (?:el |al )?(?:ser|sir|sirr|murur|morour)", r"k(?:w|o)dikos? prosvas\w*", r"ramze? obur", r"rahat ?phan",
                     r"kupiya ?soz", r"ye ?yilef ?(?:qal|kal)"),
        "PIN": (r"(?:el |al )?rakam (?:el |al )?ser(?:y|i|ri)",),
        "card number": (r"nomer\w* kart\w*",),
        "one-time code": (r"kod\w* podtverzhdeni\w*",),
    },
    "translit": {  # Romanised spellings used as identifiers (Chinese pinyin, Arabic, Persian, Japanese, Korean...)
        "password": (r"mi ?ma", r"kou ?ling", r"sifr[ae]", r"sifre", r"katalaluan", r"kata ?laluan", r"ramz(?: (?:obur|oboor|ubur|e obur))?",
                     r"kalimat (?:al )?(?:murur|sir|sirr)", r"kalimatu? (?:al )?murur", r"guzarvazhe", r"gozarvazhe", r"sisma", r"sisma(?:h|ot)",
                     r"gaghtnabar", r"paroli", r"kupia ?soz", r"nuuts ?ug", r"amho", r"bimil ?beonho", r"pasuwado", r"mudrapadaya", r"mudra ?padaya",
                     r"pasvard", r"paasvard", r"passvord", r"parol(?:ya)?", r"khufia ?lafz", r"sanket ?shabd", r"goptya ?shabda", r"kadavuchol"),
        "PIN": (r"ansho ?bango", r"pin ?bango", r"pin ?beonho"),
        "one-time code": (r"yan ?zheng ?ma", r"injeung ?beonho", r"injeung ?kodeu", r"ninsho ?kodo", r"ramz (?:al )?tahaqquq", r"tasdiq kodi"),
        "API key": (r"mi ?yao", r"si ?yao", r"himitsu ?kagi", r"sekretn\w* ?klyuch\w*", r"sekretn\w* ?kljuch\w*", r"gizli ?anahtar\w*"),
        "private key": (r"si ?yao", r"himitsu ?kagi", r"gaein ?ki", r"privatn\w* ?klyuch\w*", r"lichn\w* ?klyuch\w*"),
        "recovery phrase": (r"zhu ?ji ?ci", r"zhu ?ji ?duan ?yu"),
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
        "card security code": (r"קוד (?:ה)?אבטחה", r"(?:\d|שלוש|ארבע) (?:ה)?ספרות (?:ב)?גב"),
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
        "card number": (r"(?:หมายเลข|เลข)บัตร(?!ประชาชน|ประจำตัว)", r"บัตรเครดิต"),
        "card security code": (r"รหัส ?(?:ความปลอดภัย|cvv|cvc)",),
        "card expiry": (r"วันหมดอายุ(?:ของ)?บัตร", r"บัตรหมดอายุ"),
    },
    "ne": {  # Nepali (Devanagari)
        "password": (r"गोप्य ?शब्द", r"पासवर्ड"),
        "PIN": (r"गोप्य ?(?:नम्बर|अंक|कोड)",),
        "one-time code": (r"(?:प्रमाणीकरण|पुष्टि) ?कोड",),
    },
    "am": {  # Amharic (Ethiopic)
        "password": (r"ይለፍ ?ቃ[ልሌሉላ]", r"ሚስጥራዊ ?ቃል"),  # ቃሌ, ቃሉ: "my", "its" password
        "PIN": (r"ሚስጥራዊ ?ቁጥር", r"ፒን"),
        "one-time code": (r"ማረጋገጫ ?ኮድ", r"የአንድ ጊዜ ?(?:ኮድ|የይለፍ ቃል)"),
        "card number": (r"ካርድ ?ቁጥር",),
        "API key": (r"ሚስጥራዊ ?ቁልፍ",),
        "private key": (r"የግል ?ቁልፍ",),
    },
    "si": {  # Sinhala
        "password": (r"මුරපද", r"මුර ?පද"),
        "PIN": (r"රහස් ?(?:අංක|කේත)", r"පින් ?(?:අංක|කේත)"),
        "one-time code": (r"(?:තහවුරු කිරීමේ|සත්‍යාපන|එක් වරක්) ?කේත",),
        "card number": (r"කාඩ්පත් ?අංක", r"කාඩ් ?අංක"),
    },
    "km": {  # Khmer
        "password": (r"ពាក្យ ?សម្ងាត់",),
        "PIN": (r"លេខ ?(?:កូដ ?)?សម្ងាត់", r"កូដ ?pin"),
        "one-time code": (r"(?:លេខ ?)?កូដ ?(?:ផ្ទៀងផ្ទាត់|បញ្ជាក់|otp|ម្តង)",),
        "card number": (r"លេខ ?កាត",),
        "private key": (r"សោ ?ឯកជន",),
    },
    "my": {  # Burmese
        "password": (r"စကားဝှက်",),
        "PIN": (r"လျှို့ဝှက် ?(?:နံပါတ်|ကုဒ်)", r"ပင် ?နံပါတ်"),
        "one-time code": (r"အတည်ပြု ?ကုဒ်", r"otp ?ကုဒ်"),
        "card number": (r"ကတ် ?နံပါတ်",),
    },
    "lo": {  # Lao
        "password": (r"ລະຫັດ ?ຜ່ານ",),
        "PIN": (r"ລະຫັດ ?(?:pin|ລັບ)",),
        "one-time code": (r"ລະຫັດ ?(?:ຢືນຢັນ|otp|ຍືນຍັນ)",),
        "card number": (r"ເລກ ?ບັດ",),
    },
    "gu": {  # Gujarati
        "password": (r"પાસવર્ડ", r"ગુપ્ત ?(?:શબ્દ|કોડ)"),
        "PIN": (r"પિન", r"ગુપ્ત ?(?:નંબર|અંક)"),
        "one-time code": (r"ઓટીપી", r"(?:ચકાસણી|પુષ્ટિ|વેરિફિકેશન) ?કોડ"),
        "card number": (r"કાર્ડ ?(?:નંબર|ક્રમાંક)",),
        "card security code": (r"સીવીવી",),
    },
    "pa": {  # Punjabi (Gurmukhi)
        "password": (r"ਪਾਸਵਰਡ", r"ਗੁਪਤ ?(?:ਸ਼ਬਦ|ਸਬਦ|ਕੋਡ)"),
        "PIN": (r"ਪਿੰਨ", r"ਪਿਨ"),
        "one-time code": (r"ਓਟੀਪੀ", r"(?:ਪੁਸ਼ਟੀ|ਤਸਦੀਕ) ?ਕੋਡ"),
        "card number": (r"ਕਾਰਡ ?ਨੰਬਰ",),
    },
    "kn": {  # Kannada
        "password": (r"ಪಾಸ್ ?ವರ್ಡ್", r"ಗುಪ್ತ ?ಪದ"),
        "PIN": (r"ಪಿನ್", r"ರಹಸ್ಯ ?ಸಂಖ್ಯೆ"),
        "one-time code": (r"ಒ ?ಟಿ ?ಪಿ", r"(?:ಪರಿಶೀಲನಾ|ದೃಢೀಕರಣ) ?ಕೋಡ್"),
        "card number": (r"ಕಾರ್ಡ್ ?(?:ಸಂಖ್ಯೆ|ನಂಬರ್)",),
    },
    "ml": {  # Malayalam
        "password": (r"പാസ് ?വേഡ്", r"രഹസ്യ ?(?:വാക്ക്|കോഡ്)"),
        "PIN": (r"രഹസ്യ ?(?:പിൻ|നമ്പർ)", r"പിൻ ?(?:നമ്പർ|കോഡ്)"),
        "one-time code": (r"ഒ ?ടി ?പി", r"(?:സ്ഥിരീകരണ|പരിശോധന) ?കോഡ്"),
        "card number": (r"കാർഡ് ?(?:നമ്പർ|നമ്പര്)",),
    },
    "more-indic": {  # Telugu, Tamil, Bengali, Hindi phrases for a secret number
        "PIN": (r"రహస్య ?(?:పిన్|సంఖ్య)", r"ரகசிய ?(?:எண்|குறியீடு)", r"গোপন ?(?:নম্বর|কোড|পিন)", r"गुप्त ?(?:नंबर|कोड|पिन)"),
    },
    "ps": {  # Pashto (Arabic script)
        "password": (r"پټ ?نوم", r"پټ ?کوډ"),
        "one-time code": (r"(?:د )?تایید ?کوډ",),
    },
    "mixed": {  # A word half written in Latin letters ("パスword", "mi码")
        "password": (r"パス ?word", r"mi ?(?:码|碼)", r"蜜(?:码|碼)"),
    },
    "ti": {  # Tigrinya (Ethiopic)
        "password": (r"መሕለፊ ?ቃል",),
        "PIN": (r"ምስጢራዊ ?ቁጽሪ",),
        "card number": (r"ቁጽሪ ?ካርድ",),
    },
    "or-as": {  # Odia, Assamese
        "password": (r"ପାସ ?ୱାର୍ଡ", r"পাছ ?ৱৰ্ড"),
        "PIN": (r"ଏଟିଏମ ?ପିନ",),
        "card number": (r"କାର୍ଡ ?ନମ୍ବର", r"কাৰ্ড ?নম্বৰ"),
        "one-time code": (r"ଓଟିପି",),
    },
    "atm": {  # "ATM PIN" in Telugu, Malayalam, Tamil; Marathi and Nepali secret words; Bengali key
        "PIN": (r"ఏటీఎం ?పిన్", r"എടിഎം ?പിൻ", r"ஏடிஎம் ?பின்", r"गुप्त ?संकेतांक"),
        "private key": (r"(?:निजी|गोप्य) ?कुञ्जी", r"(?:গোপন|ব্যক্তিগত) ?চাবি"),
    },
    "cjk": {  # Chinese, Japanese, Korean
        "card security code": (r"背面.{0,8}(?:三|3)(?:碼|码|位)", r"(?:カード)?裏面.{0,10}(?:3|三) ?桁"),  # "卡背面签名栏后三位"
        "card expiry": (r"(?:有效期|有効期限) ?(?:月|mm) ?(?:年|yy)", r"卡片?(?:有效期|到期日|有效日期)", r"カードの?有効期限", r"카드 ?(?:유효 ?기간|만료일)"),
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
    r"uzunlig\w*|tecken",  # uz, sv ("minst 12 tecken")
    r"\w*langd|\w*lengde|\w*laengde|minsta|minste|styrka|styrke|krav|kompleksitet",  # nordic
    r"einstellungen|instellingen|parametres|configuracion|impostazioni|ustawienia|nastaveni|installningar|indstillinger|innstillinger|asetukset|beallitasok|setari|настройки|налаштування",  # "settings"
    r"dlugos\w*|minimaln\w*|maksymaln\w*|polityk\w*|sila(?! masukkan| isi| taip| berikan| nyatakan)|zlozonos\w*|wymagani\w*",  # pl
    r"delk\w*|dlzk\w*|minimalni|maximalni|zasad\w*|slozitost|pozadavk\w*|duzin\w*|duljin\w*|maksimaln\w*|politika|slozenost",  # cs sk hr sr
    r"uzunlu\w*|en az|en fazla|politika\w*|guc\w*|karmasiklik",  # tr
    r"hossz\w*|minimalis|maximalis|legalabb|legfeljebb|szabalyzat\w*|erosseg\w*|iranyelv\w*|kovetelmeny\w*",  # hu
    r"lungime\w*|minim[aă]?|maxim[aă]?|politic\w*|complexitat\w*|puterea",  # ro
    r"\w*pituu\w*|vahimmais\w*|enimmais\w*|kaytanto\w*|vahvuu\w*|vaatimu\w*",  # fi
    r"do dai|toi thieu|toi da|chinh sach|do manh|yeu cau",  # vi
    r"panjang|minimal|maksimum|maksimal|kebijakan|kekuatan|persyaratan|haba|pinakamababa|patakaran",  # id ms fil
    r"urefu|kiwango cha chini|sera ya|nguvu",  # sw
    r"μηκ\w*|ελαχιστ\w*|μεγιστ\w*|πολιτικ\w*|ισχυ\w*|πολυπλοκοτητα",  # el
    r"minimaal\w*|pikkus\w*|garum\w*|ilgi\w*|minimal\w*|lagmark\w*|lleiaf|gutxieneko|luzera|minimuma|longo|ұзындығ\w*|ең аз|урт|хамгийн бага",  # et lv lt is cy eu eo kk mn
    r"նվազագույն|երկարություն\w*|მინიმალურ\w*|სიგრძ\w*",  # hy ka
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
    "ርዝመት", "სიგრძე", "երկարություն", "նվազագույն",
)

# A message that *reports* a credential's state or states a rule about it asks for nothing: "Your password was
# changed", "Password updated", "Never share the SMS code", "must be at least 8 characters", "Forgot your password?
# We'll email a link". Such a text is ordinary unless it also has a request verb (`REQUEST`): "Your password was
# reset: enter the new one" still asks. Entries are folded as texts are (lower case, accents off Latin letters).
STATE: tuple[str, ...] = (
    r"was (?:changed|reset|updated|set|saved|removed|created|rotated)|has been|have been|successfully|we ll (?:email|send)|we will (?:email|send)",
    r"must (?:be|contain|have|include) at least|at least \d+ (?:characters|chars|letters|digits)|never share|do not share|don t share|with anyone|how long",
    r"fue (?:cambiad|restablecid|actualizad)\w*|ha sido|se ha (?:cambiado|actualizado)|con exito|al menos|te enviaremos|olvidaste",
    r"a (?:bien )?ete|avec succes|au moins|nous vous enverrons|wurde\w*|erfolgreich|geandert|aktualisiert|mindestens",
    r"foi (?:alterad|redefinid|atualizad)\w*|com sucesso|pelo menos|no minimo|e stata|e stato|aggiornat\w*|con successo|almeno",
    r"успешно|изменен\w*|изменён\w*|змінено|обновлен\w*|оновлено|сменен\w*|не менее|щонайменше|поне|никому|нікому|трябва да",
    r"zostal[oa]?|zmienion\w*|bylo zmeneno|zmeneno|co najmniej|alespon|is gewijzigd|gewijzigd|minimaal|har andrats|andrats",
    r"on vaihdettu|vaihdettu|vahintaan|megvaltozott|legalabb|a fost schimbat\w*|cu succes|cel putin|berhasil|telah ditukar",
    r"sekurang kurangnya|napalitan na|hindi bababa|da duoc thay doi|it nhat|imebadilishwa|limebadilishwa|au zaidi",
    r"basariyla|degistirildi|dəyisdirildi|dəyişdirildi|ən azı|olmalidir|olmalıdır|kamida|o zgartirildi|bo lishi kerak",
    r"pakeistas|maziausiai|nomainita|vismaz|muudetud|vahemalt|s ha canviat|almenys|is verander|ten minste|τουλαχιστον|αλλαξε|επιτυχως",
    r"өзгертілді|кемінде|солигдлоо|багадаа|შეიცვალა|სულ მცირე|առնվազն|փոխվել է",
    # "changed" in more languages: South Slavic, Slovak, Belarusian, Turkic, Bantu, Celtic, Basque, Esperanto...
    r"promijenjen\w*|promenjen\w*|променет\w*|spremenjen\w*|zmenen\w*|зменен\w*|өзгөртүлд\w*|иваз карда|uytgedil\w*|wis diganti",
    r"\w*shintshiwe|la beddelay|ndryshu\w*|breytt|athraiodh|wedi i newid|wedi newid|aldatu da|cambiou|sangit\w*|\w*hinduwe|voaova",
    r"se cambio|correctamente|nausab na|megvaltoztat\w*|er endret|er blevet|aendret|hate guhertin|inbidlet|ti yi|an canza|agbanwe\w*",
    r"ayaret|etghayar\w*|itghayar\w*|uspeshno|izmenen\w*|badal diya|zmineno|will expire|was last used|are hashed|configured separately|is read from|is managed by",
    # A count of days is a credential's validity period, a setting: "Days before the password expires".
    r"maste vara minst|minst \d+ tecken|days|dias|jours|tage|dagen|dagar|dni|so ngay|siku|днях|дней|днів|how many|ou chanje",
)
# The same for scripts matched anywhere (and the Arabic and Hebrew phrases).
STATE_PARTS: tuple[str, ...] = (
    "已重置", "已更新", "已修改", "已更改", "已变更", "已設定", "已设置", "成功", "请勿", "請勿", "不要向", "不是", "至少", "最少需要",
    "完了しました", "変更されました", "更新されました", "教えないで", "共有しないで", "以上で", "변경되었습니다", "되었습니다", "이상이어야", "공유하지",
    "تم ", "بنجاح", "يجب أن", "على الأقل", "با موفقيت", "تغيير كرد", "حداقل", "كر ديا گيا", "كم از كم", "لا تشارك", "בהצלחה", "שונתה", "לפחות", "חייבת",
    "सफलतापूर्वक", "बदल दिया", "बदला गया", "कम से कम", "होना चाहिए", "बदलला", "परिवर्तन भयो", "कम्तीमा", "हुनुपर्छ", "পরিবর্তন করা হয়েছে", "কমপক্ষে", "হতে হবে",
    "மாற்றப்பட்டது", "குறைந்தது", "మార్చబడింది", "కనీసం", "ಬದಲಾಯಿಸಲಾಗಿದೆ", "ಕನಿಷ್ಠ", "മാറ്റി", "കുറഞ്ഞത്", "બદલાઈ", "ઓછામાં ઓછા", "ਬਦਲ ਦਿੱਤਾ", "ਘੱਟੋ",
    "වෙනස් කරන ලදී", "අවම වශයෙන්", "เรียบร้อยแล้ว", "อย่างน้อย", "ተቀይሯል", "ቢያንስ", "ត្រូវបានផ្លាស់ប្តូរ", "យ៉ាងហោចណាស់", "ပြောင်းလဲပြီး", "အနည်းဆုံး",
    "ໄດ້ປ່ຽນ", "ຢ່າງໜ້ອຍ", "بدل شو", "لږ تر لږه",
    "已變更", "পরিবর্তন হয়েছে", "ಬದಲಾಗಿದೆ", "ປ່ຽນແລ້ວ", "ተቐይሩ", "ବଦଳାଯାଇଛି", "সলনি কৰা", "تبديل ٿي", "日数", "주기", "الأيام", "הימים", "گۆڕدرا",
)
REQUEST: tuple[str, ...] = (
    r"enter|type|paste|provide|send|give|input|fill|submit|tell|what is|what s|reply|insert|key in|write",
    r"ingresa\w*|ingrese\w*|introduce\w*|introduzca|escribe|escriba|proporciona\w*|envia\w*|saisi\w*|entrez|indiquez|tapez",
    r"geben|eingeben|gib|digite|insira|informe|inserisci|inserire|digita|введите|укажите|введіть|вкажіть|въведете|пришли\w*",
    r"wpisz|podaj|zadejte|girin|giriniz|voer|ange|angiv|skriv|sisesta|ievadiet|iveskite|introduiu|gee|oruulna|kiriting|daxil edin",
    r"masukkan|ilagay|ibigay|weka|tuma|syota|irja|introduceti|faka|tinye|shigar|geli",
    r"te (?:oro|koodu|nomba|ami)",  # Yoruba "tẹ" (type) before what is typed; Kurdish "te" is "your"
)
REQUEST_PARTS: tuple[str, ...] = (
    "输入", "輸入", "填写", "填寫", "提供", "入力", "입력", "أدخل", "ادخل", "وارد كنيد", "درج", "दर्ज", "डालें", "লিখুন", "உள்ளிடவும்",
    "నమోదు", "ನಮೂದಿಸಿ", "നൽകുക", "દાખલ", "ਦਰਜ", "ඇතුළත්", "បញ្ចូល", "ထည့်", "შეიყვანე", "մուտքագր", "енгізіңіз", "הקלד", "הזן",
)

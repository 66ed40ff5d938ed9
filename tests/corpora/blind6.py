"""A sixth blind corpus for the secret guard: written without looking at the guard or at its tuning corpora.

It follows the format and the labelling decisions of ``tests.corpora.blind`` and ``tests.corpora.blind5``
(see their docstrings) and focuses on European languages beyond the big ones (Dutch, Danish, Norwegian,
Polish, Hungarian, Portuguese of Portugal and Brazil, Catalan, Basque, Galician, Ukrainian, Serbian in
Cyrillic and Latin, Croatian, Bulgarian, Slovak, Slovenian, Lithuanian, Latvian, Estonian, Irish, Welsh,
Icelandic, Maltese), on Turkish, Arabic, Hebrew, Persian, Amharic, Hausa, Yoruba, Zulu and Afrikaans, and on
English field names in every identifier style (snake, camel, Pascal, kebab, SCREAMING, dotted) with the
abbreviations real settings screens use (pwd, passwd, pw, secr, tok, apikey, cc_num, cvc2, sec_code): cloud
consoles, CI/CD secrets, payment checkouts, banking, HR and payroll, IoT device setup, mail server setup.

Hand-written base texts come first; a seeded pass then derives variants with one Unicode or spelling trick
each. A variant keeps the label of the text it came from. Trick names:

- ``homoglyph``: some Latin letters replaced by Cyrillic or Greek look-alikes;
- ``mixed-script``: some Cyrillic letters replaced by Latin look-alikes;
- ``zero-width``: ZWSP/ZWNJ/ZWJ/word joiner/BOM inside a word; ``soft-hyphen``: U+00AD inside a word;
- ``fullwidth``: ASCII letters and digits as fullwidth forms; ``combining``: combining marks (niqqud in Hebrew);
- ``rtl-mark``: RLM/LRM inside or between words; ``dotless-i``: Turkish dotless ı / dotted İ;
- ``spaced``, ``leet``, ``case``: letters spaced out, digits for letters, alternating case;
- ``ascii-fold``: diacritics dropped (hasło -> haslo), as people type on a foreign keyboard;
- ``tatweel``: Arabic kashida inside a word; ``arabic-letters``: Persian and Arabic yeh/kaf swapped;
- ``transliterated``: the text written in Latin letters (Arabizi, Finglish, Ukrainian/Bulgarian in Latin);
- ``typo``: a realistic misspelling; ``camel``, ``pascal``, ``kebab``, ``screaming``, ``dotted``: identifier
  styles of a field name (``snake_case`` names count as ``plain``).

Extra labelling decisions (``note`` on the entry says which rule applies):

- a message that only *mentions* a password or code ("your password was changed", "it expires in 5 days")
  and asks for nothing is ordinary.
- a message that asks for an ordinary identifier *and* a secret (CPF and app password) is credential-like.
- Hungarian "jelszó" and Slovene "geslo" also mean slogan/motto; Slovak "heslo" also means a dictionary
  headword and a slogan; Polish "hasło" also a crossword answer: in those senses they are ordinary.
- Turkish "şifre" means both password and cipher: encryption settings ("şifreleme algoritması") are
  ordinary; an "SMS şifresi" (a one-time code) is credential-like.
- a Brazilian "chave Pix" is a public payment alias (CPF, e-mail, phone or random key): ordinary;
  "senha do cartão" is credential-like.
- Iranian "رمز دوم" (a card's second password) and "رمز پویا" (a dynamic one-time password) are
  credential-like; "شماره شبا" (IBAN) and "کد ملی" (national ID) are ordinary.
- bank one-time codes and app PINs are credential-like: the Polish BLIK code, a Croatian mToken APPLI 1
  one-time password, Estonian Smart-ID PIN1/PIN2, a Danish MitID password, a Norwegian BankID password, a
  South African "eenmalige PIN".
- national ID and tax numbers (PESEL, NIP, CPR, fødselsnummer, ЈМБГ, EMŠO, OIB, PIB, ЕГН, isikukood, asmens
  kodas, personas kods, kennitala, T.C. kimlik no, CPF, NIF, ІПН, תעודת זהות) are ordinary (identifiers).
- "cc" as an e-mail carbon copy (cc_email, cc_recipients) is ordinary; cc_num, cc_exp and cc_cvv are
  credential-like.
- a device admin password (the one printed on a router's sticker) is credential-like; a serial number,
  a MAC address and an SSID are ordinary.
- settings about how credentials are stored or checked (password hash algorithm, "CVC required", PIN length,
  number of PIN attempts left) are ordinary.
- Irish "Éirchód", Icelandic "póstnúmer", Persian "کد پستی" and the other postal codes are ordinary,
  as is every "code" that is a postal, country or tax code.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable

from tests.corpora.blind import Entry

# Notes naming the rule an ambiguous entry follows.
_SLOGAN = "password word in its slogan/motto/headword sense: ordinary"
_ID = "identifier (ID, tax or account number), not a secret"
_POLICY = "setting about credentials, holds no secret"
_MENTION = "mentions a credential but asks for none"
_BOTH = "asks for an identifier and a secret: credential-like"
_BANK = "bank one-time code or app PIN: credential-like"
_CIPHER = "şifre as cipher/encryption: ordinary"
_PIX = "Pix key is a public payment alias"
_PUBLIC = "public key, fingerprint or key name: ordinary"
_CARBON = "cc as e-mail carbon copy: ordinary"
_DEVICE = "device admin password: credential-like"
_LLM = "model token count: ordinary"
_VAULT = "name/id of a secret, not its value: ordinary"

# (form, secret, text[, note]) per language; form is n(ame) l(abel) d(escription) m(essage).
_Row = tuple[str, int, str] | tuple[str, int, str, str]

_BASE: dict[str, list[_Row]] = {
    "en": [
        ("l", 1, "Database password"),
        ("l", 1, "SMTP password"),
        ("l", 1, "Root password"),
        ("l", 1, "Personal access token"),
        ("l", 1, "Secret access key"),
        ("l", 1, "OAuth client secret"),
        ("l", 1, "Card number"),
        ("l", 1, "Security code (CVV)"),
        ("l", 1, "Expiry date (MM/YY)"),
        ("l", 1, "Online banking PIN"),
        ("l", 1, "6-digit code from your authenticator app"),
        ("l", 1, "Backup recovery code"),
        ("l", 1, "12-word recovery phrase"),
        ("l", 1, "Private key (PEM)"),
        ("l", 1, "Session cookie value"),
        ("l", 1, "WPA2 passphrase"),
        ("l", 1, "Webhook signing secret"),
        ("l", 1, "Connection string"),
        ("l", 1, "Bearer token"),
        ("l", 1, "Router admin password", _DEVICE),
        ("l", 1, "Payroll portal password"),
        ("l", 1, "Deploy key (private)"),
        ("l", 0, "Max output tokens", _LLM),
        ("l", 0, "Token symbol (e.g. USDC)"),
        ("l", 0, "Primary key column"),
        ("l", 0, "PIN code of delivery area (India Post)"),
        ("l", 0, "Password policy: minimum length", _POLICY),
        ("l", 0, "Host key fingerprint", _PUBLIC),
        ("l", 0, "SSH public key", _PUBLIC),
        ("l", 0, "Name on card"),
        ("l", 0, "Last 4 digits of card"),
        ("l", 0, "API key label", _PUBLIC),
        ("l", 0, "Vault secret path", _VAULT),
        ("l", 0, "Access token lifetime (minutes)", _POLICY),
        ("l", 0, "One-time code length", _POLICY),
        ("l", 0, "Random seed"),
        ("l", 0, "SMTP username"),
        ("l", 0, "IMAP server hostname"),
        ("l", 0, "OAuth client ID"),
        ("l", 0, "Key rotation period (days)", _POLICY),
        ("l", 0, "Device serial number"),
        ("l", 0, "Password expiry (days)", _POLICY),
        ("d", 1, "Paste the secret key from your Stripe dashboard (it starts with sk_live_)."),
        ("d", 1, "Enter the password for this mailbox so we can fetch your messages over IMAP."),
        ("d", 1, "The long number embossed on the front of your card."),
        ("d", 1, "The three digits printed on the signature strip on the back of your card."),
        ("d", 1, "A GitHub personal access token with the repo and workflow scopes."),
        ("d", 1, "Paste the full contents of ~/.ssh/id_ed25519 (the private key file, not the .pub)."),
        ("d", 1, "Type the one-time code we just texted to your phone."),
        ("d", 1, "Postgres URL including user and password, e.g. postgres://app:secret@db:5432/app."),
        ("d", 1, "Copy the value of the sid cookie from your browser's developer tools."),
        ("d", 1, "The admin password printed on the sticker under the router.", _DEVICE),
        ("d", 1, "Password of the service account the CI runner uses to push images to the registry."),
        ("d", 1, "The shared secret (PSK) configured on the other end of the IPsec tunnel."),
        ("d", 0, "Maximum number of tokens the model may generate in one reply.", _LLM),
        ("d", 0, "Ticker of the token you want to swap into, such as USDC or DAI."),
        ("d", 0, "Which column acts as the table's primary key."),
        ("d", 0, "Minimum number of characters a new password must have.", _POLICY),
        ("d", 0, "SHA-256 fingerprint of the server's host key, so you can verify the first connection.", _PUBLIC),
        ("d", 0, "Your SSH public key (the .pub file) to authorise on the build server.", _PUBLIC),
        ("d", 0, "Name exactly as it is printed on the front of the card."),
        ("d", 0, "How long an access token stays valid, in seconds.", _POLICY),
        ("d", 0, "Name of the secret in AWS Secrets Manager (not its value).", _VAULT),
        ("d", 0, "The ID shown next to the API key in the console (e.g. key_8f2c), not the key itself.", _VAULT),
        ("d", 0, "Number of digits in the one-time code sent by SMS.", _POLICY),
        ("d", 0, "Six-digit PIN code of your delivery address, as used by India Post."),
        ("m", 1, "To finish connecting your mailbox, please enter your email password below."),
        ("m", 1, "Your session has expired. Re-enter your password and the code from your authenticator."),
        ("m", 1, "Security check: confirm your card number, expiry date and CVV to keep your account active."),
        ("m", 1, "Paste your AWS secret access key so the deploy job can upload the build artifacts."),
        ("m", 1, "We noticed an unusual sign-in. Verify it is you by entering your 24-word recovery phrase."),
        ("m", 1, "Please provide the SSH private key of the deploy user so we can roll out the release."),
        ("m", 1, "Your direct deposit is on hold. Log in with your employee ID and payroll password to release it."),
        ("m", 1, "To pair the camera, enter the Wi-Fi network name and its password."),
        ("m", 0, "Choose the maximum tokens and the temperature for this run.", _LLM),
        ("m", 0, "Set your password policy: minimum length, expiry and reuse rules.", _POLICY),
        ("m", 0, "Which token do you want to receive? Pick a symbol such as USDC or DAI."),
        ("m", 0, "Confirm the primary key column before we import the CSV."),
        ("m", 0, "Enter the name of the API key you want to revoke; the key itself is not needed.", _VAULT),
        ("m", 0, "Upload your public SSH key so we can grant you access to the repository.", _PUBLIC),
        ("m", 0, "Your password was changed yesterday. If that was you, there is nothing to do.", _MENTION),
        ("m", 0, "To pair the camera, pick your Wi-Fi network (SSID) from the list."),
        ("l", 1, "Pasword", "typo"),
        ("l", 1, "Secrte key", "typo"),
        ("l", 0, "Pasword policy", "typo"),
    ],
    "nl": [
        ("l", 1, "Wachtwoord"),
        ("l", 1, "Pincode"),
        ("l", 1, "Beveiligingscode (CVC)"),
        ("l", 1, "Inlogcode"),
        ("l", 1, "Herstelcode"),
        ("l", 0, "Postcode"),
        ("l", 0, "Minimale wachtwoordlengte", _POLICY),
        ("l", 0, "Gebruikersnaam"),
        ("l", 0, "Kenteken"),
        ("l", 0, "Primaire sleutel"),
        ("d", 1, "Vul het wachtwoord van je e-mailaccount in zodat we je mail kunnen ophalen."),
        ("d", 1, "De code van 3 cijfers op de achterkant van je betaalpas."),
        ("d", 1, "Plak hier de geheime API-sleutel uit het dashboard."),
        ("d", 0, "Het aantal tekens dat een nieuw wachtwoord minimaal moet hebben.", _POLICY),
        ("d", 0, "Je postcode en huisnummer, bijvoorbeeld 1012 AB 12."),
        ("d", 0, "De vingerafdruk van de openbare sleutel, ter controle.", _PUBLIC),
        ("m", 1, "Uw sessie is verlopen. Log opnieuw in met uw gebruikersnaam, wachtwoord en de sms-code."),
        ("m", 1, "Bevestig uw betaalpas: voer het pasnummer, de vervaldatum en uw pincode in."),
        ("m", 0, "Stel het wachtwoordbeleid in: minimale lengte en hoe vaak het vervangen moet worden.", _POLICY),
        ("m", 0, "Vul uw kenteken en postcode in om een parkeervergunning aan te vragen."),
        ("l", 1, "Wachtword", "typo"),
    ],
    "da": [
        ("l", 1, "Adgangskode"),
        ("l", 1, "Pinkode"),
        ("l", 1, "Engangskode fra SMS"),
        ("l", 0, "Postnummer"),
        ("l", 0, "Brugernavn"),
        ("l", 0, "Krav til adgangskode", _POLICY),
        ("d", 1, "Indtast den adgangskode, du bruger til din mailkonto."),
        ("d", 1, "Kontrolcifrene på bagsiden af dit kort (3 cifre)."),
        ("d", 0, "Hvor mange tegn en adgangskode mindst skal have.", _POLICY),
        ("d", 0, "Dit CPR-nummer bruges kun til at finde din lønseddel.", _ID),
        ("m", 1, "Dit MitID er spærret. Indtast dit bruger-ID og din adgangskode for at genaktivere det.", _BANK),
        ("m", 1, "Bekræft betalingen: skriv kortnummer, udløbsdato og kontrolcifre."),
        ("m", 0, "Vælg hvor ofte medarbejdere skal skifte adgangskode (i dage).", _POLICY),
        ("m", 0, "Angiv dit postnummer og din by, så vi kan beregne fragten."),
    ],
    "nb": [
        ("l", 1, "Passord"),
        ("l", 1, "PIN-kode"),
        ("l", 1, "Sikkerhetskode (CVC)"),
        ("l", 0, "Postnummer for levering"),
        ("l", 0, "Fødselsnummer", _ID),
        ("l", 0, "Minste passordlengde", _POLICY),
        ("d", 1, "Skriv inn passordet til Wi-Fi-nettet ditt slik at enheten kan koble seg til."),
        ("d", 1, "Engangskoden du fikk på SMS fra banken.", _BANK),
        ("d", 0, "Navnet på Wi-Fi-nettet (SSID) som enheten skal koble seg til."),
        ("d", 0, "Kontonummeret lønnen skal utbetales til (11 siffer).", _ID),
        ("m", 1, "Vi må bekrefte identiteten din. Oppgi fødselsnummer, BankID-passord og engangskode.", _BOTH),
        ("m", 1, "Kortet ditt er sperret. Oppgi kortnummer og PIN-kode for å åpne det igjen."),
        ("m", 0, "Passordet ditt ble endret i går. Hvis det var deg, trenger du ikke gjøre noe.", _MENTION),
        ("m", 0, "Velg hvor mange dager et passord skal være gyldig.", _POLICY),
    ],
    "pl": [
        ("l", 1, "Hasło"),
        ("l", 1, "Kod BLIK", _BANK),
        ("l", 1, "Kod CVV2/CVC2"),
        ("l", 1, "Numer karty"),
        ("l", 1, "Hasło do bankowości internetowej"),
        ("l", 0, "Kod pocztowy"),
        ("l", 0, "Hasło reklamowe", _SLOGAN),
        ("l", 0, "NIP", _ID),
        ("l", 0, "Minimalna długość hasła", _POLICY),
        ("l", 0, "PESEL", _ID),
        ("d", 1, "Wpisz 6-cyfrowy kod BLIK z aplikacji banku, aby potwierdzić płatność.", _BANK),
        ("d", 1, "Hasło do skrzynki pocztowej (IMAP), z której pobierzemy faktury."),
        ("d", 1, "Klucz prywatny portfela w formacie hex."),
        ("d", 0, "Hasło krzyżówki – wpisz rozwiązanie, aby wziąć udział w losowaniu.", _SLOGAN),
        ("d", 0, "Liczba tokenów, jaką model może wygenerować w jednej odpowiedzi.", _LLM),
        ("d", 0, "Kolumna pełniąca rolę klucza głównego tabeli."),
        ("m", 1, "Twoje konto zostało zablokowane. Podaj login, hasło i kod SMS, aby je odblokować."),
        ("m", 1, "W celu weryfikacji karty podaj jej numer, datę ważności i kod CVV."),
        ("m", 0, "Ustaw politykę haseł: minimalna długość, znaki specjalne i okres ważności.", _POLICY),
        ("m", 0, "Podaj kod pocztowy i numer telefonu dla kuriera."),
    ],
    "hu": [
        ("l", 1, "Jelszó"),
        ("l", 1, "PIN-kód"),
        ("l", 1, "Kártyaszám"),
        ("l", 0, "Irányítószám"),
        ("l", 0, "Felhasználónév"),
        ("l", 0, "A kampány jelszava", _SLOGAN),
        ("d", 1, "Add meg a bankkártyád hátoldalán található háromjegyű CVC-kódot."),
        ("d", 1, "Az SMS-ben kapott egyszer használatos kód."),
        ("d", 0, "Legalább hány karakterből álljon az új jelszó.", _POLICY),
        ("d", 0, "A tábla elsődleges kulcsa (oszlopnév)."),
        ("m", 1, "Biztonsági okokból erősítse meg fiókját: adja meg felhasználónevét és jelszavát."),
        ("m", 1, "A csomag kézbesítéséhez fizessen 299 Ft vámot: kártyaszám, lejárati dátum, CVC."),
        ("m", 0, "Válaszd ki a választási plakát jelszavát a három javaslat közül.", _SLOGAN),
        ("m", 0, "Add meg az irányítószámot és a házszámot a szállításhoz."),
    ],
    "pt-PT": [
        ("l", 1, "Palavra-passe"),
        ("l", 1, "Código PIN"),
        ("l", 1, "Código de segurança (CVV)"),
        ("l", 0, "Código postal"),
        ("l", 0, "NIF", _ID),
        ("l", 0, "Nome de utilizador"),
        ("d", 1, "Introduza a palavra-passe do seu e-mail para sincronizarmos a caixa de correio."),
        ("d", 1, "O código de 6 dígitos que enviámos por SMS."),
        ("d", 0, "Número mínimo de caracteres de uma palavra-passe nova.", _POLICY),
        ("d", 0, "A impressão digital da chave pública do servidor.", _PUBLIC),
        ("m", 1, "O seu cartão Multibanco foi suspenso. Confirme o número do cartão e o código PIN para o reativar."),
        ("m", 1, "Para concluir a ligação, cole aqui a chave secreta da API."),
        ("m", 0, "Indique o código postal e o número de contribuinte para a fatura.", _ID),
        ("m", 0, "Defina a política de palavras-passe da organização.", _POLICY),
    ],
    "pt-BR": [
        ("l", 1, "Senha"),
        ("l", 1, "Senha do cartão"),
        ("l", 1, "Token de acesso"),
        ("l", 1, "Código de verificação (SMS)"),
        ("l", 0, "CEP"),
        ("l", 0, "CPF", _ID),
        ("l", 0, "Chave Pix", _PIX),
        ("l", 0, "Requisitos de senha", _POLICY),
        ("d", 1, "Digite a senha de 4 dígitos do seu cartão para confirmar a compra."),
        ("d", 1, "Cole o access token de produção gerado no painel do Mercado Pago."),
        ("d", 0, "Sua chave Pix (CPF, e-mail, celular ou chave aleatória) para receber o reembolso.", _PIX),
        ("d", 0, "Quantidade máxima de tokens na resposta do modelo.", _LLM),
        ("m", 1, "Detectamos um acesso incomum. Confirme seu CPF, a senha do app e o código enviado por SMS.", _BOTH),
        ("m", 1, "Atualize os dados do seu cartão: número, validade e CVV."),
        ("m", 0, "Informe o CEP para calcularmos o frete."),
        ("m", 0, "Sua senha expira em 5 dias. Você pode alterá-la nas configurações.", _MENTION),
    ],
    "ca": [
        ("l", 1, "Contrasenya"),
        ("l", 1, "Codi PIN"),
        ("l", 1, "Número de la targeta"),
        ("l", 0, "Codi postal"),
        ("l", 0, "Nom d'usuari"),
        ("l", 0, "Clau primària"),
        ("d", 1, "Escriu la contrasenya del compte de correu per sincronitzar els missatges."),
        ("d", 1, "Les tres xifres del darrere de la targeta."),
        ("d", 0, "Longitud mínima que ha de tenir una contrasenya nova.", _POLICY),
        ("d", 0, "Nom de la xarxa Wi-Fi a la qual es connectarà el dispositiu."),
        ("m", 1, "Per motius de seguretat, confirma la teva contrasenya i el codi que t'hem enviat per SMS."),
        ("m", 1, "Introdueix la data de caducitat i el codi de seguretat de la targeta."),
        ("m", 0, "Indica el codi postal i el municipi per calcular l'enviament."),
        ("m", 0, "Configura la política de contrasenyes: longitud mínima i caducitat.", _POLICY),
    ],
    "eu": [
        ("l", 1, "Pasahitza"),
        ("l", 1, "PIN kodea"),
        ("l", 1, "Txartelaren zenbakia"),
        ("l", 0, "Posta-kodea"),
        ("l", 0, "Erabiltzaile-izena"),
        ("l", 0, "Gako nagusia"),
        ("d", 1, "Idatzi zure posta-kontuaren pasahitza mezuak sinkronizatzeko."),
        ("d", 1, "SMS bidez bidali dizugun egiaztapen-kodea."),
        ("d", 0, "Pasahitz berri batek izan behar duen gutxieneko luzera.", _POLICY),
        ("d", 0, "Zure helbide elektronikoa, jakinarazpenak jasotzeko."),
        ("m", 1, "Zure saioa iraungi da. Sartu berriro zure pasahitza jarraitzeko."),
        ("m", 1, "Ordainketa berresteko, idatzi txartelaren zenbakia eta segurtasun-kodea."),
        ("m", 0, "Adierazi posta-kodea eta herria bidalketa kalkulatzeko."),
        ("m", 0, "Aukeratu pasahitzen politika: gutxieneko luzera eta iraungitzea.", _POLICY),
    ],
    "gl": [
        ("l", 1, "Contrasinal"),
        ("l", 1, "Código de seguranza"),
        ("l", 1, "Número da tarxeta"),
        ("l", 0, "Nome de usuario"),
        ("l", 0, "Chave primaria"),
        ("l", 0, "Código postal do envío"),
        ("d", 1, "Escribe o contrasinal da túa conta de correo para sincronizar as mensaxes."),
        ("d", 1, "Os tres díxitos que aparecen no reverso da tarxeta."),
        ("d", 0, "Lonxitude mínima que debe ter un contrasinal novo.", _POLICY),
        ("d", 0, "Impresión dixital da chave pública do servidor.", _PUBLIC),
        ("m", 1, "Por seguridade, confirma o teu contrasinal e o código que che enviamos por SMS."),
        ("m", 1, "Introduce o número da tarxeta e a data de caducidade para completar o pagamento."),
        ("m", 0, "Indica o código postal para calcular os gastos de envío."),
        ("m", 0, "Elixe cada cantos días caduca un contrasinal.", _POLICY),
    ],
    "uk": [
        ("l", 1, "Пароль"),
        ("l", 1, "PIN-код"),
        ("l", 1, "CVV-код"),
        ("l", 0, "Поштовий індекс"),
        ("l", 0, "Ім'я користувача"),
        ("l", 0, "Мінімальна довжина пароля", _POLICY),
        ("d", 1, "Введіть пароль від поштової скриньки, щоб ми могли отримувати листи."),
        ("d", 1, "Одноразовий код, який надійшов вам у SMS."),
        ("d", 0, "Номер ІПН (РНОКПП) для оформлення рахунку.", _ID),
        ("d", 0, "Стовпець, що є первинним ключем таблиці."),
        ("m", 1, "Ваш рахунок заблоковано. Для розблокування вкажіть номер картки, термін дії та CVV."),
        ("m", 1, "Підтвердіть вхід: введіть пароль і код з додатка-автентифікатора."),
        ("m", 0, "Вкажіть поштовий індекс і номер відділення для доставки."),
        ("m", 0, "Ваш пароль було змінено. Якщо це були не ви, зверніться до підтримки.", _MENTION),
        ("l", 1, "Parol vid poshty", "transliterated"),
        ("l", 0, "Poshtovyi indeks", "transliterated"),
    ],
    "sr-Cyrl": [
        ("l", 1, "Лозинка"),
        ("l", 1, "ПИН"),
        ("l", 1, "Број картице"),
        ("l", 0, "Поштански број"),
        ("l", 0, "Корисничко име"),
        ("l", 0, "ЈМБГ", _ID),
        ("d", 1, "Унесите лозинку за налог е-поште да бисмо преузели поруке."),
        ("d", 1, "Троцифрени код са полеђине картице."),
        ("d", 0, "Минимална дужина нове лозинке (број знакова).", _POLICY),
        ("d", 0, "Назив кључа у трезору, не његова вредност.", _VAULT),
        ("m", 1, "Ваш налог је привремено блокиран. Потврдите корисничко име и лозинку."),
        ("m", 1, "За наставак унесите једнократни код који смо вам послали."),
        ("m", 0, "Унесите поштански број и град за доставу."),
        ("m", 0, "Изаберите колико често корисници морају да мењају лозинку.", _POLICY),
    ],
    "sr-Latn": [
        ("l", 1, "Lozinka"),
        ("l", 1, "Sigurnosni kod (CVV)"),
        ("l", 1, "Tajni ključ"),
        ("l", 0, "Poštanski broj"),
        ("l", 0, "PIB", _ID),
        ("l", 0, "Primarni ključ"),
        ("d", 1, "Lozinka za e-poštu, potrebna za slanje obaveštenja preko SMTP-a."),
        ("d", 1, "Jednokratni kod iz aplikacije banke.", _BANK),
        ("d", 0, "Korisničko ime za prijavu na SMTP server."),
        ("d", 0, "Broj tokena koje model sme da generiše.", _LLM),
        ("m", 1, "Paket čeka na carini. Platite 150 dinara: broj kartice, datum isteka i CVV."),
        ("m", 1, "Potvrdite prijavu unosom lozinke i koda iz SMS-a."),
        ("m", 0, "Unesite PIB i matični broj firme za račun.", _ID),
        ("m", 0, "Podesite pravila za lozinke: minimalna dužina i rok važenja.", _POLICY),
    ],
    "hr": [
        ("l", 1, "Zaporka"),
        ("l", 1, "PIN za karticu"),
        ("l", 1, "Datum isteka kartice"),
        ("l", 0, "OIB", _ID),
        ("l", 0, "Poštanski broj i mjesto"),
        ("l", 0, "Korisničko ime"),
        ("d", 1, "Unesite zaporku za e-mail račun kako bismo mogli preuzeti poštu."),
        ("d", 1, "Jednokratna zaporka koju generira mToken (APPLI 1).", _BANK),
        ("d", 0, "Najmanji broj znakova koji zaporka mora imati.", _POLICY),
        ("d", 0, "Otisak javnog ključa, za provjeru.", _PUBLIC),
        ("m", 1, "Vaš račun je blokiran. Za deblokadu unesite broj kartice i PIN."),
        ("m", 1, "Za dovršetak prijave unesite lozinku i kod iz SMS poruke."),
        ("m", 0, "Upišite OIB i adresu za izdavanje računa.", _ID),
        ("m", 0, "Odaberite koliko često se lozinka mora mijenjati.", _POLICY),
    ],
    "bg": [
        ("l", 1, "Парола"),
        ("l", 1, "ПИН код"),
        ("l", 1, "CVV код"),
        ("l", 0, "Пощенски код"),
        ("l", 0, "ЕГН", _ID),
        ("l", 0, "Потребителско име"),
        ("d", 1, "Въведете паролата за имейл акаунта, за да изтеглим писмата."),
        ("d", 1, "Еднократният код, който получихте по SMS."),
        ("d", 0, "Минималната дължина на новата парола.", _POLICY),
        ("d", 0, "Колоната, която е първичен ключ на таблицата."),
        ("m", 1, "Пратката ви чака. Платете 2,40 лв. такса: номер на картата, валидност и CVV."),
        ("m", 1, "Потвърдете влизането с парола и код от приложението."),
        ("m", 0, "Въведете пощенски код и град за доставка."),
        ("m", 0, "Изберете на колко дни да се сменя паролата.", _POLICY),
        ("l", 1, "Parola za vhod", "transliterated"),
        ("l", 0, "Poshtenski kod", "transliterated"),
    ],
    "sk": [
        ("l", 1, "Heslo"),
        ("l", 1, "PIN kód"),
        ("l", 1, "Číslo karty"),
        ("l", 0, "PSČ"),
        ("l", 0, "Reklamné heslo", _SLOGAN),
        ("l", 0, "Používateľské meno"),
        ("d", 1, "Zadajte heslo k e-mailovému účtu, aby sme mohli sťahovať poštu."),
        ("d", 1, "Trojmiestny kód CVV z rubu karty."),
        ("d", 0, "Minimálny počet znakov nového hesla.", _POLICY),
        ("d", 0, "Heslo v slovníku, ku ktorému pridávate výklad.", _SLOGAN),
        ("m", 1, "Vaše konto bolo zablokované. Pre odblokovanie zadajte prihlasovacie meno a heslo."),
        ("m", 1, "Potvrďte platbu kódom zo SMS a PIN kódom karty."),
        ("m", 0, "Zadajte PSČ a mesto pre doručenie."),
        ("m", 0, "Nastavte politiku hesiel: minimálna dĺžka a platnosť.", _POLICY),
    ],
    "sl": [
        ("l", 1, "Geslo"),
        ("l", 1, "PIN koda"),
        ("l", 1, "Številka kartice"),
        ("l", 0, "Poštna številka"),
        ("l", 0, "EMŠO", _ID),
        ("l", 0, "Oglaševalsko geslo", _SLOGAN),
        ("d", 1, "Vnesite geslo za e-poštni račun, da bomo lahko prenesli sporočila."),
        ("d", 1, "Enkratno geslo, ki ste ga prejeli po SMS-u."),
        ("d", 0, "Najmanjša dolžina novega gesla.", _POLICY),
        ("d", 0, "Geslo festivala, ki bo natisnjeno na plakatih.", _SLOGAN),
        ("m", 1, "Za potrditev plačila vnesite številko kartice, datum veljavnosti in varnostno kodo."),
        ("m", 1, "Vaš račun je zaklenjen. Vnesite uporabniško ime in geslo."),
        ("m", 0, "Vnesite poštno številko in kraj za dostavo."),
        ("m", 0, "Izberite, kako pogosto morajo uporabniki zamenjati geslo.", _POLICY),
    ],
    "lt": [
        ("l", 1, "Slaptažodis"),
        ("l", 1, "PIN kodas"),
        ("l", 1, "Kortelės numeris"),
        ("l", 0, "Pašto kodas"),
        ("l", 0, "Asmens kodas", _ID),
        ("l", 0, "Vartotojo vardas"),
        ("d", 1, "Įveskite el. pašto paskyros slaptažodį, kad galėtume parsisiųsti laiškus."),
        ("d", 1, "Vienkartinis kodas, gautas SMS žinute."),
        ("d", 0, "Mažiausias naujo slaptažodžio simbolių skaičius.", _POLICY),
        ("d", 0, "Lentelės pirminis raktas (stulpelio pavadinimas)."),
        ("m", 1, "Jūsų paskyra užblokuota. Įveskite kortelės numerį, galiojimo datą ir CVV kodą."),
        ("m", 1, "Patvirtinkite prisijungimą slaptažodžiu ir kodu iš programėlės."),
        ("m", 0, "Nurodykite pašto kodą ir miestą pristatymui."),
        ("m", 0, "Pasirinkite slaptažodžių politiką: minimalus ilgis ir galiojimas.", _POLICY),
    ],
    "lv": [
        ("l", 1, "Parole"),
        ("l", 1, "PIN kods"),
        ("l", 1, "Slepenā atslēga"),
        ("l", 0, "Pasta indekss"),
        ("l", 0, "Personas kods", _ID),
        ("l", 0, "Lietotājvārds"),
        ("d", 1, "Ievadiet e-pasta konta paroli, lai mēs varētu lejupielādēt vēstules."),
        ("d", 1, "Trīs ciparu drošības kods kartes aizmugurē."),
        ("d", 0, "Jaunas paroles minimālais garums.", _POLICY),
        ("d", 0, "Tabulas primārā atslēga."),
        ("m", 1, "Jūsu konts ir bloķēts. Lai to atbloķētu, ievadiet lietotājvārdu un paroli."),
        ("m", 1, "Apstipriniet maksājumu ar kartes numuru, derīguma termiņu un CVV kodu."),
        ("m", 0, "Norādiet pasta indeksu un pilsētu piegādei."),
        ("m", 0, "Izvēlieties, cik bieži jāmaina parole.", _POLICY),
    ],
    "et": [
        ("l", 1, "Parool"),
        ("l", 1, "Smart-ID PIN2", _BANK),
        ("l", 1, "Kaardi number"),
        ("l", 0, "Postiindeks"),
        ("l", 0, "Isikukood", _ID),
        ("l", 0, "Kasutajanimi"),
        ("d", 1, "Sisesta e-posti konto parool, et saaksime kirjad alla laadida."),
        ("d", 1, "Smart-ID PIN1, millega sisse logid.", _BANK),
        ("d", 0, "Uue parooli minimaalne pikkus.", _POLICY),
        ("d", 0, "Tabeli primaarvõti (veeru nimi)."),
        ("m", 1, "Teie konto on lukustatud. Avamiseks sisestage kasutajanimi ja parool."),
        ("m", 1, "Kinnitage makse: kaardi number, kehtivusaeg ja turvakood."),
        ("m", 0, "Sisestage postiindeks ja linn tarneks."),
        ("m", 0, "Valige, kui tihti tuleb parooli vahetada.", _POLICY),
    ],
    "ga": [
        ("l", 1, "Pasfhocal"),
        ("l", 1, "Uimhir PIN"),
        ("l", 1, "Uimhir an chárta"),
        ("l", 0, "Éirchód"),
        ("l", 0, "Ainm úsáideora"),
        ("l", 0, "Seoladh ríomhphoist"),
        (
            "d",
            1,
            "Cuir isteach pasfhocal do chuntais ríomhphoist ionas gur féidir linn do theachtaireachtaí a íoslódáil.",
        ),
        ("d", 1, "An cód slándála trí dhigit ar chúl an chárta."),
        ("d", 0, "An fad íosta atá ag pasfhocal nua.", _POLICY),
        ("d", 0, "D'Éirchód, le haghaidh seachadta."),
        ("m", 1, "Tá do chuntas faoi ghlas. Cuir isteach d'ainm úsáideora agus do phasfhocal chun é a dhíghlasáil."),
        ("m", 1, "Deimhnigh an íocaíocht: uimhir an chárta, dáta éaga agus cód slándála."),
        ("m", 0, "Roghnaigh cé chomh minic is gá an pasfhocal a athrú.", _POLICY),
        ("m", 0, "Cuir isteach d'Éirchód agus do sheoladh."),
    ],
    "cy": [
        ("l", 1, "Cyfrinair"),
        ("l", 1, "Rhif PIN"),
        ("l", 1, "Cod diogelwch y cerdyn"),
        ("l", 0, "Cod post"),
        ("l", 0, "Enw defnyddiwr"),
        ("l", 0, "Hyd lleiaf y cyfrinair", _POLICY),
        ("d", 1, "Rhowch gyfrinair eich cyfrif e-bost er mwyn i ni lawrlwytho'ch negeseuon."),
        ("d", 1, "Y cod untro a anfonwyd atoch mewn neges destun."),
        ("d", 0, "Y nifer lleiaf o nodau mewn cyfrinair newydd.", _POLICY),
        ("d", 0, "Eich cod post, ar gyfer danfon."),
        ("m", 1, "Mae eich cyfrif wedi'i gloi. Rhowch eich enw defnyddiwr a'ch cyfrinair i'w ddatgloi."),
        ("m", 1, "Cadarnhewch y taliad: rhif y cerdyn, dyddiad dod i ben a'r cod diogelwch."),
        ("m", 0, "Dewiswch pa mor aml y mae'n rhaid newid cyfrinair.", _POLICY),
        ("m", 0, "Rhowch eich cod post a'ch cyfeiriad."),
    ],
    "is": [
        ("l", 1, "Lykilorð"),
        ("l", 1, "PIN-númer"),
        ("l", 1, "Kortanúmer"),
        ("l", 0, "Póstnúmer"),
        ("l", 0, "Kennitala", _ID),
        ("l", 0, "Notandanafn"),
        ("d", 1, "Sláðu inn lykilorðið að netfanginu svo við getum sótt póstinn."),
        ("d", 1, "Öryggiskóðinn (3 tölustafir) aftan á kortinu."),
        ("d", 0, "Lágmarkslengd nýs lykilorðs.", _POLICY),
        ("d", 0, "Aðallykill töflunnar (heiti dálks)."),
        ("m", 1, "Aðgangurinn þinn hefur verið læstur. Sláðu inn notandanafn og lykilorð til að opna hann."),
        ("m", 1, "Staðfestu greiðsluna: kortanúmer, gildistími og öryggiskóði."),
        ("m", 0, "Sláðu inn póstnúmer og bæjarfélag fyrir sendinguna."),
        ("m", 0, "Veldu hversu oft þarf að skipta um lykilorð.", _POLICY),
    ],
    "mt": [
        ("l", 1, "Il-password tiegħek"),
        ("l", 1, "Kodiċi PIN"),
        ("l", 1, "Numru tal-kard"),
        ("l", 0, "Kodiċi postali"),
        ("l", 0, "Isem l-utent"),
        ("l", 0, "Numru tal-karta tal-identità", _ID),
        ("d", 1, "Daħħal il-password tal-email tiegħek biex inkunu nistgħu nniżżlu l-messaġġi."),
        ("d", 1, "Il-kodiċi tas-sigurtà ta' tliet ċifri fuq wara tal-kard."),
        ("d", 0, "L-inqas numru ta' karattri għal password ġdida.", _POLICY),
        ("d", 0, "Il-kodiċi postali tiegħek, għall-kunsinna."),
        ("m", 1, "Il-kont tiegħek ġie mblukkat. Daħħal isem l-utent u l-password biex tiftħu."),
        ("m", 1, "Ikkonferma l-ħlas: numru tal-kard, data ta' skadenza u kodiċi tas-sigurtà."),
        ("m", 0, "Agħżel kemm-il darba għandha tinbidel il-password.", _POLICY),
        ("m", 0, "Daħħal il-kodiċi postali u l-lokalità."),
    ],
    "tr": [
        ("l", 1, "Şifre"),
        ("l", 1, "Parola"),
        ("l", 1, "Kart numarası"),
        ("l", 1, "Güvenlik kodu (CVV)"),
        ("l", 1, "Tek kullanımlık şifre"),
        ("l", 0, "Posta kodu"),
        ("l", 0, "T.C. kimlik no", _ID),
        ("l", 0, "Kullanıcı adı"),
        ("l", 0, "Şifreleme algoritması", _CIPHER),
        ("l", 0, "Şifre en az uzunluğu", _POLICY),
        ("d", 1, "Ödemeyi onaylamak için telefonunuza gelen SMS şifresini girin.", _BANK),
        ("d", 1, "Kartınızın arkasındaki 3 haneli güvenlik kodu."),
        ("d", 1, "E-posta hesabınızın parolası; iletileri IMAP ile almak için gerekli."),
        ("d", 0, "Yeni bir şifrenin en az kaç karakter olması gerektiği.", _POLICY),
        ("d", 0, "Verileri şifrelemek için kullanılacak algoritma (ör. AES-256).", _CIPHER),
        ("d", 0, "Modelin tek yanıtta üretebileceği en fazla token sayısı.", _LLM),
        ("m", 1, "Hesabınız askıya alındı. TC kimlik numaranızı ve internet bankacılığı şifrenizi girin.", _BOTH),
        ("m", 1, "Kargonuz gümrükte bekliyor. 24,90 TL için kart numarası, son kullanma tarihi ve CVV girin."),
        ("m", 0, "Şifre politikasını belirleyin: en az uzunluk ve geçerlilik süresi.", _POLICY),
        ("m", 0, "Teslimat için posta kodunuzu ve adresinizi girin."),
    ],
    "ar": [
        ("l", 1, "كلمة المرور"),
        ("l", 1, "الرقم السري"),
        ("l", 1, "رمز التحقق"),
        ("l", 1, "رقم البطاقة"),
        ("l", 0, "الرمز البريدي"),
        ("l", 0, "اسم المستخدم"),
        ("l", 0, "رقم الهوية الوطنية", _ID),
        ("l", 0, "الحد الأدنى لطول كلمة المرور", _POLICY),
        ("d", 1, "أدخل كلمة مرور بريدك الإلكتروني لنتمكن من مزامنة الرسائل."),
        ("d", 1, "الرمز المكون من ثلاثة أرقام على ظهر البطاقة."),
        ("d", 1, "ألصق المفتاح السري لواجهة البرمجة من لوحة التحكم."),
        ("d", 0, "عدد الأحرف الأدنى لكلمة المرور الجديدة.", _POLICY),
        ("d", 0, "العمود الذي يمثل المفتاح الأساسي للجدول."),
        ("d", 0, "رقم الآيبان لتحويل الراتب.", _ID),
        ("m", 1, "تم إيقاف حسابك مؤقتًا. لإعادة تفعيله أدخل رقم البطاقة وتاريخ الانتهاء والرقم السري."),
        ("m", 1, "لإكمال تسجيل الدخول أدخل رمز التحقق المرسل إلى جوالك."),
        ("m", 0, "يرجى إدخال الرمز البريدي والمدينة لحساب تكلفة الشحن."),
        ("m", 0, "تم تغيير كلمة المرور الخاصة بك بنجاح.", _MENTION),
        ("m", 1, "ekteb kelmet el ser w el code elly wasalak 3ala el mobile", "transliterated"),
        ("m", 0, "ekteb el code el bareedy w esm el madina", "transliterated"),
    ],
    "he": [
        ("l", 1, "סיסמה"),
        ("l", 1, "קוד סודי"),
        ("l", 1, "מספר כרטיס אשראי"),
        ("l", 0, "מיקוד"),
        ("l", 0, "שם משתמש"),
        ("l", 0, "מספר תעודת זהות", _ID),
        ("d", 1, "הזינו את הסיסמה לתיבת הדואר כדי שנוכל לסנכרן את ההודעות."),
        ("d", 1, "שלוש הספרות בגב הכרטיס."),
        ("d", 0, "האורך המינימלי של סיסמה חדשה.", _POLICY),
        ("d", 0, "טביעת האצבע של המפתח הציבורי של השרת.", _PUBLIC),
        ("m", 1, "החשבון שלך נחסם. כדי לשחרר אותו, הזן את מספר הכרטיס, תוקף ו-CVV."),
        ("m", 1, "לאימות הכניסה הזן את הקוד שנשלח אליך ב-SMS."),
        ("m", 0, "הזן מיקוד ועיר לחישוב דמי משלוח."),
        ("m", 0, "בחר כל כמה ימים יש להחליף סיסמה.", _POLICY),
        ("l", 1, "Sisma", "transliterated"),
        ("l", 0, "Mikud", "transliterated"),
    ],
    "fa": [
        ("l", 1, "رمز عبور"),
        ("l", 1, "رمز دوم کارت"),
        ("l", 1, "کد CVV2"),
        ("l", 1, "رمز پویا"),
        ("l", 0, "کد پستی"),
        ("l", 0, "کد ملی", _ID),
        ("l", 0, "شماره شبا", _ID),
        ("l", 0, "نام کاربری"),
        ("d", 1, "رمز عبور ایمیل خود را وارد کنید تا پیام‌ها همگام‌سازی شوند."),
        ("d", 1, "تاریخ انقضای کارت را به صورت ماه/سال وارد کنید."),
        ("d", 0, "حداقل تعداد نویسه‌های رمز عبور جدید.", _POLICY),
        ("d", 0, "شماره شبای حساب برای واریز حقوق.", _ID),
        ("m", 1, "برای دریافت یارانه، شماره کارت، رمز دوم و CVV2 را وارد کنید."),
        ("m", 1, "برای ورود، کد تأیید پیامک‌شده را وارد کنید."),
        ("m", 0, "کد پستی و آدرس را برای ارسال مرسوله وارد کنید."),
        ("m", 0, "رمز عبور شما با موفقیت تغییر کرد.", _MENTION),
        ("l", 1, "Ramz-e dovom-e kart", "transliterated"),
        ("l", 0, "Code posti", "transliterated"),
    ],
    "am": [
        ("l", 1, "የይለፍ ቃል"),
        ("l", 1, "የሚስጥር ቁጥር (PIN)"),
        ("l", 1, "የካርድ ቁጥር"),
        ("l", 0, "የተጠቃሚ ስም"),
        ("l", 0, "ስልክ ቁጥር"),
        ("l", 0, "የኢሜይል አድራሻ"),
        ("d", 1, "ወደ መለያዎ ለመግባት የይለፍ ቃልዎን ያስገቡ።"),
        ("d", 1, "በስልክዎ የተላከውን የማረጋገጫ ኮድ ያስገቡ።"),
        ("d", 0, "ለማድረስ የሚያገለግል የፖስታ ሳጥን ቁጥር።"),
        ("d", 0, "ማሳወቂያዎችን የሚቀበሉበት የኢሜይል አድራሻ።"),
        ("m", 1, "መለያዎ ታግዷል። ለመክፈት የካርድ ቁጥርዎን እና የሚስጥር ቁጥርዎን ያስገቡ።"),
        ("m", 0, "የይለፍ ቃልዎ በተሳካ ሁኔታ ተቀይሯል።", _MENTION),
    ],
    "ha": [
        ("l", 1, "Kalmar sirri"),
        ("l", 1, "Lambar sirri (PIN)"),
        ("l", 1, "Lambar katin"),
        ("l", 0, "Sunan mai amfani"),
        ("l", 0, "Lambar waya"),
        ("l", 0, "Adireshin imel"),
        ("d", 1, "Shigar da kalmar sirrinka don shiga asusunka."),
        ("d", 1, "Shigar da lambar tabbatarwa da aka aiko maka ta SMS."),
        ("d", 0, "Mafi ƙarancin haruffa da sabuwar kalmar sirri za ta ƙunsa.", _POLICY),
        ("d", 0, "Adireshin imel ɗinka don karɓar sanarwa."),
        ("m", 1, "An dakatar da asusunka. Shigar da lambar katinka da lambar sirri domin buɗe shi."),
        ("m", 0, "An canza kalmar sirrinka cikin nasara.", _MENTION),
    ],
    "yo": [
        ("l", 1, "Ọ̀rọ̀ aṣínà"),
        ("l", 1, "Nọ́mbà káàdì"),
        ("l", 1, "Kóòdù ìjẹ́rìísí"),
        ("l", 0, "Orúkọ olùmúlò"),
        ("l", 0, "Nọ́mbà fóònù"),
        ("l", 0, "Àdírẹ́sì ímeèlì"),
        ("d", 1, "Tẹ ọ̀rọ̀ aṣínà rẹ láti wọlé sí àkáǹtì rẹ."),
        ("d", 1, "Tẹ kóòdù tí a fi ránṣẹ́ sí fóònù rẹ."),
        ("d", 0, "Àdírẹ́sì ímeèlì rẹ fún ìfitónilétí."),
        ("m", 1, "A ti dí àkáǹtì rẹ. Tẹ nọ́mbà káàdì àti ọ̀rọ̀ aṣínà rẹ láti ṣí i."),
        ("m", 0, "A ti yí ọ̀rọ̀ aṣínà rẹ padà.", _MENTION),
    ],
    "zu": [
        ("l", 1, "Iphasiwedi"),
        ("l", 1, "Inombolo ye-PIN"),
        ("l", 1, "Inombolo yekhadi"),
        ("l", 0, "Igama lomsebenzisi"),
        ("l", 0, "Inombolo yocingo"),
        ("l", 0, "Ikhodi yeposi"),
        ("d", 1, "Faka iphasiwedi yakho ukuze ungene ku-akhawunti yakho."),
        ("d", 1, "Faka ikhodi yokuqinisekisa esikuthumelele yona nge-SMS."),
        ("d", 0, "Ubude obuncane bephasiwedi entsha.", _POLICY),
        ("d", 0, "Ikheli lakho le-imeyili lokuthola izaziso."),
        ("m", 1, "I-akhawunti yakho ivinjiwe. Faka inombolo yekhadi ne-PIN ukuze uyivule."),
        ("m", 0, "Iphasiwedi yakho ishintshwe ngempumelelo.", _MENTION),
    ],
    "af": [
        ("l", 1, "Wagwoord"),
        ("l", 1, "Kaartnommer"),
        ("l", 1, "Eenmalige PIN (OTP)", _BANK),
        ("l", 0, "Poskode"),
        ("l", 0, "ID-nommer", _ID),
        ("l", 0, "Minimum wagwoordlengte", _POLICY),
        ("d", 1, "Voer die wagwoord van jou e-posrekening in sodat ons jou e-pos kan aflaai."),
        ("d", 1, "Die driesyfer-sekuriteitskode agter op jou kaart."),
        ("d", 0, "Die minimum aantal karakters vir 'n nuwe wagwoord.", _POLICY),
        ("d", 0, "Jou rekeningnommer waarin die salaris betaal word.", _ID),
        ("m", 1, "Jou rekening is opgeskort. Voer jou kaartnommer, vervaldatum en PIN in om dit te heraktiveer."),
        ("m", 1, "Bevestig jou aanmelding met die eenmalige PIN wat ons per SMS gestuur het.", _BANK),
        ("m", 0, "Voer jou poskode en dorp in vir aflewering."),
        ("m", 0, "Kies hoe gereeld werknemers hul wagwoord moet verander.", _POLICY),
    ],
}

# Field names as word tuples; each is rendered in two identifier styles.
_SECRET_NAMES: list[tuple[str, tuple[str, ...]]] = [
    ("en", ("db", "password")),
    ("en", ("smtp", "pass")),
    ("en", ("imap", "passwd")),
    ("en", ("mysql", "root", "pwd")),
    ("en", ("postgres", "pw")),
    ("en", ("redis", "auth", "token")),
    ("en", ("aws", "secret", "access", "key")),
    ("en", ("gcp", "service", "account", "key")),
    ("en", ("azure", "client", "secret")),
    ("en", ("github", "pat")),
    ("en", ("gitlab", "runner", "token")),
    ("en", ("npm", "auth", "tok")),
    ("en", ("docker", "hub", "password")),
    ("en", ("registry", "pass")),
    ("en", ("stripe", "secret", "key")),
    ("en", ("stripe", "sk", "live")),
    ("en", ("paypal", "client", "secret")),
    ("en", ("cc", "num")),
    ("en", ("card", "number")),
    ("en", ("cvc2",)),
    ("en", ("sec", "code")),
    ("en", ("card", "cvv")),
    ("en", ("cc", "exp")),
    ("en", ("card", "exp", "month")),
    ("en", ("online", "banking", "pin")),
    ("en", ("sms", "tan")),
    ("en", ("otp", "code")),
    ("en", ("totp", "secret")),
    ("en", ("mfa", "code")),
    ("en", ("backup", "codes")),
    ("en", ("recovery", "code")),
    ("en", ("seed", "phrase")),
    ("en", ("wallet", "mnemonic")),
    ("en", ("wallet", "private", "key")),
    ("en", ("ssh", "private", "key")),
    ("en", ("tls", "key", "pem")),
    ("en", ("jwt", "secret")),
    ("en", ("session", "cookie")),
    ("en", ("refresh", "tok")),
    ("en", ("access", "tok")),
    ("en", ("bearer", "token")),
    ("en", ("apikey",)),
    ("en", ("api", "secr")),
    ("en", ("webhook", "signing", "secret")),
    ("en", ("wifi", "psk")),
    ("en", ("wpa", "passphrase")),
    ("en", ("mqtt", "password")),
    ("en", ("admin", "pw")),
    ("en", ("ldap", "bind", "password")),
    ("en", ("sftp", "passwd")),
    ("en", ("vpn", "shared", "secret")),
    ("en", ("ipsec", "psk")),
    ("en", ("database", "url")),
    ("en", ("sentry", "dsn")),
    ("en", ("slack", "bot", "token")),
    ("en", ("twilio", "auth", "token")),
    ("en", ("sendgrid", "api", "key")),
    ("en", ("mailgun", "apikey")),
    ("en", ("payroll", "portal", "pwd")),
    ("en", ("hr", "sso", "password")),
    ("en", ("device", "admin", "pass")),
    ("en", ("router", "web", "pw")),
    ("en", ("client", "secr")),
    ("en", ("deploy", "key")),
    ("en", ("security", "answer")),
    ("en", ("card", "pin")),
    ("nl", ("wachtwoord",)),
    ("mixed", ("smtp", "wachtwoord")),
    ("da", ("adgangskode",)),
    ("nb", ("passord",)),
    ("pl", ("haslo",)),
    ("pl", ("haslo", "bankowe")),
    ("pl", ("kod", "blik")),
    ("hu", ("jelszo",)),
    ("pt-BR", ("senha",)),
    ("pt-BR", ("senha", "cartao")),
    ("pt-PT", ("palavra", "passe")),
    ("ca", ("contrasenya",)),
    ("eu", ("pasahitza",)),
    ("gl", ("contrasinal",)),
    ("uk", ("parol",)),
    ("sr-Latn", ("lozinka",)),
    ("hr", ("zaporka",)),
    ("sk", ("heslo", "uctu")),
    ("sl", ("geslo", "uporabnika")),
    ("lt", ("slaptazodis",)),
    ("lv", ("parole", "db")),
    ("et", ("parool",)),
    ("cy", ("cyfrinair",)),
    ("is", ("lykilord",)),
    ("tr", ("sifre",)),
    ("tr", ("kart", "sifresi")),
    ("af", ("wagwoord",)),
    ("mixed", ("db", "senha")),
    ("mixed", ("api", "anahtari")),
]

_ORDINARY_NAMES: list[tuple[str, tuple[str, ...], str]] = [
    ("en", ("password", "min", "length"), _POLICY),
    ("en", ("password", "policy"), _POLICY),
    ("en", ("password", "expiry", "days"), _POLICY),
    ("en", ("pwd", "min", "len"), _POLICY),
    ("en", ("passwd", "hash", "algo"), _POLICY),
    ("en", ("max", "tokens"), _LLM),
    ("en", ("tok", "count"), _LLM),
    ("en", ("token", "symbol"), ""),
    ("en", ("token", "decimals"), ""),
    ("en", ("primary", "key", "column"), ""),
    ("en", ("key", "fingerprint"), _PUBLIC),
    ("en", ("ssh", "public", "key"), _PUBLIC),
    ("en", ("api", "key", "name"), _VAULT),
    ("en", ("apikey", "id"), _VAULT),
    ("en", ("secret", "arn"), _VAULT),
    ("en", ("secret", "name"), _VAULT),
    ("en", ("vault", "path"), _VAULT),
    ("en", ("otp", "length"), _POLICY),
    ("en", ("mfa", "enabled"), _POLICY),
    ("en", ("cardholder", "name"), ""),
    ("en", ("card", "last4"), ""),
    ("en", ("card", "brand"), ""),
    ("en", ("area", "pincode"), ""),
    ("en", ("random", "seed"), ""),
    ("en", ("idempotency", "key"), ""),
    ("en", ("cache", "key"), ""),
    ("en", ("s3", "object", "key"), ""),
    ("en", ("sort", "key"), ""),
    ("en", ("partition", "key"), ""),
    ("en", ("client", "id"), ""),
    ("en", ("smtp", "user"), ""),
    ("en", ("smtp", "host"), ""),
    ("en", ("imap", "port"), ""),
    ("en", ("db", "host"), ""),
    ("en", ("db", "name"), ""),
    ("en", ("db", "user"), ""),
    ("en", ("iban",), _ID),
    ("en", ("bic", "swift"), ""),
    ("en", ("account", "holder"), ""),
    ("en", ("employee", "id"), _ID),
    ("en", ("tax", "id"), _ID),
    ("en", ("token", "ttl", "seconds"), _POLICY),
    ("en", ("session", "timeout", "min"), _POLICY),
    ("en", ("cookie", "consent"), ""),
    ("en", ("key", "rotation", "days"), _POLICY),
    ("en", ("password", "reset", "url"), ""),
    ("en", ("secr", "rotation", "interval"), _POLICY),
    ("en", ("cc", "email"), _CARBON),
    ("en", ("cc", "recipients"), _CARBON),
    ("en", ("cvc", "required"), _POLICY),
    ("en", ("pin", "length"), _POLICY),
    ("en", ("pin", "attempts", "left"), _POLICY),
    ("en", ("wifi", "ssid"), ""),
    ("en", ("mqtt", "client", "id"), ""),
    ("en", ("mqtt", "broker", "url"), ""),
    ("en", ("device", "serial"), ""),
    ("en", ("mac", "address"), ""),
    ("en", ("gpg", "key", "id"), _PUBLIC),
    ("en", ("cert", "pem"), _PUBLIC),
    ("en", ("callback", "url"), ""),
    ("en", ("tls", "verify"), ""),
    ("en", ("security", "question"), ""),
    ("en", ("recovery", "email"), ""),
    ("en", ("sec", "level"), ""),
    ("en", ("auth", "method"), _POLICY),
    ("en", ("token", "endpoint"), ""),
    ("en", ("public", "key", "url"), _PUBLIC),
    ("nl", ("postcode",), ""),
    ("nl", ("kenteken",), ""),
    ("pl", ("kod", "pocztowy"), ""),
    ("pl", ("haslo", "reklamowe"), _SLOGAN),
    ("pl", ("pesel",), _ID),
    ("hu", ("iranyitoszam",), ""),
    ("pt-BR", ("cep",), ""),
    ("pt-BR", ("cpf",), _ID),
    ("pt-BR", ("chave", "pix"), _PIX),
    ("ca", ("codi", "postal"), ""),
    ("tr", ("posta", "kodu"), ""),
    ("tr", ("sifreleme", "turu"), _CIPHER),
    ("da", ("postnummer",), ""),
    ("is", ("kennitala",), _ID),
    ("et", ("isikukood",), _ID),
    ("hr", ("oib",), _ID),
    ("nl", ("wachtwoord", "min", "lengte"), _POLICY),
    ("hu", ("jelszo", "min", "hossz"), _POLICY),
    ("sk", ("reklamne", "heslo"), _SLOGAN),
    ("sl", ("postna", "stevilka"), ""),
    ("lt", ("asmens", "kodas"), _ID),
    ("af", ("poskode",), ""),
    ("pt-PT", ("nif",), _ID),
    ("mixed", ("senha", "min", "length"), _POLICY),
]

_STYLES = ("snake", "camel", "pascal", "kebab", "screaming", "dotted")


def _render(words: tuple[str, ...], style: str) -> str:
    if style == "snake":
        return "_".join(words)
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return "".join(w.capitalize() for w in words)
    if style == "kebab":
        return "-".join(words)
    if style == "screaming":
        return "_".join(words).upper()
    return ".".join(words)


# Look-alike tables: Latin -> Cyrillic/Greek, and Cyrillic -> Latin.
_TO_CYR = dict(zip("aceopxyisjABCEHKMOPTX", "асеорхуіѕјАВСЕНКМОРТХ", strict=True))
_TO_GRK = dict(zip("ovuABEHIKMNOPTXZ", "ονυΑΒΕΗΙΚΜΝΟΡΤΧΖ", strict=True))
_CYR_TO_LAT = {v: k for k, v in _TO_CYR.items()}
_ZW = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff")
_MARKS = ("\u0301", "\u0300", "\u0308", "\u0323", "\u0331")
_NIQQUD = ("\u05b8", "\u05b4", "\u05bc", "\u05b0", "\u05b7")
_LEET = {"a": "4", "e": "3", "o": "0", "i": "1", "s": "5", "t": "7", "A": "4", "E": "3", "O": "0", "S": "5"}
_FOLD = {
    "ł": "l",
    "Ł": "L",
    "ø": "o",
    "Ø": "O",
    "æ": "ae",
    "ð": "d",
    "Ð": "D",
    "þ": "th",
    "đ": "d",
    "Đ": "D",
    "ı": "i",
    "ħ": "h",
    "Ħ": "H",
}
_NON_JOINING = set("اأإآدذرزوؤةىءژ")


def _script(text: str) -> str:
    counts: dict[str, int] = {}
    for ch in text:
        if not ch.isalpha():
            continue
        name = unicodedata.name(ch, "")
        key = name.split(" ")[0]
        counts[key] = counts.get(key, 0) + 1
    best = max(counts, key=lambda k: counts[k]) if counts else "LATIN"
    return {"CYRILLIC": "cyrillic", "ARABIC": "arabic", "HEBREW": "hebrew", "ETHIOPIC": "ethiopic"}.get(best, "latin")


def _words(text: str, min_len: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for i, ch in enumerate([*text, " "]):
        if ch.isalpha() and start is None:
            start = i
        elif not ch.isalpha() and start is not None:
            if i - start >= min_len:
                spans.append((start, i))
            start = None
    return spans


def _insert_inside(text: str, rng: random.Random, marks: tuple[str, ...], min_len: int = 4) -> str | None:
    spans = _words(text, min_len)
    if not spans:
        return None
    start, end = rng.choice(spans)
    pos = rng.randrange(start + 1, end)
    return text[:pos] + rng.choice(marks) + text[pos:]


def _substitute(text: str, rng: random.Random, table: dict[str, str], most: int = 3) -> str | None:
    spots = [i for i, ch in enumerate(text) if ch in table]
    if not spots:
        return None
    chosen = set(rng.sample(spots, min(len(spots), rng.randint(1, most))))
    return "".join(table[ch] if i in chosen else ch for i, ch in enumerate(text))


def _longest_word(text: str) -> tuple[int, int] | None:
    spans = _words(text, 3)
    return max(spans, key=lambda s: s[1] - s[0]) if spans else None


def _on_word(text: str, form: str, change: Callable[[str], str]) -> str | None:
    # Short texts are changed whole; in a sentence only the longest word is, as a phisher would.
    if form in ("name", "label"):
        return change(text)
    span = _longest_word(text)
    if span is None:
        return None
    start, end = span
    return text[:start] + change(text[start:end]) + text[end:]


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def _spaced(text: str) -> str:
    return " ".join(text)


def _alternate(text: str) -> str:
    return "".join(ch.upper() if i % 2 else ch.lower() for i, ch in enumerate(text))


def _fold(text: str) -> str:
    text = "".join(_FOLD.get(ch, ch) for ch in text)
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def _dotless(text: str, rng: random.Random) -> str | None:
    if "i" in text and rng.random() < 0.6:
        spots = [i for i, ch in enumerate(text) if ch == "i"]
        pick = rng.choice(spots)
        return text[:pick] + "ı" + text[pick + 1 :]
    if "I" in text:
        return text.replace("I", "İ")
    if "i" in text:
        return text.replace("i", "ı")
    return None


def _tatweel(text: str, rng: random.Random) -> str | None:
    spots = [
        i + 1
        for i in range(len(text) - 1)
        if "\u0620" <= text[i] <= "\u06d3" and text[i] not in _NON_JOINING and "\u0620" <= text[i + 1] <= "\u06d3"
    ]
    if not spots:
        return None
    pos = rng.choice(spots)
    return text[:pos] + "\u0640" * rng.randint(1, 3) + text[pos:]


def _arabic_letters(text: str, lang: str) -> str | None:
    table = {"ی": "ي", "ک": "ك"} if lang == "fa" else {"ي": "ی", "ك": "ک"}
    out = "".join(table.get(ch, ch) for ch in text)
    return out if out != text else None


def _apply(trick: str, text: str, form: str, lang: str, rng: random.Random) -> str | None:
    if trick == "homoglyph":
        return _substitute(text, rng, _TO_CYR if rng.random() < 0.7 else _TO_GRK)
    if trick == "mixed-script":
        return _substitute(text, rng, _CYR_TO_LAT)
    if trick == "zero-width":
        return _insert_inside(text, rng, _ZW[:1] + _ZW[2:] if lang == "fa" else _ZW, 3)
    if trick == "soft-hyphen":
        return _insert_inside(text, rng, ("\u00ad",), 5)
    if trick == "rtl-mark":
        return _insert_inside(text, rng, ("\u200f", "\u200e"), 3)
    if trick == "combining":
        return _insert_inside(text, rng, _NIQQUD if lang == "he" else _MARKS, 3)
    if trick == "fullwidth":
        return _on_word(text, form, _fullwidth) if any("a" <= c.lower() <= "z" for c in text) else None
    if trick == "spaced":
        return _on_word(text, form, _spaced)
    if trick == "case":
        return _on_word(text, form, _alternate)
    if trick == "leet":
        return _substitute(text, rng, _LEET, 4)
    if trick == "ascii-fold":
        return _fold(text)
    if trick == "dotless-i":
        return _dotless(text, rng)
    if trick == "tatweel":
        return _tatweel(text, rng)
    if trick == "arabic-letters":
        return _arabic_letters(text, lang)
    raise ValueError(trick)


_TRICKS = {
    "latin": (
        "homoglyph",
        "zero-width",
        "soft-hyphen",
        "fullwidth",
        "combining",
        "rtl-mark",
        "dotless-i",
        "spaced",
        "leet",
        "case",
        "ascii-fold",
    ),
    "cyrillic": ("mixed-script", "zero-width", "soft-hyphen", "combining", "spaced", "case", "fullwidth", "rtl-mark"),
    "arabic": ("zero-width", "rtl-mark", "tatweel", "arabic-letters", "spaced", "fullwidth"),
    "hebrew": ("zero-width", "rtl-mark", "combining", "spaced", "fullwidth"),
    "ethiopic": ("zero-width", "spaced", "rtl-mark", "fullwidth"),
}
_HAND_TRICKS = {"typo", "transliterated"}
# Odds of a first and a second variant per form: sentences get more, as they are fewer by hand and there
# are more places in them for a trick to hide.
_VARIANT_ODDS = {"name": (0.45, 0.05), "label": (0.6, 0.1), "description": (0.9, 0.35), "message": (0.95, 0.45)}


def _build() -> list[Entry]:
    entries: list[Entry] = []
    seen: set[str] = set()

    def add(entry: Entry) -> None:
        if entry.text in seen:
            raise ValueError(f"duplicate text in blind6: {entry.text!r}")
        seen.add(entry.text)
        entries.append(entry)

    for lang, rows in _BASE.items():
        for row in rows:
            extra = row[3] if len(row) == 4 else ""
            trick, note = (extra, "") if extra in _HAND_TRICKS else ("plain", extra)
            add(Entry(row[2], bool(row[1]), lang, _FORMS[row[0]], trick, note))

    named: list[tuple[str, tuple[str, ...], bool, str]] = [(lg, w, True, "") for lg, w in _SECRET_NAMES]
    named += [(lg, w, False, note) for lg, w, note in _ORDINARY_NAMES]
    for k, (lang, words, secret, note) in enumerate(named):
        first = _STYLES[k % len(_STYLES)]
        second = _STYLES[(k * 5 + 3) % len(_STYLES)]
        for style in dict.fromkeys((first, second, "snake" if len(words) == 1 else first)):
            text = _render(words, style)
            if text in seen:
                continue
            add(Entry(text, secret, lang, "name", "plain" if style == "snake" else style, note))

    # Derived variants: a seeded pick of base entries gets one or two tricks suited to its script.
    rng = random.Random(6)
    for base in list(entries):
        if base.trick in _HAND_TRICKS:
            continue
        odds_one, odds_two = _VARIANT_ODDS[base.form]
        wanted = 1 if rng.random() < odds_one else 0
        wanted += 1 if rng.random() < odds_two else 0
        tricks = list(_TRICKS[_script(base.text)])
        rng.shuffle(tricks)
        for trick in tricks:
            if wanted == 0:
                break
            variant = _apply(trick, base.text, base.form, base.lang, rng)
            if variant is None or variant == base.text or variant in seen:
                continue
            add(base._replace(text=variant, trick=trick))
            wanted -= 1
    return entries


_FORMS = {"n": "name", "l": "label", "d": "description", "m": "message"}

ENTRIES: list[Entry] = _build()
assert len({e.text for e in ENTRIES}) == len(ENTRIES), "duplicate text in blind6"

BLIND = {
    "refused": (794, 852), "accepted": (743, 827), "scored_at": "bab8453",
    "note": "scored on arrival (merge 1ae360d), unchanged, before any tuning on it",
}

"""A fourth blind corpus for the secret guard: written without looking at the guard or at its tuning corpora.

Same format and the same labelling decisions as ``tests.corpora.blind`` (see its docstring); each entry is a
field name, a field title (label), a field description or a whole form message, in one of fourteen languages
(English, German, French, Spanish, Portuguese, Italian, Dutch, Polish, Turkish, Russian, Ukrainian, Arabic,
Hebrew, Hindi) plus tool-author jargon (DevOps, cloud, payments, wallets, banking, healthcare portals).
A fraction of the entries carry a Unicode or spelling trick (``trick`` names it), built by the helpers below.

Extra labelling decisions (``note`` on the entry says which rule applies):

- a Stripe *publishable* key (``pk_live_…``), a wallet address, an ``xpub`` (extended public key), a PGP/SSH
  public key or a key fingerprint: ordinary (made to be shared); a secret key (``sk_live_…``), an ``xprv``,
  a keystore file with its password: credential-like.
- a webhook URL that embeds its secret (Slack/Discord incoming webhook), a SAS URL, a pre-signed URL, a
  magic sign-in link: credential-like (whoever holds it can act); the webhook's *endpoint on our side* is
  ordinary.
- a Brazilian Pix key (an e-mail, phone or CPF used to receive money), a UPI ID, a UK sort code, a routing
  number, an MRN or NPI number: ordinary (identifiers for receiving or referencing, not secrets); a UPI PIN,
  an MPIN, a BLIK code, a TAN and a card-reader response code are credential-like.
- Dutch "pinnen" (paying by debit card) and "pinautomaat" (ATM) in an ordinary sense are ordinary; the
  "pincode" itself is credential-like.
- "şifre" (Turkish) also means cipher; "şifreleme" (encryption) settings are ordinary. "кодовое слово" /
  "кодове слово" agreed with a bank (a spoken password) is credential-like.
- a kubeconfig, a ``.npmrc``/``.pypirc``/``.netrc``, an AWS credentials file, a ``docker config.json``: these
  files carry credentials, so asking to paste them is credential-like.
- an access key *ID* alone (AKIA…) is ordinary (an identifier printed in logs); the secret access key is not.
- asking for a password *hint* is ordinary; asking for the password "in case you forget it" is not.
- an expiry date, CVV or PIN *of something else* (a passport expiry, a drug's expiry, a GPIO pin, a
  connector pin) is ordinary.
"""

from __future__ import annotations

from tests.corpora.blind import Entry

_FORMS = {"n": "name", "l": "label", "d": "description", "m": "message"}


def _block(lang: str, secret: bool, block: str) -> list[Entry]:
    """One entry per non-empty line: a form letter (n/l/d/m), a space, the text, optionally `` ## note``."""
    out = []
    for raw in block.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        code, _, rest = line.partition(" ")
        text, _, note = rest.partition(" ## ")
        out.append(Entry(text.strip(), secret, lang, _FORMS[code], "plain", note.strip()))
    return out


# --- tricks -------------------------------------------------------------------------------------------------

_CYRILLIC = str.maketrans("aceopxyiAEOPCXHKMT", "асеорхуіАЕОРСХНКМТ")
_GREEK = str.maketrans("aoivAEOPTKNx", "αοινΑΕΟΡΤΚΝχ")
_LEET = str.maketrans("aeiostAEIOST", "431057431057")


def homoglyph(s: str) -> str:
    """Latin letters swapped for their Cyrillic look-alikes."""
    return s.translate(_CYRILLIC)


def greek(s: str) -> str:
    """Latin letters swapped for Greek look-alikes (a mixed-script word)."""
    return s.translate(_GREEK)


def zero_width(s: str) -> str:
    """A zero-width space between every two characters."""
    return "\u200b".join(s)


def zwj(s: str) -> str:
    """A zero-width joiner between every two characters."""
    return "\u200d".join(s)


def soft_hyphen(s: str) -> str:
    """A soft hyphen between every two characters."""
    return "\u00ad".join(s)


def fullwidth(s: str) -> str:
    """ASCII printed as fullwidth forms."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in s)


def leet(s: str) -> str:
    """Letters swapped for digits."""
    return s.translate(_LEET)


def spaced(s: str) -> str:
    """A space between every two letters."""
    return " ".join(s)


def dotted(s: str) -> str:
    """A dot between every two letters."""
    return ".".join(s)


def math_bold(s: str) -> str:
    """Mathematical bold letters and digits."""
    out = []
    for c in s:
        if "A" <= c <= "Z":
            out.append(chr(0x1D400 + ord(c) - ord("A")))
        elif "a" <= c <= "z":
            out.append(chr(0x1D41A + ord(c) - ord("a")))
        elif "0" <= c <= "9":
            out.append(chr(0x1D7CE + ord(c) - ord("0")))
        else:
            out.append(c)
    return "".join(out)


def math_script(s: str) -> str:
    """Mathematical sans-serif italic letters."""
    out = []
    for c in s:
        if "A" <= c <= "Z":
            out.append(chr(0x1D608 + ord(c) - ord("A")))
        elif "a" <= c <= "z":
            out.append(chr(0x1D622 + ord(c) - ord("a")))
        else:
            out.append(c)
    return "".join(out)


def combining(s: str) -> str:
    """A combining acute accent after every letter."""
    return "".join(c + "\u0301" if c.isalpha() else c for c in s)


def strike(s: str) -> str:
    """A combining long stroke overlay after every letter."""
    return "".join(c + "\u0336" if c.isalpha() else c for c in s)


def circled(s: str) -> str:
    """Lower-case Latin letters as circled letters."""
    return "".join(chr(0x24D0 + ord(c) - ord("a")) if "a" <= c <= "z" else c for c in s)


def reversed_bidi(s: str) -> str:
    """The word written backwards inside a right-to-left override, so it displays the right way round."""
    return "\u202e" + s[::-1] + "\u202c"


def _tricked(trick: str, fn, word: str, text: str, secret: bool, lang: str, form: str, note: str = "") -> Entry:
    """``text`` with ``word`` (or the whole text when ``word`` is empty) passed through ``fn``."""
    assert not word or word in text, (word, text)
    out = text.replace(word, fn(word), 1) if word else fn(text)
    return Entry(out, secret, lang, form, trick, note)


# --- English ------------------------------------------------------------------------------------------------

_EN_SECRET = """
n db_password
n DB_PASS
n adminPassword
n smtp-password
n STRIPE_SECRET_KEY
n stripe.secret_key
n x-api-key
n X-Auth-Token
n OPENAI_API_KEY
n github_pat
n AWS_SECRET_ACCESS_KEY
n aws.secretAccessKey
n slack_bot_token
n SLACK_WEBHOOK_URL ## webhook URL embeds its secret
n jwtSigningSecret
n session_cookie
n refresh-token
n oauth.client_secret
n private_key_pem
n ssh_private_key
n gpg-passphrase
n wallet_seed_phrase
n bip39Mnemonic
n card_number
n cardCvc
n card_exp_month ## card expiry is credential-like
n totp_code
n mfaCode
n sms_verification_code
n atm_pin
n sim_puk
n DATABASE_URL ## DSN embeds a password
n mongo_connection_uri ## DSN embeds a password
n security_answer
n VAULT_ROOT_TOKEN
n kube.bearer.token
n registry-password
n NPM_TOKEN
n TWILIO_AUTH_TOKEN
n django_secret_key
n SECRET_KEY_BASE
n master_encryption_key
n keystorePassword
n wifi_psk
n backup_codes
n APP_X_SESSION_TOKEN
n userPwd
n login.passwd
l Password
l Your account password
l Admin password (again)
l API key
l Secret access key
l Personal access token
l Bearer token
l Card number
l Security code (CVV)
l Expiry date (MM/YY) ## card expiry
l 6-digit code from your authenticator app
l Verification code we texted you
l Seed phrase (12 words)
l Private key (PEM)
l Passphrase for the key
l Database connection string ## DSN embeds a password
l Webhook signing secret
l Answer to your security question
l PIN
l Session cookie value
l Client secret
l Master password
l Wi-Fi password
l Backup code
l App-specific password
l Service account key (JSON)
l Current password
l New password
l Vault unseal key
l Phone passcode
l Recovery codes
l Portal password
l Signing key (HMAC)
l Token ## a bare token field on a form is taken as an auth token
d Enter the password you use to sign in to the admin console.
d Paste the value of the OPENAI_API_KEY line from your .env file.
d The six digits the authenticator app shows right now.
d Type the long number on the front of your card, without spaces.
d The three digits printed on the back of your card, next to the signature strip.
d The 12 or 24 words you wrote down when you created the wallet, in order.
d Paste the contents of ~/.ssh/id_ed25519 (the file without .pub).
d What you type to unlock your phone.
d The code we just sent by SMS; it expires in five minutes.
d Copy the token from GitHub → Settings → Developer settings → Personal access tokens.
d The full postgres:// URL, including the user name and password. ## DSN
d Your mother's maiden name, as you gave it when you set up the account. ## security answer
d Paste the Cookie header from your browser's dev tools (the part with sessionid=…).
d The secret Stripe showed you once when you created the restricted key.
d The value after "Authorization: Bearer" that your CLI sends.
d The key that decrypts the nightly backup archive.
d Export a JSON key for the service account in the Cloud console and paste the whole file here.
d The passphrase that protects your GPG signing key.
d Month and year printed under the card number. ## card expiry
d The four digits you enter at the cash machine.
d Paste the magic sign-in link from the e-mail we just sent you. ## magic link carries a single-use token
d One of the recovery codes GitHub gave you when you turned on two-factor authentication.
d The whole string starting with xoxb- from your Slack app's OAuth page.
d Your online banking user name and password, separated by a colon.
d Everything under [default] in ~/.aws/credentials. ## credentials file
d The TAN your bank's card reader displays after you insert the card.
d The password you chose for the keystore when you generated it with keytool.
d Paste the client secret from Azure AD → App registrations → Certificates & secrets.
d The token printed by `vault login`; it starts with hvs.
d Type your password again so we can be sure it is you.
d The code that unlocks your SIM card after three wrong tries (PUK).
d The password of the Wi-Fi network the device should join.
d Paste your ~/.npmrc so the build can reach the private registry. ## file carries the auth token
d The kubeconfig for the production cluster, with the user's token. ## kubeconfig carries credentials
d Sign-in password for MyChart, so we can download your test results.
d Your EPCS two-factor token code for signing the prescription.
d The xprv extended private key of the account you want to import.
d Paste the SAS URL for the storage container (with sig=…). ## SAS URL carries the signature
d The secret your Discord webhook URL ends with.
d The link from the "reset your password" e-mail. ## reset link carries a single-use token
m To finish connecting your bank, please enter your online banking password below.
m We need your AWS secret access key to deploy the stack.
m Your session expired. Paste your session cookie so we can pick up where you left off.
m Please confirm it's you by entering the code we sent to +1 ••• ••42.
m To restore your wallet, type your recovery phrase word by word.
m Before we can charge you we need the card number, the expiry date and the CVC.
m Reply with the API token for the staging cluster.
m The migration tool needs the database connection string, credentials included.
m Enter your PIN to approve the transfer of 250 EUR.
m For security, answer: what was the name of your first pet? ## security answer
m The deploy failed; please provide the registry password once more.
m Hi! I'm the support assistant. To verify your account, tell me your password.
m Please share the validator's private key so we can migrate it to the new node.
m Paste the token that `gh auth token` prints.
m Enter the one-time code shown in your Authy app.
m To sync your lab results we need your patient-portal password.
m I can fix the CI for you — just give me the PYPI token it uses.
m Almost done! Type the password of the account you want to link.
m Which secret key does the payment gateway use? Paste it so I can finish the integration.
m Confirm the wire by typing the code your hardware token shows.
m Give me the SSH key for the bastion host so I can run the playbook.
m Unlock the vault: enter three of the five unseal keys.
m Send the .pypirc you use for uploads and I'll publish the release. ## file carries the token
m To move your funds, paste the keystore JSON and its password.
"""

_EN_ORDINARY = """
n password_min_length
n passwordPolicy
n password-expiry-days
n token_ttl_seconds
n has_api_key
n api_key_name
n primary_key
n foreign_key_column
n sortKey
n partition-key
n cache_key_prefix
n idempotency_key ## idempotency key is ordinary
n s3_object_key
n piano_key
n hotkey
n key_signature
n map_pin
n pinned_message_id
n is_pinned
n postal_pincode
n token_symbol
n token_contract_address
n erc20.decimals
n lexer_token_type
n max_tokens
n vault_secret_name ## name of a secret, not its value
n secretRef
n ssh_public_key
n gpg_key_fingerprint
n random_seed
n tournament_seed
n otp_length
n mfa_enabled
n forgot_password_url
n card_holder_name
n card_last4
n client_id
n recovery_email
n security_question
n key_rotation_days
n session_timeout_minutes
n cookie_domain
n tokens_per_second
n bcrypt_cost
n pass_rate
n passenger_count
n gpio_pin
n keyframe_interval
n AWS_ACCESS_KEY_ID ## an access key ID alone is an identifier
n STRIPE_PUBLISHABLE_KEY ## publishable keys are public
n wallet_address
n password_reset_enabled
n X-Request-Id
n keyspace
l Password policy
l Minimum password length
l Token lifetime (seconds)
l Has an API key?
l API key label
l Primary key column
l Piano key to highlight
l Shortcut key
l Drop a map pin
l Pinned message
l PIN code (postal, 6 digits)
l Token symbol
l Max output tokens
l Lexer token kind
l Secret name in Vault
l Public key
l SSH public key
l Key fingerprint
l Random seed
l Tournament seed
l Cardholder name
l Last 4 digits of the card
l Card brand
l Client ID
l Recovery e-mail
l Security question
l Key rotation period (days)
l 2FA enabled
l OTP length
l Forgot-password page URL
l Cryptography library
l The Secret of Success (essay title)
l Key takeaways
l Password manager your team uses
l Credential type
l Passport expiry date
l Seed phrase length (words)
l Password hint
l Keynote speaker
l Token standard (ERC-20, SPL, …)
d How many characters a password must have at least.
d Seconds until an issued token expires; 3600 is typical.
d Whether this integration already has an API key configured (yes or no).
d The path under which the secret is stored in Vault, e.g. kv/prod/db — not its value.
d The ticker of the token you want to swap, for example USDC.
d Which key of the piano the lesson starts on.
d The column used as the primary key of the orders table.
d Where to drop the pin on the map for the meetup.
d Paste your SSH public key (the line starting with ssh-ed25519) to get access to the servers.
d The postal PIN code of the delivery address (six digits, India).
d The seed for the random number generator, so runs are reproducible.
d The name exactly as it is printed on the card.
d The last four digits of the card, so you can tell your cards apart.
d The e-mail address we write to if you lose access to your account.
d Pick a security question; you will set the answer later on a separate secure page.
d How many tokens the tokenizer produced for the prompt.
d Which message should stay pinned at the top of the channel.
d The ERC-20 token contract address on Ethereum mainnet.
d The id of the OAuth client (public; the client secret is collected elsewhere).
d Describe the secret sauce of your startup in one paragraph.
d A key that identifies the request, so a retry is never charged twice. ## idempotency key
d The S3 object key (path) of the monthly report.
d Days between automatic key rotations.
d The algorithm used to sign tokens: HS256, RS256 or ES256.
d The keyboard key that toggles the overlay, e.g. F8.
d The fingerprint of the server's host key, to compare with what ssh prints on first connect.
d Should users be forced to change their password every 90 days?
d After how many wrong PIN attempts the card is locked.
d Where people land when they click "Forgot password?".
d The lexer token type used for string literals.
d The key of the song, e.g. A minor.
d The passport number of the traveller. ## identifier
d How many words the generated recovery phrase should have (12 or 24).
d Your publishable key (pk_live_…) for Stripe.js; it is safe to embed in the page. ## publishable key is public
d The wallet address that should receive the airdrop.
d The URL of our endpoint that Stripe should call with webhook events. ## our endpoint, not a secret
d Which hashing algorithm stores passwords: argon2id or bcrypt.
d The number of the pin on the connector that carries 5 V.
d The medical record number printed on your clinic card. ## MRN is an identifier
d The expiry date of the medicine on the packet.
d Your UK sort code and account number, so we can pay you. ## bank identifiers for receiving money
m Choose the password policy for new users: length, complexity and expiry.
m Which token would you like to bridge to Polygon: USDC, USDT or DAI?
m Set how long access tokens live before they must be refreshed.
m Pick the primary key for the new table.
m We'll drop a pin at the pickup spot; please confirm the address.
m Your API key will be collected on a secure page; here just give it a name.
m Should this message be pinned for all members?
m Tell us whether you already have an API key; you won't have to type it here.
m Enter the PIN code of your area so we can check delivery. ## postal PIN code named as such
m Which secret in the vault should the job mount? Give its path, not the value.
m Upload your public key so collaborators can encrypt files for you.
m How many tokens may the model generate per reply?
m Choose a random seed for the simulation.
m What's the secret of a good sourdough? Share your tips.
m Configure the cookie consent banner for EU visitors.
m Which keyboard key should mute the microphone?
m Great news: your password was changed successfully. Would you like a reminder to review your security settings?
m Which authentication method should the service use: password, key pair or SSO?
m How many failed login attempts before the account is locked?
m Select the token standard your contract implements.
m Name the KMS key alias the bucket should be encrypted with.
m Should the CLI store tokens in the OS keychain or in a file? ## a setting about tokens
m Which role should the new API key get: read-only or admin?
m Enter the expiry date of your passport, as printed on the data page.
"""

# --- German -------------------------------------------------------------------------------------------------

_DE_SECRET = """
n passwort_admin
n kennwort
n Geheimzahl
l Ihr Passwort
l Kennwort wiederholen
l PIN Ihrer Girocard
l TAN aus der pushTAN-App
l Kartenprüfnummer (CVC)
l Ablaufdatum der Karte ## card expiry
l API-Schlüssel
l Wiederherstellungsphrase (24 Wörter)
d Geben Sie das Passwort ein, mit dem Sie sich im Online-Banking anmelden.
d Der sechsstellige Code, den Ihre Authenticator-App gerade anzeigt.
d Fügen Sie hier den privaten Schlüssel Ihres Servers ein.
d Die Zugangsdaten zur Datenbank als URL, mit Benutzer und Passwort. ## DSN
d Die Antwort auf Ihre Sicherheitsfrage. ## security answer
m Bitte bestätigen Sie die Überweisung mit Ihrer TAN.
m Zum Entsperren geben Sie bitte Ihre vierstellige PIN ein.
m Wir haben Ihnen einen Bestätigungscode per SMS geschickt – tragen Sie ihn hier ein.
m Damit der Build durchläuft, brauche ich Ihr GitLab-Zugangstoken.
"""

_DE_ORDINARY = """
n passwort_mindestlaenge
l Kennwortrichtlinie
l Primärschlüssel der Tabelle
l Tonart des Stücks
l Nachricht anheften
l Token-Symbol (z. B. USDC)
l Öffentlicher Schlüssel
l Postleitzahl
d Wie viele Tage ein Passwort gültig bleibt, bevor es geändert werden muss.
d Der Name des Geheimnisses im Key Vault – nicht sein Wert.
d Welche Taste auf der Tastatur das Menü öffnet.
d Wie lange ein Zugriffstoken gültig ist, in Sekunden.
d Der Name des Karteninhabers, wie er auf der Karte steht.
m Was ist das Geheimnis Ihres Erfolgs? Erzählen Sie uns davon.
m Soll die Zwei-Faktor-Authentifizierung für alle Mitarbeitenden Pflicht sein?
m Wo sollen wir die Stecknadel auf der Karte setzen?
m Haben Sie bereits einen API-Schlüssel? (Ja/Nein – den Schlüssel selbst fragen wir hier nicht ab.)
m Welcher Schlüsseldienst soll den Zylinder austauschen?
"""

# --- French -------------------------------------------------------------------------------------------------

_FR_SECRET = """
n mot_de_passe
n motDePasseBanque
l Mot de passe
l Code confidentiel de la carte
l Cryptogramme visuel (3 chiffres)
l Date d'expiration de la carte ## card expiry
l Numéro de carte bancaire
l Clé API secrète
d Saisissez le code à six chiffres reçu par SMS.
d Collez ici votre phrase de récupération de 12 mots.
d Le jeton d'accès personnel généré dans les paramètres de votre compte.
d Le mot de passe que vous tapez pour déverrouiller votre ordinateur.
d La réponse à votre question secrète. ## security answer
m Pour valider le paiement, indiquez le code reçu sur votre téléphone.
m Merci de nous communiquer votre identifiant et votre mot de passe Ameli.
m Votre session a expiré : recopiez le cookie de session pour continuer.
"""

_FR_ORDINARY = """
n longueur_min_mot_de_passe
l Politique de mot de passe
l Clé primaire
l Clé de sol ou clé de fa ?
l Épingler le message
l Code postal
l Clé publique
l Jeton (symbole de la cryptomonnaie)
d Le nombre de jetons de casino remis à chaque joueur.
d Le nom du secret dans le coffre, pas sa valeur.
d La durée de vie du jeton d'accès, en minutes.
d Indiquez si l'authentification à deux facteurs est activée.
m Quel est le secret de la réussite selon vous ?
m Voulez-vous épingler cette conversation en haut de la liste ?
m Choisissez la touche du clavier qui met le jeu en pause.
m Le mot de passe a été modifié. Souhaitez-vous recevoir un rappel dans 90 jours ?
"""

# --- Spanish ------------------------------------------------------------------------------------------------

_ES_SECRET = """
n contrasena_usuario
n claveAcceso
l Contraseña
l Clave de firma electrónica
l Número de tarjeta
l Código de seguridad (CVV)
l Fecha de caducidad de la tarjeta ## card expiry
l PIN del cajero
d Introduce el código de verificación que te enviamos por SMS.
d Pega tu frase semilla de 24 palabras para recuperar la billetera.
d La clave privada de tu certificado digital (.key).
d El token de acceso personal de tu cuenta de GitLab.
d La respuesta a tu pregunta de seguridad. ## security answer
m Para confirmar la transferencia, escribe la clave que te llegó al móvil.
m Necesitamos tu contraseña de la banca en línea para importar los movimientos.
m Ingresa la clave dinámica que muestra tu token del banco. ## the code a bank token shows
"""

_ES_ORDINARY = """
n clave_primaria
l Política de contraseñas
l Palabra clave para la búsqueda
l Clave de sol
l Fijar mensaje
l Código postal
l Clave pública
d ¿Cuántas fichas recibe cada jugador al empezar la partida?
d El nombre del secreto en el gestor, no su valor.
d Longitud mínima de la contraseña.
d El símbolo del token que quieres comprar (por ejemplo, SOL).
m ¿Cuál es el secreto del éxito de tu equipo?
m ¿Quieres fijar este mensaje para todos?
m ¿Cada cuántos días deben cambiar la contraseña los empleados?
m Indica las claves del éxito de tu proyecto en tres frases.
"""

# --- Portuguese ---------------------------------------------------------------------------------------------

_PT_SECRET = """
n senha
n palavra_passe
l Senha do internet banking
l Senha de 4 dígitos do cartão
l Número do cartão
l Código de segurança (CVV)
l Validade do cartão ## card expiry
l Token de acesso
d Digite o código de verificação que enviamos por SMS.
d Cole aqui a frase de recuperação da sua carteira.
d A chave privada do seu certificado A1, em formato PEM.
d A resposta da sua pergunta de segurança. ## security answer
m Para concluir o Pix, informe a senha do seu aplicativo do banco.
m Confirme sua identidade com o código de 6 dígitos do autenticador.
m Preciso da chave secreta da API para terminar a integração.
"""

_PT_ORDINARY = """
n chave_primaria
l Política de senhas
l Chave Pix (e-mail, telefone ou CPF) ## Pix key is an identifier for receiving money
l Fixar mensagem
l CEP
l Chave pública
d O nome do segredo no cofre, não o valor dele.
d Quantos caracteres a senha deve ter, no mínimo.
d Quantas fichas cada jogador recebe no início.
d O tempo de vida do token de acesso, em segundos.
m Qual é o segredo do sucesso da sua loja?
m Deseja fixar esta conversa no topo?
m Qual chave Pix deve receber o pagamento? ## Pix key
m Você já possui uma chave de API? Não é preciso digitá-la aqui.
"""

# --- Italian ------------------------------------------------------------------------------------------------

_IT_SECRET = """
n password_utente
n codicePin
l Password di accesso
l PIN della carta
l Numero della carta
l Codice di sicurezza (CVV)
l Scadenza della carta ## card expiry
l Codice OTP
d Inserisci il codice che ti abbiamo inviato via SMS.
d La frase di recupero di 12 parole del tuo portafoglio.
d La chiave privata del certificato, in formato PEM.
d La risposta alla domanda di sicurezza. ## security answer
m Per accedere al Fascicolo Sanitario inserisci la password SPID.
m Conferma il bonifico con il codice generato dall'app.
m Incolla il token di accesso di Jenkins per rilanciare la pipeline.
"""

_IT_ORDINARY = """
n chiave_primaria
l Politica delle password
l Chiave di violino
l Fissa il messaggio
l CAP
l Chiave pubblica
d Il nome del segreto nel vault, non il suo valore.
d La lunghezza minima della password.
d Il simbolo del token da acquistare.
d Durata del token di accesso in secondi.
m Qual è il segreto del successo della tua azienda?
m Vuoi fissare questo messaggio in alto?
m Quale tasto della tastiera deve aprire il menu?
m Hai già una chiave API? Non serve scriverla qui.
"""

# --- Dutch --------------------------------------------------------------------------------------------------

_NL_SECRET = """
n wachtwoord
n pincode_pas
l Wachtwoord
l Pincode
l Kaartnummer
l Beveiligingscode (CVC)
l Vervaldatum van de kaart ## card expiry
l Herstelzin (12 woorden)
d Vul de code in die je via sms hebt ontvangen.
d De zescijferige code uit je authenticator-app.
d Plak hier de privésleutel van het certificaat.
d Het antwoord op je beveiligingsvraag. ## security answer
m Bevestig de overboeking met je pincode.
m Log in met je DigiD-wachtwoord om je zorgdossier te bekijken.
m Geef het API-token van de testomgeving, dan zet ik de koppeling op.
"""

_NL_ORDINARY = """
n primaire_sleutel
l Wachtwoordbeleid
l Pinnen of contant? ## Dutch pinnen = pay by debit card
l Bericht vastpinnen
l Postcode
l Publieke sleutel
d Waar staat de dichtstbijzijnde pinautomaat? ## pinautomaat = ATM
d De naam van het geheim in de kluis, niet de waarde.
d Minimale lengte van het wachtwoord.
d Het symbool van de token die je wilt kopen.
m Wat is het geheim van jullie succes?
m Wil je dit bericht vastpinnen voor iedereen?
m Hoeveel dagen blijft een wachtwoord geldig?
m Kan ik hier pinnen? ## paying by card
"""

# --- Polish -------------------------------------------------------------------------------------------------

_PL_SECRET = """
n haslo_uzytkownika
n kodBlik
l Hasło
l Kod PIN karty
l Kod BLIK ## one-time payment code
l Numer karty
l Kod CVV
l Data ważności karty ## card expiry
d Wpisz kod weryfikacyjny, który wysłaliśmy SMS-em.
d Fraza odzyskiwania portfela (24 słowa).
d Klucz prywatny certyfikatu w formacie PEM.
d Odpowiedź na pytanie bezpieczeństwa. ## security answer
m Aby zalogować się do bankowości, podaj hasło.
m Potwierdź przelew kodem z aplikacji mobilnej.
m Wklej token dostępu do GitHuba, a dokończę wdrożenie.
"""

_PL_ORDINARY = """
n klucz_glowny
l Hasło reklamowe kampanii ## hasło = slogan
l Polityka haseł
l Przypnij wiadomość
l Kod pocztowy
l Klucz publiczny
d Hasło do krzyżówki: sześć liter, pierwsza litera K. ## crossword headword
d Nazwa sekretu w sejfie, nie jego wartość.
d Minimalna długość hasła.
d Symbol tokena, który chcesz kupić.
m Jaki jest sekret sukcesu waszej firmy?
m Czy przypiąć tę wiadomość na górze czatu?
m Jakie hasło przewodnie wybieramy na konferencję? ## hasło = motto
m Czy masz już klucz API? Nie wpisuj go tutaj.
"""

# --- Turkish ------------------------------------------------------------------------------------------------

_TR_SECRET = """
n sifre
n kullanici_parola
l Şifre
l Parola
l Kart şifresi
l Kart numarası
l Güvenlik kodu (CVV)
l Son kullanma tarihi (kart) ## card expiry
d Telefonunuza gönderilen doğrulama kodunu girin.
d Cüzdanınızın 12 kelimelik kurtarma ifadesi.
d Sunucunun özel anahtarını buraya yapıştırın.
d Güvenlik sorusunun cevabı. ## security answer
m E-Devlet şifrenizi girerek işleme devam edin.
m Ödemeyi onaylamak için SMS ile gelen tek kullanımlık şifreyi yazın.
m Entegrasyonu tamamlamak için API anahtarınızı gönderin.
"""

_TR_ORDINARY = """
n birincil_anahtar
l Şifre politikası
l Şifreleme algoritması ## şifreleme = encryption
l Mesajı sabitle
l Posta kodu
l Açık anahtar
d Kasadaki sırrın adı, değeri değil.
d Şifrenin en az kaç karakter olması gerektiği.
d Almak istediğiniz tokenin sembolü.
d Erişim belirtecinin geçerlilik süresi (saniye).
m Başarının sırrı nedir sizce?
m Bu mesaj herkes için sabitlensin mi?
m Şifreli mesajı çözmek için hangi algoritma kullanılsın? ## cipher setting
m Zaten bir API anahtarınız var mı? Burada yazmanıza gerek yok.
"""

# --- Russian ------------------------------------------------------------------------------------------------

_RU_SECRET = """
n parol_polzovatelya
l Пароль
l ПИН-код карты
l Номер карты
l CVV-код
l Срок действия карты ## card expiry
l Кодовое слово ## a spoken password agreed with the bank
l Сид-фраза
d Введите код подтверждения из СМС.
d 24 слова секретной фразы вашего кошелька.
d Вставьте приватный ключ сервера (файл id_rsa).
d Ответ на контрольный вопрос. ## security answer
d Пароль, которым вы входите в Госуслуги.
m Чтобы подтвердить перевод, назовите код из сообщения.
m Для завершения настройки пришлите токен доступа к GitLab.
m Ваша сессия истекла: вставьте значение cookie сессии.
"""

_RU_ORDINARY = """
n pervichny_klyuch
l Парольная политика
l Первичный ключ
l Скрипичный ключ
l Закрепить сообщение
l Почтовый индекс
l Открытый ключ
d Имя секрета в хранилище, а не его значение.
d Минимальная длина пароля.
d Тикер токена, который вы хотите купить.
d Время жизни токена доступа в секундах.
m В чём секрет успеха вашей команды?
m Закрепить это сообщение для всех участников?
m Какую клавишу назначить для паузы?
m У вас уже есть ключ API? Вводить его здесь не нужно.
"""

# --- Ukrainian ----------------------------------------------------------------------------------------------

_UK_SECRET = """
n parol
l Пароль до облікового запису
l ПІН-код картки
l Номер картки
l CVV-код картки
l Термін дії картки ## card expiry
l Кодове слово ## a spoken password agreed with the bank
d Введіть код підтвердження з СМС.
d Сід-фраза вашого гаманця (12 слів).
d Приватний ключ сервера у форматі PEM.
d Відповідь на контрольне запитання. ## security answer
m Щоб увійти до Дії, введіть свій пароль.
m Підтвердіть переказ кодом, який ми надіслали.
m Надішліть токен доступу, щоб я завершив розгортання.
"""

_UK_ORDINARY = """
n pervynnyi_kliuch
l Політика паролів
l Первинний ключ
l Закріпити повідомлення
l Поштовий індекс
l Відкритий ключ
d Назва секрету у сховищі, а не його значення.
d Мінімальна довжина пароля.
d Тікер токена, який ви хочете купити.
m У чому секрет успіху вашого проєкту?
m Закріпити це повідомлення для всіх?
m Яку клавішу призначити для вимкнення мікрофона?
m Скільки днів діє пароль до обов'язкової зміни?
"""

# --- Arabic -------------------------------------------------------------------------------------------------

_AR_SECRET = """
l كلمة المرور
l كلمة السر
l الرقم السري للبطاقة
l رقم البطاقة
l رمز التحقق من البطاقة (CVV)
l تاريخ انتهاء البطاقة ## card expiry
l مفتاح API السري
d أدخل رمز التحقق الذي أرسلناه إليك برسالة نصية.
d عبارة الاسترداد المكونة من 12 كلمة لمحفظتك.
d المفتاح الخاص بالخادم بصيغة PEM.
d إجابة سؤال الأمان. ## security answer
m لإتمام الدفع، يرجى إدخال كلمة المرور المؤقتة المرسلة إلى هاتفك.
m أرسل لي كلمة مرور حسابك البنكي لأربط الحساب.
m الصق رمز الوصول الخاص بـ GitHub لإكمال النشر.
"""

_AR_ORDINARY = """
l سياسة كلمات المرور
l المفتاح الأساسي للجدول
l تثبيت الرسالة
l الرمز البريدي
l المفتاح العام
d اسم السر في الخزنة، وليس قيمته.
d الحد الأدنى لطول كلمة المرور.
d رمز العملة الرقمية التي تريد شراءها.
d مدة صلاحية رمز الوصول بالثواني.
m ما هو سر النجاح في رأيك؟
m هل تريد تثبيت هذه الرسالة لجميع الأعضاء؟
m هل لديك مفتاح API بالفعل؟ لا داعي لكتابته هنا.
m مفتاح النجاح هو الصبر: اكتب مقالاً قصيراً عن ذلك.
"""

# --- Hebrew -------------------------------------------------------------------------------------------------

_HE_SECRET = """
l סיסמה
l קוד סודי של הכרטיס
l מספר כרטיס אשראי
l שלוש הספרות בגב הכרטיס
l תוקף הכרטיס ## card expiry
l מפתח API
d הזן את קוד האימות שנשלח אליך ב-SMS.
d ביטוי השחזור של הארנק (24 מילים).
d המפתח הפרטי של השרת בפורמט PEM.
d התשובה לשאלת האבטחה. ## security answer
m כדי להיכנס לאזור האישי בקופת החולים, הקלד את הסיסמה שלך.
m אשר את ההעברה עם הקוד שקיבלת בהודעה.
m שלח לי את הטוקן של GitLab כדי שאסיים את ההתקנה.
"""

_HE_ORDINARY = """
l מדיניות סיסמאות
l מפתח ראשי בטבלה
l הצמד הודעה
l מיקוד
l מפתח ציבורי
d שם הסוד בכספת, לא הערך שלו.
d אורך מינימלי לסיסמה.
d הסמל של הטוקן שברצונך לקנות.
m מהו סוד ההצלחה של הצוות שלכם?
m להצמיד את ההודעה הזו לכל החברים?
m באיזה מקש במקלדת להשתיק את המיקרופון?
m כל כמה ימים עובדים צריכים להחליף סיסמה?
"""

# --- Hindi --------------------------------------------------------------------------------------------------

_HI_SECRET = """
l पासवर्ड
l एटीएम पिन
l UPI पिन ## UPI PIN is credential-like
l कार्ड नंबर
l सीवीवी
l कार्ड की समाप्ति तिथि ## card expiry
l एमपिन ## MPIN is credential-like
d आपके फ़ोन पर भेजा गया ओटीपी दर्ज करें।
d अपने वॉलेट का 12 शब्दों का रिकवरी वाक्यांश।
d सर्वर की निजी कुंजी PEM फ़ॉर्मैट में।
d सुरक्षा प्रश्न का उत्तर। ## security answer
m भुगतान पूरा करने के लिए अपना UPI पिन डालें।
m नेट बैंकिंग का पासवर्ड बताइए ताकि हम खाता जोड़ सकें।
m GitHub का एक्सेस टोकन भेजें, फिर मैं डिप्लॉय पूरा कर दूँगा।
"""

_HI_ORDINARY = """
l पासवर्ड नीति
l प्राथमिक कुंजी
l संदेश पिन करें
l पिन कोड (डाक) ## postal PIN code named as such
l UPI आईडी ## UPI ID is an identifier
l सार्वजनिक कुंजी
d तिजोरी में रहस्य का नाम, उसका मान नहीं।
d पासवर्ड की न्यूनतम लंबाई।
d जिस टोकन को आप खरीदना चाहते हैं उसका प्रतीक।
m आपकी सफलता का रहस्य क्या है?
m क्या यह संदेश सभी के लिए पिन कर दें?
m डिलीवरी जाँचने के लिए अपने क्षेत्र का पिन कोड लिखें। ## postal PIN code
m क्या आपके पास पहले से API कुंजी है? उसे यहाँ लिखने की ज़रूरत नहीं।
"""

# --- tool-author jargon (English) ---------------------------------------------------------------------------

_JARGON_SECRET = """
n TF_TOKEN_app_terraform_io
n ARGOCD_ADMIN_PASSWORD
n helm.values.postgresql.auth.password
n spring.datasource.password
n AZURE_STORAGE_CONNECTION_STRING ## connection string carries the account key
n GOOGLE_APPLICATION_CREDENTIALS_JSON ## the JSON key file itself
n sentry_dsn_with_secret ## legacy Sentry DSN with secret part
n CLOUDFLARE_API_TOKEN
n DOCKER_AUTH_CONFIG ## docker config.json with auth
n ci.deploy_key_private
n braintree_private_key
n adyen-api-key
n paypal_client_secret
n plaid_access_token
n WEBHOOK_SECRET
n eth_private_key
n solana_keypair_json
n ledger_passphrase_25th_word ## BIP39 passphrase
n metamask_seed
n ebanking_pin
n chipTAN
n epic_mychart_password
n fhir_client_secret
n hl7_sftp_password
n x-amz-security-token
n Ocp-Apim-Subscription-Key
n cookie.connect.sid
n LDAP_BIND_PASSWORD
l Terraform Cloud API token
l Grafana admin password
l Jenkins API token
l Heroku API key
l Datadog API key
l Stripe secret key (sk_live_…)
l PayPal client secret
l Wallet private key (hex)
l Keystore password
l Online banking PIN
l Redis AUTH password
l PagerDuty integration key
l RabbitMQ password
l SFTP password for the lab-results drop
d The value of secrets.DEPLOY_TOKEN in the GitHub Actions settings.
d The password in the helm values under postgresql.auth.postgresPassword.
d The 64 hex characters of your Ethereum account's private key.
d The JSON array MetaMask or solana-keygen exported for the wallet.
d The access token Plaid returned when the user linked their bank.
d The secret you see under Developers → Webhooks → Signing secret (whsec_…).
d The SharedAccessKey part of the Event Hub connection string.
d The x-amz-security-token header of the temporary credentials.
d The bind password the app uses to query Active Directory over LDAP.
d The token from `kubectl create token deployer`.
d The passphrase (25th word) you added on your Ledger.
d The login and password of the hospital's HL7 SFTP drop.
m To continue with the Terraform run, paste the API token for app.terraform.io.
m The Argo CD admin password is needed to sync the app; what is it?
m Provide the sk_live key so I can issue the refund.
m I need the Redis password to flush the cache for you.
m Paste the contents of your docker config.json so the runner can pull the image. ## auths carry credentials
m Enter your chipTAN to release the SEPA batch.
m Please provide the private key of the hot wallet to sweep the funds.
m To import the patient records, give me the EHR admin login and password.
"""

_JARGON_ORDINARY = """
n TF_WORKSPACE
n ARGOCD_SERVER
n helm.values.postgresql.auth.username
n spring.datasource.url_host
n AZURE_STORAGE_ACCOUNT_NAME
n GOOGLE_CLOUD_PROJECT
n SENTRY_ENVIRONMENT
n CLOUDFLARE_ZONE_ID
n docker_image_tag
n deploy_key_title
n stripe_price_id
n paypal_merchant_id
n plaid_item_id
n WEBHOOK_ENDPOINT_URL ## our endpoint, not a secret
n eth_chain_id
n solana_rpc_url
n token_mint_address ## SPL token mint address
n xpub_key ## extended public key
n gas_limit
n iban
n routing_number ## bank identifier
n patient_mrn ## identifier
n npi_number ## identifier
n fhir_base_url
n secret_manager_secret_id ## name of a secret
n kms_key_arn ## identifier of a key
n jwt_issuer
n session_store_backend
l Terraform workspace name
l Grafana dashboard UID
l Jenkins job name
l Heroku app name
l Datadog site (datadoghq.eu)
l Stripe publishable key (pk_live_…) ## publishable key is public
l PayPal merchant ID
l Wallet address (0x…)
l Token decimals
l Online banking login page URL
l Redis key pattern to evict
l PagerDuty service name
l Number of RabbitMQ queues
l Name of the SFTP server for the lab results
d The name of the GitHub Actions secret that holds the deploy token (e.g. DEPLOY_TOKEN), not its value.
d How long the presigned URLs should stay valid, in minutes.
d Which key type to generate for the deploy key: ed25519 or rsa-4096.
d The ERC-20 token you want to receive as payment, e.g. USDC on Base.
d How many signers a multisig transaction needs before it executes.
d The secret manager resource ID (projects/…/secrets/db-password) the job should read at runtime. ## name of a secret
d The redis key under which the job stores its progress.
d The maximum number of tokens per request to the LLM gateway.
d The hospital's FHIR endpoint base URL.
d The ICD-10 code of the diagnosis.
d The certificate's public key fingerprint (SHA-256) to pin in the mobile app. ## certificate pinning setting
d The interval after which the API gateway rotates its signing keys.
m Which Terraform workspace should this run target?
m Which Kubernetes secret name should the deployment mount for the database password? ## name of a secret
m Pick the Stripe price the customer should be subscribed to.
m Should the bot pin the release notes in #deployments?
m How many confirmations before a USDC deposit is credited?
m Which token bucket size should the rate limiter use?
m The patient's MRN, so we can open the right chart. ## identifier
m Should the wallet show tokens with zero balance?
"""

# --- more in each language: names in local identifier styles, indirect phrasings, jargon --------------------

_DE_SECRET_2 = """
n PASSWORT_DATENBANK
n kennwortNeu
n zugangs-token
n onlinebanking.pin
l Geheimzahl für den Geldautomaten
l Einmalpasswort
l Sitzungs-Cookie
d Die Ziffernfolge, die Sie am Geldautomaten eintippen.
d Die 16 Ziffern vorne auf Ihrer Kreditkarte.
d Den Inhalt Ihrer Datei ~/.kube/config mit dem Token des Benutzers. ## kubeconfig carries credentials
m Ihre Sitzung bei der Patientenakte ist abgelaufen. Bitte geben Sie Ihr Passwort erneut ein.
m Um das Wallet wiederherzustellen, tippen Sie die 24 Wörter Ihrer Seed-Phrase ein.
m Schicken Sie mir den geheimen Schlüssel des Stripe-Kontos, dann richte ich den Webhook ein.
"""

_DE_ORDINARY_2 = """
n PASSWORT_ABLAUF_TAGE
n schluesselRotationTage
n token-lebensdauer
l Schlüsselbund-Name
l Anzahl Tokens pro Anfrage
l Sicherheitsfrage (ohne Antwort)
d Die letzten vier Ziffern Ihrer Karte, damit Sie sie wiedererkennen.
d Die Kartenmarke: Visa, Mastercard oder Girocard.
d Der Fingerabdruck des öffentlichen SSH-Schlüssels des Servers.
m Welcher Schlüssel (Tonart) passt besser zu Ihrer Stimme: C-Dur oder D-Dur?
m Soll bei falscher PIN-Eingabe nach drei Versuchen gesperrt werden?
m Wie heißt der Schlüssel im Redis-Cache für die Sitzungsdaten?
m Welche IBAN soll die Erstattung erhalten? ## identifier
"""

_FR_SECRET_2 = """
n MOT_DE_PASSE_BDD
n cleSecreteApi
n code-pin-carte
l Code reçu par SMS
l Phrase secrète de la clé
l Jeton d'accès
d Les trois chiffres au dos de votre carte bancaire.
d Ce que vous tapez pour déverrouiller votre téléphone.
d L'URL complète de connexion à la base, avec l'utilisateur et le mot de passe. ## DSN
m Pour accéder à vos résultats d'analyses, saisissez le mot de passe de votre espace patient.
m Recopiez la clé privée du portefeuille afin que nous puissions transférer les fonds.
m Entrez le code de votre clé de sécurité Pass Sécurité pour valider le virement.
"""

_FR_ORDINARY_2 = """
n DUREE_VIE_JETON
n cleIdempotence ## idempotency key
n nom-du-secret
l Nom du titulaire de la carte
l Quatre derniers chiffres de la carte
l Question de sécurité
d L'identifiant client OAuth (public).
d La graine aléatoire pour reproduire la simulation.
d La clé de tri de la table DynamoDB.
m Quel jeton voulez-vous échanger : USDC ou EURC ?
m Souhaitez-vous recevoir un code par SMS ou par e-mail lors de la connexion ? ## a setting about OTP delivery
m Quelle touche doit ouvrir le menu pause ?
m Après combien d'essais de code PIN la carte est-elle bloquée ?
"""

_ES_SECRET_2 = """
n CONTRASENA_BD
n tokenAcceso
n clave-api-secreta
l Clave de la banca en línea
l Código de un solo uso
l Cookie de sesión
d Los tres dígitos del reverso de tu tarjeta.
d Lo que escribes para desbloquear tu teléfono.
d La cadena de conexión a la base de datos, con usuario y contraseña. ## DSN
m Para ver tus resultados médicos, introduce la contraseña del portal del paciente.
m Copia la clave privada de la cartera para que movamos los fondos.
m Indica las coordenadas de tu tarjeta de claves para autorizar la operación. ## bank coordinate card = OTP grid
"""

_ES_ORDINARY_2 = """
n DURACION_TOKEN_SEG
n claveIdempotencia ## idempotency key
n nombre-del-secreto
l Nombre del titular de la tarjeta
l Últimos cuatro dígitos de la tarjeta
l Pregunta de seguridad
d El identificador del cliente OAuth (público).
d La semilla aleatoria para reproducir el experimento.
d La tecla que abre el menú de pausa.
m ¿Qué token quieres intercambiar: USDC o USDT?
m ¿Prefieres recibir el código por SMS o por correo al iniciar sesión? ## a setting about OTP delivery
m ¿Cuántos intentos de PIN se permiten antes de bloquear la tarjeta?
m ¿Cuál es la clave de fa en esta partitura?
"""

_PT_SECRET_2 = """
n SENHA_BANCO_DADOS
n tokenAcesso
n chave-api-secreta
l Código recebido por SMS
l Senha do gov.br
l Cookie de sessão
d Os três números no verso do cartão.
d O que você digita para desbloquear o celular.
d A URL de conexão ao banco de dados, com usuário e senha. ## DSN
m Para ver seus exames, digite a senha do portal do paciente.
m Digite o código do token do banco para liberar a TED.
m Cole a chave privada da carteira para transferirmos os fundos.
"""

_PT_ORDINARY_2 = """
n VALIDADE_TOKEN_SEG
n chaveIdempotencia ## idempotency key
n nome-do-segredo
l Nome impresso no cartão
l Últimos 4 dígitos do cartão
l Pergunta de segurança
d O identificador público do cliente OAuth.
d A semente aleatória da simulação.
d A tecla que pausa o jogo.
m Qual token você quer trocar: USDC ou BRLA?
m Prefere receber o código por SMS ou por e-mail? ## a setting about OTP delivery
m Quantas tentativas de senha antes de bloquear a conta?
m Quer cadastrar uma chave Pix aleatória para receber pagamentos? ## Pix key
"""

_IT_SECRET_2 = """
n PASSWORD_DB
n tokenAccesso
n chiave-api-segreta
l Codice ricevuto via SMS
l Password dell'home banking
l Cookie di sessione
d Le tre cifre sul retro della carta.
d Quello che digiti per sbloccare il telefono.
d La stringa di connessione al database, con utente e password. ## DSN
m Per autorizzare il bonifico inserisci il PIN dispositivo.
m Copia qui la chiave privata del wallet così spostiamo i fondi.
m Scrivi la parola d'ordine che hai concordato con la banca. ## spoken password
"""

_IT_ORDINARY_2 = """
n DURATA_TOKEN_SEC
n chiaveIdempotenza ## idempotency key
n nome-del-segreto
l Intestatario della carta
l Ultime quattro cifre della carta
l Domanda di sicurezza
d L'identificativo pubblico del client OAuth.
d Il seme casuale della simulazione.
d Il tasto che mette in pausa il gioco.
m Quale token vuoi scambiare: USDC o EURC?
m Preferisci ricevere il codice via SMS o e-mail? ## a setting about OTP delivery
m Quanti tentativi di PIN prima di bloccare la carta?
m Dove vuoi fissare il puntino sulla mappa?
"""

_NL_SECRET_2 = """
n WACHTWOORD_DB
n toegangsToken
n geheime-api-sleutel
l Code uit de sms
l Wachtwoord internetbankieren
l Sessiecookie
d De drie cijfers op de achterkant van je pas.
d Wat je intypt om je telefoon te ontgrendelen.
d De verbindingsstring van de database, met gebruiker en wachtwoord. ## DSN
m Voer de code van je e.dentifier in om de betaling te bevestigen.
m Plak de privésleutel van de wallet, dan verplaatsen we het saldo.
m Typ je wachtwoord nog een keer ter bevestiging.
"""

_NL_ORDINARY_2 = """
n TOKEN_LEVENSDUUR_SEC
n idempotentieSleutel ## idempotency key
n naam-van-geheim
l Naam van de kaarthouder
l Laatste vier cijfers van de kaart
l Beveiligingsvraag
d Het publieke id van de OAuth-client.
d De willekeurige seed van de simulatie.
d De toets die het spel pauzeert.
m Welke token wil je omwisselen: USDC of EURC?
m Na hoeveel foute pogingen wordt de pas geblokkeerd?
m Mag ik met mijn pinpas afrekenen? ## paying by debit card
m Welk wachtwoordbeheer gebruikt jullie team: Bitwarden of 1Password?
"""

_PL_SECRET_2 = """
n HASLO_BAZY
n tokenDostepu
n tajny-klucz-api
l Kod z SMS-a
l Hasło do bankowości
l Ciasteczko sesji
d Trzy cyfry z tyłu karty.
d To, co wpisujesz, żeby odblokować telefon.
d Adres połączenia z bazą danych z użytkownikiem i hasłem. ## DSN
m Aby zalogować się do Internetowego Konta Pacjenta, wpisz hasło.
m Wklej klucz prywatny portfela, a przeniesiemy środki.
m Wpisz kod BLIK, aby zapłacić za zamówienie. ## one-time payment code
"""

_PL_ORDINARY_2 = """
n CZAS_ZYCIA_TOKENA
n kluczIdempotencji ## idempotency key
n nazwa-sekretu
l Imię i nazwisko posiadacza karty
l Ostatnie cztery cyfry karty
l Pytanie bezpieczeństwa
d Publiczny identyfikator klienta OAuth.
d Ziarno losowe symulacji.
d Klawisz, który wstrzymuje grę.
m Który token chcesz wymienić: USDC czy EURC?
m Po ilu błędnych próbach PIN karta zostanie zablokowana?
m Czy włączyć płatności BLIK w sklepie? ## a setting, no code
m Podaj hasło kampanii, które ma się pojawić na banerze. ## hasło = slogan
"""

_TR_SECRET_2 = """
n VERITABANI_SIFRESI
n erisimTokeni
n gizli-api-anahtari
l SMS ile gelen kod
l İnternet bankacılığı şifresi
l Oturum çerezi
d Kartınızın arkasındaki üç hane.
d Telefonunuzun kilidini açmak için yazdığınız şey.
d Kullanıcı ve şifre içeren veritabanı bağlantı adresi. ## DSN
m e-Nabız'a girmek için şifrenizi yazın.
m Cüzdanın özel anahtarını yapıştırın, bakiyeyi taşıyalım.
m Onay için şifrenizi bir kez daha girin.
"""

_TR_ORDINARY_2 = """
n TOKEN_OMRU_SN
n idempotensAnahtari ## idempotency key
n sir-adi
l Kart sahibinin adı
l Kartın son dört hanesi
l Güvenlik sorusu
d OAuth istemcisinin herkese açık kimliği.
d Simülasyonun rastgele tohumu.
d Oyunu duraklatan tuş.
m Hangi tokeni takas etmek istersiniz: USDC mi USDT mi?
m Kaç hatalı PIN denemesinden sonra kart bloke olsun?
m Şifreleme anahtarı kaç günde bir döndürülsün? ## rotation setting
m Haritada iğneyi nereye bırakalım?
"""

_RU_SECRET_2 = """
n PAROL_BD
n tokenDostupa
n sekretny-klyuch-api
l Код из СМС
l Пароль от интернет-банка
l Cookie сессии
d Три цифры на обороте карты.
d То, что вы вводите, чтобы разблокировать телефон.
d Строка подключения к базе с логином и паролем. ## DSN
m Чтобы войти в личный кабинет пациента, введите пароль.
m Вставьте приватный ключ кошелька, и мы перенесём средства.
m Назовите кодовое слово, которое вы указали в договоре с банком. ## spoken password
"""

_RU_ORDINARY_2 = """
n VREMYA_ZHIZNI_TOKENA
n klyuchIdempotentnosti ## idempotency key
n imya-sekreta
l Имя держателя карты
l Последние четыре цифры карты
l Контрольный вопрос
d Публичный идентификатор OAuth-клиента.
d Зерно генератора случайных чисел для симуляции.
d Ключ сортировки в таблице DynamoDB.
m Какой токен вы хотите обменять: USDT или TON?
m После скольких неверных попыток ввода ПИН-кода блокировать карту?
m Где поставить метку на карте?
m Какую тональность выбрать для песни: ля минор или до мажор?
"""

_UK_SECRET_2 = """
n PAROL_DO_BAZY
n tokenDostupu
n sekretnyi-kliuch-api
l Код із СМС
l Пароль до інтернет-банку
l Cookie сесії
d Три цифри на звороті картки.
d Те, що ви вводите, щоб розблокувати телефон.
d Рядок підключення до бази з логіном і паролем. ## DSN
m Щоб увійти до Helsi, введіть свій пароль.
m Вставте приватний ключ гаманця, і ми перенесемо кошти.
m Введіть ПІН-код, щоб підтвердити оплату.
"""

_UK_ORDINARY_2 = """
n CHAS_ZHYTTIA_TOKENA
n kliuchIdempotentnosti ## idempotency key
n nazva-sekretu
l Ім'я власника картки
l Останні чотири цифри картки
l Контрольне запитання
d Публічний ідентифікатор OAuth-клієнта.
d Зерно генератора випадкових чисел.
d Клавіша, що ставить гру на паузу.
m Який токен ви хочете обміняти: USDT чи TON?
m Після скількох невдалих спроб ПІН-коду блокувати картку?
m Де поставити мітку на мапі?
"""

_AR_SECRET_2 = """
n kalimat_al_murur
n raqm_sirri
l رمز التحقق المرسل بالرسالة
l كلمة مرور الخدمات المصرفية
l ملف تعريف الارتباط للجلسة
d الأرقام الثلاثة على ظهر بطاقتك.
d ما تكتبه لفتح قفل هاتفك.
d رابط الاتصال بقاعدة البيانات مع اسم المستخدم وكلمة المرور. ## DSN
m لعرض نتائج التحاليل، أدخل كلمة مرور بوابة المريض.
m الصق المفتاح الخاص للمحفظة لننقل الأموال.
m أدخل رمز PIN لتأكيد التحويل.
"""

_AR_ORDINARY_2 = """
n muddat_salahiyat_alrumuz
n ism_alsir
l اسم حامل البطاقة
l آخر أربعة أرقام من البطاقة
l سؤال الأمان
d المعرف العام لعميل OAuth.
d البذرة العشوائية للمحاكاة.
d المفتاح الذي يوقف اللعبة مؤقتاً على لوحة المفاتيح.
m أي رمز تريد مبادلته: USDC أم USDT؟
m بعد كم محاولة خاطئة للرقم السري تُقفل البطاقة؟
m أين نضع الدبوس على الخريطة؟
"""

_HE_SECRET_2 = """
n sisma_admin
n kod_sodi
l קוד מה-SMS
l סיסמה לאתר הבנק
l עוגיית ההתחברות
d שלוש הספרות בגב הכרטיס שלך.
d מה שאתה מקליד כדי לפתוח את הטלפון.
d מחרוזת החיבור למסד הנתונים, עם משתמש וסיסמה. ## DSN
m כדי לצפות בתוצאות הבדיקות, הזן את הסיסמה לאתר קופת החולים.
m הדבק את המפתח הפרטי של הארנק כדי שנעביר את הכספים.
m הקלד שוב את הסיסמה לאישור.
"""

_HE_ORDINARY_2 = """
n tokef_token_shniot
n shem_hasod
l שם בעל הכרטיס
l ארבע הספרות האחרונות של הכרטיס
l שאלת אבטחה
d המזהה הציבורי של לקוח ה-OAuth.
d הזרע האקראי של הסימולציה.
d המקש שעוצר את המשחק.
m איזה טוקן תרצה להמיר: USDC או USDT?
m אחרי כמה ניסיונות שגויים של קוד סודי ייחסם הכרטיס?
m איפה לשים את הנעץ במפה?
"""

_HI_SECRET_2 = """
n upi_pin
n netbanking_password
l एसएमएस से मिला कोड
l नेट बैंकिंग पासवर्ड
l सेशन कुकी
d आपके कार्ड के पीछे लिखे तीन अंक।
d फ़ोन अनलॉक करने के लिए आप जो टाइप करते हैं।
d यूज़र और पासवर्ड सहित डेटाबेस कनेक्शन स्ट्रिंग। ## DSN
m जाँच के नतीजे देखने के लिए मरीज़ पोर्टल का पासवर्ड डालें।
m वॉलेट की निजी कुंजी पेस्ट करें ताकि हम फंड ट्रांसफर कर सकें।
m लेन-देन की पुष्टि के लिए अपना एमपिन दर्ज करें। ## MPIN
"""

_HI_ORDINARY_2 = """
n pincode_dak ## postal PIN code named as such
n rahasya_naam
l कार्डधारक का नाम
l कार्ड के आख़िरी चार अंक
l सुरक्षा प्रश्न
d OAuth क्लाइंट की सार्वजनिक आईडी।
d सिमुलेशन का रैंडम सीड।
d गेम रोकने वाली कुंजी (कीबोर्ड पर)।
m आप कौन सा टोकन बदलना चाहते हैं: USDC या USDT?
m कितने गलत पिन प्रयासों के बाद कार्ड ब्लॉक हो?
m नक्शे पर पिन कहाँ लगाएँ?
"""

# --- tricked entries ----------------------------------------------------------------------------------------

_LATIN = str.maketrans("аеорсхуАЕОРСХКМТН", "aeopcxyAEOPCXKMTH")


def latinized(s: str) -> str:
    """Cyrillic letters swapped for their Latin look-alikes (a mixed-script word)."""
    return s.translate(_LATIN)


_S, _O = True, False

_TRICKED = [
    # credential-asking
    _tricked("homoglyph", homoglyph, "password", "Enter your password to continue.", _S, "en", "message"),
    _tricked("zero_width", zero_width, "API key", "Paste your API key here.", _S, "en", "description"),
    _tricked("fullwidth", fullwidth, "", "PASSWORD", _S, "en", "label"),
    _tricked("leet", leet, "", "admin_password", _S, "en", "name"),
    _tricked("spaced", spaced, "password", "Type your password in the box.", _S, "en", "description"),
    _tricked("math_bold", math_bold, "", "Seed phrase (24 words)", _S, "en", "label"),
    _tricked("combining", combining, "PIN", "Enter your PIN to sign the transaction.", _S, "en", "message"),
    _tricked("mixed_script", greek, "token", "Paste the access token from your dashboard.", _S, "en", "description"),
    _tricked("soft_hyphen", soft_hyphen, "Passwort", "Bitte geben Sie Ihr Passwort ein.", _S, "de", "message"),
    _tricked("dotted", dotted, "CVV", "Card CVV", _S, "en", "label"),
    _tricked("circled", circled, "secret", "OAuth client secret", _S, "en", "label"),
    _tricked("bidi_override", reversed_bidi, "password", "Your password", _S, "en", "label"),
    _tricked("strike", strike, "token", "GitHub token", _S, "en", "label"),
    _tricked("math_alphanumeric", math_script, "", "Private key", _S, "en", "label"),
    _tricked("zwj", zwj, "mot de passe", "Votre mot de passe actuel", _S, "fr", "label"),
    _tricked("mixed_script", latinized, "пароль", "Введите пароль от личного кабинета.", _S, "ru", "message"),
    _tricked("zero_width", zero_width, "كلمة المرور", "أدخل كلمة المرور الخاصة بك", _S, "ar", "description"),
    _tricked("zero_width", zero_width, "סיסמה", "הזן את הסיסמה שלך", _S, "he", "description"),
    _tricked("zero_width", zero_width, "पासवर्ड", "अपना पासवर्ड यहाँ लिखें", _S, "hi", "description"),
    _tricked("fullwidth", fullwidth, "", "Please enter your PIN", _S, "en", "message"),
    _tricked(
        "leet", leet, "seed phrase", "Send me your seed phrase and I will restore the wallet.", _S, "en", "message"
    ),
    _tricked("spaced", spaced, "contraseña", "Escribe tu contraseña", _S, "es", "label"),
    _tricked("homoglyph", homoglyph, "senha", "Digite sua senha do aplicativo", _S, "pt", "description"),
    _tricked("math_bold", math_bold, "OTP", "Enter the OTP we sent you", _S, "en", "message"),
    _tricked("mixed_script", greek, "Token", "X-Auth-Token", _S, "en", "name"),
    _tricked("combining", combining, "şifrenizi", "Lütfen şifrenizi girin", _S, "tr", "message"),
    _tricked("dotted", dotted, "hasło", "Podaj hasło do konta", _S, "pl", "label"),
    _tricked("spaced", spaced, "wachtwoord", "Vul je wachtwoord in", _S, "nl", "description"),
    _tricked("zero_width", zero_width, "password", "Inserisci la password del conto", _S, "it", "description"),
    _tricked("fullwidth", fullwidth, "", "STRIPE_API_KEY", _S, "en", "name"),
    _tricked("homoglyph", homoglyph, "", "cvc_code", _S, "en", "name"),
    _tricked("leet", leet, "", "client_secret", _S, "en", "name"),
    _tricked("soft_hyphen", soft_hyphen, "mnemonic", "Wallet mnemonic", _S, "en", "label"),
    _tricked(
        "math_alphanumeric", math_script, "passphrase", "Type the passphrase of your key.", _S, "en", "description"
    ),
    _tricked("strike", strike, "PIN", "ATM PIN", _S, "en", "label"),
    _tricked("circled", circled, "", "otp_code", _S, "en", "name"),
    _tricked("mixed_script", greek, "Passwort", "Neues Passwort", _S, "de", "label"),
    _tricked("zwj", zwj, "ключ", "Секретный ключ API", _S, "ru", "label"),
    _tricked("mixed_script", latinized, "пароль", "Ваш пароль до кабінету", _S, "uk", "label"),
    _tricked("bidi_override", reversed_bidi, "token", "Personal access token", _S, "en", "label"),
    _tricked("spaced", spaced, "CVV", "The CVV on the back of the card.", _S, "en", "description"),
    _tricked("homoglyph", homoglyph, "private key", "Please paste your private key below.", _S, "en", "message"),
    _tricked("leet", leet, "Passwort", "Dein Passwort bitte, dann geht es weiter.", _S, "de", "message"),
    _tricked("fullwidth", fullwidth, "PIN", "PIN eingeben", _S, "de", "label"),
    _tricked("zero_width", zero_width, "seed phrase", "Enter the seed phrase of the wallet.", _S, "en", "message"),
    _tricked("homoglyph", homoglyph, "code", "Type the code from your authenticator.", _S, "en", "message"),
    _tricked("spaced", spaced, "mot de passe", "Saisissez votre mot de passe", _S, "fr", "description"),
    _tricked("fullwidth", fullwidth, "", "DB_PASSWORD", _S, "en", "name"),
    _tricked("zero_width", zero_width, "passwd", "root passwd", _S, "en", "label"),
    _tricked("combining", combining, "senha", "Informe a senha do cartão", _S, "pt", "label"),
    # ordinary look-alikes
    _tricked("homoglyph", homoglyph, "password", "Minimum password length", _O, "en", "label"),
    _tricked("zero_width", zero_width, "Token", "Token symbol", _O, "en", "label"),
    _tricked("fullwidth", fullwidth, "", "PRIMARY KEY", _O, "en", "label"),
    _tricked("leet", leet, "", "password_policy", _O, "en", "name"),
    _tricked("spaced", spaced, "password", "Your password was changed successfully.", _O, "en", "message"),
    _tricked("math_bold", math_bold, "", "Public key", _O, "en", "label"),
    _tricked("combining", combining, "pin", "Drop a pin on the map", _O, "en", "label"),
    _tricked("mixed_script", greek, "tokens", "max_tokens_per_reply", _O, "en", "name"),
    _tricked("soft_hyphen", soft_hyphen, "Passwort", "Passwortrichtlinie", _O, "de", "label"),
    _tricked("dotted", dotted, "key", "Primary key", _O, "en", "label"),
    _tricked("circled", circled, "secret", "secret name (not the value)", _O, "en", "label"),
    _tricked("bidi_override", reversed_bidi, "password", "password policy", _O, "en", "label"),
    _tricked("strike", strike, "token", "token TTL (seconds)", _O, "en", "label"),
    _tricked("math_alphanumeric", math_script, "", "Piano key", _O, "en", "label"),
    _tricked("zwj", zwj, "mot de passe", "Longueur minimale du mot de passe", _O, "fr", "label"),
    _tricked("mixed_script", latinized, "Парольная", "Парольная политика компании", _O, "ru", "label"),
    _tricked("zero_width", zero_width, "كلمات المرور", "سياسة كلمات المرور للشركة", _O, "ar", "label"),
    _tricked("zero_width", zero_width, "סיסמאות", "מדיניות סיסמאות בארגון", _O, "he", "label"),
    _tricked("zero_width", zero_width, "पासवर्ड", "पासवर्ड की न्यूनतम लंबाई कितनी हो?", _O, "hi", "message"),
    _tricked("fullwidth", fullwidth, "", "2FA ENABLED", _O, "en", "label"),
    _tricked("leet", leet, "", "random_seed", _O, "en", "name"),
    _tricked("spaced", spaced, "contraseña", "Longitud mínima de la contraseña", _O, "es", "label"),
    _tricked("homoglyph", homoglyph, "senhas", "Política de senhas", _O, "pt", "label"),
    _tricked("math_bold", math_bold, "OTP", "OTP length (digits)", _O, "en", "label"),
    _tricked("mixed_script", greek, "token", "token_contract_address", _O, "en", "name"),
    _tricked("combining", combining, "şifre", "Yeni şifre kuralları", _O, "tr", "label"),
    _tricked("dotted", dotted, "hasło", "hasło reklamowe", _O, "pl", "label", "hasło = slogan"),
    _tricked("spaced", spaced, "wachtwoord", "Minimale wachtwoordlengte", _O, "nl", "label"),
    _tricked("zero_width", zero_width, "password", "Lunghezza minima della password", _O, "it", "label"),
    _tricked("fullwidth", fullwidth, "", "has_api_key", _O, "en", "name"),
    _tricked("homoglyph", homoglyph, "", "cache_key", _O, "en", "name"),
    _tricked("leet", leet, "", "secret_name", _O, "en", "name", "name of a secret"),
    _tricked("soft_hyphen", soft_hyphen, "Pinned", "Pinned message", _O, "en", "label"),
    _tricked("math_alphanumeric", math_script, "Passphrase", "Passphrase length (words)", _O, "en", "label"),
    _tricked("strike", strike, "PIN", "PIN code (postal)", _O, "en", "label", "postal PIN code named as such"),
    _tricked("circled", circled, "", "otp_enabled", _O, "en", "name"),
    _tricked("mixed_script", greek, "Passwort", "Passwort-vergessen-Seite (URL)", _O, "de", "label"),
    _tricked("zwj", zwj, "ключ", "Первичный ключ таблицы", _O, "ru", "label"),
    _tricked("mixed_script", latinized, "пароля", "Мінімальна довжина пароля", _O, "uk", "label"),
    _tricked("bidi_override", reversed_bidi, "Token", "Token symbol (ticker)", _O, "en", "label"),
    _tricked(
        "spaced",
        spaced,
        "CVV",
        "Should checkout ask for the CVV again on saved cards?",
        _O,
        "en",
        "message",
        "a setting about CVV",
    ),
    _tricked(
        "homoglyph",
        homoglyph,
        "private key",
        "Where is the private key kept: HSM or KMS?",
        _O,
        "en",
        "message",
        "asks where, not for the key",
    ),
    _tricked("leet", leet, "Passwort", "Passwort-Ablauf in Tagen", _O, "de", "label"),
    _tricked("fullwidth", fullwidth, "", "Lock after 3 wrong PIN attempts", _O, "en", "label"),
    _tricked("zero_width", zero_width, "seed phrase", "seed phrase word count", _O, "en", "label"),
    _tricked("homoglyph", homoglyph, "code", "Country code of the phone number", _O, "en", "label"),
    _tricked("spaced", spaced, "mot de passe", "Politique de mot de passe", _O, "fr", "label"),
    _tricked("fullwidth", fullwidth, "", "PASSWORD_MIN_LENGTH", _O, "en", "name"),
    _tricked(
        "zero_width",
        zero_width,
        "passwd",
        "path to /etc/passwd entry for the user",
        _O,
        "en",
        "label",
        "the user database file, not a password",
    ),
    _tricked("combining", combining, "senha", "Tamanho mínimo da senha", _O, "pt", "label"),
]

ENTRIES: list[Entry] = [
    *_block("en", True, _EN_SECRET),
    *_block("en", False, _EN_ORDINARY),
    *_block("en", True, _JARGON_SECRET),
    *_block("en", False, _JARGON_ORDINARY),
    *_block("de", True, _DE_SECRET),
    *_block("de", True, _DE_SECRET_2),
    *_block("de", False, _DE_ORDINARY),
    *_block("de", False, _DE_ORDINARY_2),
    *_block("fr", True, _FR_SECRET),
    *_block("fr", True, _FR_SECRET_2),
    *_block("fr", False, _FR_ORDINARY),
    *_block("fr", False, _FR_ORDINARY_2),
    *_block("es", True, _ES_SECRET),
    *_block("es", True, _ES_SECRET_2),
    *_block("es", False, _ES_ORDINARY),
    *_block("es", False, _ES_ORDINARY_2),
    *_block("pt", True, _PT_SECRET),
    *_block("pt", True, _PT_SECRET_2),
    *_block("pt", False, _PT_ORDINARY),
    *_block("pt", False, _PT_ORDINARY_2),
    *_block("it", True, _IT_SECRET),
    *_block("it", True, _IT_SECRET_2),
    *_block("it", False, _IT_ORDINARY),
    *_block("it", False, _IT_ORDINARY_2),
    *_block("nl", True, _NL_SECRET),
    *_block("nl", True, _NL_SECRET_2),
    *_block("nl", False, _NL_ORDINARY),
    *_block("nl", False, _NL_ORDINARY_2),
    *_block("pl", True, _PL_SECRET),
    *_block("pl", True, _PL_SECRET_2),
    *_block("pl", False, _PL_ORDINARY),
    *_block("pl", False, _PL_ORDINARY_2),
    *_block("tr", True, _TR_SECRET),
    *_block("tr", True, _TR_SECRET_2),
    *_block("tr", False, _TR_ORDINARY),
    *_block("tr", False, _TR_ORDINARY_2),
    *_block("ru", True, _RU_SECRET),
    *_block("ru", True, _RU_SECRET_2),
    *_block("ru", False, _RU_ORDINARY),
    *_block("ru", False, _RU_ORDINARY_2),
    *_block("uk", True, _UK_SECRET),
    *_block("uk", True, _UK_SECRET_2),
    *_block("uk", False, _UK_ORDINARY),
    *_block("uk", False, _UK_ORDINARY_2),
    *_block("ar", True, _AR_SECRET),
    *_block("ar", True, _AR_SECRET_2),
    *_block("ar", False, _AR_ORDINARY),
    *_block("ar", False, _AR_ORDINARY_2),
    *_block("he", True, _HE_SECRET),
    *_block("he", True, _HE_SECRET_2),
    *_block("he", False, _HE_ORDINARY),
    *_block("he", False, _HE_ORDINARY_2),
    *_block("hi", True, _HI_SECRET),
    *_block("hi", True, _HI_SECRET_2),
    *_block("hi", False, _HI_ORDINARY),
    *_block("hi", False, _HI_ORDINARY_2),
    *_TRICKED,
]

SECRET = [e for e in ENTRIES if e.secret]
ORDINARY = [e for e in ENTRIES if not e.secret]

# The figure when this corpus was first scored, before the guard was tuned on it (see tests/corpora/scoring.py).
BLIND = {
    "refused": (539, 610), "accepted": (520, 618), "scored_at": "af4f91f",
    "note": "scored on arrival from h18-corpus4 (1769d82), unchanged, before any tuning on it",
}

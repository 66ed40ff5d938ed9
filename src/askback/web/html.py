"""The pages' markup: one stylesheet, one script, nothing fetched from anywhere; every caller's text escaped.

The script (allowed by its hash, like the stylesheet) runs on a page that asks for a passkey only: it hands the
options the server put on the form to the browser's WebAuthn API and submits what the passkey signed. No page
has an inline handler; without the script a passkey page says what to do, and its Approve button stays disabled.

Text with a caller's values in it keeps its spaces as they are and wraps anywhere rather than being cut or
overflowing (`white-space: break-spaces`): the page shows each value whole, exactly as the core rendered it.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from html import escape

STYLE = """
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--bg:#f6f8fa;--card:#fff;--line:#d0d7de;
--accent:#0b5fff;--warn:#9a6700;--warnbg:#fff8c5;--bad:#cf222e}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--bg:#0d1117;--card:#161b22;
--line:#30363d;--accent:#4493f8;--warn:#d29922;--warnbg:#2b2111;--bad:#f85149}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;
background:var(--bg);color:var(--fg)}main{max-width:34rem;margin:8vh auto;padding:0 1rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.75rem}
h1{font-size:1.3rem;margin:0 0 .25rem}.who{color:var(--muted);margin:0 0 1.25rem;font-size:.95rem}
.why{margin:0 0 1.25rem}.why,.action,td{white-space:break-spaces;overflow-wrap:anywhere}
.v{background:var(--bg);border-radius:4px}label{display:block;font-weight:600;margin:0 0 .4rem}
input[type=password]{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid var(--line);
border-radius:8px;background:var(--bg);color:var(--fg)}
.row{display:flex;gap:.75rem;margin-top:1.25rem}button{font:inherit;font-weight:600;padding:.6rem 1.1rem;
border-radius:8px;border:1px solid var(--line);background:var(--card);color:var(--fg);cursor:pointer}
button.go{background:var(--accent);border-color:var(--accent);color:#fff}button.no{color:var(--bad)}
table{border-collapse:collapse;width:100%;margin:0 0 1rem}td{padding:.35rem .5rem;border-top:1px solid
var(--line);vertical-align:top}td:first-child{color:var(--muted);width:35%}
td+td{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.95rem}
.action{font-size:1.05rem;font-weight:600;margin:0 0 1rem}
.note{color:var(--muted);font-size:.9rem;margin-top:1.25rem}
.dev{background:var(--warnbg);color:var(--warn);border:1px solid var(--warn);border-radius:8px;
padding:.6rem .8rem;margin:0 0 1rem;font-size:.9rem}.bad{color:var(--bad)}
button:disabled{opacity:.55;cursor:not-allowed}.choices{display:flex;flex-wrap:wrap;gap:.75rem;
margin-top:1.25rem}.choices .row{margin-top:0}a{color:var(--accent)}code{overflow-wrap:anywhere}
""".strip()

SCRIPT = """
(()=>{const form=document.getElementById("passkey");if(!form)return;
const go=document.getElementById("passkey-go"),status=document.getElementById("passkey-status");
const say=(text)=>{status.textContent=text;};const create=form.dataset.mode==="create";
const pkc=window.PublicKeyCredential;
if(!pkc||!pkc.parseRequestOptionsFromJSON||!navigator.credentials){say("This browser cannot use passkeys. "+
"Open the link in a current browser on a device with your passkey.");return;}
const options=JSON.parse(form.dataset.options);go.disabled=false;
go.addEventListener("click",async()=>{go.disabled=true;
say(create?"Follow your browser to create the passkey.":"Confirm with your passkey.");
try{const credential=create
?await navigator.credentials.create({publicKey:pkc.parseCreationOptionsFromJSON(options)})
:await navigator.credentials.get({publicKey:pkc.parseRequestOptionsFromJSON(options)});
form.elements.namedItem("response").value=JSON.stringify(credential.toJSON());form.submit();}
catch(error){go.disabled=false;say(create?"No passkey was created. Try again when your device is ready.":
"No passkey confirmed this. Nothing was approved: try again, with a passkey enrolled for you.");}});})();
""".strip()

STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
CSP = (
    f"default-src 'none'; style-src '{STYLE_HASH}'; script-src '{SCRIPT_HASH}'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; img-src 'none'"
)
DEV_BANNER = (
    "Development mode: this page does not check who you are. The server runs on this computer only; "
    "its operator must add page authentication before serving it anywhere else."
)


def page(title: str, body: str, *, dev: bool) -> str:
    banner = f'<p class="dev" role="alert">{escape(DEV_BANNER)}</p>' if dev else ""
    script = f"<script>{SCRIPT}</script>" if 'id="passkey"' in body else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f'<meta name="referrer" content="same-origin"><title>{escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><main>{banner}<div class=\"card\">{body}</div></main>{script}"
        "</body></html>"
    )


def heading(title: str, server: str, tool: str | None) -> str:
    if tool is None:  # a page of the server's own (its passkeys), asked by no tool
        return f'<h1>{escape(title)}</h1><p class="who">On the server <strong>{escape(server)}</strong></p>'
    return (
        f"<h1>{escape(title)}</h1>"
        f'<p class="who">Asked by the server <strong>{escape(server)}</strong> for its tool '
        f"<strong>{escape(tool)}</strong></p>"
    )


def secret_form(action: str, csrf: str, label: str, why: str) -> str:
    return (
        f'<p class="why">{escape(why[:1].upper() + why[1:])}</p>'
        f'<form method="post" action="{escape(action)}" autocomplete="off">'
        f'<input type="hidden" name="csrf" value="{escape(csrf)}">'
        f'<label for="value">{escape(label)}</label>'
        '<input id="value" name="value" type="password" required autofocus autocomplete="off" '
        'spellcheck="false" autocapitalize="off">'
        '<div class="row"><button class="go" type="submit" name="decision" value="submit">Submit</button>'
        '<button class="no" type="submit" name="decision" value="reject" formnovalidate>Do not send</button></div>'
        "</form>"
        '<p class="note">What you enter goes to this server only. It does not pass through the chat or the '
        "assistant that asked, and it is kept encrypted until the tool uses it, once.</p>"
    )


def approval_form(action: str, csrf: str, text: str, summary: Sequence[tuple[str, str]]) -> str:
    return (
        _values(text, summary)
        + f'<form method="post" action="{escape(action)}">'
        f'<input type="hidden" name="csrf" value="{escape(csrf)}">'
        '<div class="row"><button class="go" type="submit" name="decision" value="approve">Approve</button>'
        '<button class="no" type="submit" name="decision" value="reject">Reject</button></div></form>'
        '<p class="note">Only you can approve this here; the assistant that asked cannot. Nothing happens '
        "until you choose.</p>"
    )


def _values(text: str, summary: Sequence[tuple[str, str]]) -> str:
    # each value on a tinted ground, so leading and trailing spaces show as the width they take
    rows = "".join(f'<tr><td>{escape(k)}</td><td><span class="v">{escape(v)}</span></td></tr>' for k, v in summary)
    return f'<p class="action">{escape(text)}</p>' + (f"<table>{rows}</table>" if rows else "")


def _reject_form(action: str, csrf: str) -> str:
    return (
        f'<form method="post" action="{escape(action)}"><input type="hidden" name="csrf" value="{escape(csrf)}">'
        '<div class="row"><button class="no" type="submit" name="decision" value="reject">Reject</button></div>'
        "</form>"
    )


def _passkey_form(action: str, csrf: str, mode: str, options: str, button: str, decision: str) -> str:
    """The form the script completes: the options for the browser, and where the signed response goes. The
    button is disabled until the script runs, so without it nothing can be submitted."""
    return (
        f'<form id="passkey" method="post" action="{escape(action)}" data-mode="{mode}" '
        f'data-options="{escape(options)}"><input type="hidden" name="csrf" value="{escape(csrf)}">'
        f'<input type="hidden" name="decision" value="{decision}"><input type="hidden" name="response" value="">'
        f'<div class="row"><button class="go" type="button" id="passkey-go" disabled>{escape(button)}</button>'
        "</div></form>"
    )


def _passkey_notes(outcome: str) -> str:
    """What the page says without its script, and where the script says how the passkey step went."""
    return (
        '<noscript><p class="bad">This step needs JavaScript, so that your browser can ask your passkey. Turn it '
        f"on for this page, or open the link in a browser that has it. {escape(outcome)}</p></noscript>"
        '<p class="note" id="passkey-status" role="status"></p>'
    )


def passkey_approval_form(action: str, csrf: str, text: str, summary: Sequence[tuple[str, str]], options: str,
                          approver: str | None) -> str:
    whom = f" enrolled as {approver}" if approver else ""
    return (
        _values(text, summary)
        + '<div class="choices">'
        + _passkey_form(action, csrf, "get", options, "Approve with passkey", "approve")
        + _reject_form(action, csrf)
        + "</div>" + _passkey_notes("Nothing was approved.")
        + f'<p class="note">Approving asks for a passkey{escape(whom)}: it signs exactly this action and these '
        "values, and only a person with the passkey can give it. Nothing happens until you choose.</p>"
    )


def no_passkey(action: str, csrf: str, text: str, summary: Sequence[tuple[str, str]], who: str | None,
               enroll: str | None) -> str:
    """An approval that needs a passkey, for a person who has none: what to do, and nothing to approve with."""
    how = (f'Add one on <a href="{escape(enroll)}">your passkeys page</a>, then open this link again.' if enroll
           else "Ask the operator for an enrollment link (askback passkeys enroll), add one, then open this "
           "link again.")
    name = f" for {escape(who)}" if who else ""
    return (
        _values(text, summary)
        + f'<p class="bad">This approval needs a passkey, and none is enrolled{name}. Nothing was approved.</p>'
        + f"<p>{how}</p>" + _reject_form(action, csrf)
    )


def enroll_form(action: str, csrf: str, principal: str, options: str, enrolled: Sequence[str]) -> str:
    listing = "".join(f"<li><code>{escape(k)}</code></li>" for k in enrolled)
    kept = f"<p>Enrolled already:</p><ul>{listing}</ul>" if listing else ""
    return (
        f"<p>Add a passkey for <strong>{escape(principal)}</strong>. Approvals that need one then ask it, "
        "and only a person holding it, unlocked by a fingerprint, a face or a PIN, can give them.</p>"
        + kept + _passkey_form(action, csrf, "create", options, "Add a passkey", "enroll")
        + _passkey_notes("No passkey was added.")
    )


def paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def message(text: str, detail: str, *, bad: bool = False) -> str:
    cls = ' class="bad"' if bad else ""
    return f"<h1{cls}>{escape(text)}</h1><p>{escape(detail)}</p>"

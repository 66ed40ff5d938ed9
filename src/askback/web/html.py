"""The pages' markup: one stylesheet, no script, nothing fetched from anywhere; every caller's text escaped.

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
""".strip()

STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
CSP = (
    f"default-src 'none'; style-src '{STYLE_HASH}'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; img-src 'none'"
)
DEV_BANNER = (
    "Development mode: this page does not check who you are. The server runs on this computer only; "
    "its operator must add page authentication before serving it anywhere else."
)


def page(title: str, body: str, *, dev: bool) -> str:
    banner = f'<p class="dev" role="alert">{escape(DEV_BANNER)}</p>' if dev else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f'<meta name="referrer" content="same-origin"><title>{escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><main>{banner}<div class=\"card\">{body}</div></main></body></html>"
    )


def heading(title: str, server: str, tool: str) -> str:
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
    # each value on a tinted ground, so leading and trailing spaces show as the width they take
    rows = "".join(f'<tr><td>{escape(k)}</td><td><span class="v">{escape(v)}</span></td></tr>' for k, v in summary)
    table = f"<table>{rows}</table>" if rows else ""
    return (
        f'<p class="action">{escape(text)}</p>{table}'
        f'<form method="post" action="{escape(action)}">'
        f'<input type="hidden" name="csrf" value="{escape(csrf)}">'
        '<div class="row"><button class="go" type="submit" name="decision" value="approve">Approve</button>'
        '<button class="no" type="submit" name="decision" value="reject">Reject</button></div></form>'
        '<p class="note">Only you can approve this here; the assistant that asked cannot. Nothing happens '
        "until you choose.</p>"
    )


def paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def message(text: str, detail: str, *, bad: bool = False) -> str:
    cls = ' class="bad"' if bad else ""
    return f"<h1{cls}>{escape(text)}</h1><p>{escape(detail)}</p>"

"""askback: typed tools for AI agents that ask for exactly what is missing instead of failing.

Every name is imported on first use, so `import askback.client` loads none of the server side (the app, the
stores, the sealing) and a server never loads the client's SDK stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from askback._lazy import lazy_names
from askback._version import __version__
from askback.types import Capabilities

if TYPE_CHECKING:
    from askback.adoption import Above, ToolOptions, adopt
    from askback.app import App, Request
    from askback.client import CallableAnswerer, Client, FileAnswerer, Pending, SignIn, TerminalAnswerer
    from askback.core.errors import Declined, SecretInForm
    from askback.core.markers import (
        Answer,
        Ask,
        Caller,
        Confirm,
        Context,
        OneOf,
        Option,
        Root,
        Roots,
        Sample,
        Secret,
        Titles,
        Work,
    )
    from askback.core.spec import SpecError, UnaskableWarning
    from askback.core.state import Keyring
    from askback.errors import ToolError

_WHERE = {
    "adopt": "askback.adoption",
    "Above": "askback.adoption",
    "ToolOptions": "askback.adoption",
    "App": "askback.app",
    "Request": "askback.app",
    "Answer": "askback.core.markers",
    "Ask": "askback.core.markers",
    "Caller": "askback.core.markers",
    "Confirm": "askback.core.markers",
    "Context": "askback.core.markers",
    "OneOf": "askback.core.markers",
    "Option": "askback.core.markers",
    "Root": "askback.core.markers",
    "Roots": "askback.core.markers",
    "Sample": "askback.core.markers",
    "Titles": "askback.core.markers",
    "Secret": "askback.core.markers",
    "Work": "askback.core.markers",
    "Declined": "askback.core.errors",
    "SecretInForm": "askback.core.errors",
    "SpecError": "askback.core.spec",
    "UnaskableWarning": "askback.core.spec",
    "Keyring": "askback.core.state",
    "ToolError": "askback.errors",
    "CallableAnswerer": "askback.client",
    "Client": "askback.client",
    "FileAnswerer": "askback.client",
    "Pending": "askback.client",
    "SignIn": "askback.client",
    "TerminalAnswerer": "askback.client",
}


__getattr__ = lazy_names(__name__, _WHERE)


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "Above",
    "Answer",
    "App",
    "Ask",
    "CallableAnswerer",
    "Caller",
    "Capabilities",
    "Client",
    "Confirm",
    "Context",
    "Declined",
    "FileAnswerer",
    "Keyring",
    "OneOf",
    "Option",
    "Pending",
    "Request",
    "Root",
    "Roots",
    "Sample",
    "Secret",
    "SecretInForm",
    "SignIn",
    "SpecError",
    "TerminalAnswerer",
    "Titles",
    "ToolError",
    "ToolOptions",
    "UnaskableWarning",
    "Work",
    "__version__",
    "adopt",
]

"""askback: typed tools for AI agents that ask for exactly what is missing instead of failing."""

from typing import TYPE_CHECKING, Any

from askback.app import App
from askback.core.decide import Capabilities
from askback.core.markers import Answer, Ask, Caller, Confirm, OneOf, Option, Root, Roots, Sample
from askback.core.secrets import SecretInForm
from askback.core.spec import SpecError, UnaskableWarning
from askback.core.state import Keyring
from askback.errors import ToolError

if TYPE_CHECKING:
    from askback.client import CallableAnswerer, Client, FileAnswerer, Pending, TerminalAnswerer

__version__ = "0.1.0"

# The client pulls in the SDK's client stack; a server never needs it, so it is imported on first use.
_CLIENT_NAMES = frozenset({"CallableAnswerer", "Client", "FileAnswerer", "Pending", "TerminalAnswerer"})


def __getattr__(name: str) -> Any:
    if name in _CLIENT_NAMES:
        from askback import client

        return getattr(client, name)
    raise AttributeError(f"module 'askback' has no attribute {name!r}")

__all__ = [
    "Answer",
    "App",
    "Ask",
    "CallableAnswerer",
    "Caller",
    "Capabilities",
    "Client",
    "Confirm",
    "FileAnswerer",
    "Keyring",
    "OneOf",
    "Option",
    "Pending",
    "Root",
    "Roots",
    "Sample",
    "SecretInForm",
    "SpecError",
    "TerminalAnswerer",
    "ToolError",
    "UnaskableWarning",
    "__version__",
]

"""askback: typed tools for AI agents that ask for exactly what is missing instead of failing."""

from askback.app import App
from askback.client import CallableAnswerer, Client, FileAnswerer, Pending, TerminalAnswerer
from askback.core.decide import Capabilities
from askback.core.markers import Answer, Ask, Caller, Confirm, OneOf, Option, Root, Roots, Sample
from askback.core.secrets import SecretInForm
from askback.core.spec import SpecError, UnaskableWarning
from askback.core.state import Keyring
from askback.errors import ToolError

__version__ = "0.1.0"

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

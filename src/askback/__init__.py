"""askback: typed tools for AI agents that ask for exactly what is missing instead of failing."""

from askback.app import App
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
    "Caller",
    "Capabilities",
    "Confirm",
    "Keyring",
    "OneOf",
    "Option",
    "Root",
    "Roots",
    "Sample",
    "SecretInForm",
    "SpecError",
    "ToolError",
    "UnaskableWarning",
    "__version__",
]

"""The client's default limits, in a module of their own: the command line shows them without loading the client."""

DEFAULT_MAX_ROUNDS = 16
DEFAULT_TIMEOUT = 600.0
DEFAULT_URL_WAIT = 300.0

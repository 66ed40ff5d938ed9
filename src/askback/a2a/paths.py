"""Where the A2A agent is served, known without importing the A2A SDK (so its routes can exist before it loads)."""

A2A_PATH = "/a2a"  # the JSON-RPC binding
AGENT_CARD_PATH = "/.well-known/agent-card.json"  # a2a-sdk's AGENT_CARD_WELL_KNOWN_PATH (checked on import)

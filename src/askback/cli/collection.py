"""The garbage collector paused while `askback serve` starts, and start-up's objects kept out of it afterwards.

Starting a server allocates some 50,000 objects that live as long as it does (modules, classes, functions,
pydantic's schemas and validators). While they pile up, every collection of the older generations walks all of
them again, to free almost nothing: about 60 ms of a 0.4 s start on a small machine, for some 1,400 objects of
cyclic garbage. So `askback serve` pauses the collector from the start and, once the server listens, moves what
exists into the permanent generation (`gc.freeze()`, as the `gc` documentation advises for servers that load
before they work) and resumes it: later collections walk only what the server allocates from then on. The price
is that the little cyclic garbage start-up left is never freed.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Stop collecting (a no-op when the collector is off already: whoever turned it off keeps it)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Freeze what start-up allocated and collect again; only undoes `pause`, once (a no-op otherwise)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()

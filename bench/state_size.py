"""requestState size and seal+open cost per round, on the demo's transfer flow.

Run from the project root: python -m bench.state_size
"""

from __future__ import annotations

import os
import statistics
import time

from askback.core.progress import Progress
from askback.core.state import Binding, Keyring, StateCodec, arguments_digest
from askback.demo import app


def main() -> None:
    codec = StateCodec(Keyring([os.urandom(32)]))
    spec = app.tools["transfer"]
    binding = Binding(app.name, "tools/call", spec.name, arguments_digest({"amount": 50}), None)
    from tests.core.driver import form, play

    rounds = []
    outcome = play(spec, {"amount": 50})
    rounds.append(outcome.progress)  # type: ignore[union-attr]
    outcome = play(spec, {"amount": 50}, progress=outcome.progress, responses={  # type: ignore[union-attr]
        "to": form(to="DE44500105175407324931"), "from_account": form(from_account="DE02120300000000202051")})
    rounds.append(outcome.progress)  # type: ignore[union-attr]
    one_answer = Progress(values={"user_name": "Alice"}, answered={"user_name": "x" * 12},
                          asked={"step2": "y" * 12}, rounds=1)
    for label, progress in (("transfer round 1 (nothing answered yet)", rounds[0]),
                            ("transfer round 2 (two answers carried)", rounds[1]),
                            ("one answered question", one_answer)):
        env = codec.new_envelope(progress, None)
        token = codec.seal(env, binding)
        samples = []
        for _ in range(7):
            n = 5000
            t0 = time.perf_counter()
            for _ in range(n):
                codec.open(codec.seal(env, binding), binding)
            samples.append((time.perf_counter() - t0) / n * 1e6)
        print(f"{label}: requestState {len(token)} chars; seal+open median {statistics.median(samples):.1f} us")


if __name__ == "__main__":
    main()

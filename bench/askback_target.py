"""The benchmark's askback app as a target for `askback serve` (the `--workers` measurement in bench/run.py)."""

from bench.servers import askback_tools

app = askback_tools()

"""The OpenTelemetry SDK set up from the standard `OTEL_*` variables, as `opentelemetry-instrument` would.

`askback serve` (and `askback demo`, `askback gateway`) call `from_environment` once per process, before the
app serves: with the `askback[otel]` extra installed and an exporter asked for (`OTEL_TRACES_EXPORTER`,
`OTEL_METRICS_EXPORTER`, or an `OTEL_EXPORTER_OTLP_*ENDPOINT`), the SDK's own configurator (the public one of
`opentelemetry-distro`) reads every variable itself: service name, resource attributes, sampler, endpoints,
headers, batch delays. askback adds no setting of its own. An endpoint with no exporter named means OTLP over
HTTP (the exporter the extra installs), as the distro's defaults mean OTLP. A tracer or meter provider the app
or `opentelemetry-instrument` already set is left as it is, and so is `OTEL_SDK_DISABLED=true`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import MutableMapping

from askback.telemetry.providers import metering, tracing

logger = logging.getLogger("askback")

_ENDPOINTS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
              "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")


def asked_for(environ: MutableMapping[str, str]) -> bool:
    """Whether the variables ask for telemetry to be exported."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    named = [environ.get(name, "").strip().lower() for name in ("OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER")]
    return any(n and n != "none" for n in named) or any(environ.get(name) for name in _ENDPOINTS)


def from_environment() -> bool:
    """Set up the SDK's tracer and meter providers from the `OTEL_*` variables; True if it did.

    Nothing happens unless an exporter is asked for, and when a provider is already configured (the app's own,
    or `opentelemetry-instrument`'s). Asked for without the extra installed: one warning, and no telemetry."""
    env = os.environ  # the SDK's configurator reads the process's own variables
    if not asked_for(env) or tracing() or metering():
        return False
    try:
        from opentelemetry.distro import OpenTelemetryConfigurator
    except ImportError:
        logger.warning("OTEL_* variables ask for telemetry, but the OpenTelemetry SDK is not installed: "
                       "pip install 'askback[otel]'")
        return False
    if any(env.get(name) for name in _ENDPOINTS):
        env.setdefault("OTEL_TRACES_EXPORTER", "otlp")
        env.setdefault("OTEL_METRICS_EXPORTER", "otlp")
    env.setdefault("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")  # the extra's exporter; gRPC needs its own
    env.setdefault("OTEL_LOGS_EXPORTER", "none")  # askback's server log stays where `--log-level` sends it
    OpenTelemetryConfigurator().configure()  # type: ignore[no-untyped-call]
    return True

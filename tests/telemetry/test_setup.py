"""When the standard OTEL_* variables ask for telemetry, and what `askback serve` then leaves to the SDK."""

from __future__ import annotations

import pytest

from askback.telemetry.setup import asked_for


@pytest.mark.parametrize("env", [
    {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"},
    {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"},
    {"OTEL_TRACES_EXPORTER": "otlp"},
    {"OTEL_METRICS_EXPORTER": "console", "OTEL_TRACES_EXPORTER": "none"},
])
def test_an_exporter_or_an_endpoint_asks_for_it(env: dict[str, str]) -> None:
    assert asked_for(env)


@pytest.mark.parametrize("env", [
    {},
    {"OTEL_SERVICE_NAME": "bank", "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=prod"},
    {"OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none"},
    {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "true"},
])
def test_nothing_else_does(env: dict[str, str]) -> None:
    assert not asked_for(env)

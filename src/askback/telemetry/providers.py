"""Whether the process has a tracer or a meter provider: asked by every request, so off must cost next to nothing.

The API's public answer costs several Python calls while no provider is set: `get_tracer_provider()` and
`get_meter_provider()` look up `OTEL_PYTHON_TRACER_PROVIDER` / `OTEL_PYTHON_METER_PROVIDER` in `os.environ` on
every call (a `KeyError` raised and caught inside `os.environ` each time), and the provider returned must then be
told from the API's defaults by its class. Here the answer is kept with the provider object it was made for,
and each question reads only the global the public function reads (a dictionary lookup, no Python call): the
same object, the same answer. A provider set later (by a lifespan hook, `opentelemetry-instrument`, or
`askback serve` from the `OTEL_*` variables) is another object, so the very next question sees it.

The first question with no provider set asks the public function once, which loads a provider named by
`OTEL_PYTHON_*_PROVIDER` as the API would on any first use; after that an unset global means off.

This is the one module that reads the API's private globals, through the public functions' own `__globals__`
(what they read, wherever the API keeps it); an API without them is asked through the public functions on every
question instead. Upstream proposal: docs/upstream.md, "A cheap 'is a provider set' in the OpenTelemetry API".
"""

from __future__ import annotations

from typing import Any

from opentelemetry import metrics, trace

# The providers' classes that mean "nothing configured", compared by type: `isinstance` against the API's
# abstract classes goes through `ABCMeta.__instancecheck__`, several calls each time.
_NOT_TRACING = frozenset((trace.ProxyTracerProvider, trace.NoOpTracerProvider))

_TRACE_GLOBALS: dict[str, Any] = trace.get_tracer_provider.__globals__
_METER_GLOBALS: dict[str, Any] = metrics.get_meter_provider.__globals__
_TRACER_NAME, _METER_NAME = "_TRACER_PROVIDER", "_METER_PROVIDER"
_READABLE = _TRACER_NAME in _TRACE_GLOBALS and _METER_NAME in _METER_GLOBALS

_UNSEEN = object()  # no provider object is this: the first question always decides


class _Seen:
    """The last provider object each question saw, and the answer made for it (the answer written first, so a
    thread that reads the object already seen never reads an answer made for another)."""

    tracer: object = _UNSEEN
    tracing = False
    meter: object = _UNSEEN
    metering = False


def tracing() -> bool:
    """True while the process has a tracer provider that records (not the API's proxy or no-op default)."""
    if not _READABLE:
        return _records(trace.get_tracer_provider())
    provider = _TRACE_GLOBALS[_TRACER_NAME]
    if provider is not _Seen.tracer:
        _Seen.tracing = _records(trace.get_tracer_provider() if provider is None else provider)
        _Seen.tracer = provider
    return _Seen.tracing


def metering() -> bool:
    """True while the process has a meter provider (not the API's no-op or its default proxy)."""
    if not _READABLE:
        return _meters(metrics.get_meter_provider())
    provider = _METER_GLOBALS[_METER_NAME]
    if provider is not _Seen.meter:
        _Seen.metering = _meters(metrics.get_meter_provider() if provider is None else provider)
        _Seen.meter = provider
    return _Seen.metering


def observing() -> bool:
    """Either of the two, as one question: a request's entry asks it first, off with no further call."""
    if _READABLE and _TRACE_GLOBALS[_TRACER_NAME] is _Seen.tracer and _METER_GLOBALS[_METER_NAME] is _Seen.meter:
        return _Seen.tracing or _Seen.metering
    return tracing() or metering()


def _records(provider: object) -> bool:
    return type(provider) not in _NOT_TRACING


def _meters(provider: object) -> bool:
    """The API exports no name for its default proxy provider (`_ProxyMeterProvider`), so it is known by its
    class's name."""
    kind = type(provider)
    return kind is not metrics.NoOpMeterProvider and kind.__name__ != "_ProxyMeterProvider"

"""A flow as OpenTelemetry sees it: askback's attributes on the span of each round, links between rounds, metrics.

The span of a request is the MCP conventions' (`askback.mcp.tracing`, the SDK's middleware on both entries); a
round adds what the conventions have no name for (a proposal, `docs/observability.md`): the result type, the
round's number, the flow's id as a keyed hash, the names of the questions asked and how the flow ended. The span
context of a round that asks travels inside the sealed state (`Envelope.link`) or the task record, so the next
round's span links to it, whichever replica serves it: a flow of three rounds is one linked trace.

Nothing a person typed reaches a span or a metric from here: question names are the tool author's parameter
names, the flow id is an HMAC of the random id under a key derived from the key ring (never the state), and
refusal reasons are fixed codes. Everything is done only while a tracer or a meter provider is configured; off,
a round asks `askback.telemetry.providers` (an answer kept for the provider object: a lookup, no OpenTelemetry
call) and does nothing else.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Sequence
from typing import Literal

from opentelemetry import metrics, trace
from opentelemetry.trace import Span, SpanContext, TraceFlags

from askback.telemetry.providers import metering, tracing

# The conventions' bucket boundaries for `mcp.server.operation.duration` (seconds).
DURATION_BUCKETS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)

ResultType = Literal["complete", "input_required", "task"]
Outcome = Literal["completed", "declined", "cancelled", "refused", "expired", "rejected", "failed"]

RESULT_TYPE = "askback.result.type"
ROUND = "askback.round"
FLOW_ID = "askback.flow.id"
QUESTIONS = "askback.questions"
OUTCOME = "askback.outcome"
REFUSAL_REASON = "askback.refusal.reason"
REJECTION_REASON = "askback.rejection.reason"

_LINK = struct.Struct(">16s8sB")  # trace id, span id, trace flags: what a W3C traceparent carries
_METER = metrics.get_meter("askback")
_FLOWS = _METER.create_counter("askback.flows", unit="{flow}", description="Flows ended, by how they ended.")
_ROUNDS = _METER.create_histogram(
    "askback.flow.rounds", unit="{round}", description="Rounds a flow took, counted when it ends.",
    explicit_bucket_boundaries_advisory=[1, 2, 3, 4, 5, 6, 8, 10, 16])
DURATION = _METER.create_histogram(
    "mcp.server.operation.duration", unit="s",
    description="MCP request duration as observed on the receiver, from receipt until the result is sent.",
    explicit_bucket_boundaries_advisory=list(DURATION_BUCKETS))


def current_span() -> Span | None:
    """The recording span of this request (the MCP span of either entry), or None while nothing records.

    Off, the answer `tracing()` keeps for the provider object is enough: the current span (a context variable
    behind four of the API's calls) is read only while a tracer provider is set."""
    if not tracing():
        return None
    span = trace.get_current_span()
    return span if span.is_recording() else None


def current_link() -> bytes | None:
    """The span context of the current span, packed to travel in a sealed state or a task record; or None."""
    span = current_span() if tracing() else None
    if span is None:
        return None
    ctx = span.get_span_context()
    return _LINK.pack(ctx.trace_id.to_bytes(16, "big"), ctx.span_id.to_bytes(8, "big"), int(ctx.trace_flags))


def linked_context(link: bytes | None) -> SpanContext | None:
    """The span context `current_link` packed, as a remote one; None for anything else."""
    if link is None or len(link) != _LINK.size:
        return None
    trace_id, span_id, flags = _LINK.unpack(link)
    ctx = SpanContext(int.from_bytes(trace_id, "big"), int.from_bytes(span_id, "big"), is_remote=True,
                      trace_flags=TraceFlags(flags & 0xFF))
    return ctx if ctx.is_valid else None


class FlowTelemetry:
    """askback's attributes and metrics for the rounds of one runtime's flows."""

    def __init__(self, flow_key: bytes) -> None:
        self._key = flow_key  # derived from the key ring under its own label: no other use

    def flow_id(self, raw: bytes) -> str:
        """The flow's id as spans show it: a keyed hash, the same on every replica sharing the key ring."""
        return hmac.new(self._key, raw, hashlib.sha256).hexdigest()[:32]

    def round(self, span: Span, raw_flow_id: bytes, number: int, previous: bytes | None) -> None:
        """A round began: its flow, its number, and the link to the round before it (its span, sealed with it)."""
        span.set_attributes({FLOW_ID: self.flow_id(raw_flow_id), ROUND: number})
        before = linked_context(previous)
        if before is not None:
            span.add_link(before, {"askback.link": "previous_round"})

    @staticmethod
    def asked(span: Span | None, questions: Sequence[str]) -> None:
        if span is not None:
            span.set_attributes({RESULT_TYPE: "input_required", QUESTIONS: list(questions)})

    @staticmethod
    def task(span: Span | None) -> None:
        if span is not None:
            span.set_attribute(RESULT_TYPE, "task")

    @staticmethod
    def ended(span: Span | None, outcome: Outcome, rounds: int, why: str | None = None) -> None:
        """The flow ended in this round: the span says how, and the flow metrics count it."""
        if span is not None:
            attributes: dict[str, str] = {OUTCOME: outcome}
            if outcome != "expired" and outcome != "rejected":
                attributes[RESULT_TYPE] = "complete"
            if why is not None:
                attributes[REJECTION_REASON if outcome in ("expired", "rejected") else REFUSAL_REASON] = why
            span.set_attributes(attributes)
        if metering():
            labels = {OUTCOME: outcome} if why is None or outcome in ("expired", "rejected") else {
                OUTCOME: outcome, REFUSAL_REASON: why}
            _FLOWS.add(1, labels)
            if rounds:
                _ROUNDS.record(rounds, {OUTCOME: outcome})


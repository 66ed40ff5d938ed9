"""The secret guard against the corpora of tests/corpora/names.py (via tests/core/test_secrets.py), end to end.

Every credential-like term the guard refuses as a text is refused as a form field too: at registration (as a
parameter's name where it is one, and as its description), and at send time by the per-form guard (as a field's
name and its title). Every ordinary term it accepts as a text is accepted: a tool whose parameter carries it
registers, is asked for over real HTTP with the term in its form, and completes with the answer.
"""


import keyword
import time
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any

import pytest
from pydantic import Field

import askback
from askback.guard import SecretInForm, credential_term, guard_form
from tests.conftest import LoopbackServer
from tests.core.test_secrets import CREDENTIALS as CORPUS_CREDENTIALS
from tests.core.test_secrets import ORDINARY_TEXTS
from tests.stress.conftest import key_text
from tests.support.rawclient import RawClient, accept

# The terms the guard reads as the corpus labels them (its rate on the corpus is held to a floor in
# tests/test_guard_corpora.py): here every channel must agree with it, whatever that rate is.
CREDENTIALS = [t for t in CORPUS_CREDENTIALS if credential_term(t) is not None]
ORDINARY = [t for t in ORDINARY_TEXTS if credential_term(t) is None]


def _name(term: str) -> bool:
    """Whether `term` can be a parameter's name as written (Python folds identifiers with NFKC)."""
    return term.isidentifier() and not keyword.iskeyword(term) and unicodedata.normalize("NFKC", term) == term


def _tool(app: askback.App, term: str, *, as_name: bool) -> None:
    """Register a tool with one parameter carrying `term` (as its name when it is an identifier)."""
    name = term if as_name else "value"
    namespace: dict[str, Any] = {"Annotated": Annotated, "Field": Field}
    exec(f"def fn({name}: Annotated[str, Field(description={term!r})]) -> str:\n    return {name}\n", namespace)
    fn = namespace["fn"]
    app.tool(name=f"t{len(app.tools)}")(fn)


def test_credential_terms_are_refused_at_registration_and_per_form(report: Callable[..., None]) -> None:
    assert len(CREDENTIALS) >= 50
    refused = 0
    for term in CREDENTIALS:
        for as_name in ({False, _name(term)}):
            with pytest.raises(SecretInForm):
                _tool(askback.App("guard"), term, as_name=as_name)
        with pytest.raises(SecretInForm):
            guard_form("tool 't'", {"type": "object", "properties": {"value": {"type": "string", "title": term}}})
        if _name(term):
            with pytest.raises(SecretInForm):
                guard_form("tool 't'", {"type": "object", "properties": {term: {"type": "string"}}})
        refused += 1
    report(credential_terms=len(CREDENTIALS), refused=refused)


def test_ordinary_terms_are_asked_for_and_complete_over_http(report: Callable[..., None]) -> None:
    assert len(ORDINARY) >= 50
    app = askback.App("ordinary", keys=key_text(31), store="memory://")
    for term in ORDINARY:
        _tool(app, term, as_name=_name(term) and term not in ("ok",))
    completed = 0
    with LoopbackServer(app) as server, RawClient(server.url, capabilities={"elicitation": {"form": {}}}) as c:
        for number, term in enumerate(ORDINARY):
            tool = f"t{number}"
            asked = c.call(tool)["result"]
            assert asked["resultType"] == "input_required", (term, asked)
            [(key, request)] = asked["inputRequests"].items()
            [(field, schema)] = request["params"]["requestedSchema"]["properties"].items()
            assert term in (field, schema.get("description")), (term, request)
            done = c.call(tool, responses={key: accept(**{field: "fine"})}, state=asked["requestState"])["result"]
            assert done["resultType"] == "complete" and done["content"][0]["text"] == "fine", (term, done)
            completed += 1
    report(ordinary_terms=len(ORDINARY), asked_and_completed=completed)


def test_time_per_form(report: Callable[..., None]) -> None:
    """Time to guard a typical four-field form with a message (the guard keeps no memo: a server's flow checks
    each distinct form once and remembers it by fingerprint)."""
    form = {"type": "object", "properties": {
        "recipient": {"type": "string", "title": "Recipient", "description": "Name of the person to pay"},
        "iban": {"type": "string", "title": "IBAN", "description": "The recipient's IBAN"},
        "amount": {"type": "number", "title": "Amount", "description": "Amount to send, in EUR"},
        "max_tokens": {"type": "integer", "description": "Maximum tokens to generate"},
    }}
    rounds = 300
    start = time.perf_counter()
    for i in range(rounds):
        guard_form("tool 't'", form, message=f"Payment {i}: who gets the money?")
    per_form = (time.perf_counter() - start) / rounds
    report(form_us=round(per_form * 1e6, 1))

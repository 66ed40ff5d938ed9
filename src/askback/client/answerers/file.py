"""Answer from a JSON file (or a mapping): by question key, or by form field name; URL steps if it says so."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TextIO

from askback.client.answerers.base import Asked, Postpone
from askback.client.errors import AnswerError, AnswerRejected, UnknownQuestion
from askback.client.inert import one_line
from askback.client.links import Link
from askback.client.questions import (
    FormQuestion,
    Question,
    RootsQuestion,
    SamplingQuestion,
    UrlQuestion,
    response_for,
)
from askback.client.secret_forms import screen
from askback.types import Capabilities

ACCEPT_URL = "accept_url"


class FileAnswerer:
    """Answers from a JSON object mapping question keys or field names to values.

    For a form question, the entry under its key is used if there is one: an object of field → value, a bare
    value for a one-field form, or a whole answer such as `{"action": "decline"}`. Otherwise each field is
    looked up by its name; a field with no entry takes its default, or stays empty if it is optional. A
    question nothing answers raises `UnknownQuestion` naming it (or, with `missing="postpone"`, postpones the
    round so it can be saved). Answers are validated before they are sent; a question the server asks again
    after it was answered from the file raises `AnswerRejected` with the server's reason.

    A sampling question is answered by the entry under its key, else by `"sampling"` (so one file works in
    both eras: a handshake-era server's sampling request has no key of its own); a roots question by its key,
    else by `"roots"`.

    A URL step (a page to visit) is accepted when the file says so: `"accept_url": true` for every one,
    `"accept_url": ["api_key", ...]` for those keys, or `true` under the question's own key (`false`
    declines it). Accepting one writes its URL (and what looks wrong about it) to `output`, standard error by
    default, so that a person or a script can take the step; the client then waits for it to be finished.
    `url` (what is declared to the server) defaults to whether the file accepts any URL step.

    A form that asks for a credential (a password, an API key...) is not filled from the file, nor an answer
    that looks like one sent, unless `allow_secret_forms` (or the client's own): the call stops with
    `SecretForm` naming the field, and the server is told the form was declined.
    """

    screens_secret_forms = True  # the guard runs here (`Client` need not run it again)

    def __init__(
        self,
        answers: str | os.PathLike[str] | Mapping[str, Any],
        *,
        url: bool | None = None,
        sampling: bool = False,
        roots: bool = False,
        missing: Literal["error", "postpone"] = "error",
        output: TextIO | None = None,
        allow_secret_forms: bool = False,
    ) -> None:
        self.allow_secret_forms = allow_secret_forms
        if isinstance(answers, Mapping):
            self.answers: dict[str, Any] = dict(answers)
        else:
            try:
                data = json.loads(Path(answers).read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise AnswerError(f"cannot read the answers file {os.fspath(answers)}: {exc}") from None
            if not isinstance(data, dict):
                raise AnswerError(f"the answers file {os.fspath(answers)} must hold a JSON object")
            self.answers = data
        self.accept_url = _accept_url(self.answers.pop(ACCEPT_URL, False))
        self.missing = missing
        self.output = output
        self._capabilities = Capabilities(
            form=True, url=bool(self.accept_url) if url is None else url, sampling=sampling, roots=roots
        )
        self._answered: set[str] = set()
        self._urls: dict[str, str] = {}  # URL question key -> the URL accepted: a new URL is a new step

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    async def answer(self, asked: Asked) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for question in asked.questions:
            if question.key in self._answered and not (
                isinstance(question, UrlQuestion) and self._urls.get(question.key) != question.url
            ):
                message = question.message if isinstance(question, FormQuestion) else "asked again"
                raise AnswerRejected(question.key, message)
            try:
                value = self._lookup(question)
            except UnknownQuestion:
                if self.missing == "postpone":
                    raise Postpone() from None
                raise
            out[question.key] = response_for(question, value)
        screen(asked.questions, out, allowed=self.allow_secret_forms or asked.allow_secret_forms)
        for question in asked.questions:  # said only once the whole round is answered (none is postponed)
            if isinstance(question, UrlQuestion) and out[question.key].get("action") == "accept":
                self._urls[question.key] = question.url
                self._tell_url(question, asked)
        self._answered.update(out)
        return out

    @property
    def _out(self) -> TextIO:
        return self.output if self.output is not None else sys.stderr

    def _say(self, text: str) -> None:
        self._out.write(f"askback: {text}\n")
        self._out.flush()

    def _tell_url(self, question: UrlQuestion, asked: Asked) -> None:
        link = Link.of(question.url)
        about = f": {one_line(question.message)}" if question.message else ""
        self._say(f"{one_line(asked.server)} asks for a step on a web page ({one_line(question.key)}){about}")
        self._say(f"open {one_line(question.url)}")
        self._say(f"host {link.host_text or '(none)'}")
        for warning in link.warnings(asked.server_url):
            self._say(f"warning: {warning}")

    def waiting(self, asked: Asked, seconds: float) -> None:
        """Said once when the client starts waiting for the page step to be finished."""
        self._say(f"waiting for the page step to finish… (at most {seconds:g} s)")

    def _lookup(self, question: Question) -> Any:
        if question.key in self.answers:
            return self.answers[question.key]
        if isinstance(question, FormQuestion):
            named = {f.name: self.answers[f.name] for f in question.fields if f.name in self.answers}
            if not named and not any(f.has_default for f in question.fields):
                raise UnknownQuestion(question.key, tuple(f.name for f in question.fields), asks=question.message)
            unanswered = tuple(
                f.name for f in question.fields if f.required and not f.has_default and f.name not in named
            )
            if unanswered:
                raise UnknownQuestion(question.key, unanswered, asks=question.message)
            return named
        if isinstance(question, RootsQuestion) and "roots" in self.answers:
            return self.answers["roots"]
        if isinstance(question, UrlQuestion):
            if self.accept_url is True or (isinstance(self.accept_url, frozenset) and question.key in self.accept_url):
                return True
            raise UnknownQuestion(
                question.key, hint=f'a step on a web page: "{ACCEPT_URL}": true in the answers accepts it'
            )
        if isinstance(question, SamplingQuestion) and "sampling" in self.answers:
            # One spelling for both eras: a 2026-07-28 server keys its sampling question as it likes, a
            # handshake-era one asks over the session (keyed `sampling-N` here); `"sampling"` answers either.
            return self.answers["sampling"]
        raise UnknownQuestion(question.key)


def _accept_url(value: Any) -> bool | frozenset[str]:
    """`"accept_url"` in an answers file: true / false, or the keys of the URL questions to accept."""
    if isinstance(value, bool):
        return value
    if isinstance(value, list) and all(isinstance(key, str) for key in value):
        return frozenset(value)
    raise AnswerError(f'"{ACCEPT_URL}" in the answers must be true, false or a list of question keys')

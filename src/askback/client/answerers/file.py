"""Answer from a JSON file (or a mapping): by question key, or by form field name."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from askback.client.answerers.base import Asked, Postpone
from askback.client.errors import AnswerError, AnswerRejected, UnknownQuestion
from askback.client.questions import FormQuestion, Question, RootsQuestion, SamplingQuestion, response_for
from askback.types import Capabilities


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
    """

    def __init__(
        self,
        answers: str | os.PathLike[str] | Mapping[str, Any],
        *,
        url: bool = False,
        sampling: bool = False,
        roots: bool = False,
        missing: Literal["error", "postpone"] = "error",
    ) -> None:
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
        self.missing = missing
        self._capabilities = Capabilities(form=True, url=url, sampling=sampling, roots=roots)
        self._answered: set[str] = set()

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    async def answer(self, asked: Asked) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for question in asked.questions:
            if question.key in self._answered:
                message = question.message if isinstance(question, FormQuestion) else "asked again"
                raise AnswerRejected(question.key, message)
            try:
                value = self._lookup(question)
            except UnknownQuestion:
                if self.missing == "postpone":
                    raise Postpone() from None
                raise
            out[question.key] = response_for(question, value)
        self._answered.update(out)
        return out

    def _lookup(self, question: Question) -> Any:
        if question.key in self.answers:
            return self.answers[question.key]
        if isinstance(question, FormQuestion):
            named = {f.name: self.answers[f.name] for f in question.fields if f.name in self.answers}
            if not named and not any(f.has_default for f in question.fields):
                raise UnknownQuestion(question.key, tuple(f.name for f in question.fields))
            unanswered = tuple(
                f.name for f in question.fields if f.required and not f.has_default and f.name not in named
            )
            if unanswered:
                raise UnknownQuestion(question.key, unanswered)
            return named
        if isinstance(question, RootsQuestion) and "roots" in self.answers:
            return self.answers["roots"]
        if isinstance(question, SamplingQuestion) and "sampling" in self.answers:
            # One spelling for both eras: a 2026-07-28 server keys its sampling question as it likes, a
            # handshake-era one asks over the session (keyed `sampling-N` here); `"sampling"` answers either.
            return self.answers["sampling"]
        raise UnknownQuestion(question.key)

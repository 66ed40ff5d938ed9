"""Answer in a terminal: a person reads each question and types the answers.

Prompts go to standard error (standard output stays for the result), answers are read from standard input.
Every field shows its title, description, default and constraints; a bad entry is explained and asked again
on the spot; a round of several answers is reviewed (and any answer changed) before it is sent. At any
prompt, `/decline` says no to the question, `/cancel` dismisses the whole call (the round's other questions are
not asked: their answers could never be used), `?` shows help. A URL step shows the
whole URL with its host set apart and what looks wrong about it (`links.Link.warnings`), and opens a browser
only when the person agrees; the client then waits for the page step to finish (told once, by `waiting`).

A form whose field or message asks for a credential (`askback.client.secret_forms`) is named with a warning,
and the person must say yes before typing (no, the default, declines the form); a value that looks like a
credential typed into any other field is sent only once the person says yes to a second warning.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import unicodedata
import webbrowser
from collections.abc import Callable, Mapping
from typing import Any, TextIO

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread

from askback.client.answerers.base import Asked
from askback.client.errors import NoMoreInput
from askback.client.inert import one_line, shown
from askback.client.links import Link
from askback.client.questions import (
    Field,
    FormQuestion,
    Question,
    RootsQuestion,
    SamplingQuestion,
    UrlQuestion,
    accept,
    cancel,
    decline,
    roots,
    sampled,
)
from askback.client.secret_forms import looks_secret, secret_asks, warning_lines
from askback.types import Capabilities

HELP = """\
  Type the value and press Enter. For a choice, type its number or its name; for several, separate them
  with commas. An empty line takes the default shown in [brackets].
  /decline   say no to this question        /cancel   stop the call: dismiss every question unanswered
  ?          this help                      Ctrl-C    stop the program"""


class _Action(Exception):
    def __init__(self, action: str) -> None:
        self.action = action


_SKIP: Any = object()
_DONE = {"decline": "declined", "cancel": "cancelled"}  # what a person's /decline or /cancel did, in words


class Style:
    """ANSI styling, on only for a terminal that wants it (not with NO_COLOR or TERM=dumb)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    @classmethod
    def for_stream(cls, stream: TextIO) -> Style:
        wanted = "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
        return cls(wanted and hasattr(stream, "isatty") and stream.isatty())

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def label(self, text: str) -> str:
        return self._wrap("1;36", text)

    def error(self, text: str) -> str:
        return self._wrap("31", text)

    def warn(self, text: str) -> str:
        return self._wrap("1;33", text)

    def ok(self, text: str) -> str:
        return self._wrap("32", text)


def system_browser() -> Callable[[str], bool] | None:
    """`webbrowser.open` when there is a browser to run (`$BROWSER`, a desktop's or a console one), else None."""
    try:
        webbrowser.get()
    except webbrowser.Error:
        return None
    return webbrowser.open


def _SYSTEM_BROWSER(url: str) -> bool:  # a marker default: "look for the system's browser"
    raise AssertionError("replaced by system_browser() before use")


class TerminalAnswerer:
    """Asks a person in a terminal. Declares forms and URL steps; sampling and roots only when asked to.

    `sampling=True` lets the person answer a server's request for a model's reply (or route those to a model
    with `Client(sampler=...)`); `roots=True` lets the person list the roots to expose. `open_browser` opens a
    URL the person agreed to (default: the system's browser, when `webbrowser` finds one; None: never).
    """

    screens_secret_forms = True  # the person is warned and asked here (`Client` need not refuse on its own)

    def __init__(
        self,
        *,
        url: bool = True,
        sampling: bool = False,
        roots: bool = False,
        input: TextIO | None = None,
        output: TextIO | None = None,
        open_browser: Callable[[str], bool] | None = _SYSTEM_BROWSER,
        style: Style | None = None,
    ) -> None:
        self._capabilities = Capabilities(form=True, url=url, sampling=sampling, roots=roots)
        self.input = input
        self.output = output
        self.open_browser = open_browser
        self._style = style

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    # -- I/O ------------------------------------------------------------------------------------------------
    @property
    def _out(self) -> TextIO:
        return self.output if self.output is not None else sys.stderr

    @property
    def _in(self) -> TextIO:
        return self.input if self.input is not None else sys.stdin

    @property
    def style(self) -> Style:
        if self._style is None:
            self._style = Style.for_stream(self._out)
        return self._style

    def say(self, text: str = "") -> None:
        self._out.write(text + "\n")
        self._out.flush()

    async def read(self, prompt: str, *, hidden: bool = False) -> str:
        """One line from the person; cancellable (a deadline can stop a prompt that waits).

        `hidden`: a credential the person agreed to type; a terminal does not echo it, as at a password prompt.
        """
        self._out.write(prompt)
        self._out.flush()
        line = await _read_line(self._in, hidden=hidden)
        if hidden:
            self._out.write("\n")  # the Enter that was not echoed
        if line is None:
            raise NoMoreInput("the input ended before the question was answered")
        text = line.rstrip("\r\n")
        if text.strip() == "?":
            self.say(self.style.dim(HELP))
            return await self.read(prompt, hidden=hidden)
        return text

    async def read_command(self, prompt: str, *, hidden: bool = False) -> str:
        """Like `read`, but `/decline` and `/cancel` end the question."""
        text = await self.read(prompt, hidden=hidden)
        command = text.strip().lower()
        if command in ("/decline", "/d"):
            raise _Action("decline")
        if command in ("/cancel", "/c"):
            raise _Action("cancel")
        return text

    # -- a round --------------------------------------------------------------------------------------------
    async def answer(self, asked: Asked) -> dict[str, dict[str, Any]]:
        s = self.style
        count = len(asked.questions)
        what = {"tools/call": "the tool", "prompts/get": "the prompt", "resources/read": "the resource"}
        self.say()
        self.say(
            s.bold(f"{one_line(asked.server)} asks {count} question{'s' if count != 1 else ''}")
            + f" for {what.get(asked.method, asked.method)} {s.bold(one_line(asked.target))}"
            + (s.dim(f" (round {asked.round})") if asked.round > 1 else "")
            + s.dim("   ? for help")
        )
        answers: dict[str, dict[str, Any]] = {}
        for number, question in enumerate(asked.questions, 1):
            answers[question.key] = await self._ask(question, number, count, asked)
            if answers[question.key].get("action") == "cancel":
                if number < count:
                    self.say(s.dim("  The other questions are not asked."))
                return _cancelled_all(asked)  # the call is over: asking the rest would waste the person's answers
        # A round of one form field was just answered at its own prompt: reviewing it again would only make the
        # person say the same thing twice (a confirmation, say). Several answers are reviewed before sending.
        fields = sum(
            len(q.fields) if isinstance(q, FormQuestion) else 1
            for q in asked.questions
            if not isinstance(q, UrlQuestion)
        )
        if fields > 1:
            await self._review(asked, answers)
        return answers

    async def _ask(self, question: Question, number: int, count: int, asked: Asked) -> dict[str, Any]:
        s = self.style
        self.say()
        prefix = s.dim(f"[{number}/{count}] ") if count > 1 else ""
        if isinstance(question, FormQuestion):
            self.say(prefix + _indent(shown(question.message or f"{asked.server} asks:"), first=""))
            content: dict[str, Any] = {}
            try:
                secret = await self._agree_to_secret(question)
                if secret is None:
                    self.say(s.dim(f"  {_DONE['decline']}."))
                    return decline()
                for f in question.fields:
                    value = await self._ask_field(f, question.message, secret=f.name in secret)
                    if value is not _SKIP:
                        content[f.name] = value
            except _Action as chosen:
                self.say(s.dim(f"  {_DONE[chosen.action]}."))
                return {"action": chosen.action}
            return accept(content)
        try:
            if isinstance(question, UrlQuestion):
                return await self._ask_url(question, prefix, asked)
            if isinstance(question, SamplingQuestion):
                return await self._ask_sample(question, prefix)
            assert isinstance(question, RootsQuestion)
            return await self._ask_roots(prefix)
        except _Action as chosen:
            self.say(s.dim(f"  {_DONE[chosen.action]}."))
            return {"action": chosen.action}

    async def _agree_to_secret(self, question: FormQuestion) -> frozenset[str] | None:
        """For a form that asks for a credential: the warning, and the person's yes (the fields they agreed to
        type a credential into) or no (None: the form is declined). An ordinary form: no fields, no question."""
        asks = secret_asks(question)
        if not asks:
            return frozenset()
        for line in warning_lines(asks):
            self.say(self.style.warn(one_line(line)))
        return frozenset(ask.field for ask in asks) if await self._yes("  Type it anyway? [y/N]: ") else None

    async def _yes(self, prompt: str) -> bool:
        """A yes or no, no by default (an empty line); `/decline` and `/cancel` work as at every prompt."""
        while True:
            text = (await self.read_command(prompt)).strip().lower()
            if text in ("", "n", "no"):
                return False
            if text in ("y", "yes"):
                return True
            self.say(self.style.error("    Answer y or n (or /decline, /cancel)."))

    async def _ask_field(self, f: Field, message: str = "", *, secret: bool = False) -> Any:
        """One field's value. `secret`: the person agreed to type a credential here, so a value that looks like
        one is not warned about a second time."""
        s = self.style
        label = one_line(f.label)
        heading = "  " + s.label(label)
        if f.required:
            heading += s.dim("  (required)")
        self.say(heading)
        if f.description and f.description not in (f.label, message.strip()):
            self.say(_indent(shown(f.description), first="    "))
        for index, choice in enumerate(f.choices, 1):
            entry = one_line(choice.label)
            if choice.title is not None and str(choice.value) != choice.title:
                entry += s.dim(f"  [{one_line(choice.value)}]")
            self.say(f"    {index}) {entry}")
        rules = f.constraints()
        if f.choices:
            rules = [rules[0] + (": numbers or names, separated by commas" if f.multiple else ": a number or a name")]
        if rules:
            self.say(s.dim("    " + ", ".join(rules)))
        default = one_line(f.show(f.default)) if f.has_default else None
        if f.type == "boolean" and not f.choices:
            hint = "[Y/n]" if f.default is True else "[y/N]" if f.default is False else "[y/n]"
        else:
            hint = f"[{default}]" if default is not None else ("" if f.required else s.dim("[Enter to skip]"))
        prompt = f"  {label} {hint}".rstrip() + ": "
        while True:
            text = await self.read_command(prompt, hidden=secret)
            if not text.strip():
                if f.has_default:
                    return f.default
                if not f.required:
                    return _SKIP
                self.say(s.error("    A value is required (or /decline, /cancel)."))
                continue
            try:
                value = f.parse(text)
            except ValueError as exc:
                self.say(s.error(f"    Not accepted: {one_line(exc)}. Try again."))
                continue
            if secret or await self._send_lookalike(f, value):
                return value

    async def _send_lookalike(self, f: Field, value: Any) -> bool:
        """Whether to send `value`: yes for an ordinary one; for one that looks like a credential, the person's
        answer to a warning (no: the field is asked again)."""
        label = looks_secret(f, value)
        if label is None:
            return True
        s = self.style
        self.say(s.warn(f"    ⚠ That looks like {label}. A value sent in a form passes through this client and may "
                        "reach the model; a secret belongs on the server's own page."))
        if await self._yes("    Send it anyway? [y/N]: "):
            return True
        self.say(s.dim("    Not sent. Type another value (or /decline)."))
        return False

    async def _ask_url(self, question: UrlQuestion, prefix: str, asked: Asked) -> dict[str, Any]:
        s = self.style
        link = Link.of(question.url)
        message = f": {_indent(shown(question.message), first='')}" if question.message else ""
        self.say(prefix + s.bold("A step on a web page") + message)
        # The whole URL, with its host set apart where it stands in the text (a colour is not always shown).
        self.say("    " + link.before + s.warn(link.host_text) + link.after)
        if link.host_text:
            self.say("    " + " " * _width(link.before) + s.warn("^" * max(1, _width(link.host_text))))
        self.say("    host: " + s.warn(link.host_text or "(none)"))
        for warning in link.warnings(asked.server_url):
            self.say(s.warn(f"    ! {warning}"))
        browser = self._browser() if link.web else None
        if browser is None:
            where = "open the URL above yourself" if link.web else "it is not opened"
            self.say(f"    No browser to open here: {where}." if link.web else f"    {where.capitalize()}.")
            await self.read_command("  Press Enter to go on (the client then waits for the page step), or /decline: ")
            return accept()
        while True:
            text = (
                (await self.read_command("  Open it in your browser? [y]es, [n]o: I will open it myself, /decline: "))
                .strip()
                .lower()
            )
            if text in ("y", "yes"):
                try:
                    opened = bool(await anyio.to_thread.run_sync(browser, question.url, abandon_on_cancel=True))
                except Exception:
                    opened = False
                self.say(
                    "    Opened in your browser."
                    if opened
                    else "    The browser could not be started: open the URL above yourself."
                )
                return accept()
            if text in ("n", "no"):
                self.say("    Not opened: open the URL above yourself.")
                return accept()
            self.say(s.error("    Answer y or n (or /decline, /cancel)."))

    def _browser(self) -> Callable[[str], bool] | None:
        if self.open_browser is _SYSTEM_BROWSER:
            self.open_browser = system_browser()
        return self.open_browser

    def task_status(self, task_id: str, status: str, message: str | None) -> None:
        """Each change of the task the server runs for the call, on one dim line (the server's words inert)."""
        words = {"working": "working", "input_required": "waiting for answers"}.get(status, status)
        said = f"  The server's task is {one_line(words)}" + (f": {one_line(message)}" if message else "")
        self.say(self.style.dim(said + ("  (Ctrl-C cancels it)" if status == "working" else "")))

    def waiting(self, asked: Asked, seconds: float) -> None:
        """Said once when the client starts waiting for the page step the person agreed to take."""
        self.say(self.style.dim(f"  Waiting for the page step to finish… (Ctrl-C to stop; at most {seconds:g} s)"))

    async def _ask_sample(self, question: SamplingQuestion, prefix: str) -> dict[str, Any]:
        s = self.style
        self.say(prefix + s.bold("The server asks for a model's reply; you answer in its place."))
        if question.system_prompt:
            self.say(_indent(shown(question.system_prompt), first="    system: "))
        for role, text in question.messages:
            self.say(_indent(shown(text), first=f"    {one_line(role)}: "))
        if question.max_tokens:
            self.say(s.dim(f"    (at most about {question.max_tokens} tokens)"))
        while True:
            text = await self.read_command("  Reply: ")
            if text.strip():
                return sampled(text.strip(), model="person")
            self.say(s.error("    A reply is required (or /decline, /cancel)."))

    async def _ask_roots(self, prefix: str) -> dict[str, Any]:
        self.say(prefix + self.style.bold("The server asks which directories (roots) it may see."))
        text = await self.read_command("  Paths or URIs, separated by commas [the current directory]: ")
        items = [p.strip() for p in text.split(",") if p.strip()] or [os.getcwd()]
        return roots(items)

    # -- review ---------------------------------------------------------------------------------------------
    async def _review(self, asked: Asked, answers: dict[str, dict[str, Any]]) -> None:
        s = self.style
        while True:
            items: list[tuple[Question, Field | None]] = []
            self.say()
            self.say(s.bold("Your answers:"))
            for q in asked.questions:
                answer = answers[q.key]
                if isinstance(q, FormQuestion) and answer.get("action") == "accept":
                    content = answer.get("content", {})
                    for f in q.fields:
                        items.append((q, f))
                        value = one_line(f.show(content[f.name])) if f.name in content else s.dim("(empty)")
                        if f.name in content and _asks_secret(q, f):
                            value = s.dim("(typed, not shown)")  # a credential is not put back on the screen
                        self.say(f"  {len(items)}. {one_line(f.label)}: {value}")
                else:
                    items.append((q, None))
                    self.say(f"  {len(items)}. {one_line(_title(q))}: {one_line(_summary(answer))}")
            text = await self.read("Send these answers? [Y]es, a number to change it, /decline or /cancel all: ")
            command = text.strip().lower()
            if command in ("", "y", "yes"):
                return
            if command in ("/decline", "/d", "/cancel", "/c"):
                action = "decline" if command.startswith("/d") else "cancel"
                for key in answers:
                    answers[key] = decline() if action == "decline" else cancel()
                self.say(s.dim(f"  All {_DONE[action]}."))
                return
            if command.isdigit() and 1 <= int(command) <= len(items):
                q, chosen_field = items[int(command) - 1]
                if chosen_field is None:
                    answers[q.key] = await self._ask(q, 1, 1, asked)
                    if answers[q.key].get("action") == "cancel":
                        answers.update(_cancelled_all(asked))
                        return
                else:
                    try:
                        value = await self._ask_field(
                            chosen_field,
                            q.message if isinstance(q, FormQuestion) else "",
                            secret=isinstance(q, FormQuestion) and _asks_secret(q, chosen_field),
                        )
                    except _Action as chosen:
                        if chosen.action == "cancel":
                            self.say(s.dim(f"  All {_DONE['cancel']}."))
                            answers.update(_cancelled_all(asked))
                            return
                        answers[q.key] = {"action": chosen.action}
                        continue
                    content = dict(answers[q.key].get("content", {}))
                    if value is _SKIP:
                        content.pop(chosen_field.name, None)
                    else:
                        content[chosen_field.name] = value
                    answers[q.key] = accept(content)
                continue
            self.say(s.error("  Type y (or Enter) to send, a number to change that answer, /decline or /cancel."))


def _asks_secret(question: FormQuestion, f: Field) -> bool:
    """Whether the field asks for a credential (the person agreed to type one there before the review)."""
    return any(ask.field == f.name for ask in secret_asks(question))


def _cancelled_all(asked: Asked) -> dict[str, dict[str, Any]]:
    """Every question of the round dismissed: what a person's /cancel at any of them means."""
    return {q.key: cancel() for q in asked.questions}


def _title(q: Question) -> str:
    if isinstance(q, FormQuestion):
        return q.fields[0].label if len(q.fields) == 1 else q.key
    return {"url": "web page", "sampling": "model reply", "roots": "roots"}[q.kind]


def _summary(answer: Mapping[str, Any]) -> str:
    if answer.get("action") in _DONE:
        return _DONE[answer["action"]]
    if answer.get("action") == "accept":
        return "going to the page"
    if "roots" in answer:
        return ", ".join(str(r.get("uri")) for r in answer["roots"])
    content = answer.get("content")
    return str(content.get("text", "")) if isinstance(content, Mapping) else ""


def _width(text: str) -> int:
    """Columns `text` takes in a terminal: wide East Asian characters two, combining marks none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _indent(text: str, *, first: str) -> str:
    pad = " " * len(first) if first.strip() else first or ""
    lines = text.splitlines() or [""]
    return "\n".join([first + lines[0], *(pad + line if line else "" for line in lines[1:])])


async def _read_line(stream: TextIO, *, hidden: bool = False) -> str | None:
    """Read a line in a daemon thread, so that a deadline or Ctrl-C never waits for the person to type.

    `hidden`: with echo off when the stream is a terminal (the line is a credential the person agreed to type).
    """
    token = anyio.lowlevel.current_token()
    send, receive = anyio.create_memory_object_stream[tuple[str | None, BaseException | None]](1)

    def worker() -> None:
        try:
            line = _unechoed_line(stream) if hidden else stream.readline()
            item: tuple[str | None, BaseException | None] = (line or None, None)
        except BaseException as exc:
            item = (None, exc)
        with contextlib.suppress(Exception):  # the waiting task is gone (cancelled): nothing to hand over
            anyio.from_thread.run_sync(send.send_nowait, item, token=token)

    threading.Thread(target=worker, name="askback-terminal-input", daemon=True).start()
    with send, receive:
        line, error = await receive.receive()
    if error is not None:
        raise error
    return line


def _unechoed_line(stream: TextIO) -> str:
    """One line read with the terminal's echo off (restored afterwards, whatever happens); a plain line when
    `stream` is no terminal or the platform has no `termios`."""
    try:
        import termios
    except ImportError:  # not a POSIX terminal: nothing to turn off
        return stream.readline()
    try:
        fd = stream.fileno()
        if not os.isatty(fd):
            return stream.readline()
        before = termios.tcgetattr(fd)
    except (OSError, ValueError, termios.error):
        return stream.readline()
    quiet = list(before)
    quiet[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSADRAIN, quiet)
    try:
        return stream.readline()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, before)

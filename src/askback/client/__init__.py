"""The askback client: answer `input_required` for any MCP server, from a terminal, a file or Python.

Names are imported on first use, so a program that needs one part (`askback serve` reading the client's
defaults for its command line, say) does not load the rest, the MCP SDK's types among them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from askback._lazy import lazy_names

if TYPE_CHECKING:
    from askback.client.answerers import (
        Answerer,
        Asked,
        CallableAnswerer,
        FileAnswerer,
        Later,
        Postpone,
        TerminalAnswerer,
    )
    from askback.client.client import CannotPostpone, Client
    from askback.client.errors import (
        AnswerError,
        AnswerRejected,
        ClientError,
        InvalidAnswer,
        InvalidTool,
        NoEndpoint,
        NoMoreInput,
        ProtocolError,
        SecretForm,
        ServerError,
        SignInFailed,
        Unauthorized,
        UnknownQuestion,
    )
    from askback.client.loop import Limits
    from askback.client.pending import (
        DeadlineExceeded,
        PageNotFinished,
        Pending,
        PendingFileError,
        Postponed,
        Server,
        TooManyRounds,
        Unfinished,
    )
    from askback.client.questions import (
        Choice,
        Field,
        FormQuestion,
        Question,
        RootsQuestion,
        SamplingQuestion,
        UrlQuestion,
        accept,
        cancel,
        decline,
        response_for,
        roots,
        sampled,
    )
    from askback.client.signin import SignIn, TokenFile
    from askback.client.tasks import TaskCancelled, TaskFailed

_WHERE = {
    "Answerer": "askback.client.answerers",
    "Asked": "askback.client.answerers",
    "CallableAnswerer": "askback.client.answerers",
    "FileAnswerer": "askback.client.answerers",
    "Later": "askback.client.answerers",
    "Postpone": "askback.client.answerers",
    "TerminalAnswerer": "askback.client.answerers",
    "CannotPostpone": "askback.client.client",
    "Client": "askback.client.client",
    "AnswerError": "askback.client.errors",
    "AnswerRejected": "askback.client.errors",
    "ClientError": "askback.client.errors",
    "InvalidAnswer": "askback.client.errors",
    "InvalidTool": "askback.client.errors",
    "NoEndpoint": "askback.client.errors",
    "NoMoreInput": "askback.client.errors",
    "ProtocolError": "askback.client.errors",
    "SecretForm": "askback.client.errors",
    "ServerError": "askback.client.errors",
    "SignInFailed": "askback.client.errors",
    "Unauthorized": "askback.client.errors",
    "UnknownQuestion": "askback.client.errors",
    "Limits": "askback.client.loop",
    "DeadlineExceeded": "askback.client.pending",
    "PageNotFinished": "askback.client.pending",
    "Pending": "askback.client.pending",
    "PendingFileError": "askback.client.pending",
    "Postponed": "askback.client.pending",
    "Server": "askback.client.pending",
    "TooManyRounds": "askback.client.pending",
    "Unfinished": "askback.client.pending",
    "Choice": "askback.client.questions",
    "Field": "askback.client.questions",
    "FormQuestion": "askback.client.questions",
    "Question": "askback.client.questions",
    "RootsQuestion": "askback.client.questions",
    "SamplingQuestion": "askback.client.questions",
    "UrlQuestion": "askback.client.questions",
    "accept": "askback.client.questions",
    "cancel": "askback.client.questions",
    "decline": "askback.client.questions",
    "response_for": "askback.client.questions",
    "roots": "askback.client.questions",
    "sampled": "askback.client.questions",
    "SignIn": "askback.client.signin",
    "TokenFile": "askback.client.signin",
    "TaskCancelled": "askback.client.tasks",
    "TaskFailed": "askback.client.tasks",
}


__getattr__ = lazy_names(__name__, _WHERE)


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "AnswerError",
    "AnswerRejected",
    "Answerer",
    "Asked",
    "CallableAnswerer",
    "CannotPostpone",
    "Choice",
    "Client",
    "ClientError",
    "DeadlineExceeded",
    "Field",
    "FileAnswerer",
    "FormQuestion",
    "InvalidAnswer",
    "InvalidTool",
    "Later",
    "Limits",
    "NoEndpoint",
    "NoMoreInput",
    "PageNotFinished",
    "Pending",
    "PendingFileError",
    "Postpone",
    "Postponed",
    "ProtocolError",
    "Question",
    "RootsQuestion",
    "SamplingQuestion",
    "SecretForm",
    "Server",
    "ServerError",
    "SignIn",
    "SignInFailed",
    "TaskCancelled",
    "TaskFailed",
    "TerminalAnswerer",
    "TokenFile",
    "TooManyRounds",
    "Unauthorized",
    "Unfinished",
    "UnknownQuestion",
    "UrlQuestion",
    "accept",
    "cancel",
    "decline",
    "response_for",
    "roots",
    "sampled",
]

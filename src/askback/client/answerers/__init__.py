"""Pluggable answerers: a person in a terminal, a JSON file, a Python callable."""

from askback.client.answerers.base import Answerer, Asked, Later, Postpone
from askback.client.answerers.callable import CallableAnswerer
from askback.client.answerers.file import FileAnswerer
from askback.client.answerers.terminal import TerminalAnswerer

__all__ = ["Answerer", "Asked", "CallableAnswerer", "FileAnswerer", "Later", "Postpone", "TerminalAnswerer"]

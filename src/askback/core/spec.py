"""A callable's signature read once, at registration, into what the engine needs at call time."""

from __future__ import annotations

import inspect
import string
import sys
import types
import typing
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import create_model
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from askback.core.forms import NO_DEFAULT, FieldForm, field_form
from askback.core.markers import Answer, Ask, Caller, Confirm, OneOf, Root, Roots, Sample
from askback.core.secrets import SecretInForm, credential_term, field_credential

ParamKind = Literal["value", "choice", "confirm", "sample", "roots", "caller"]
EndpointKind = Literal["tool", "prompt", "resource"]


class SpecError(TypeError):
    """A function cannot be registered as declared; the message says what to change."""


class UnaskableWarning(UserWarning):
    """A parameter's type cannot be a flat form field, so a missing value cannot be asked for."""


@dataclass(frozen=True)
class ParamSpec:
    name: str
    kind: ParamKind
    annotation: Any
    form: FieldForm | None
    default: Any
    title: str
    description: str | None
    message: str | None
    field: str
    deps: tuple[str, ...]
    marker: Ask | OneOf | Confirm | Sample | Roots | None = None
    provider_params: tuple[str, ...] = ()
    wants_answer: bool = False
    wants_full_result: bool = False  # Sample: the whole result, not its text; Roots: Root objects, not URIs

    @property
    def required(self) -> bool:
        return self.default is NO_DEFAULT

    @property
    def from_arguments(self) -> bool:
        """Whether a caller may supply this value directly as an argument."""
        return self.kind in ("value", "choice")


@dataclass(frozen=True)
class Spec:
    """A tool, prompt or resource template: its parameters in the order they can be asked."""

    kind: EndpointKind
    name: str
    fn: Callable[..., Any]
    params: tuple[ParamSpec, ...]
    title: str | None = None
    description: str | None = None
    once: bool = False
    uri_template: str | None = None
    mime_type: str | None = None
    input_schema: dict[str, Any] = field(default_factory=dict)
    output_schema: dict[str, Any] | None = None
    registration_warnings: tuple[str, ...] = ()
    # Derived per-tool values the engine builds once at call time (e.g. questions that never change).
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def param(self, name: str) -> ParamSpec:
        return self._by_name[name]

    @cached_property
    def _by_name(self) -> dict[str, ParamSpec]:
        return {p.name: p for p in self.params}

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.fn)


def template_fields(template: str | None) -> tuple[str, ...]:
    """The parameter names a `{name}` template refers to, in order of first use."""
    if not template:
        return ()
    names: list[str] = []
    for _, name, _, _ in string.Formatter().parse(template):
        if name:
            base = name.split(".")[0].split("[")[0]
            if base and base not in names:
                names.append(base)
    return tuple(names)


def humanise(name: str) -> str:
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else name


def _split_annotated(annotation: Any) -> tuple[Any, list[Any]]:
    if get_origin(annotation) is Annotated:
        base, *meta = get_args(annotation)
        return base, meta
    return annotation, []


def _strip_optional(tp: Any) -> Any:
    args = get_args(tp)
    if args and type(None) in args and get_origin(tp) in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return tp


def _provider_params(provider: Callable[..., Any]) -> tuple[str, ...]:
    try:
        sig = inspect.signature(provider)
    except (TypeError, ValueError) as exc:
        raise SpecError(f"cannot read the signature of options provider {provider!r}") from exc
    return tuple(sig.parameters)


def build_spec(
    fn: Callable[..., Any],
    *,
    kind: EndpointKind,
    name: str | None = None,
    title: str | None = None,
    description: str | None = None,
    once: bool = False,
    uri_template: str | None = None,
    mime_type: str | None = None,
) -> Spec:
    """Read `fn`'s signature into a `Spec`; raise `SpecError` (or `SecretInForm`) for what cannot work."""
    endpoint = name or fn.__name__
    where = f"{kind} {endpoint!r}"
    hints = _type_hints(fn, where)
    sig = inspect.signature(fn)
    params: list[ParamSpec] = []
    notes: list[str] = []
    for pname, parameter in sig.parameters.items():
        if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise SpecError(f"{where}: *args and **kwargs cannot be asked for; name each parameter")
        annotation = hints.get(pname, str)
        params.append(_param_spec(where, pname, annotation, parameter.default, notes))
    names = {p.name for p in params}
    confirm_deps = tuple(p.name for p in params if p.kind not in ("confirm", "caller"))
    resolved: list[ParamSpec] = []
    for p in params:
        deps = p.deps
        if p.kind == "confirm":
            deps = confirm_deps  # a confirmation is the last step: it covers every value the function receives
        unknown = [d for d in deps if d not in names]
        if unknown:
            raise SpecError(f"{where}: parameter {p.name!r} refers to unknown parameter(s) {', '.join(unknown)}")
        resolved.append(ParamSpec(**{**p.__dict__, "deps": tuple(d for d in deps if d != p.name)}))
    ordered = _dependency_order(where, resolved)
    template_vars = set(template_fields(uri_template))
    if uri_template:
        missing = template_vars - names
        if missing:
            raise SpecError(f"{where}: URI template names {sorted(missing)} but the function has no such parameter")
    for note in notes:
        warnings.warn(note, UnaskableWarning, stacklevel=3)
    return Spec(
        kind=kind,
        name=endpoint,
        fn=fn,
        params=ordered,
        title=title,
        description=description if description is not None else inspect.getdoc(fn),
        once=once,
        uri_template=uri_template,
        mime_type=mime_type,
        input_schema=_input_schema(endpoint, [p for p in params if p.from_arguments]),
        output_schema=_output_schema(hints.get("return")),
        registration_warnings=tuple(notes),
    )


def _type_hints(fn: Callable[..., Any], where: str) -> dict[str, Any]:
    """Resolve annotations, including names local to the function that registered `fn`.

    With `from __future__ import annotations`, a tool defined inside a function may name types or providers
    that only exist in that function's locals; the registering frames are searched for them.
    """
    try:
        return typing.get_type_hints(fn, include_extras=True)
    except NameError as first:
        error: Exception = first
    except Exception as exc:
        raise SpecError(f"{where}: cannot resolve type hints ({exc})") from exc
    localns: dict[str, Any] = {}
    frame = sys._getframe(1)
    for _ in range(8):
        frame = frame.f_back  # type: ignore[assignment]
        if frame is None:
            break
        localns = {**frame.f_locals, **localns}
        try:
            return typing.get_type_hints(fn, localns=localns, include_extras=True)
        except NameError as exc:
            error = exc
    raise SpecError(f"{where}: cannot resolve type hints ({error})") from error


def _param_spec(where: str, pname: str, annotation: Any, py_default: Any, notes: list[str]) -> ParamSpec:
    base, meta = _split_annotated(annotation)
    marker = next((m for m in meta if isinstance(m, Ask | OneOf | Confirm | Sample | Roots)), None)
    info = next((m for m in meta if isinstance(m, FieldInfo)), None)
    title = (info.title if info and info.title else None) or humanise(pname)
    description = info.description if info else None
    default = NO_DEFAULT
    if py_default is not inspect.Parameter.empty:
        default = py_default
    elif info is not None and info.default is not PydanticUndefined:
        default = info.default
    elif info is not None and info.default_factory is not None:
        default = info.get_default(call_default_factory=True)
    if isinstance(marker, Ask) and marker.title:
        title = marker.title
    # Strip askback markers so pydantic sees only its own metadata.
    pyd_meta = [m for m in meta if not isinstance(m, Ask | OneOf | Confirm | Sample | Roots)]
    value_type: Any = Annotated[(base, *pyd_meta)] if pyd_meta else base
    common: dict[str, Any] = {
        "name": pname,
        "annotation": value_type,
        "title": title,
        "description": description,
        "default": default,
        "marker": marker,
    }

    if base is Caller:
        return ParamSpec(kind="caller", form=None, message=None, field=pname, deps=(), **common)
    if isinstance(marker, Confirm):
        wants_answer = _strip_optional(base) is Answer
        if not wants_answer and _strip_optional(base) is not bool:
            raise SpecError(f"{where}: Confirm parameter {pname!r} must be typed bool or askback.Answer")
        return ParamSpec(
            kind="confirm",
            form=None,
            message=marker.text,
            field=marker.field or pname,
            deps=template_fields(marker.text),
            wants_answer=wants_answer,
            **{**common, "default": NO_DEFAULT},
        )
    if isinstance(marker, Sample):
        full = _strip_optional(base) in (dict, dict[str, Any])
        if not full and _strip_optional(base) is not str:
            raise SpecError(f"{where}: Sample parameter {pname!r} must be typed str (the text) or dict (the result)")
        return ParamSpec(
            kind="sample",
            form=None,
            message=marker.prompt,
            field=pname,
            deps=template_fields(marker.prompt),
            wants_full_result=full,
            **common,
        )
    if isinstance(marker, Roots):
        if get_origin(_strip_optional(base)) is not list or get_args(_strip_optional(base))[0] not in (Root, str):
            raise SpecError(f"{where}: Roots parameter {pname!r} must be typed list[askback.Root] or list[str]")
        full = get_args(_strip_optional(base))[0] is Root
        return ParamSpec(kind="roots", form=None, message=None, field=pname, deps=(), wants_full_result=full, **common)

    form = field_form(value_type, title=title, description=description, default=default)
    message = marker.message if isinstance(marker, Ask | OneOf) else None
    field_name = (marker.field if isinstance(marker, Ask | OneOf) else None) or pname
    if form.schema is not None or isinstance(marker, OneOf):
        # The question's own text counts too: "What is your password?" asks for one whatever the field is named.
        term = field_credential(field_name, form.schema or {}) or credential_term(pname) or credential_term(message)
        if term:
            raise SecretInForm(where, field_name, term)
    elif default is NO_DEFAULT:  # a parameter with a default is never asked, so there is nothing to warn about
        notes.append(f"{where}: parameter {pname!r} cannot be asked for if missing: {form.unaskable}")
    deps = template_fields(message)
    if isinstance(marker, OneOf):
        provider_params = _provider_params(marker.provider)
        provider_deps = tuple(n for n in provider_params if n != "caller")
        return ParamSpec(
            kind="choice",
            form=form,
            message=message,
            field=field_name,
            deps=tuple(dict.fromkeys(deps + provider_deps)),
            provider_params=provider_params,
            **common,
        )
    return ParamSpec(kind="value", form=form, message=message, field=field_name, deps=deps, **common)


def _dependency_order(where: str, params: Sequence[ParamSpec]) -> tuple[ParamSpec, ...]:
    """Declaration order, except that a parameter comes after everything it waits for."""
    by_name = {p.name: p for p in params}
    done: dict[str, ParamSpec] = {}
    visiting: list[str] = []

    def visit(p: ParamSpec) -> None:
        if p.name in done:
            return
        if p.name in visiting:
            cycle = " -> ".join([*visiting[visiting.index(p.name) :], p.name])
            raise SpecError(f"{where}: parameters wait for each other in a cycle ({cycle})")
        visiting.append(p.name)
        for dep in p.deps:
            visit(by_name[dep])
        visiting.pop()
        done[p.name] = p

    for p in params:
        visit(p)
    return tuple(done.values())


def _input_schema(model_name: str, params: Sequence[ParamSpec]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for p in params:
        info = FieldInfo.from_annotation(p.annotation)
        if info.title is None:
            info.title = p.title
        if p.description and not info.description:
            info.description = p.description
        if not p.required:
            info.default = p.default
        fields[p.name] = (p.annotation, info)
    try:
        model = create_model(f"{model_name}_arguments", **fields)
        schema = model.model_json_schema()
    except Exception as exc:
        raise SpecError(f"{model_name!r}: cannot build the input schema ({exc})") from exc
    schema.pop("title", None)
    schema.setdefault("properties", {})
    schema["type"] = "object"
    return schema


def _output_schema(annotation: Any) -> dict[str, Any] | None:
    from pydantic import BaseModel

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation.model_json_schema()
    return None

"""A callable's signature read once, at registration, into what the engine needs at call time."""

from __future__ import annotations

import inspect
import logging
import string
import types
import typing
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, SecretStr, create_model
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from askback.core.errors import SecretInForm
from askback.core.forms import NO_DEFAULT, FieldForm, field_form, model_form
from askback.core.guarding import Guard, guard_form
from askback.core.kinds import (
    ApprovalParam,
    CallerParam,
    ChoiceParam,
    ConfirmParam,
    ContextParam,
    FormParam,
    Param,
    RootsParam,
    SampleParam,
    SecretParam,
    ValueParam,
    WorkParam,
)
from askback.core.markers import Answer, Ask, Caller, Confirm, Context, OneOf, Root, Roots, Sample, Secret, Work
from askback.core.marks import APPROVE_WITH
from askback.core.questions import FormQuestion

EndpointKind = Literal["tool", "prompt", "resource"]
TaskSupport = Literal["optional", "required"]
Resume = Literal["rerun", "fail"]
ParamSpec = Param  # every kind is a `Param`

# The registration log: one line per question an author declared not secret (what the guard read, never a value).
registration_log = logging.getLogger("askback.registration")


class SpecError(TypeError):
    """A function cannot be registered as declared; the message says what to change."""


class UnaskableWarning(UserWarning):
    """A parameter's type cannot be a flat form field, so a missing value cannot be asked for."""


@dataclass(frozen=True, slots=True)
class Spec:
    """A tool, prompt or resource template: its parameters in the order they can be asked."""

    kind: EndpointKind
    name: str
    fn: Callable[..., Any]
    params: tuple[Param, ...]
    title: str | None = None
    description: str | None = None
    once: bool = False
    uri_template: str | None = None
    mime_type: str | None = None
    input_schema: dict[str, Any] = field(default_factory=dict)
    output_schema: dict[str, Any] | None = None
    registration_warnings: tuple[str, ...] = ()
    task: TaskSupport | None = None  # None: never a task; "optional": a task when the client declared tasks
    resume: Resume = "rerun"  # a parked task answered after a restart: run again from the start, or fail
    # A declared input schema's check across fields, once every value is known (`askback.core.declared`).
    arguments_check: Callable[[Mapping[str, Any]], str | None] | None = None
    params_by_name: dict[str, Param] = field(default_factory=dict, compare=False, repr=False)
    # The parameter that receives the `askback.Work`, if the function asks during its work (read every round).
    work_param: str | None = field(default=None, init=False, compare=False, repr=False)
    # The parameter that receives the `askback.Context` (progress and logs while it runs), if any.
    context_param: str | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.params_by_name.update({p.name: p for p in self.params})
        work = next((p.name for p in self.params if isinstance(p, WorkParam)), None)
        object.__setattr__(self, "work_param", work)
        context = next((p.name for p in self.params if isinstance(p, ContextParam)), None)
        object.__setattr__(self, "context_param", context)

    def param(self, name: str) -> Param:
        return self.params_by_name[name]

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.fn)

    @property
    def argument_params(self) -> tuple[Param, ...]:
        """The parameters a caller may send as arguments (the input schema's properties)."""
        return tuple(p for p in self.params if p.from_arguments)

    def resendable(self, p: Param) -> bool:
        """Whether a caller can send `p` itself on another request: a tool's or prompt's argument, or a
        variable of a resource's URI (a read has no other arguments: a value outside the URI can only be asked)."""
        if self.kind == "resource":
            return p.name in template_fields(self.uri_template)
        return p.from_arguments


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


_ACRONYMS = frozenset({"api", "url", "uri", "id", "pin", "iban", "bic", "ip", "dns", "ssh", "sql", "http", "https"})


def humanise(name: str) -> str:
    """A parameter name as a person reads it: `api_key` -> "API key", `from_account` -> "From account"."""
    words = [w.upper() if w.lower() in _ACRONYMS else w for w in name.replace("_", " ").split()]
    if not words:
        return name
    text = " ".join(words)
    return text[:1].upper() + text[1:]


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
    namespace: Mapping[str, Any] | None = None,
    task: TaskSupport | None = None,
    resume: Resume = "rerun",
    input_schema: Mapping[str, Any] | None = None,
    guard: Guard,
) -> Spec:
    """Read `fn`'s signature into a `Spec`; raise `SpecError` (or `SecretInForm`) for what cannot work.

    `namespace` resolves annotation names that are neither in `fn`'s module nor builtins (a type or provider
    defined inside a function, with postponed annotations): pass `locals()`. `guard` reads every question's
    words (the App passes the guard package's `GUARD`). `input_schema`: a declared JSON Schema 2020-12, listed
    as is instead of the signature's (`askback.core.declared`).
    """
    endpoint = name or fn.__name__
    where = f"{kind} {endpoint!r}"
    hints = _type_hints(fn, where, namespace)
    sig = inspect.signature(fn)
    params: list[ParamSpec] = []
    notes: list[str] = []
    for pname, parameter in sig.parameters.items():
        if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise SpecError(f"{where}: *args and **kwargs cannot be asked for; name each parameter")
        annotation = hints.get(pname, str)
        params.append(_param_spec(where, endpoint, pname, annotation, parameter.default, notes, guard))
    names = {p.name for p in params}
    confirm_deps = tuple(p.name for p in params if not isinstance(p, ConfirmParam) and not p.injected)
    by_kind = {p.name: p for p in params}
    resolved: list[Param] = []
    for p in params:
        deps = p.deps
        if isinstance(p, ConfirmParam):
            # A confirmation is the last step: it covers every value the function receives, a secret included
            # (asked after it is entered), though a secret's value is never shown or bound into its text.
            named = [d for d in template_fields(p.message) if isinstance(by_kind.get(d), SecretParam)]
            if named:
                raise SpecError(f"{where}: the confirmation text of {p.name!r} names the secret {named[0]!r}")
            deps = confirm_deps
        if isinstance(p, ApprovalParam):
            deps = tuple(dict.fromkeys((*deps, *p.condition_params)))  # the condition reads these values
        secret_deps = [d for d in deps if isinstance(by_kind.get(d), SecretParam)]
        if secret_deps and not isinstance(p, ConfirmParam):
            raise SpecError(
                f"{where}: parameter {p.name!r} waits for the secret {secret_deps[0]!r}, whose value is only read "
                "when the function runs; a question, an options provider or a condition cannot use it"
            )
        unknown = [d for d in deps if d not in names]
        if unknown:
            raise SpecError(f"{where}: parameter {p.name!r} refers to unknown parameter(s) {', '.join(unknown)}")
        resolved.append(replace(p, deps=tuple(d for d in deps if d != p.name)))
    ordered = _dependency_order(where, resolved)
    declared_schema: dict[str, Any] | None = None
    if input_schema is not None:
        if kind != "tool":
            raise SpecError(f"{where}: only a tool declares an input_schema")
        try:
            from askback.core import declared  # jsonschema is loaded only for a tool that declares a schema

            declared_schema = declared.checked_schema(where, input_schema)
            ordered = tuple(declared.declared_params(where, endpoint, declared_schema, ordered))
        except ValueError as exc:
            raise SpecError(str(exc)) from None
    template_vars = set(template_fields(uri_template))
    if uri_template:
        missing = template_vars - names
        if missing:
            raise SpecError(f"{where}: URI template names {sorted(missing)} but the function has no such parameter")
    if task not in (None, "optional", "required"):
        raise SpecError(f'{where}: task= takes "optional" or "required", not {task!r}')
    if resume not in ("rerun", "fail"):
        raise SpecError(f'{where}: resume= takes "rerun" or "fail", not {resume!r}')
    if task is not None and kind != "tool":
        raise SpecError(f"{where}: only tools can run as tasks")
    if task is None and any(isinstance(p, WorkParam) for p in ordered):
        raise SpecError(f'{where}: an askback.Work parameter asks during the work, which needs a task: register '
                        'it with task="optional" or task="required"')
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
        input_schema=declared_schema if declared_schema is not None
        else _input_schema(endpoint, [p for p in ordered if p.from_arguments]),
        output_schema=_output_schema(hints.get("return")),
        registration_warnings=tuple(notes),
        task=task,
        resume=resume,
        arguments_check=_whole_check(declared_schema) if declared_schema is not None else None,
    )


def _type_hints(fn: Callable[..., Any], where: str, namespace: Mapping[str, Any] | None) -> dict[str, Any]:
    try:
        return typing.get_type_hints(fn, localns=dict(namespace) if namespace else None, include_extras=True)
    except NameError as exc:
        raise SpecError(
            f"{where}: cannot resolve type hints ({exc}); define the name at module level, "
            "or pass namespace=locals() when registering"
        ) from exc
    except Exception as exc:
        raise SpecError(f"{where}: cannot resolve type hints ({exc})") from exc


def _param_spec(
    where: str, endpoint: str, pname: str, annotation: Any, py_default: Any, notes: list[str], guard: Guard
) -> Param:
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
        "not_secret": bool(marker.not_secret) if isinstance(marker, Ask | OneOf | Confirm) else False,
    }
    plain = _strip_optional(base)

    if base is Caller:
        return CallerParam(field=pname, deps=(), **common)
    if isinstance(base, type) and issubclass(base, Work):
        return WorkParam(field=pname, deps=(), **common)
    if isinstance(base, type) and issubclass(base, Context):
        return ContextParam(field=pname, deps=(), **common)
    if isinstance(marker, Confirm):
        if plain is not Answer and plain is not bool:
            raise SpecError(f"{where}: Confirm parameter {pname!r} must be typed bool or askback.Answer")
        confirm: dict[str, Any] = {
            "message": marker.text,
            "field": marker.field or pname,
            "deps": template_fields(marker.text),
            "shows": template_fields(marker.text),
            "wants_answer": plain is Answer,
            **{**common, "default": NO_DEFAULT},
        }
        if marker.approve_with is not None and marker.approve_with not in APPROVE_WITH:
            raise SpecError(f"{where}: Confirm(approve_with=...) takes {' or '.join(map(repr, APPROVE_WITH))}")
        if marker.approvers is not None and not callable(marker.approvers):
            raise SpecError(f"{where}: Confirm(approvers=...) takes a function of the person at the page")
        if marker.out_of_band is False:
            if marker.approve_with is not None or marker.approvers is not None:
                raise SpecError(f"{where}: approve_with and approvers are for an approval on the page: give "
                                "Confirm(out_of_band=...) too")
            return ConfirmParam(**confirm)
        confirm.update(approve_with=marker.approve_with, approvers=marker.approvers)
        if marker.out_of_band is True:
            return ApprovalParam(**confirm)
        if not callable(marker.out_of_band):
            raise SpecError(f"{where}: Confirm(out_of_band=...) takes True, False or a function of parameters")
        return ApprovalParam(
            condition=marker.out_of_band, condition_params=_provider_params(marker.out_of_band), **confirm
        )
    if isinstance(plain, type) and issubclass(plain, SecretStr):
        if plain not in (Secret, SecretStr):
            raise SpecError(f"{where}: type the credential parameter {pname!r} as askback.Secret")
        if common["not_secret"]:
            raise SpecError(
                f"{where}: parameter {pname!r} is typed as a secret and marked not_secret; a declared secret is "
                "always asked out of band: drop not_secret=True, or type it as an ordinary value"
            )
        message = marker.message if isinstance(marker, Ask) else None
        return SecretParam(message=message, field=pname, deps=template_fields(message), **common)
    if isinstance(marker, Sample):
        full = plain in (dict, dict[str, Any])
        if not full and plain is not str:
            raise SpecError(f"{where}: Sample parameter {pname!r} must be typed str (the text) or dict (the result)")
        return SampleParam(
            message=marker.prompt,
            field=pname,
            deps=template_fields(marker.prompt),
            marker=marker,
            wants_full_result=full,
            **common,
        )
    if isinstance(marker, Roots):
        if get_origin(plain) is not list or get_args(plain)[0] not in (Root, str):
            raise SpecError(f"{where}: Roots parameter {pname!r} must be typed list[askback.Root] or list[str]")
        return RootsParam(field=pname, deps=(), wants_full_result=get_args(plain)[0] is Root, **common)

    if isinstance(plain, type) and issubclass(plain, BaseModel) and not isinstance(marker, OneOf):
        whole = model_form(plain, description=description)
        if whole is not None:
            return _form_param(guard, where, endpoint, pname, whole, marker, common)
    form = field_form(value_type, title=title, description=description, default=default)
    message = marker.message if isinstance(marker, Ask | OneOf) else None
    field_name = (marker.field if isinstance(marker, Ask | OneOf) else None) or pname
    if form.schema is not None or isinstance(marker, OneOf):
        # The question's own text counts too: "What is your password?" asks for one whatever the field is named.
        _check_question(guard, where, pname, field_name, form.schema or {}, message, common["not_secret"])
    elif default is NO_DEFAULT:  # a parameter with a default is never asked, so there is nothing to warn about
        notes.append(f"{where}: parameter {pname!r} cannot be asked for if missing: {form.unaskable}")
    deps = template_fields(message)
    if isinstance(marker, OneOf):
        provider_params = _provider_params(marker.provider)
        provider_deps = tuple(n for n in provider_params if n != "caller")
        multiple = get_origin(plain) in (list, tuple, set, frozenset)
        option_form = form
        min_items = max_items = None
        if multiple:
            (item,) = get_args(plain)[:1] or (str,)
            option_form = field_form(item, title=None, description=None, default=NO_DEFAULT)
            min_items, max_items = _item_bounds(form.adapter.json_schema(mode="validation"))
        return ChoiceParam(
            message=message,
            field=field_name,
            deps=tuple(dict.fromkeys(deps + provider_deps)),
            form=form,
            marker=marker,
            provider_params=provider_params,
            option_form=option_form,
            multiple=multiple,
            min_items=min_items,
            max_items=max_items,
            **common,
        )
    question = None
    if form.schema is not None and not deps:
        # Same text and schema every round: built, fingerprinted and guarded once, here.
        prop = dict(form.schema)
        if default is NO_DEFAULT:
            prop.pop("default", None)
        text = message or f'{endpoint} needs a value for "{description or title}".'
        schema = {"type": "object", "properties": {field_name: prop}, "required": [field_name]}
        question = FormQuestion(key=pname, message=text, schema=schema)
    return ValueParam(message=message, field=field_name, deps=deps, form=form, question=question, **common)


def _form_param(
    guard: Guard, where: str, endpoint: str, pname: str, form: FieldForm, marker: Any, common: dict[str, Any]
) -> FormParam:
    """A model parameter asked as one form: its text and fields are read by the secret guard, as any question's."""
    message = marker.message if isinstance(marker, Ask) else None
    schema = form.schema or {}
    found = guard_form(guard, schema, message=message, names=(pname, *schema.get("properties", {})),
                       not_secret=common["not_secret"])
    if found is not None:
        raise SecretInForm(where, found.field, found.term, declared=found.declared)
    deps = template_fields(message)
    question = None
    if not deps:
        text = message or f'{endpoint} needs "{common["description"] or common["title"]}".'
        question = FormQuestion(key=pname, message=text, schema=dict(schema))
    return FormParam(message=message, field=pname, deps=deps, form=form, question=question, **common)


def _check_question(
    guard: Guard,
    where: str,
    pname: str,
    field_name: str,
    field_schema: Mapping[str, Any],
    message: str | None,
    not_secret: bool,
) -> None:
    """Refuse a question that would ask for a credential in a form, unless its author declared it not secret
    (a declared secret is refused all the same); an override is logged with what the guard read."""
    schema = {"properties": {field_name: field_schema}}
    found = guard_form(guard, schema, message=message, names=(pname,), not_secret=not_secret)
    if found is not None:
        raise SecretInForm(where, found.field, found.term, declared=found.declared)
    if not_secret:
        read = guard_form(guard, schema, message=message, names=(pname,))
        registration_log.info(
            "%s: parameter %r: the guard read %s; declared not secret by its author",
            where,
            pname,
            repr(read.term) if read else "no credential word",
        )


def _item_bounds(schema: Mapping[str, Any]) -> tuple[int | None, int | None]:
    node = schema
    for branch in schema.get("anyOf", ()):
        if isinstance(branch, Mapping) and branch.get("type") == "array":
            node = branch
    return node.get("minItems"), node.get("maxItems")


def _dependency_order(where: str, params: Sequence[Param]) -> tuple[Param, ...]:
    """Declaration order, except that a parameter comes after everything it waits for."""
    by_name = {p.name: p for p in params}
    done: dict[str, Param] = {}
    visiting: list[str] = []

    def visit(p: Param) -> None:
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


def _input_schema(model_name: str, params: Sequence[Param]) -> dict[str, Any]:
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


def _whole_check(schema: dict[str, Any]) -> Callable[[Mapping[str, Any]], str | None]:
    from askback.core import declared

    return declared.whole_check(schema)

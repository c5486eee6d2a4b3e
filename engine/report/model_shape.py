"""The shape of a report file in ``engine.decision.shape``'s terms, derived from its
pydantic model (``engine.report.models``).

The model is the one description of grading.json: it writes the file, generates its
JSON Schema, and through this module says what each reader checks as it reads the
file back. A field added to or changed in the model is checked by every reader
without a second list to keep in step.

The shape is the one strict validation gives (``model_validate(..., strict=True)``):
no coercion (``"3"`` is no count, ``1`` no ``true``), a whole number is a number,
a ``Literal`` holds one of its values. Unknown fields are left to the model.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from referee.engine.decision.shape import WHOLE, Either, MapOf, OneOf


def shape_of(annotation: Any, picked: Any = WHOLE) -> Any:
    """The shape of ``annotation`` (a model, or a field's type); of a model, only the
    fields ``picked`` names (a tuple of names, or ``{name: picked inside}``), or all
    of them (``WHOLE``). A field the model does not require may be absent (``name?``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _fields(annotation, picked)
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is list:
        return [shape_of(args[0], picked)]
    if origin is dict:
        values = shape_of(args[1]) if args else object
        return dict if values is object else MapOf(values)  # free-form maps (timing) as plain objects
    if origin is Literal:
        return OneOf(args)
    if origin in (Union, types.UnionType):
        return _union(tuple(shape_of(arg) for arg in args))
    if annotation is Any:
        return object
    if annotation is float:
        return (int, float)  # JSON writes 1.0 as 1 as well
    return annotation


def _fields(model: type[BaseModel], picked: Any) -> dict[str, Any]:
    fields = model.model_fields
    names = {name: WHOLE for name in fields} if picked is WHOLE else \
        picked if isinstance(picked, dict) else {name: WHOLE for name in picked}
    return {name + ("" if fields[name].is_required() else "?"): shape_of(fields[name].annotation, inner)
            for name, inner in names.items()}


def _union(shapes: tuple) -> Any:
    """Plain types together (``str | None``: one tuple); objects and lists beside them apart."""
    if all(isinstance(shape, type) or isinstance(shape, tuple) for shape in shapes):
        return tuple(kind for shape in shapes for kind in (shape if isinstance(shape, tuple) else (shape,)))
    return Either(shapes)

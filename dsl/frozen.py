"""``@frozen``: ``@dataclass(frozen=True)`` for the syntax tree, made without ``exec``.

``dataclass`` writes the source of six methods per class (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) and
compiles each with ``exec`` when the class is made; for the dozens of node
classes of ``dsl.ast`` that compiling was a large part of the start-up of
``referee check``. Here ``dataclass`` only records the fields (so ``fields()``,
``replace()``, ``is_dataclass()`` and ``match`` work as before) and the methods
are closures over the field names, which cost nothing to make. What they do is
what the generated ones do: equality and hash over the fields compared, a repr
of the fields shown, and no assignment to a field after ``__init__``.

The parameters ``dataclass`` records are those it was called with (no
``__init__``, ``__repr__`` or ``__eq__`` of its own, not frozen): a class made
here is extended with ``@frozen`` again, not with ``@dataclass(frozen=True)``,
which refuses a base it does not know to be frozen.
"""

from __future__ import annotations

import inspect
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, field, fields
from operator import attrgetter
from typing import Any, Callable, TypeVar, dataclass_transform

T = TypeVar("T")


# Type checkers read a class made by ``frozen`` as the frozen dataclass it is.
@dataclass_transform(frozen_default=True, field_specifiers=(Field, field))
def frozen(cls: type[T]) -> type[T]:
    """The class as a frozen dataclass with these fields (see the module)."""
    cls = dataclass(init=False, repr=False, eq=False)(cls)
    specs = fields(cls)  # type: ignore[arg-type]
    if any(f.default_factory is not MISSING for f in specs):
        raise TypeError(f"{cls.__name__}: a field with a default_factory is not supported")
    names = tuple(f.name for f in specs)
    compared = tuple(f.name for f in specs if f.compare)
    shown = tuple(f.name for f in specs if f.repr)
    defaults = {f.name: f.default for f in specs if f.default is not MISSING}
    methods: dict[str, Callable[..., Any]] = {
        "__init__": _init(cls, names, defaults),
        "__repr__": _repr(shown),
        "__eq__": _eq(compared),
        "__hash__": _hash(compared),
        "__setattr__": _refuse(cls, names, "assign to"),
        "__delattr__": _refuse(cls, names, "delete"),
    }
    for name, method in methods.items():
        method.__name__ = name
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
    return cls


def _init(cls: type, names: tuple[str, ...], defaults: dict[str, Any]) -> Callable[..., None]:
    count = len(names)
    put = object.__setattr__  # a frozen class's own __setattr__ refuses

    if _in_instance_dict(cls, names):
        # What object.__setattr__ does for each field, in one step: a parse
        # makes thousands of nodes.
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            if kwargs or len(args) != count:
                args = _bound(cls, names, defaults, args, kwargs)
            self.__dict__.update(zip(names, args))
    else:
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            if kwargs or len(args) != count:
                args = _bound(cls, names, defaults, args, kwargs)
            for name, value in zip(names, args):
                put(self, name, value)

    return __init__


def _in_instance_dict(cls: type, names: tuple[str, ...]) -> bool:
    """Whether ``object.__setattr__`` puts every field in the instance's ``__dict__``:
    instances have one, and no field is a descriptor that stores it elsewhere (a
    slot, a property)."""
    if not _has_instance_dict(cls):
        return False
    return not any(hasattr(type(inspect.getattr_static(cls, name, None)), "__set__")
                   for name in names)


def _has_instance_dict(cls: type) -> bool:
    """Whether instances of ``cls`` have a ``__dict__``: some class of its MRO (object
    aside) declares no ``__slots__``, or names ``__dict__`` among them."""
    for klass in cls.__mro__[:-1]:
        slots = vars(klass).get("__slots__")
        if slots is None or "__dict__" in ((slots,) if isinstance(slots, str) else slots):
            return True
    return False


def _bound(cls: type, names: tuple[str, ...], defaults: dict[str, Any], args: tuple,
           kwargs: dict[str, Any]) -> tuple:
    """The value of every field, from positional and keyword arguments and defaults,
    refused with a ``TypeError`` as Python refuses a call that does not fit."""
    call = f"{cls.__qualname__}.__init__()"
    if len(args) > len(names):
        raise TypeError(f"{call} takes {len(names) + 1} positional arguments but "
                        f"{len(args) + 1} were given")
    values = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"{call} got an unexpected keyword argument '{key}'")
        if key in values:
            raise TypeError(f"{call} got multiple values for argument '{key}'")
        values[key] = value
    missing = [name for name in names if name not in values and name not in defaults]
    if missing:
        listed = " and ".join(f"'{name}'" for name in missing)
        plural = "s" if len(missing) > 1 else ""
        raise TypeError(f"{call} missing {len(missing)} required argument{plural}: {listed}")
    return tuple(values[name] if name in values else defaults[name] for name in names)


def _repr(shown: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{type(self).__qualname__}({inner})"

    return __repr__


def _eq(names: tuple[str, ...]) -> Callable[[Any, Any], Any]:
    """Equal when of the same class and the compared fields are equal, as tuples."""
    if len(names) == 1:
        one = attrgetter(names[0])

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return (one(self),) == (one(other),)
            return NotImplemented
    else:
        key = _key(names)

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented

    return __eq__


def _hash(names: tuple[str, ...]) -> Callable[[Any], int]:
    """The hash of the tuple of the compared fields."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda self: hash((one(self),))
    key = _key(names)
    return lambda self: hash(key(self))


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    """The tuple of these fields of a node (two or more, or none)."""
    return attrgetter(*names) if names else lambda node: ()


def _refuse(cls: type, names: tuple[str, ...], verb: str) -> Callable[..., None]:
    """``__setattr__`` or ``__delattr__``: a field of a node never changes."""
    noun = "field"

    def refuse(self: Any, name: str, *value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot {verb} {noun} {name!r}")
        inherited = getattr(super(cls, self), "__setattr__" if value else "__delattr__")
        inherited(name, *value)

    return refuse

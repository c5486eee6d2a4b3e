"""``@frozen``: ``@dataclass(frozen=True)`` whose methods cost almost nothing to
make, for the syntax tree and the engine's frozen value classes.

``dataclass`` writes the source of six methods per class (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) and
compiles each with ``exec`` when the class is made: about 0.6 ms a class on
Python 3.11, and a grade makes about two hundred such classes before it reads any
input (the node classes of ``dsl.ast``, the checks, the run's records). Here
``dataclass`` only records the fields (so ``fields()``, ``replace()``,
``is_dataclass()`` and ``match`` work as before); five methods are closures over
the field names, which cost nothing to make, and ``__init__`` is compiled the first
time the class is called: a class never made in a command costs no compiling, and
one made often takes its arguments as fast as the generated one. What they do is
what the generated ones do: equality and hash over the fields compared, a repr of
the fields shown, and no assignment to a field after ``__init__``
(tests/test_frozen_as_dataclass.py holds the two to each other, call by call).

A class with a ``default_factory``, a ``field(init=False)``, a ``__post_init__``
or a method of the six of its own is refused: it stays a ``dataclass``.

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
_METHODS = frozenset({"__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"})


# Type checkers read a class made by ``frozen`` as the frozen dataclass it is.
@dataclass_transform(frozen_default=True, field_specifiers=(Field, field))
def frozen(cls: type[T]) -> type[T]:
    """The class as a frozen dataclass with these fields (see the module)."""
    own = _METHODS.intersection(vars(cls)) | ({"__post_init__"} if hasattr(cls, "__post_init__") else set())
    if own:
        raise TypeError(f"{cls.__name__}: {', '.join(sorted(own))} of its own is not supported")
    cls = dataclass(init=False, repr=False, eq=False)(cls)
    specs = fields(cls)  # type: ignore[arg-type]
    if any(f.default_factory is not MISSING or not f.init for f in specs):
        raise TypeError(f"{cls.__name__}: a field with a default_factory or init=False is not supported")
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
    """An ``__init__`` that, called first, compiles the class's own and puts it in its
    place: a class never made in a command costs no compiling, and one made often
    takes its arguments as any function does, bound by the interpreter."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        made = _compiled_init(cls, names, defaults)
        cls.__init__ = made  # type: ignore[misc]
        made(self, *args, **kwargs)

    return __init__


def _compiled_init(cls: type, names: tuple[str, ...], defaults: dict[str, Any]) -> Callable[..., None]:
    """``def __init__(self, a, b=<default>)`` that sets each field, as ``dataclass``
    writes it: the same parameters, so a call that does not fit is refused by Python
    with its own words. Where every field lives in the instance's ``__dict__``, all
    are put there in one step (a parse makes thousands of nodes); else each is set
    by ``object.__setattr__``, as a frozen class's own ``__setattr__`` refuses."""
    given = {f"__frozen_default_{index}__": defaults[name] for index, name in enumerate(names) if name in defaults}
    params = ", ".join(name if name not in defaults else f"{name}=__frozen_default_{index}__"
                       for index, name in enumerate(names))
    if not names:
        body = "pass"
    elif _in_instance_dict(cls, names):
        body = "__frozen_self__.__dict__.update({" + ", ".join(f"{name!r}: {name}" for name in names) + "})"
    else:
        body = "; ".join(f"__frozen_put__(__frozen_self__, {name!r}, {name})" for name in names)
    space = {"__frozen_put__": object.__setattr__, **given}
    exec(f"def __init__(__frozen_self__, {params}):\n    {body}\n", space)  # its source is made above, of field names
    made: Callable[..., None] = space["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    return made


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

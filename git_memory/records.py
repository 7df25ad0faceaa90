"""`Record`: a named-tuple base class that does not import `typing` at run time.

The pre-commit hook and `git memory -h` start a fresh interpreter every time, and importing
`typing` (for `typing.NamedTuple`) is ≈ 4 ms of it (docs/performance.md). For the type checker
`Record` *is* `typing.NamedTuple`, so fields and defaults are checked as usual; at run time a
subclass becomes a `collections.namedtuple` (`collections` is loaded by `re` anyway) with the
same fields, defaults, docstring, methods and properties, as `typing.NamedTuple` builds it.
"""

from __future__ import annotations

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    from collections import namedtuple

    # What a subclass may not define (typing.NamedTuple refuses the same).
    _PROHIBITED = frozenset(
        {
            "__new__",
            "__init__",
            "__slots__",
            "__getnewargs__",
            "_fields",
            "_field_defaults",
            "_make",
            "_replace",
            "_asdict",
            "_source",
        }
    )
    _KEPT_AS_MADE = frozenset({"__module__", "__qualname__", "__annotations__", "__dict__"})

    class _RecordMeta(type):
        def __new__(mcs, name, bases, namespace):
            if not bases:  # `Record` itself
                return super().__new__(mcs, name, bases, namespace)
            if bases != (Record,):
                raise TypeError("a Record subclass cannot have other bases")
            fields = list(namespace.get("__annotations__", {}))
            defaults = [namespace[field] for field in fields if field in namespace]
            if any(field not in namespace for field in fields[len(fields) - len(defaults) :]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            made = namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
            made.__annotations__ = dict(namespace.get("__annotations__", {}))
            made.__qualname__ = namespace.get("__qualname__", name)
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"cannot overwrite Record attribute {key}")
                if key not in _KEPT_AS_MADE and key not in fields:
                    setattr(made, key, value)
            return made

    class Record(metaclass=_RecordMeta):
        """Base of the project's named tuples (see the module docstring)."""


__all__ = ["Record"]

"""``asc.ConstExpr``: marks a kernel parameter as a compile-time value."""
from __future__ import annotations

import typing


class _ConstExprMeta(type):
    def __getitem__(cls, types):
        if not isinstance(types, tuple):
            types = (types,)
        return _ConstExprAlias(types)


class _ConstExprAlias:
    """``ConstExpr[T]``: the annotation form with allowed types."""

    def __init__(self, types):
        self.types = tuple(types)

    def check(self, name, value):
        allowed = tuple(t for t in self.types if isinstance(t, type))
        for t in self.types:
            origin = typing.get_origin(t)
            if origin is not None:
                allowed += (origin,)
        if allowed and not isinstance(value, allowed):
            from .errors import error
            # pyasc's wording (the type's name, the value's str), as a user error with its fix
            raise error(TypeError, f"ConstExpr[{' | '.join(self.names)}] is required for '{name}' argument, "
                        f"{type(value).__name__} was provided: {value}",
                        f"pass {' or '.join(self.names)} for '{name}' (a compile-time constant of the kernel), or "
                        "change its annotation")

    @property
    def names(self):
        return [getattr(t, "__name__", str(t)) for t in self.types]

    def __repr__(self):
        return "ConstExpr[" + ", ".join(self.names) + "]"


class ConstExpr(metaclass=_ConstExprMeta):
    """A compile-time value; the kernel sees the raw Python value."""

    def __init__(self, value):
        self.value = value.value if isinstance(value, ConstExpr) else value

    @staticmethod
    def unwrap(obj):
        return obj.value if isinstance(obj, ConstExpr) else obj

    def __repr__(self):
        return f"ConstExpr[{type(self.value).__name__}]({self.value!r})"


def is_constexpr_annotation(ann) -> bool:
    return ann is ConstExpr or isinstance(ann, _ConstExprAlias)

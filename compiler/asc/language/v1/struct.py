"""Kernel ``Struct`` arguments (pyasc's ``asc.Struct`` / ``Field`` / ``StructField``): a struct is built on the
host (by keyword or field by field), passed to the kernel as a GM blob, and every block reads — and may
assign — its own copy of the fields. Integer fields read as ``KernelInt`` so that ``tiling.m.ceildiv(x)``
works as on a pyasc ``PlainValue``."""
from __future__ import annotations

import copy

from ..core.errors import error


class KernelInt(int):
    """An int32 scalar read from a struct field: an ``int`` with pyasc's ``ceildiv``."""

    def ceildiv(self, other):
        other = int(other)
        if other == 0:
            raise error(ZeroDivisionError, "ceildiv by zero", "check the tiling fields the kernel divides by")
        return KernelInt(-(-int(self) // other))


class Field:
    """A scalar field of ``dtype`` (an ``asc`` DataType) with a default; ``name`` is the C++ field name."""

    def __init__(self, dtype=None, default=0, name=None):
        self.dtype, self.default, self.name = dtype, default, name

    def convert(self, owner, attr, value):
        if isinstance(value, Struct):
            raise error(TypeError, f"{owner}.{attr} is a scalar field, got a struct")
        if getattr(self.dtype, "kind", "Int") == "Float":
            return float(value)
        v = int(value)
        if not -2**31 <= v < 2**31:
            raise error(OverflowError, f"{owner}.{attr} = {v} does not fit its 32-bit field")
        return KernelInt(v)

    def initial(self):
        return self.default


class StructField(Field):
    """A field holding a nested struct of class ``struct_cls``."""

    def __init__(self, struct_cls, default=None, name=None):
        super().__init__(None, default, name)
        self.struct_cls = struct_cls

    def convert(self, owner, attr, value):
        if not isinstance(value, self.struct_cls):
            raise error(TypeError, f"{owner}.{attr} expects a {self.struct_cls.__name__}, got {type(value).__name__}")
        return value

    def initial(self):
        return self.struct_cls() if self.default is None else copy.deepcopy(self.default)


class Struct:
    """Base class of kernel structs: subclasses declare ``Field`` / ``StructField`` class attributes."""

    @classmethod
    def fields(cls):
        out = {}
        for klass in reversed(cls.__mro__):
            for k, v in vars(klass).items():
                if isinstance(v, Field):
                    out[k] = v
        return out

    def __init__(self, **values):
        fields = self.fields()
        for k in values:
            if k not in fields:
                raise error(AttributeError, f"{type(self).__name__} does not have a field '{k}'",
                            f"its fields: {', '.join(fields)}")
        for k, f in fields.items():
            object.__setattr__(self, k, f.convert(type(self).__name__, k, values.get(k, f.initial())))

    def __setattr__(self, k, v):
        f = self.fields().get(k)
        if f is None:
            raise error(AttributeError, f"{type(self).__name__} does not have a field '{k}'")
        object.__setattr__(self, k, f.convert(type(self).__name__, k, v))

    def kernel_copy(self):
        """The copy one block reads and assigns (the kernel receives the struct by value)."""
        return copy.deepcopy(self)

    def as_dict(self):
        return {k: (getattr(self, k).as_dict() if isinstance(getattr(self, k), Struct) else getattr(self, k))
                for k in self.fields()}

    def nbytes(self):
        return sum(v.nbytes() if isinstance(v, Struct) else 4 for v in (getattr(self, k) for k in self.fields()))

    def __eq__(self, other):
        return type(self) is type(other) and self.as_dict() == other.as_dict()

    def __repr__(self):
        body = ", ".join(f"{k}={v}" for k, v in self.as_dict().items())
        return f"{type(self).__name__}({body})"


def is_struct(value):
    return isinstance(value, Struct)


__all__ = ["Struct", "Field", "StructField", "KernelInt", "is_struct"]

"""Kernel-side scalar values (``PlainValue``) and pointers (``GlobalAddress``)."""
from __future__ import annotations

import numpy as np

from ...ir.builder import current_builder, tracing_august
from ...ir.kernel_warnings import LaunchWarning, LiteralConversionWarning
from ...ir.registry import define, scalar_cost
from ...ir.types import PtrType, ScalarType
from . import dtype as dt
from . import scalar_rules
from .errors import error


class IRHandle:
    """Base of every traced value (scalar, pointer, tile, tensor)."""
    __slots__ = ("handle",)


def _emit(name, operands, result_type, **attrs):
    return current_builder().create(name, operands, [result_type] if result_type else [], attrs)


def py_dtype(value):
    if isinstance(value, bool):
        return dt.int1
    if isinstance(value, int):
        return dt.int32
    if isinstance(value, float):
        return dt.float32
    return None


def const(value, dtype) -> "PlainValue":
    """Materialise a Python number as a typed scalar."""
    if isinstance(value, (np.generic,)):
        value = value.item()
    if dtype.is_int():
        value = int(value)
    elif dtype.is_float():
        value = float(value)
    return PlainValue(_emit("scalar.const", [], ScalarType(dtype), value=value, dtype=str(dtype)).result)


def to_scalar(value, dtype) -> "PlainValue":
    if isinstance(value, PlainValue):
        return value.cast(dtype)
    if isinstance(value, (bool, int, float, np.number)):
        return const(value, dtype)
    raise error(TypeError, f"{type(value)} cannot be converted to a scalar of type {dtype}",
                "pass a number or a runtime scalar here")


def _literal_operand(value, dtype, symbol):
    """``value`` as a scalar of ``dtype`` (the other operand's type, as pyasc converts it); a float literal
    that an integer scalar cannot hold exactly gets a trace-time warning, as on the hardware it silently
    becomes another number (``n * 1.5`` multiplies by 1)."""
    text = scalar_rules.lossy_literal(value, dtype, symbol)
    if text is not None:
        b = current_builder()
        text += f"; cast the scalar first (v.cast(asc.float32) {symbol} {value!r}) to compute in float"
        loc = b.loc
        msg = LaunchWarning(text, LiteralConversionWarning) if loc is None else \
            LaunchWarning(f"{loc.file}:{loc.line}: {text}", LiteralConversionWarning, loc.file, loc.line, text)
        if msg not in b.warnings:
            b.warnings.append(msg)
    if not isinstance(value, PlainValue):
        value = scalar_rules.literal(value, dtype)     # (refuses an int the type cannot hold)
    return to_scalar(value, dtype)


_ARITH = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%",
          "lshift": "<<", "rshift": ">>", "and": "&", "or": "|", "xor": "^",
          "logical_and": "and", "logical_or": "or", "max": "max", "min": "min"}
_CMP = ("eq", "ne", "gt", "ge", "lt", "le")
_CMP_SYMBOL = {"eq": "==", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}


class PlainValue(IRHandle):
    """A runtime scalar (int32 loop index, block id, reduction result...)."""
    __slots__ = ()

    def __init__(self, handle):
        self.handle = handle

    @property
    def dtype(self):
        return self.handle.type.dtype

    def __repr__(self):
        return f"PlainValue(dtype={self.dtype}, handle=...)"   # as pyasc prints it (its error texts quote it)

    def __bool__(self):
        raise error(TypeError, "a runtime scalar has no Python truth value",
                    "use it in an `if` statement of the kernel (a runtime branch), not in host logic")

    def __index__(self):
        raise error(TypeError, "a runtime scalar cannot be used where a Python int is required",
                    "declare the parameter as asc.ConstExpr[int] so its value is known at compile time")

    # -- arithmetic --------------------------------------------------------------------------
    def _binary(self, other, kind, reverse=False):
        if not isinstance(other, (PlainValue, bool, int, float, np.number)):
            return NotImplemented
        other = _literal_operand(other, self.dtype, _ARITH[kind])
        if self.dtype.is_float() and not scalar_rules.FLOAT_FORM[kind]:
            raise scalar_rules.no_float_form(kind, self.dtype)
        a, b = (other, self) if reverse else (self, other)
        return PlainValue(_emit("scalar.binary", [a.handle, b.handle], ScalarType(self.dtype), kind=kind).result)

    def _cmp(self, other, mode, reverse=False):
        if not isinstance(other, (PlainValue, bool, int, float, np.number)):
            return NotImplemented
        other = _literal_operand(other, self.dtype, _CMP_SYMBOL[mode])
        a, b = (other, self) if reverse else (self, other)
        return PlainValue(_emit("scalar.cmp", [a.handle, b.handle], ScalarType(dt.int1), mode=mode).result)

    def __add__(self, o): return self._binary(o, "add")
    def __radd__(self, o): return self._binary(o, "add", True)
    def __sub__(self, o): return self._binary(o, "sub")
    def __rsub__(self, o): return self._binary(o, "sub", True)
    def __mul__(self, o): return self._binary(o, "mul")
    def __rmul__(self, o): return self._binary(o, "mul", True)
    def __truediv__(self, o): return self._binary(o, "div")
    def __rtruediv__(self, o): return self._binary(o, "div", True)
    def __floordiv__(self, o): return self._binary(o, "floordiv")
    def __rfloordiv__(self, o): return self._binary(o, "floordiv", True)
    def __mod__(self, o): return self._binary(o, "mod")
    def __rmod__(self, o): return self._binary(o, "mod", True)
    def __lshift__(self, o): return self._binary(o, "lshift")
    def __rlshift__(self, o): return self._binary(o, "lshift", True)
    def __rshift__(self, o): return self._binary(o, "rshift")
    def __rrshift__(self, o): return self._binary(o, "rshift", True)
    def __and__(self, o): return self._binary(o, "and")
    def __rand__(self, o): return self._binary(o, "and", True)
    def __or__(self, o): return self._binary(o, "or")
    def __ror__(self, o): return self._binary(o, "or", True)
    def __xor__(self, o): return self._binary(o, "xor")
    def __rxor__(self, o): return self._binary(o, "xor", True)

    def __eq__(self, o): return self._cmp(o, "eq")
    def __ne__(self, o): return self._cmp(o, "ne")
    def __gt__(self, o): return self._cmp(o, "gt")
    def __ge__(self, o): return self._cmp(o, "ge")
    def __lt__(self, o): return self._cmp(o, "lt")
    def __le__(self, o): return self._cmp(o, "le")
    def __req__(self, o): return self._cmp(o, "eq", True)
    def __rne__(self, o): return self._cmp(o, "ne", True)
    def __rgt__(self, o): return self._cmp(o, "gt", True)
    def __rge__(self, o): return self._cmp(o, "ge", True)
    def __rlt__(self, o): return self._cmp(o, "lt", True)
    def __rle__(self, o): return self._cmp(o, "le", True)
    __hash__ = None

    def __neg__(self):
        if self.dtype.is_float() and tracing_august():
            raise scalar_rules.float_negation()
        return PlainValue(_emit("scalar.unary", [self.handle], ScalarType(self.dtype), kind="neg").result)

    def __pos__(self):
        return self

    def __pow__(self, o):
        raise error(NotImplementedError, "Power operator is not supported for scalars",
                    "multiply explicitly (x * x) or use @exp / @log")

    def __invert__(self):
        if tracing_august():
            raise scalar_rules.invert_error()
        raise error(NotImplementedError, "Invert operator is not supported for scalars",
                    "use a comparison (x == 0) or arithmetic (-x - 1)")

    def logical_and(self, other):
        return PlainValue(_emit("scalar.binary", [self.cast(dt.int1).handle, to_scalar(other, dt.int1).handle],
                                ScalarType(dt.int1), kind="logical_and").result)

    def logical_or(self, other):
        return PlainValue(_emit("scalar.binary", [self.cast(dt.int1).handle, to_scalar(other, dt.int1).handle],
                                ScalarType(dt.int1), kind="logical_or").result)

    def logical_not(self):
        return self.cast(dt.int1) == 0

    def max(self, other):
        """The larger of two scalars (pyasc-dev's ``PlainValue.max``; the builtin ``max`` of a kernel)."""
        return self._binary(other, "max")

    def min(self, other):
        return self._binary(other, "min")

    def cast(self, dtype) -> "PlainValue":
        if dtype == self.dtype:
            return self
        bad = scalar_rules.cast_error(self.dtype, dtype)    # pyasc converts int <-> float at equal bit width only
        if bad is not None:
            raise bad
        return PlainValue(_emit("scalar.cast", [self.handle], ScalarType(dtype)).result)

    def ceildiv(self, other):
        return (self + other - 1) // other


class GlobalAddress(IRHandle):
    """A kernel pointer argument (a host buffer in global memory)."""
    __slots__ = ()

    def __init__(self, handle):
        self.handle = handle

    @property
    def dtype(self):
        return self.handle.type.dtype

    def __add__(self, offset):
        off = to_scalar(offset, dt.int32)
        return GlobalAddress(_emit("ptr.offset", [self.handle, off.handle], PtrType(self.dtype)).result)

    def __repr__(self):
        return f"GlobalAddress(dtype={self.dtype}, handle=...)"


def scalar_unary(kind, value):
    """exp / erf / sqrt on a scalar: computed in float32 (pyasc materialises the scalar as float32)."""
    v = to_scalar(value, dt.float32)
    return PlainValue(_emit("scalar.unary", [v.handle], ScalarType(dt.float32), kind=kind).result)


def _scalar_math_cost(op, hw):
    """Float division and transcendentals take the scalar unit many cycles; the rest one."""
    slow = op.attrs.get("kind") in ("div", "sqrt", "rsqrt", "exp", "log", "erf") and \
        op.results[0].type.dtype.is_float()
    return ("S", hw.scalar_float_math if slow else hw.scalar_op)


# -- op definitions and costs (executed by asc.sim.ops) -----------------------------------
define("scalar.const", cost=scalar_cost)
define("scalar.binary", cost=_scalar_math_cost)
define("scalar.cmp", cost=scalar_cost)
define("scalar.cast", cost=scalar_cost)
define("scalar.unary", cost=_scalar_math_cost)
define("ptr.offset", cost=scalar_cost)
define("scalar.select", cost=scalar_cost)

"""pyasc's arithmetic on device scalars (``PlainValue``, ``asc/language/core/ir_value.py``), in one place for
both front ends: the tile front end emits IR scalar ops by these rules (``ir_value.py``), a v1 kernel's body,
which runs as Python, computes its device values by them (``device_binary`` ... below, called where the v1
front end rewrote an operator on a device value, ``frontend/v1_arith.py``).

The rules (``apply_binary_op`` / ``apply_compare_op`` / ``materialize_ir_value`` upstream):

- the result has the type of the left operand when it is a device value, else of the right one: the other
  operand is converted to it (a Python float meeting a device int becomes an int, truncated toward zero:
  ``n * 0.5`` is ``n * 0``; a device float meeting a device int on its right becomes one by FPToSI);
- ``/`` and ``//`` of integers are C's division (truncating toward zero), ``%`` C's remainder (the sign of
  the dividend); of floats both are the true division; ``%``, shifts and bitwise ops have no float form;
- integer results wrap at their width (C's int32 arithmetic);
- a comparison converts both operands the same way and compares in that type (``n < 2.5`` is ``n < 2``);
- a Python int the type cannot hold is refused (``Unsupported dtype for materialization: int32``)."""
from __future__ import annotations

import operator

import numpy as np

from . import dtype as dt
from .errors import error

# the operators and whether pyasc has a float form of each (``build_float`` of apply_binary_op)
FLOAT_FORM = {"add": True, "sub": True, "mul": True, "div": True, "floordiv": True, "mod": False,
              "lshift": False, "rshift": False, "and": False, "or": False, "xor": False, "max": True, "min": True}
SYMBOL = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%", "lshift": "<<",
          "rshift": ">>", "and": "&", "or": "|", "xor": "^", "max": "max", "min": "min"}


def plain_repr(dtype):
    return f"PlainValue(dtype={dtype}, handle=...)"


def no_float_form(kind, dtype):
    """pyasc's refusal of an operator with no float form (``%``, shifts, bitwise ops of floats)."""
    return error(ValueError, f"Binary operation is not supported between {plain_repr(dtype)} and "
                 f"{plain_repr(dtype)}",
                 f"'{SYMBOL[kind]}' of scalars is an integer operation in pyasc (it has no float form): compute it "
                 "on integer values, or on a tensor with the vector instructions")


def cast_error(src, dst):
    """pyasc's refusal of a scalar cast it has no arith op for (int <-> float only at equal bit width), or
    None when the cast exists."""
    if dst == src or str(dst) == "int1":
        return None
    if (src.is_int() and dst.is_int()) or (src.is_float() and dst.is_float()) or src.bitwidth == dst.bitwidth:
        return None
    mid = dt.DataType(f"int{src.bitwidth}") if src.is_float() else \
        dt.DataType(f"float{src.bitwidth}") if src.bitwidth in (16, 32) else dt.DataType(f"int{dst.bitwidth}")
    return error(NotImplementedError, f"Arithmetic cast from {src} to {dst} is not supported",
                 f"convert the scalar in two steps, through {mid} first: value.cast(asc.{mid})")


def lossy_literal(value, dtype, symbol):
    """What a float literal meeting an integer scalar becomes, as a warning's text, when the int cannot hold it
    exactly (``n * 1.5`` multiplies by 1 on the device); else None."""
    if not (isinstance(value, (float, np.floating)) and dtype.is_int() and not float(value).is_integer()):
        return None
    kept = int(value) if np.isfinite(value) else "an undefined value"
    return (f"the float literal {value!r} in '{symbol}' with an {dtype} scalar is converted to {dtype} ({kept}), as "
            "pyasc converts a literal to the scalar's type")


def literal(value, dtype):
    """A Python number as pyasc materialises it in ``dtype``: ``int()`` (toward zero) / ``float()`` / ``bool()``;
    an int the type cannot hold is refused."""
    if isinstance(value, np.generic):
        value = value.item()
    if str(dtype) == "int1":
        return bool(value)
    if dtype.is_int():
        value = int(value)
        info = np.iinfo(dtype.to_numpy())
        if not info.min <= value <= info.max:
            raise error(RuntimeError, f"Unsupported dtype for materialization: {dtype}",
                        f"the constant {value} does not fit {dtype} ([{info.min}, {info.max}]): use a smaller "
                        "constant, or compute in a wider type (v.cast(asc.int64))")
        return value
    if dtype.is_float():
        return float(value)
    return value


# -- the values of a v1 kernel's device scalars ---------------------------------------------------------------
# A v1 body runs as Python: a device value is a Python number (a numpy scalar when its type is not int32 /
# float32 / a bool) or the traced block index; its pyasc type is read from it.

_BLOCK_INDEX = None


def _block_index_type():
    global _BLOCK_INDEX
    if _BLOCK_INDEX is None:
        from ...ir.block_index import BlockIndex
        _BLOCK_INDEX = BlockIndex
    return _BLOCK_INDEX


def value_dtype(v):
    """The pyasc type of a v1 device value (None: not one these rules compute: a bool, a comparison's result or
    a bool argument, whose arithmetic stays Python's; anything not a number)."""
    t = type(v)
    if t is int:
        return dt.int32
    if t is float:
        return dt.float32
    if isinstance(v, np.generic) and v.dtype.kind in "iuf":
        return dt.DataType(v.dtype.name)
    if t is _block_index_type():
        return dt.int32
    return None


def _typed(v, dtype):
    """A computed value as the v1 body holds it: a Python int / float for int32 / float32, else numpy's."""
    if dtype == dt.int32 or dtype == dt.float32:
        return v.item() if isinstance(v, np.generic) else v
    return dtype.to_numpy().type(v)


def _wrap(x, dtype):
    bits = dtype.bitwidth
    x &= (1 << bits) - 1
    if dtype.is_signed() and x >> (bits - 1):
        x -= 1 << bits
    return x


def _convert(v, device, dtype):
    """``v`` in the result type: a device value cast (pyasc's ``PlainValue.cast``), a Python number
    materialised."""
    if not device:
        return literal(v, dtype)
    src = value_dtype(v)
    if type(v) is _block_index_type():
        return v if dtype.is_int() else float(v)    # (a float of it is a value per block: BlockDependent)
    if src == dtype:
        return v
    bad = cast_error(src, dtype)
    if bad is not None:
        raise bad
    if dtype.is_int():
        if src.is_float():
            return int(v)     # FPToSI truncates toward zero
        return _wrap(int(v), dtype)
    return float(dtype.to_numpy().type(v))


def _c_div(a, b, kind):
    """C's truncating division (``/``, ``//``) or remainder (``%``) of two ints."""
    if b == 0:
        raise error(ZeroDivisionError, "integer division by zero (a device int divided by 0)",
                    "the divisor is a device value that reached 0: guard it with an if")
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return a - b * q if kind == "mod" else q


_INT_OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "lshift": operator.lshift,
            "rshift": operator.rshift, "and": operator.and_, "or": operator.or_, "xor": operator.xor}
_FLOAT_OPS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
              "floordiv": np.true_divide}
_CMP = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
        "ge": operator.ge}


def device_binary(kind, a, b, a_device, b_device):
    """``a <op> b`` where at least one operand is a device value (``*_device``: which), as pyasc computes it."""
    rt = value_dtype(a) if a_device else value_dtype(b)
    if rt is None or value_dtype(b if a_device else a) is None:
        return None     # not two numbers: Python's operator decides
    x, y = _convert(a, a_device, rt), _convert(b, b_device, rt)
    if rt.is_float():
        if not FLOAT_FORM[kind]:
            raise no_float_form(kind, rt)
        npd = rt.to_numpy()
        with np.errstate(all="ignore"):
            return _typed(_FLOAT_OPS[kind](npd.type(x), npd.type(y)), rt)
    BlockIndex = _block_index_type()
    if type(x) is BlockIndex or type(y) is BlockIndex:
        return _block_binary(kind, x, y)
    x, y = int(x), int(y)
    if kind in ("div", "floordiv", "mod"):
        r = _c_div(x, y, kind)
    else:
        if kind == "lshift" and y < 0 or kind == "rshift" and y < 0:
            raise error(ValueError, f"a shift by a negative amount ({y})", "shift by 0 .. bits - 1")
        r = _INT_OPS[kind](x, y)
    return _typed(_wrap(r, rt), rt)


def _block_binary(kind, x, y):
    """The traced block index in integer arithmetic: exact (its values are small), ``/ // %`` truncating."""
    if kind in ("div", "floordiv", "mod"):
        BlockIndex = _block_index_type()
        if type(y) is int and y > 0 and type(x) is BlockIndex and x.nonnegative():
            return x % y if kind == "mod" else x // y      # C's division is the floor one here
        bi = x if type(x) is BlockIndex else y
        return bi.combine(y if bi is x else x, lambda p, q: _c_div(p, q, kind),
                          f"the block index {SYMBOL[kind]} a value", swap=bi is y)
    return _INT_OPS[kind](x, y)


def device_compare(mode, a, b, a_device, b_device):
    """``a <cmp> b`` with a device operand: both in the result type of the binary rule, a bool."""
    rt = value_dtype(a) if a_device else value_dtype(b)
    if rt is None or value_dtype(b if a_device else a) is None:
        return None
    x, y = _convert(a, a_device, rt), _convert(b, b_device, rt)
    if rt.is_float():      # (in the type's precision: a float32 argument of 0.1 equals the literal 0.1)
        x, y = rt.to_numpy().type(x), rt.to_numpy().type(y)
    return bool(_CMP[mode](x, y))


def float_negation():
    """pyasc-dev's ``-v`` of a float scalar returns a bare IR handle (``NegFOp``), not a ``PlainValue``: the
    first operation given it fails. Refused at the minus."""
    return error(TypeError, "Unsupported value type for materialization: Value (pyasc's unary minus of a float "
                 "scalar returns a bare IR handle, which no later operation takes)", "write 0.0 - v, or v * -1.0")


def invert_error():
    return error(NotImplementedError, "Inversion operator is not implemented for PlainValue",
                 "use -v - 1 (the same bits) or a comparison (v == 0)")


def device_negate(v):
    """``-v``: an int is multiplied by -1 (wrapping), a float has no usable negation in pyasc."""
    dtype = value_dtype(v)
    if dtype is None:
        return None
    if dtype.is_float():
        raise float_negation()
    if type(v) is _block_index_type():
        return -v
    return _typed(_wrap(-int(v), dtype), dtype)


def device_invert(v):
    if value_dtype(v) is not None:
        raise invert_error()

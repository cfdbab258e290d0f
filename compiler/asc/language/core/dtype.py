"""Element types of the asc language (pyasc's ``DataType``)."""
from __future__ import annotations

import re

import ml_dtypes
import numpy as np

_NAME_RE = re.compile(r"^(u?int|b?float)([0-9]+)(?:_e[0-9]+m[0-9]+[a-z]*)?$")  # float8_e4m3fn: 8 bits


class DataType:
    """An element type, identified by name (``float16``, ``int32``...)."""

    def __init__(self, name: str):
        self.name = str(name)
        m = _NAME_RE.match(self.name)
        if m:
            kind = m.group(1)
            self.kind = {"int": "Int", "uint": "UInt"}.get(kind, "Float")
            self.bitwidth = int(m.group(2))
        else:
            self.kind = "Any"
            self.bitwidth = None

    def is_int(self) -> bool:
        return self.kind in ("Int", "UInt")

    def is_float(self) -> bool:
        return self.kind == "Float"

    def is_numeric(self) -> bool:
        return self.is_int() or self.is_float()

    def is_signed(self) -> bool:
        return self.kind == "Int"

    def is_unsigned(self) -> bool:
        return self.kind == "UInt"

    def is_void(self) -> bool:
        return self.name == "void"

    def sizeof(self) -> int:
        if self.bitwidth is None:
            raise ValueError(f"DataType does not have a bitwidth: {self.name}")
        if self.bitwidth % 8:
            raise ValueError(f"DataType bitwidth does not fit an integer number of bytes: {self.bitwidth}")
        return self.bitwidth // 8

    def to_numpy(self) -> np.dtype:
        """The numpy dtype used by the simulator to hold values of this type."""
        try:
            return _NUMPY[self.name]
        except KeyError:
            raise ValueError(f"Unsupported DataType name: {self.name}") from None

    def __eq__(self, other):
        if isinstance(other, DataType):
            return self.name == other.name
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None  # pyasc's DataType is unhashable; key dicts by str(dtype)

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"asc.{self.name}" if self.name in _PUBLIC else f"DataType({self.name!r})"


_NUMPY = {
    "int1": np.dtype(np.bool_),
    "int8": np.dtype(np.int8), "int16": np.dtype(np.int16), "int32": np.dtype(np.int32),
    "int64": np.dtype(np.int64), "uint8": np.dtype(np.uint8), "uint16": np.dtype(np.uint16),
    "uint32": np.dtype(np.uint32), "uint64": np.dtype(np.uint64),
    "float16": np.dtype(np.float16), "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float32": np.dtype(np.float32), "float64": np.dtype(np.float64),
    # 8-bit floats (ml_dtypes); e8m0fnuz is ml_dtypes' float8_e8m0fnu: 8 exponent bits, no zero, 0xFF = NaN
    "float8_e4m3fn": np.dtype(ml_dtypes.float8_e4m3fn), "float8_e5m2": np.dtype(ml_dtypes.float8_e5m2),
    "float8_e8m0fnuz": np.dtype(ml_dtypes.float8_e8m0fnu),
}

void = DataType("void")
int1 = DataType("int1")
bit = int1
int8 = DataType("int8")
int16 = DataType("int16")
int32 = DataType("int32")
int64 = DataType("int64")
uint8 = DataType("uint8")
uint16 = DataType("uint16")
uint32 = DataType("uint32")
uint64 = DataType("uint64")
float16 = DataType("float16")
bfloat16 = DataType("bfloat16")
float32 = DataType("float32")
float64 = DataType("float64")
half = float16
float_ = float32
double = float64
int_ = int32
bool_ = int8  # pyasc's KnownTypes.bool_
float8_e4m3fn = DataType("float8_e4m3fn")
float8_e5m2 = DataType("float8_e5m2")
float8_e8m0fnuz = DataType("float8_e8m0fnuz")



class KnownTypes:
    """pyasc's table of the element types by name (``asc.language.core.dtype.KnownTypes``)."""
    void, int1, bit, int8, int16, int32, int64 = void, int1, bit, int8, int16, int32, int64
    uint8, uint16, uint32, uint64 = uint8, uint16, uint32, uint64
    float16, bfloat16, float32, float64 = float16, bfloat16, float32, float64
    bool_, int_, half, float_, double = bool_, int_, half, float_, double
    float8_e4m3fn, float8_e5m2, float8_e8m0fnuz = float8_e4m3fn, float8_e5m2, float8_e8m0fnuz


_PUBLIC = {"void", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "bfloat16", "float32", "float64"}

# Element types a tile may hold (the IR's NumericTile constraint) plus int1 for masks.
TILE_DTYPES = ("float16", "bfloat16", "float32", "int8", "int16", "int32")


def from_host(dt) -> DataType:
    """DataType of a numpy / torch dtype (``torch.bfloat16`` -> bfloat16)."""
    name = str(dt)
    if name.startswith("torch."):
        name = name[len("torch."):]
    return DataType(name)

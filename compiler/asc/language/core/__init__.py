from .dtype import (DataType, void, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
                    bfloat16, float32, float64, half, float_, double, int_, float8_e4m3fn, float8_e5m2,
                    float8_e8m0fnuz)
from .constexpr import ConstExpr
from .ir_value import GlobalAddress, PlainValue
from .utils import ceildiv
from .range import range, static_range, BaseRange
from .ops import number


"""A float32 tile cast to int8 (through float16: the vector unit has no direct float32 -> int8 conversion, and
pyasc-dev's compiler refuses one) and an int32 tile cast to int64, stored to tensors of those dtypes."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def narrow_and_wide(x_ptr, i8_ptr, i64_ptr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    asctile.copy_out(x.to(asctile.float16).to(asctile.int8), asctile.global_tensor(i8_ptr, [1, 64]), [0, 0])
    asctile.copy_out(asctile.cast(x.to(asctile.int32), asctile.int64), asctile.global_tensor(i64_ptr, [1, 64]), [0, 0])


def run():
    x = (np.arange(64, dtype=np.float32) - 32).reshape(1, 64)
    i8, i64 = np.zeros((1, 64), np.int8), np.zeros((1, 64), np.int64)
    narrow_and_wide[1](x, i8, i64)
    return {"i8": i8, "i64": i64}

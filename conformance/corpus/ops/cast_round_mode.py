"""cast / to with a RoundMode: float32 -> int32 with Floor, Ceil, Trunc, Round, Rint and -> float16 with Trunc."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, h_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    out = asctile.global_tensor(out_ptr, [5, 64])
    asctile.copy_out(asctile.cast(x, asctile.int32, asctile.RoundMode.Floor), out, [0, 0])
    asctile.copy_out(asctile.cast(x, asctile.int32, round_mode=asctile.RoundMode.Ceil), out, [1, 0])
    asctile.copy_out(x.to(asctile.int32, asctile.RoundMode.Trunc), out, [2, 0])
    asctile.copy_out(x.to(asctile.int32, asctile.RoundMode.Round), out, [3, 0])
    asctile.copy_out(x.to(asctile.int32, asctile.RoundMode.Rint), out, [4, 0])
    asctile.copy_out(x.to(asctile.float16, asctile.RoundMode.Trunc), asctile.global_tensor(h_ptr, [1, 64]), [0, 0])


def run():
    x = (np.arange(64, dtype=np.float32) - 32) / 4 + np.float32(0.0001)
    x[:4] = [0.5, 1.5, -2.5, 2049.0]
    x = x.reshape(1, 64)
    out = np.zeros((5, 64), np.int32)
    h = np.zeros((1, 64), np.float16)
    kernel[1](x, out, h)
    return {"out": out, "h": h}

"""One @jit helper called with TQues of depths 2 and 1: pyasc compiles a helper once, for its first
call's argument types, and the second call's queue type differs."""
import numpy as np

import asc

EXPECT = 'reject'
N = 64

@asc.jit
def move(x_gm: asc.GlobalTensor, z_gm: asc.GlobalTensor, q: asc.TQue, off: int, n: int):
    t = q.alloc_tensor(asc.float32)
    asc.data_copy(t, x_gm[off:], n)
    q.enque(t)
    t = q.deque(asc.float32)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm[off:], t, n)
    q.free_tensor(t)


@asc.jit
def kernel(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.VECIN, 2)
    q2 = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q1, 2, 128)
    pipe.init_buffer(q2, 1, 128)
    move(x_gm, z_gm, q1, 0, 32)
    move(x_gm, z_gm, q2, 32, 32)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z)
    return {"x": x, "z": z}


def reference(arrays):
    return {"z": arrays["x"]}

"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc 'TypeError: Unsupported value type for materialization: list'; here 'TypeError: /tmp/asc-v1fuzz-34inimgl/k202.py:23: Invalid dst data type, got int16, exp"""
import numpy as np

import asc

SPEC = {'op': 'repeat_reduce_sum', 'values': 'random', 'dtype': 'int16', 'form': 'mask_list', 'mask': [9223372036854775808, 9223372036854775808], 'repeat_times': 1, 'src_blk': 4, 'src_rep': 16, 'dst_rep': 2, 'call': [[None, 'repeat_time'], [None, 'mask'], [None, 'dst_blk_stride'], [None, 'src_blk_stride'], [None, 'dst_rep_stride'], [None, 'src_rep_stride']]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'message|reduce|mask_list|pyasc rejected: CodegenError: TypeError: Unsupported value type for materialization: list|here rejected: TypeError: Invalid dst data type, got intN, expect one of floatN, floatN'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 512)
    src = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, 512)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 128)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 1024, 128)
    asc.data_copy(src, x_gm, 512)
    asc.data_copy(dst, z_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.repeat_reduce_sum(dst, src, 1, [0x8000000000000000, 0x8000000000000000], 1, 4, 2, 16)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 128)


def run():
    arrays = inputs()
    arrays["z0"] = arrays["z"].copy()
    arrays.setdefault("w", np.zeros(4, np.int64))
    kernel[1](arrays["x"], arrays.get("y", arrays["x"]), arrays["z"], arrays["w"])
    arrays["zbytes"] = arrays["z"].view(np.uint8)
    arrays["kept"] = arrays["w"][:1]
    return arrays


def inputs():
    from v1_families import inputs as make  # the driver puts the conform directory on sys.path
    return make(SPEC)


def reference(arrays):
    from v1_families import reference as ref
    return ref(SPEC, arrays)

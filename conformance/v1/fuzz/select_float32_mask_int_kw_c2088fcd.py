"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: TypeError: /tmp/asc-v1fuzz-hoyebdw9/k0.py:28: select: VSEL_TENSOR_SCALAR_MODE takes a scalar src1, got a LocalTensor"""
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'edges', 'dtype': 'float32', 'form': 'mask_int', 'mask': 64, 'repeat_times': 5, 'sel_mode': 1, 'scalar': -2.0, 'call': [['src1', 'src1'], ['sel_mode', 'sel_mode'], ['mask', 'mask'], ['repeat_times', 'repeat_times'], ['repeat_params', 'repeat_params']], 'strides': [[0, 8], [2, 8], [1, 0]]}
EXPECT = 'accept'
HERE = 'reject'   # operands of more than one element type
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|select|mask_int|pyasc accepted: |here rejected: TypeError: select: VSEL_TENSOR_SCALAR_MODE takes a scalar srcN, got a LocalTensor'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 384)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 384)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 1536, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 320)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 1792, 320)
    asc.data_copy(src, x_gm, 384)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 320)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(0, 2, 1, 8, 8, 0)
    asc.select(dst, sel, src, src1=-2.0, sel_mode=asc.SelMode.VSEL_TENSOR_SCALAR_MODE, mask=64, repeat_times=5, repeat_params=params)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 320)


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

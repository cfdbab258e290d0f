"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: TypeError: /tmp/asc-v1fuzz-r5wlxp1p/k61.py:28: select takes operands of one element type, got int32, uint8, int32 (LocalTensor(VECOUT) of l"""
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'edges', 'dtype': 'int32', 'form': 'mask_int', 'mask': 33, 'repeat_times': 2, 'sel_mode': 1, 'scalar': -2.0, 'call': [['src1', 'src1'], ['sel_mode', 'sel_mode'], ['mask', 'mask'], ['repeat_times', 'repeat_times'], ['repeat_params', 'repeat_params']], 'strides': [[2, 16], [0, 8], [1, 0]]}
EXPECT = 'accept'
HERE = 'reject'   # operands of more than one element type
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|select|mask_int|pyasc accepted: |here rejected: TypeError: select takes operands of one element type, got intN, uintN, intN (LocalTensor(VECOUT) of line N, LocalTensor('


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 128)
    src = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 128)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 512, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    dst = asc.LocalTensor(asc.int32, asc.TPosition.VECOUT, 768, 256)
    asc.data_copy(src, x_gm, 128)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(2, 0, 1, 16, 8, 0)
    asc.select(dst, sel, src, src1=-2.0, sel_mode=asc.SelMode.VSEL_TENSOR_SCALAR_MODE, mask=33, repeat_times=2, repeat_params=params)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 256)


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

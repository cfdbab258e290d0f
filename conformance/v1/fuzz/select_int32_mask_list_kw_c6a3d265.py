"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: TypeError: /tmp/asc-v1fuzz-r5wlxp1p/k217.py:28: select takes operands of one element type, got int32, uint8, int32 (LocalTensor(VECOUT) of """
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'random', 'dtype': 'int32', 'form': 'mask_list', 'mask': [9223372036854775808], 'repeat_times': 4, 'sel_mode': 1, 'scalar': -2.0, 'call': [['src1', 'src1'], ['sel_mode', 'sel_mode'], ['mask', 'mask'], ['repeat_times', 'repeat_times'], ['repeat_params', 'repeat_params']], 'strides': [[0, 4], [1, 16], [0, 16]]}
EXPECT = 'accept'
HERE = 'reject'   # operands of more than one element type
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|select|mask_list|pyasc accepted: |here rejected: TypeError: select takes operands of one element type, got intN, uintN, intN (LocalTensor(VECOUT) of line N, LocalTensor('


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 448)
    src = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 448)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 1792, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 128)
    dst = asc.LocalTensor(asc.int32, asc.TPosition.VECOUT, 2048, 128)
    asc.data_copy(src, x_gm, 448)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(0, 1, 0, 4, 16, 16)
    asc.select(dst, sel, src, src1=-2.0, sel_mode=asc.SelMode.VSEL_TENSOR_SCALAR_MODE, mask=[0x8000000000000000], repeat_times=4, repeat_params=params)
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

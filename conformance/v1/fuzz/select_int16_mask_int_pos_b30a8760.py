"""Found by the v1 differential fuzzer: verdict
    pyasc-dev accepted, here rejected: pyasc accepts, here: ValueError: /tmp/asc-v1fuzz-34inimgl/k11.py:28: select: the scalar 0.5 is not a int16 value ([-32768, 32767], whole)"""
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'random', 'dtype': 'int16', 'form': 'mask_int', 'mask': 82, 'repeat_times': 2, 'sel_mode': 1, 'scalar': 0.5, 'call': [[None, 'src1'], [None, 'sel_mode'], [None, 'mask'], [None, 'repeat_times'], [None, 'repeat_params']], 'strides': [[0, 8], [2, 16], [1, 4]]}
EXPECT = 'accept'
HERE = 'reject'   # element type the Ascend C instruction does not take
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|select|mask_int|pyasc accepted: |here rejected: ValueError: select: the scalar N.N is not a intN value ([-N, N], whole)'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 512)
    src = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, 512)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 1024, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 1280, 256)
    asc.data_copy(src, x_gm, 512)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(0, 2, 1, 8, 16, 4)
    asc.select(dst, sel, src, 0.5, asc.SelMode.VSEL_TENSOR_SCALAR_MODE, 82, 2, params)
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

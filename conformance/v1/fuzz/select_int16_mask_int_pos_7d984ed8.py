"""Found by the v1 differential fuzzer: message
    pyasc-dev rejected, here rejected: pyasc 'RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()'; here 'ValueError: /tmp/asc-v1fuzz-hoyebdw9/k190.py:28: select"""
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'ties', 'dtype': 'int16', 'form': 'mask_int', 'mask': 62, 'repeat_times': 0, 'sel_mode': 1, 'scalar': 0.5, 'call': [[None, 'src1'], [None, 'sel_mode'], [None, 'mask'], [None, 'repeat_times']], 'strides': [[2, 0], [2, 4], [2, 4]]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'message|select|mask_int|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()|here rejected: ValueError: select: the scalar N.N is not a intN value ([-N, N], whole)'


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 128)
    src = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 0, 128)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 256, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 128)
    dst = asc.LocalTensor(asc.int16, asc.TPosition.VECOUT, 512, 128)
    asc.data_copy(src, x_gm, 128)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(2, 2, 2, 0, 4, 4)
    asc.select(dst, sel, src, 0.5, asc.SelMode.VSEL_TENSOR_SCALAR_MODE, 62, 0)
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

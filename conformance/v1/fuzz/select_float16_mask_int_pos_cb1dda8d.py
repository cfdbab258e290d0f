"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()"""
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'ties', 'dtype': 'float16', 'form': 'mask_int', 'mask': 19, 'repeat_times': 3, 'sel_mode': 1, 'scalar': -2.0, 'call': [[None, 'src1'], [None, 'sel_mode'], [None, 'mask'], [None, 'repeat_times']], 'strides': [[2, 4], [2, 8], [2, 4]]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|select|mask_int|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()|here accepted: '


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 512)
    src = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 512)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 1024, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 384)
    dst = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 1280, 384)
    asc.data_copy(src, x_gm, 512)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 384)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(2, 2, 2, 4, 8, 4)
    asc.select(dst, sel, src, -2.0, asc.SelMode.VSEL_TENSOR_SCALAR_MODE, 19, 3)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 384)


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

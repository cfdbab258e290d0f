"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()"""
import numpy as np

import asc

SPEC = {'op': 'select', 'values': 'random', 'dtype': 'float16', 'form': 'mask_list', 'mask': [1, 0], 'repeat_times': 2, 'sel_mode': 0, 'call': [[None, 'src1'], [None, 'sel_mode'], [None, 'mask'], [None, 'repeat_times']], 'strides': [[1, 16], [0, 4], [1, 4]]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|select|mask_list|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()|here accepted: '


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 256)
    src = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 256)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, 256)
    src1 = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 512, 256)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w, 256)
    sel = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 1024, 256)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 384)
    dst = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 1280, 384)
    asc.data_copy(src, x_gm, 256)
    asc.data_copy(src1, y_gm, 256)
    asc.data_copy(sel, w_gm, 256)
    asc.data_copy(dst, z_gm, 384)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(1, 0, 1, 16, 4, 4)
    asc.select(dst, sel, src, src1, asc.SelMode.VSEL_CMPMASK_SPR, [1, 0], 2)
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

"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel() (no repeat_params)"""
import numpy as np

import asc

SPEC = {'op': 'compare', 'values': 'ties', 'dtype': 'float16', 'form': 'mask_int', 'mask': 128, 'repeat_times': 1, 'cmp': 'EQ', 'strides': [[1, 8], [1, 8], [1, 8]], 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times']]}
EXPECT = 'reject'
TOLERANCE = {"atol": 0, "rtol": 0}
FUZZ_SIGNATURE = 'verdict|compare|mask_int|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch asc.language.basic.vec_cmpsel()|here accepted: '


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, 128)
    src = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, 128)
    src1 = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 256, 128)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, 256)
    dst = asc.LocalTensor(asc.uint8, asc.TPosition.VECOUT, 512, 256)
    asc.data_copy(src, x_gm, 128)
    asc.data_copy(src1, y_gm, 128)
    asc.data_copy(dst, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8)
    asc.compare(dst, src, src1, asc.CMPMODE.EQ, mask=128, repeat_times=1)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, 256)


def run():
    arrays = inputs()
    arrays["z0"] = arrays["z"].copy()
    arrays["w"] = np.zeros(4, np.int64)
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

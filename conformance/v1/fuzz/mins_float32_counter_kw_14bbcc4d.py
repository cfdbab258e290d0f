"""Found by the v1 differential fuzzer: verdict
    pyasc-dev rejected, here accepted: pyasc rejects: RuntimeError: No viable candidates were found to dispatch mins()"""
import numpy as np

import asc

SPEC = {'op': 'mins', 'dtype': 'float32', 'form': 'counter', 'scalar': 0.5, 'mask': 64, 'repeat_times': 4, 'strides': [[2, 14], [2, 16]], 'call': [['mask', 'mask'], ['repeat_times', 'repeat_times']]}
EXPECT = 'reject'
FUZZ_SIGNATURE = 'verdict|scalar|counter|pyasc rejected: CodegenError: RuntimeError: No viable candidates were found to dispatch mins()|here accepted: '
N = 128


@asc.jit
def kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    y_gm = asc.GlobalTensor()
    y_gm.set_global_buffer(y, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    src0 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    src1 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 512, N)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 1024, N)
    asc.data_copy(src0, x_gm, N)
    asc.data_copy(src1, y_gm, N)
    asc.data_copy(dst, z_gm, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_mask_count()
    asc.mins(dst, src0, 0.5, mask=64, repeat_times=4)
    asc.set_mask_norm()
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, dst, N)


def run():
    arrays = inputs()
    arrays["z0"] = arrays["z"].copy()
    kernel[1](arrays["x"], arrays["y"], arrays["z"])
    return arrays


def inputs():
    from v1_forms import inputs as make  # the driver puts the conform directory on sys.path
    return make(SPEC)


def reference(arrays):
    from v1_forms import reference as ref
    return ref(SPEC, arrays)

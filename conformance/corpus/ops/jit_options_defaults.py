"""Every keyword upstream's ``asctile.jit`` accepts that this engine also accepts, each at its default value;
``kernel_type`` names a vector kernel."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit(capture_exceptions=True, ir_multithreading=True, debug=False, strip_loc=False, verify_sync=False,
             print_ir_before_all=False, run_passes=True, kernel_type=asctile.KernelType.AIV_ONLY, auto_sync=True,
             auto_sync_log="", matmul_cube_only=False, always_compile=False, bisheng_options=None, opt_level=3,
             cv_ratio=1, insert_sync=True, reuse_alloc=0, static_alloc=None, vf_fusion=False)
def add_one(x_ptr, y_ptr):
    x = asctile.global_tensor(x_ptr, [2, 64])
    y = asctile.global_tensor(y_ptr, [2, 64])
    asctile.copy_out(asctile.copy_in(x, [asctile.block_idx(), 0], [1, 64]) + 1.0, y, [asctile.block_idx(), 0])


def run():
    x = np.arange(128, dtype=np.float32).reshape(2, 64)
    y = np.zeros_like(x)
    add_one[2](x, y)
    return {"y": y}

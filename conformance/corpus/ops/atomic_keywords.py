"""atomic_add / atomic_max / atomic_min with upstream's keyword names (src, dst, offsets): every block adds,
maxes and mins its tile into one shared row."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def atomics(x_ptr, sum_ptr, max_ptr, min_ptr):
    x = asctile.global_tensor(x_ptr, [4, 64])
    t = asctile.copy_in(x, [asctile.block_idx(), 0], [1, 64])
    asctile.atomic_add(src=t, dst=asctile.global_tensor(sum_ptr, [1, 64]), offsets=[0, 0])
    asctile.atomic_max(t, dst=asctile.global_tensor(max_ptr, [1, 64]), offsets=[0, 0])
    asctile.atomic_min(t, asctile.global_tensor(min_ptr, [1, 64]), offsets=[0, 0])


def run():
    x = np.arange(256, dtype=np.float32).reshape(4, 64) % 7
    s, mx, mn = np.zeros((1, 64), np.float32), np.full((1, 64), -1e9, np.float32), np.full((1, 64), 1e9, np.float32)
    atomics[4](x, s, mx, mn)
    return {"sum": s, "max": mx, "min": mn}

"""OneHot written as a per-element loop: each block owns ``ceildiv(n, block_num)`` indices, reads each index
with a scalar ``copy_in``, stores a zero row and then a scalar 1.0 at ``[i, index]``. The last blocks' loops
run past the input (n = 7, 33 and 1000 over 16 blocks): a scalar read outside the tensor reads 0 and a
scalar or row store there writes nothing (this engine warns)."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
CASES = ((7, 16), (33, 32), (1000, 8))  # (n, depth)
CORES = 16


@asctile.jit
def one_hot_kernel(idx_ptr, out_ptr, n, depth: asctile.ConstExpr[int]):
    idx = asctile.global_tensor(idx_ptr, [n])
    out = asctile.global_tensor(out_ptr, [n, depth])
    per_block = asctile.ceildiv(n, asctile.block_num())
    zero_row = asctile.zeros([1, depth], asctile.float32)
    for i in range(per_block):
        r = asctile.block_idx() * per_block + i
        k = asctile.copy_in(idx, [r])
        asctile.copy_out(zero_row, out, [r, 0])
        asctile.copy_out(asctile.cast(1.0, asctile.float32), out, [r, k])


def run():
    rng = np.random.default_rng(221)
    pairs = {}
    for n, depth in CASES:
        idx = rng.integers(0, depth, n).astype(np.int32)
        out = np.full((n, depth), -1.0, np.float32)
        one_hot_kernel[CORES](idx, out, n, depth)
        pairs[f"{n}x{depth}"] = (out, np.eye(depth, dtype=np.float32)[idx])
    return checked(pairs)

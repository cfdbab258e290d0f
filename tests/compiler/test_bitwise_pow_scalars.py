"""Bitwise ops and pow with a runtime scalar that differs between blocks (each block combines its tile
with its own value), on 2-D tiles."""
from __future__ import annotations

import numpy as np

from asc.experimental import asctile


@asctile.jit
def per_block(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    b = asctile.block_idx()
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 16]), [b * 2, 0], [2, 16])
    s = b * 2 + 1
    out = asctile.global_tensor(out_ptr, [40, 16])
    asctile.copy_out(x & s, out, [b * 10, 0])
    asctile.copy_out(s | x, out, [b * 10 + 2, 0])
    asctile.copy_out(x ^ s, out, [b * 10 + 4, 0])
    asctile.copy_out(x ** s, out, [b * 10 + 6, 0])
    asctile.copy_out(s ** (x & 3), out, [b * 10 + 8, 0])


def test_each_block_combines_its_tile_with_its_own_scalar():
    x = (np.arange(4 * 2 * 16, dtype=np.int32).reshape(4, 2, 16) % 7) - 3
    out = np.zeros((40, 16), np.int32)
    per_block[4](x.reshape(8, 16), out)
    s = (np.arange(4) * 2 + 1).reshape(4, 1, 1).astype(np.int32)
    expected = np.stack([x & s, s | x, x ^ s, (x.astype(np.int64) ** s).astype(np.int32),
                         (s.astype(np.int64) ** (x & 3)).astype(np.int32)], axis=1)
    np.testing.assert_array_equal(out.reshape(4, 5, 2, 16), expected)

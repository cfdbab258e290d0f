"""``asc.adv`` ops the vector kernels use: ``softmax`` (row softmax of a [m, n] tensor) and ``quant``."""
from __future__ import annotations

import math

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from .params import QuantConfig, SoftmaxTiling  # noqa: F401  (re-exported)
from .tensors import _block


def softmax(dst, sum_tensor, max_tensor, src, tiling=None, temp_buffer=None, reuse_source=False, basic_block=False,
            data_format_nz=False):
    """Row softmax of ``src`` (shape [m, n] from ``set_shape_info``) into ``dst``; each row's sum and max are
    written broadcast over 32 bytes of ``sum_tensor`` / ``max_tensor`` ([m, 32 / sizeof])."""
    m, n = (src.shape if src.shape and len(src.shape) == 2 else (1, src.size))
    per = 32 // sum_tensor.itemsize
    reads = (src.region(0, m * n),)
    writes = (dst.region(0, m * n), sum_tensor.region(0, m * per), max_tensor.region(0, m * per))
    _block().issue(PipeOp("softmax", "V", reads, writes, {"dst": dst, "sum": sum_tensor, "max": max_tensor,
                                                          "src": src, "m": int(m), "n": int(n), "per": per},
                          user_loc()))


def quant(dst, src, scale, offset, count=None, temp_buffer=None, reuse_source=False, config=None):
    """``dst = int8(rint(half(src) * scale + offset))``, computed in half precision (half to even)."""
    n = src.size if count is None else int(count)
    _block().issue(PipeOp("quant", "V", (src.region(0, n),), (dst.region(0, n),),
                          {"dst": dst, "src": src, "scale": float(scale), "offset": float(offset), "count": n},
                          user_loc()))


def _softmax_cost(op, hw):
    a = op.attrs
    return ("V", hw.vector_busy(math.ceil(a["m"] * a["n"] * a["src"].itemsize / hw.vector_bytes), "softmax"))


def _quant_cost(op, hw):
    return ("V", hw.vector_busy(math.ceil(op.attrs["count"] * op.attrs["src"].itemsize / hw.vector_bytes)))


define("v1.softmax", cost=_softmax_cost)
define("v1.quant", cost=_quant_cost)

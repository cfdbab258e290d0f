"""pyasc's host tiling classes (``MultiCoreMatmulTiling``, ``get_ascendc_platform``) and their enums, with the
setters the tutorials call; ``get_tiling`` fills a ``TCubeTiling`` by ``tiling_rule``."""
from __future__ import annotations

import enum

from ...language.v1.enums import TPosition  # the host API takes the kernel's positions
from ...language.v1.matmul_types import TCubeTiling
from ...runtime import config
from ...runtime.platforms import hardware
from .tiling_rule import TilingError, check, choose


class CubeFormat(enum.IntEnum):
    ND = 0
    NZ = 1
    ND_ALIGN = 2
    SCALAR = 3
    VECTOR = 4


class DataType(enum.IntEnum):
    DT_FLOAT = 0
    DT_FLOAT16 = 1
    DT_INT8 = 2
    DT_INT32 = 3
    DT_UINT8 = 4
    DT_INT16 = 6
    DT_UINT16 = 7
    DT_UINT32 = 8
    DT_INT64 = 9
    DT_BF16 = 27


_BYTES = {DataType.DT_FLOAT: 4, DataType.DT_FLOAT16: 2, DataType.DT_BF16: 2, DataType.DT_INT8: 1,
          DataType.DT_UINT8: 1, DataType.DT_INT16: 2, DataType.DT_UINT16: 2, DataType.DT_INT32: 4,
          DataType.DT_UINT32: 4, DataType.DT_INT64: 8}


class MatrixTraverse(enum.IntEnum):
    NOSET = 0
    FIRSTM = 1
    FIRSTN = 2


class PlatformAscendC:
    """The selected platform's cores and on-chip memories (``get_ascendc_platform()``)."""

    def __init__(self, platform):
        self.platform = platform
        self.hw = hardware(platform)

    def get_core_num_aic(self):
        return self.hw.aic_cores

    def get_core_num_aiv(self):
        return self.hw.aiv_cores

    def get_core_num(self):
        return self.hw.aiv_cores

    def get_soc_version(self):
        return self.platform.value

    def __repr__(self):
        return f"PlatformAscendC({self.platform.value})"


def get_ascendc_platform():
    return PlatformAscendC(config.current_platform())


class MatmulApiTiling:
    """Single-core tiling (``set_dim`` is 1)."""

    def __init__(self, platform=None):
        self.platform = platform if platform is not None else get_ascendc_platform()
        self.types = {"a": (TPosition.GM, CubeFormat.ND, DataType.DT_FLOAT16, False),
                      "b": (TPosition.GM, CubeFormat.ND, DataType.DT_FLOAT16, False),
                      "c": (TPosition.GM, CubeFormat.ND, DataType.DT_FLOAT, False),
                      "bias": (TPosition.GM, CubeFormat.ND, DataType.DT_FLOAT, False)}
        self.dim = 1
        self.org = None
        self.shape = None
        self.bias = False
        self.fixed = (-1, -1, -1)
        self.buffer = (-1, -1, -1)
        self.traverse = MatrixTraverse.FIRSTM
        self.layouts = {}
        self.batch_num = -1

    # -- setters (each returns 0 as CANN's do; a bad value raises at get_tiling) ------------------------
    def set_a_type(self, pos, type, data_type, is_trans=False):   # noqa: A002  (CANN's parameter name)
        self.types["a"] = (pos, type, DataType(data_type), bool(is_trans))
        return 0

    def set_b_type(self, pos, type, data_type, is_trans=False):   # noqa: A002
        self.types["b"] = (pos, type, DataType(data_type), bool(is_trans))
        return 0

    def set_c_type(self, pos, type, data_type):   # noqa: A002
        self.types["c"] = (pos, type, DataType(data_type), False)
        return 0

    def set_bias_type(self, pos, type, data_type):   # noqa: A002
        self.types["bias"] = (pos, type, DataType(data_type), False)
        return 0

    def set_dim(self, dim):
        self.dim = int(dim)
        return 0

    def set_org_shape(self, m, n, ka, kb=None):
        self.org = (int(m), int(n), int(ka), int(ka if kb is None else kb))
        return 0

    def set_shape(self, m, n, k):
        self.shape = (int(m), int(n), int(k))
        return 0

    def enable_bias(self, is_bias=True):
        self.bias = bool(is_bias)
        return 0

    def set_bias(self, is_bias=True):
        return self.enable_bias(is_bias)

    def set_fix_split(self, base_m=-1, base_n=-1, base_k=-1):
        self.fixed = (int(base_m), int(base_n), int(base_k))
        return 0

    def set_buffer_space(self, l1_size=-1, l0_c_size=-1, ub_size=-1, bt_size=-1):
        self.buffer = (int(l1_size), int(l0_c_size), int(ub_size))
        return 0

    def set_traverse(self, traverse):
        self.traverse = MatrixTraverse(traverse)
        return 0

    def set_a_layout(self, b, s, n, g, d):
        self.layouts["a"] = (b, s, n, g, d)
        return 0

    def set_b_layout(self, b, s, n, g, d):
        self.layouts["b"] = (b, s, n, g, d)
        return 0

    def set_c_layout(self, b, s, n, g, d):
        self.layouts["c"] = (b, s, n, g, d)
        return 0

    def set_batch_num(self, batch):
        self.batch_num = int(batch)
        return 0

    # -- the tiling ----------------------------------------------------------------------------------
    def get_tiling(self, tiling):
        """Fill ``tiling`` (an ``asc.adv.TCubeTiling``); returns 0. Raises ``TilingError`` for a request no valid
        tiling satisfies."""
        if not isinstance(tiling, TCubeTiling):
            raise TypeError(f"get_tiling expects an asc.adv.TCubeTiling, got {type(tiling).__name__}")
        if self.org is None and self.shape is None:
            raise TilingError("matmul tiling: no shape set (call set_org_shape and set_shape)")
        org = self.org or (self.shape[0], self.shape[1], self.shape[2], self.shape[2])
        m, n, k = self.shape or org[:3]
        sa, sb = _BYTES[self.types["a"][2]], _BYTES[self.types["b"][2]]
        sc = max(4, _BYTES[self.types["c"][2]])
        hw = self.platform.hw
        l1, l0c, _ = self.buffer
        fields = choose(hw, m, n, k, self.dim, sa, sb, sc, self.bias, self.fixed, l1, l0c,
                        0 if self.traverse != MatrixTraverse.FIRSTN else 1)
        fields.update(m=org[0], n=org[1], k_a=org[2], k_b=org[3])
        for key, (b, s, nn, g, d) in self.layouts.items():
            names = {"a": "a_layout_info_", "b": "b_layout_info_"}.get(key)
            if names:
                fields.update({names + "b": b, names + "s": s, names + "n": nn, names + "g": g, names + "d": d})
            else:
                fields.update(c_layout_info_b=b, c_layout_info_s1=s, c_layout_info_n=nn, c_layout_info_g=g,
                              c_layout_info_s2=d)
        if self.batch_num > 0:
            fields["batch_num"] = self.batch_num
        for f, v in fields.items():
            setattr(tiling, f, v)
        check(hw, tiling, sa, sb, sc, self.bias, fields["share_l1_size"], fields["share_l0c_size"])
        return 0

    def get_base_m(self):
        return self._peek("base_m")

    def get_base_n(self):
        return self._peek("base_n")

    def get_base_k(self):
        return self._peek("base_k")

    def _peek(self, f):
        t = TCubeTiling()
        self.get_tiling(t)
        return int(getattr(t, f))


class MultiCoreMatmulTiling(MatmulApiTiling):
    """Tiling over ``set_dim`` cores (in a MIX kernel: the vector cores, two per cube core)."""

    def __init__(self, platform=None):
        super().__init__(platform)
        self.dim = self.platform.hw.aiv_cores

    def get_core_num(self):
        t = TCubeTiling()
        self.get_tiling(t)
        return int(t.used_core_num)


class BatchMatmulTiling(MultiCoreMatmulTiling):
    pass


__all__ = ["TPosition", "CubeFormat", "DataType", "MatrixTraverse", "PlatformAscendC", "get_ascendc_platform",
           "MatmulApiTiling", "MultiCoreMatmulTiling", "BatchMatmulTiling", "TilingError"]

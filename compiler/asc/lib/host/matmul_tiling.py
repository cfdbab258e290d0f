"""pyasc's host tiling objects (``MatmulApiTiling``, ``MultiCoreMatmulTiling``, ``BatchMatmulTiling``): every
setter and getter upstream binds, with its return codes (0 on success, -1 for a value the API refuses);
``get_tiling`` fills a ``TCubeTiling`` by ``tiling_rule`` and returns 0, or -1 for a request no tiling
satisfies (the reason is issued as a ``TilingWarning``, as CANN logs it)."""
from __future__ import annotations

import warnings

from ...language.v1.enums import TPosition  # the host API takes the kernel's positions
from ...language.v1.matmul_types import TCubeTiling
from .host_enums import (CubeFormat, DataType, DequantType, MatmulConfigParams, MatrixMadType, MatrixTraverse,
                         OPERAND_BYTES, RESULT_BYTES, ScheduleType, get_ascendc_platform)
from .tiling_rule import TilingError, check, choose

OK, FAIL = 0, -1


class TilingWarning(UserWarning):
    """Why ``get_tiling`` returned -1."""


def _ints(*vals):
    return tuple(int(v) for v in vals)


class MatmulApiTiling:
    """Single-core tiling (``set_dim`` stays 1)."""

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
        self.single = (-1, -1, -1)
        self.single_range = (-1,) * 6
        self.split_range = (-1,) * 6
        self.align = (-1, -1, -1)
        self.double_buffer = (True, True, False, False, False, False)
        self.mad_type = MatrixMadType.NORMAL
        self.dequant_type = DequantType.SCALAR
        self.sparse = False
        self.config_params = MatmulConfigParams()
        self.split_k = False

    # -- operand types ------------------------------------------------------------------------------
    def _type(self, key, pos, fmt, data_type, is_trans, table):
        try:
            d = DataType(data_type)
            pos, fmt = TPosition(pos), CubeFormat(fmt)
        except ValueError:
            return FAIL
        if d not in table or fmt not in (CubeFormat.ND, CubeFormat.NZ, CubeFormat.ND_ALIGN, CubeFormat.VECTOR,
                                          CubeFormat.SCALAR):
            return FAIL
        self.types[key] = (pos, fmt, d, bool(is_trans))
        return OK

    def set_a_type(self, pos, type, data_type, is_trans=False):   # noqa: A002  (CANN's parameter name)
        return self._type("a", pos, type, data_type, is_trans, OPERAND_BYTES)

    def set_b_type(self, pos, type, data_type, is_trans=False):   # noqa: A002
        return self._type("b", pos, type, data_type, is_trans, OPERAND_BYTES)

    def set_c_type(self, pos, type, data_type):   # noqa: A002
        return self._type("c", pos, type, data_type, False, RESULT_BYTES)

    def set_bias_type(self, pos, type, data_type):   # noqa: A002
        return self._type("bias", pos, type, data_type, False, RESULT_BYTES)

    # -- shapes ---------------------------------------------------------------------------------------
    def set_dim(self, dim):
        if int(dim) <= 0:
            return FAIL
        self.dim = int(dim)
        return OK

    def set_org_shape(self, m, n, ka, kb=None):
        v = _ints(m, n, ka, ka if kb is None else kb)
        if min(v) <= 0:
            return FAIL
        self.org = v
        return OK

    def set_shape(self, m, n, k):
        v = _ints(m, n, k)
        if min(v) <= 0:
            return FAIL
        self.shape = v
        return OK

    def enable_bias(self, is_bias=True):
        self.bias = bool(is_bias)
        return OK

    def set_bias(self, is_bias=True):
        return self.enable_bias(is_bias)

    def set_fix_split(self, base_m=-1, base_n=-1, base_k=-1):
        v = _ints(base_m, base_n, base_k)
        if any(x == 0 or x < -1 or (x > 0 and x % 16) for x in v):
            return FAIL          # the cube's fractal: a fixed base part is a positive multiple of 16
        self.fixed = v
        return OK

    def set_split_range(self, max_base_m=-1, max_base_n=-1, max_base_k=-1, min_base_m=-1, min_base_n=-1,
                        min_base_k=-1):
        v = _ints(max_base_m, max_base_n, max_base_k, min_base_m, min_base_n, min_base_k)
        if any(lo > 0 and hi > 0 and lo > hi for lo, hi in zip(v[3:], v[:3])):
            return FAIL
        self.split_range = v
        return OK

    def set_buffer_space(self, l1_size=-1, l0_c_size=-1, ub_size=-1, bt_size=-1):
        hw = self.platform.hw
        v = _ints(l1_size, l0_c_size, ub_size)
        if any(x > cap for x, cap in zip(v, (hw.l1_bytes, hw.l0c_bytes, hw.ub_bytes))):
            return FAIL
        self.buffer = v
        return OK

    def set_traverse(self, traverse):
        self.traverse = MatrixTraverse(traverse)
        return OK

    # -- batches and layouts ------------------------------------------------------------------------
    def _layout(self, key, b, s, n, g, d):
        v = _ints(b, s, n, g, d)
        if min(v) <= 0:
            return FAIL
        self.layouts[key] = v
        return OK

    def set_a_layout(self, b, s, n, g, d):
        return self._layout("a", b, s, n, g, d)

    def set_b_layout(self, b, s, n, g, d):
        return self._layout("b", b, s, n, g, d)

    def set_c_layout(self, b, s, n, g, d):
        return self._layout("c", b, s, n, g, d)

    def set_batch_num(self, batch):
        if int(batch) <= 0:
            return FAIL
        self.batch_num = int(batch)
        return OK

    def set_batch_info_for_normal(self, batch_a, batch_b, m, n, k):
        """NORMAL layout: A is batch_a x m x k, B batch_b x k x n; the batch count is the larger."""
        if min(_ints(batch_a, batch_b, m, n, k)) <= 0:
            return FAIL
        self.set_org_shape(m, n, k)
        self.set_shape(m, n, k)
        self.layouts["a"] = _ints(batch_a, m, 1, 1, k)
        self.layouts["b"] = _ints(batch_b, k, 1, 1, n)
        self.layouts["c"] = _ints(max(int(batch_a), int(batch_b)), m, 1, 1, n)
        self.batch_num = max(int(batch_a), int(batch_b))
        return OK

    # -- modes the rule records (they do not change the base blocks) ------------------------------------
    def set_double_buffer(self, a, b, c, bias, trans_nd2nz=False, trans_nz2nd=False):
        self.double_buffer = (bool(a), bool(b), bool(c), bool(bias), bool(trans_nd2nz), bool(trans_nz2nd))
        return OK

    def set_mad_type(self, mad_type):
        self.mad_type = MatrixMadType(mad_type)
        return OK

    def set_dequant_type(self, dequant_type):
        self.dequant_type = DequantType(dequant_type)
        return OK

    def set_sparse(self, is_sparse=True):
        self.sparse = bool(is_sparse)
        return OK

    def set_matmul_config_params(self, *args, **kwargs):
        if args and isinstance(args[0], MatmulConfigParams):
            self.config_params = args[0]
        else:
            self.config_params = MatmulConfigParams(*args, **kwargs)
        if self.config_params.traverse != MatrixTraverse.NOSET:
            self.traverse = self.config_params.traverse

    # -- the tiling ----------------------------------------------------------------------------------
    def _fields(self):
        """The rule's fields for this request (raises ``TilingError``)."""
        if self.org is None and self.shape is None:
            raise TilingError("matmul tiling: no shape set (call set_org_shape and set_shape)")
        org = self.org or (self.shape[0], self.shape[1], self.shape[2], self.shape[2])
        m, n, k = self.shape or org[:3]
        sa, sb = OPERAND_BYTES[self.types["a"][2]], OPERAND_BYTES[self.types["b"][2]]
        sc = max(4, RESULT_BYTES[self.types["c"][2]])
        hw = self.platform.hw
        l1, l0c, _ = self.buffer
        fields = choose(hw, m, n, k, self.dim, sa, sb, sc, self.bias, self.fixed, l1, l0c,
                        1 if self.traverse == MatrixTraverse.FIRSTN else 0, self.single, self.single_range,
                        self.split_range, self.align, self.double_buffer[2])
        fields.update(m=org[0], n=org[1], k_a=org[2], k_b=org[3])
        for key, (b, s, nn, g, d) in self.layouts.items():
            if key == "c":
                fields.update(c_layout_info_b=b, c_layout_info_s1=s, c_layout_info_n=nn, c_layout_info_g=g,
                              c_layout_info_s2=d)
            else:
                pre = key + "_layout_info_"
                fields.update({pre + "b": b, pre + "s": s, pre + "n": nn, pre + "g": g, pre + "d": d})
        if self.batch_num > 0:
            fields.update(batch_num=self.batch_num, batch_m=1, batch_n=1, single_batch_m=1, single_batch_n=1)
        return fields, (sa, sb, sc)

    def get_tiling(self, tiling):
        """Fill ``tiling`` (an ``asc.adv.TCubeTiling``): 0, or -1 (and a ``TilingWarning`` saying why) when no
        valid tiling satisfies the request; the struct is then left as it was."""
        if not isinstance(tiling, TCubeTiling):
            raise TypeError(f"get_tiling expects an asc.adv.TCubeTiling, got {type(tiling).__name__}")
        try:
            fields, (sa, sb, sc) = self._fields()
            probe = TCubeTiling()
            for f, v in fields.items():
                setattr(probe, f, v)
            check(self.platform.hw, probe, sa, sb, sc, self.bias, fields["share_l1_size"], fields["share_l0c_size"])
        except TilingError as e:
            warnings.warn(TilingWarning(f"MatmulApi Tiling: {e}"), stacklevel=2)
            return FAIL
        for f, v in fields.items():
            setattr(tiling, f, v)
        return OK

    def _peek(self, f):
        try:
            return int(self._fields()[0][f])
        except TilingError:
            return FAIL

    def get_base_m(self):
        return self._peek("base_m")

    def get_base_n(self):
        return self._peek("base_n")

    def get_base_k(self):
        return self._peek("base_k")


class MultiCoreMatmulTiling(MatmulApiTiling):
    """Tiling over ``set_dim`` cores (in a MIX kernel: the vector cores, two per cube core)."""

    def __init__(self, platform=None):
        super().__init__(platform)
        self.dim = self.platform.hw.aiv_cores

    def set_single_shape(self, single_m=-1, single_n=-1, single_k=-1):
        v = _ints(single_m, single_n, single_k)
        if any(x == 0 or x < -1 for x in v):
            return FAIL
        self.single = v
        return OK

    def set_single_range(self, max_m=-1, max_n=-1, max_k=-1, min_m=-1, min_n=-1, min_k=-1):
        v = _ints(max_m, max_n, max_k, min_m, min_n, min_k)
        if any(lo > 0 and hi > 0 and lo > hi for lo, hi in zip(v[3:], v[:3])):
            return FAIL
        self.single_range = v
        return OK

    def set_align_split(self, align_m, align_n, align_k):
        v = _ints(align_m, align_n, align_k)
        if any(x == 0 or x < -1 or (x > 0 and x % 16) for x in v):
            return FAIL
        self.align = v
        return OK

    def enable_multi_core_split_k(self, flag):
        """Recorded; this rule never splits K over cores (single_core_k is K)."""
        self.split_k = bool(flag)

    def get_core_num(self):
        return self._peek("used_core_num")

    def get_single_shape(self):
        """(single_core_m, single_core_n, single_core_k) of the tiling, or -1."""
        try:
            f = self._fields()[0]
        except TilingError:
            return FAIL
        return int(f["single_core_m"]), int(f["single_core_n"]), int(f["single_core_k"])


class BatchMatmulTiling(MultiCoreMatmulTiling):
    """Batched matmuls: one batch's M x N x K tiled as a multi-core matmul, ``batch_num`` recorded."""


__all__ = ["TPosition", "CubeFormat", "DataType", "DequantType", "MatrixMadType", "ScheduleType",
           "MatmulConfigParams", "MatrixTraverse", "MatmulApiTiling", "MultiCoreMatmulTiling", "BatchMatmulTiling",
           "TilingError", "TilingWarning"]

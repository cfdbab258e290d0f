"""``asc.adv.Matmul``: the cube core's high-level matrix multiply, as Ascend C's Matmul API drives it.

Per block the operands are set (``set_tensor_a/b``, ``set_bias``, ``set_tail``) and the single-core tile
C[tail_m x tail_n] = A[tail_m x K] . B[K x tail_n] (+ bias row) is computed with fp32 accumulation, either
whole (``iterate_all(gm)``) or base block by base block (``for count in matmul.iterate()`` — the kernel's
``with matmul.iterate() as count:`` is run as that loop — then ``get_tensor_c``), base blocks in M-fastest
order. Each call is a ``PipeOp``: the engine checks its memory accesses like any instruction, computes it
(``sim.pipes.cube``) and schedules the cube pipeline (MTE2 -> L1, MTE1 -> L0A/L0B, M, FIX)."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import PipeOp, Region, user_loc
from ...ir.registry import define
from ..core.errors import error
from . import cube_tiling
from .matmul_modes import MatmulModes, internal_flag as _internal_flag
from .enums import TPosition
from .matmul_types import CubeFormat, MatmulType
from .tensors import GlobalTensor, LocalTensor, _block


def _fail(message, hint=None, category="MatmulError"):
    """The engine's kernel error, reported at the user's line."""
    return _block().user_error(user_loc(), message, hint, category)


def _ceil(a, b):
    return -(-int(a) // int(b))


class Matmul(MatmulModes):
    _fail = staticmethod(_fail)

    def __init__(self, a: MatmulType, b: MatmulType, c: MatmulType, bias: MatmulType = None, matmul_config=None,
                 matmul_policy=0):
        self.a_type, self.b_type, self.c_type, self.bias_type = a, b, c, bias
        self.config = matmul_config
        self.tiling = None
        self.a = self.b = self.bias = None
        self.trans_a, self.trans_b = bool(a.is_trans), bool(b.is_trans)
        self.tail = (-1, -1, -1)
        self.blocks = None          # the iterate() loop's base blocks, and the current one
        self.current = None
        self.registered = False

    # -- set-up ------------------------------------------------------------------------------------
    def init(self, tiling):
        eng = _block()
        sa, sb = self.a_type.dtype.sizeof(), self.b_type.dtype.sizeof()
        bad = cube_tiling.problems(tiling, eng.hw, sa, sb, bias=self.bias_type is not None and bool(tiling.is_bias))
        if bad:
            raise _fail("Matmul tiling is not valid on this platform: " + "; ".join(bad),
                        "compute the tiling with asc.lib.host.MultiCoreMatmulTiling, or fix the fields named")
        self.tiling = tiling

    def _t(self):
        if self.tiling is None:
            raise _fail("the Matmul has no tiling", "pass it to register_matmul(pipe, workspace, matmul, tiling) or "
                        "call matmul.init(tiling)")
        return self.tiling

    def set_tensor_a(self, tensor, transpose=None):
        self.a = self._operand(tensor, self.a_type, "set_tensor_a")
        if transpose is not None:
            self.trans_a = bool(transpose)

    def set_tensor_b(self, tensor, transpose=None):
        self.b = self._operand(tensor, self.b_type, "set_tensor_b")
        if transpose is not None:
            self.trans_b = bool(transpose)

    def set_bias(self, tensor):
        if self.bias_type is None:
            raise _fail("set_bias on a Matmul declared without a bias type", "pass bias=MatmulType(...) to Matmul")
        self.bias = self._operand(tensor, self.bias_type, "set_bias")

    def _operand(self, tensor, mtype, what):
        """A GM operand (``TPosition.GM``), or a UB (VECIN / VECOUT / VECCALC) or L1 (TSCM, NZ) one holding the
        single-core tile, as its MatmulType declares."""
        pos = TPosition(mtype.position).name
        if pos == "GM":
            return self._gm(tensor, what)
        if not isinstance(tensor, LocalTensor) or tensor.position not in _LOCAL_OPERAND.get(pos, ()):
            raise _fail(f"{what}: the MatmulType places this operand at TPosition.{pos}, got "
                        f"{getattr(tensor, 'position', type(tensor).__name__)}",
                        f"pass a LocalTensor at TPosition.{pos} (or declare the MatmulType at the tensor's position)")
        if pos == "TSCM" and mtype.format != CubeFormat.NZ:
            raise _fail(f"{what}: an operand in L1 (TSCM) is NZ", "declare the MatmulType with CubeFormat.NZ")
        return tensor

    def set_tail(self, tail_m=-1, tail_n=-1, tail_k=-1):
        self.tail = (int(tail_m), int(tail_n), int(tail_k))

    def set_org_shape(self, m, n, k, *more):
        t = self._t()
        t.m, t.n, t.k_a = int(m), int(n), int(k)
        t.k_b = int(more[0]) if more else int(k)

    def set_single_shape(self, m, n, k):
        t = self._t()
        t.single_core_m, t.single_core_n, t.single_core_k = int(m), int(n), int(k)

    @staticmethod
    def _gm(tensor, what):
        if not isinstance(tensor, GlobalTensor) or tensor.buf is None:
            raise _fail(f"{what} expects a GlobalTensor over a kernel argument (operands in TPosition.GM)",
                        "set_global_buffer(...) on a GlobalTensor and pass it")
        return tensor

    def _shape(self):
        """(tail_m, tail_n, K) of this block's tile and the row strides (lda, ldb, ldc) of A, B and C."""
        t = self._t()
        if self.a is None or self.b is None:
            raise _fail("the Matmul's operands are not set", "call set_tensor_a and set_tensor_b first")
        tm, tn, tk = self.tail
        tm = t.single_core_m if tm <= 0 else tm
        tn = t.single_core_n if tn <= 0 else tn
        tk = t.single_core_k if tk <= 0 else tk
        lda = t.m if self.trans_a else t.k_a
        ldb = (t.k_b or t.k_a) if self.trans_b else t.n
        if self.a.space != "GM":          # a local operand holds the single-core tile itself
            lda = tm if self.trans_a else tk
        if self.b.space != "GM":
            ldb = tk if self.trans_b else tn
        return int(tm), int(tn), int(tk), int(lda), int(ldb), int(t.n)

    # -- the GM regions the cube reads and writes --------------------------------------------------
    def _operand_regions(self, m0, m1, n0, n1, tk, lda, ldb):
        regs = []
        for t, nz, rows, trans, (r0, r1, c0, c1), ld in (
                (self.a, self._nz(self.a_type), self._nz_rows("a"), self.trans_a,
                 (0, tk, m0, m1) if self.trans_a else (m0, m1, 0, tk), lda),
                (self.b, self._nz(self.b_type), self._nz_rows("b"), self.trans_b,
                 (n0, n1, 0, tk) if self.trans_b else (0, tk, n0, n1), ldb)):
            if nz:     # NZ: the whole span of the column blocks the window touches
                c0_ = 32 // t.itemsize
                regs.append(t.region((c0 // c0_) * rows * c0_, -(-c1 // c0_) * rows * c0_))
            else:
                regs.append(_rows(t, r0, r1, c0, c1, ld))
        if self.bias is not None:
            regs.append(self.bias.region(n0, n1))
        if self.quant is not None and self.quant[0] == "vector":
            regs.append(self.quant[1].region(n0, n1))
        return tuple(regs)

    @staticmethod
    def _nz(mtype):
        return mtype.format == CubeFormat.NZ

    def _nz_rows(self, which):
        """Rows (padded to 16) of an NZ operand's stored matrix: the original matrix in GM, the tile locally."""
        t = self._t()
        trans = self.trans_a if which == "a" else self.trans_b
        tensor = self.a if which == "a" else self.b
        if which == "a":
            rows = (t.k_a if trans else t.m) if tensor.space == "GM" else (self._tk() if trans else self._tm())
        else:
            rows = (t.n if trans else (t.k_b or t.k_a)) if tensor.space == "GM" else (self._tn() if trans
                                                                                      else self._tk())
        return -(-int(rows) // 16) * 16

    def _tm(self):
        return self.tail[0] if self.tail[0] > 0 else int(self._t().single_core_m)

    def _tn(self):
        return self.tail[1] if self.tail[1] > 0 else int(self._t().single_core_n)

    def _tk(self):
        return self.tail[2] if self.tail[2] > 0 else int(self._t().single_core_k)

    def _attrs(self, tm, tn, tk, lda, ldb):
        t = self._t()
        return {"a": self.a, "b": self.b, "bias": self.bias, "trans_a": self.trans_a, "trans_b": self.trans_b,
                "tm": tm, "tn": tn, "tk": tk, "lda": lda, "ldb": ldb,
                "base": (int(t.base_m), int(t.base_n), int(t.base_k)), "depth": max(1, int(t.depth_a1)),
                "step_k": (max(1, int(t.step_k_a)), max(1, int(t.step_k_b))),
                "in_bytes": self.a_type.dtype.sizeof(), "quant": (self.check_quant(), self.quant),
                "hf32": self.hf32, "nz": (self._nz(self.a_type) and self._nz_rows("a"),
                                          self._nz(self.b_type) and self._nz_rows("b"),
                                          self._nz(self.c_type) and -(-int(t.m) // 16) * 16)}

    # -- computing -----------------------------------------------------------------------------------
    def iterate_all(self, tensor, en_atomic=0, sync=True, en_sequential_write=False, wait_iterate_all=False,
                    fake_msg=False):
        eng = _block()
        tm, tn, tk, lda, ldb, ldc = self._shape()
        attrs = self._attrs(tm, tn, tk, lda, ldb)
        if not isinstance(tensor, GlobalTensor):      # a UB destination holds the tile row-major
            if not isinstance(tensor, LocalTensor) or tensor.space != "UB":
                raise _fail("iterate_all writes the tile to a GlobalTensor or a UB LocalTensor",
                            "pass the C tensor of the MatmulType's position")
            if tensor.size < tm * tn:
                raise _fail(f"iterate_all writes a tile of {tm} x {tn} elements into {tensor.owner}, which holds "
                            f"{tensor.size}", "size the UB tensor for the single-core tile", "OutOfBoundsError")
            ldc = tn
            attrs["nz"] = attrs["nz"][:2] + (False,)
        attrs.update({"dst": tensor, "ldc": ldc, "blocks": _blocks(tm, tn, attrs["base"]), "atomic": bool(en_atomic)})
        writes = _row_regions(tensor, 0, tm, 0, tn, ldc) if not attrs["nz"][2] else \
            (tensor.region(0, -(-tn // 16) * attrs["nz"][2] * 16),)
        eng.issue(PipeOp("iterate_all", "FIX", self._operand_regions(0, tm, 0, tn, tk, lda, ldb), writes, attrs,
                         user_loc()))
        if sync:
            for p in ("S", "V", "MTE2", "MTE3"):
                _internal_flag(eng, "FIX", p)

    def iterate(self, en_partial_sum=False, sync=True, local_c_matrix=None):
        tm, tn, tk, lda, ldb, ldc = self._shape()
        return _Iterate(self, tm, tn, tk, lda, ldb, ldc)

    def get_tensor_c(self, tensor, en_atomic=0, en_sequential_write=False, sync=True, optional_tensor=None):
        eng = _block()
        if self.current is None:
            raise _fail("get_tensor_c outside a matmul.iterate() loop", "call it inside `with matmul.iterate()`")
        mi, nj, ready = self.current
        t = self._t()
        bm, bn = int(t.base_m), int(t.base_n)
        tm, tn, tk, lda, ldb, ldc = self._shape()
        rows, cols = min(bm, tm - mi * bm), min(bn, tn - nj * bn)
        attrs = {"mm": self, "block": (mi, nj), "ready": ready, "dst": tensor, "atomic": bool(en_atomic)}
        if isinstance(tensor, GlobalTensor):
            attrs.update(ldc=ldc, sequential=False, dst=tensor[mi * bm * ldc + nj * bn:])
            writes = _row_regions(tensor, mi * bm, mi * bm + rows, nj * bn, nj * bn + cols, ldc)
        else:
            need = bm * bn
            if tensor.size < need:
                raise _fail(f"get_tensor_c writes a base block of base_m x base_n = {bm} x {bn} = {need} elements "
                            f"({need * tensor.itemsize} bytes) into {tensor.owner}, which holds {tensor.size} "
                            f"elements ({tensor.size * tensor.itemsize} bytes)",
                            "size the UB tensor (queue buffer length) for base_m * base_n elements of C",
                            "OutOfBoundsError")
            attrs.update(ldc=bn, sequential=True)
            writes = (tensor.region(0, need),)
            for p in ("V", "MTE3", "MTE2"):     # the API reuses the buffer only after earlier users are done
                _internal_flag(eng, p, "FIX")
        eng.issue(PipeOp("get_tensor_c", "FIX", (), writes, attrs, user_loc()))
        if sync:
            for p in ("V", "MTE3", "S"):
                _internal_flag(eng, "FIX", p)

    def iterate_batch(self, tensor, batch_a, batch_b, en_sequential_write=False, matrix_stride_a=0,
                      matrix_stride_b=0, matrix_stride_c=0, en_partial_sum=False, en_atomic=0, sync=True,
                      wait_iterate_batch=None):
        """Batched matmul (``LayoutMode.NORMAL``): for i < max(batch_a, batch_b), this block's single-core tile
        (``set_tail`` or the tiling's single_core_m x single_core_n, at the GlobalTensors' offsets) of
        C[i] = A[i mod batch_a] . B[i mod batch_b]. Consecutive matrices lie ``matrix_stride_*`` elements
        apart (0: the whole m x k_a, k_b x n and m x n matrices of the tiling), rows as in a single matmul."""
        eng = _block()
        t = self._t()
        if isinstance(batch_a, bool):       # the cube-only form: (tensor, en_partial_sum, en_atomic, ...)
            if self.batch_nums is None:
                raise _fail("iterate_batch(tensor, en_partial_sum, en_atomic, ...) takes its batch counts from "
                            "set_batch_num", "call set_batch_num(batch_a, batch_b) first")
            en_atomic, en_sequential_write = batch_b, en_sequential_write
            batch_a, batch_b = self.batch_nums
        self.batch_values = [] if not sync else None
        if isinstance(tensor, GlobalTensor) and en_sequential_write:
            raise _fail("iterate_batch into GM takes en_sequential_write=False", "pass False (upstream: \"When "
                        "output to GM, en_sequential_write should be False in iterate_batch\")", "ValueError")
        if not isinstance(tensor, GlobalTensor):
            raise _fail("iterate_batch into a local tensor is not supported by this engine",
                        "write the batches to a GlobalTensor")
        tm, tn, tk, lda, ldb, ldc = self._shape()
        m, n = int(t.m), int(t.n)
        ka, kb = int(t.k_a), int(t.k_b or t.k_a)
        sa, sb, sc = (int(matrix_stride_a) or m * ka, int(matrix_stride_b) or kb * n,
                      int(matrix_stride_c) or m * n)
        nb = max(int(batch_a), int(batch_b))
        save = (self.a, self.b)
        a0, b0 = self.a, self.b
        for i in range(nb):
            self.a = a0[(i % int(batch_a)) * sa:]
            self.b = b0[(i % int(batch_b)) * sb:]
            attrs = self._attrs(tm, tn, tk, lda, ldb)
            dst = tensor[i * sc:]
            attrs.update({"dst": dst, "ldc": ldc, "blocks": _blocks(tm, tn, attrs["base"]),
                          "atomic": bool(en_atomic), "collect": self if not sync else None})
            eng.issue(PipeOp("iterate_all", "FIX", self._operand_regions(0, tm, 0, tn, tk, lda, ldb),
                             _row_regions(dst, 0, tm, 0, tn, ldc), attrs, user_loc()))
        self.a, self.b = save
        if sync:
            for p in ("S", "V", "MTE2", "MTE3"):
                _internal_flag(eng, "FIX", p)

    def end(self):
        self.current = None


class _Iterate:
    """The base blocks of one tile, M fastest: each step issues the block's cube work and yields its index."""

    def __init__(self, mm, tm, tn, tk, lda, ldb, ldc):
        self.mm, self.shape = mm, (tm, tn, tk, lda, ldb, ldc)

    def __enter__(self):
        raise _fail("`with matmul.iterate()` runs as a loop only directly in a kernel body",
                    "write `with matmul.iterate() as count:` in the @asc.jit function itself")

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        mm = self.mm
        tm, tn, tk, lda, ldb, ldc = self.shape
        t = mm._t()
        bm, bn = int(t.base_m), int(t.base_n)
        round_m, round_n = _ceil(tm, bm), _ceil(tn, bn)
        eng = _block()
        order_n = int(t.iterate_order) == 1
        for count in range(round_m * round_n):
            mi, nj = (count // round_n, count % round_n) if order_n else (count % round_m, count // round_m)
            m0, m1, n0, n1 = mi * bm, min(tm, mi * bm + bm), nj * bn, min(tn, nj * bn + bn)
            attrs = mm._attrs(tm, tn, tk, lda, ldb)
            attrs.update({"mm": mm, "blocks": [(m1 - m0, n1 - n0)], "block": (mi, nj)})
            eng.issue(PipeOp("matmul_block", "M", mm._operand_regions(m0, m1, n0, n1, tk, lda, ldb), (), attrs,
                             user_loc()))
            ready = eng.ends[-1]
            mm.current = (mi, nj, ready)
            yield count
        mm.current = None


_LOCAL_OPERAND = {"TSCM": ("TSCM", "A1", "B1", "C1"), "VECIN": ("VECIN", "VECOUT", "VECCALC"),
                  "VECOUT": ("VECIN", "VECOUT", "VECCALC"), "VECCALC": ("VECIN", "VECOUT", "VECCALC")}


def _blocks(tm, tn, base):
    bm, bn, _ = base
    return [(min(bm, tm - i * bm), min(bn, tn - j * bn)) for j in range(_ceil(tn, bn)) for i in range(_ceil(tm, bm))]


def _distinct(a):
    """The sorted distinct values of ``a`` (numpy's hash-based ``unique`` takes seconds on the granules of a
    large window)."""
    a = np.sort(a)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if a.size else a


def _rows(t, r0, r1, c0, c1, ld):
    """The GM region of rows [r0, r1) x columns [c0, c1) of a row-major matrix with row stride ``ld`` at ``t``;
    its 32-byte granules when the rows are not contiguous."""
    s = t.itemsize
    lo, hi = t.addr + (r0 * ld + c0) * s, t.addr + ((r1 - 1) * ld + c1) * s
    reg = Region(t.space, t.buf, lo, hi, position=t.position, owner=t.owner)
    if r1 - r0 > 1 and c1 - c0 < ld:
        starts = t.addr + (np.arange(r0, r1) * ld + c0) * s
        gr = _distinct(np.concatenate([((starts[:, None] + np.arange(0, (c1 - c0) * s, 32)[None, :]) // 32).ravel(),
                                       (starts + (c1 - c0) * s - 1) // 32]))
        reg = reg.with_granules(gr.astype(np.int64, copy=False))
    return reg


def _row_regions(t, r0, r1, c0, c1, ld):
    """Written GM rows, one region each (other blocks' elements between them are not touched)."""
    if c1 - c0 == ld:
        return (_rows(t, r0, r1, c0, c1, ld),)
    return tuple(_rows(t, r, r + 1, c0, c1, ld) for r in range(r0, r1))


def register_matmul(pipe, workspace, matmul, tiling=None):
    """Attach ``matmul`` to the kernel (a kernel that registers a Matmul runs as MIX: one cube core serving
    two vector cores per group) and, given ``tiling``, initialise it."""
    if not isinstance(matmul, Matmul):
        raise _fail(f"register_matmul expects an asc.adv.Matmul, got {type(matmul).__name__}")
    matmul.registered = True
    if tiling is not None:
        matmul.init(tiling)


# -- what the cube work of a Matmul costs: each call is scheduled as the steps of its base blocks'
# pipeline (asc.sim.pipes.cube), each step one instruction of the cube side --------------------------
def _load_l1_cost(op, hw):
    """GM -> L1: one DMA per operand slice, ``(runs, bytes per run)`` each (``dmas``)."""
    return ("MTE2", sum(hw.dma_busy(runs, each) for runs, each in op.attrs["dmas"]), hw.mte2_latency)


define("v1.iterate_all")        # the steps below are its cost
define("v1.matmul_block")
define("v1.cube_load_l1", cost=_load_l1_cost, dma=True)
define("v1.cube_load_l0", cost=lambda op, hw: ("MTE1", hw.l0_load_busy(op.attrs["bytes"])))
define("v1.cube_mmad", cost=lambda op, hw: ("M", hw.mmad_busy(*op.attrs["mkn"], op.attrs["in_bytes"])))
define("v1.cube_fixpipe", cost=lambda op, hw: ("FIX", hw.fixpipe_busy(op.attrs["bytes"])))
define("v1.get_tensor_c", cost=lambda op, hw: ("FIX", hw.fixpipe_busy(sum(r.hi - r.lo for r in op.writes))))
define("v1.get_batch_tensor_c", cost=lambda op, hw: ("FIX", hw.fixpipe_busy(sum(r.hi - r.lo for r in op.writes))))

"""The Matmul API's further methods and modes (a mixin of ``asc.adv.Matmul``): quantised output
(``set_quant_scalar`` / ``set_quant_vector``), HF32 (``set_hf32``), asynchronous delivery
(``async_get_tensor_c``, ``wait_*``), batches kept for ``get_batch_tensor_c``, ``iterate_n_batch``,
``set_batch_num``, ``get_offset_c``, and the settings the engine records (workspace, user data, sparse index).

Quantisation follows the fixpipe's (``sim.pipes.cube_compute.quantise``): an int8 x int8 Matmul into half
dequantises with DEQF16 (VDEQF16 per column with a vector), into int8 requantises with REQ8 / VREQ8; a float
accumulation into int8 quantises with QF322B8_PRE / VQF322B8_PRE; the scale is the quantisation word's 19-bit
field, the offset its 9-bit field."""
from __future__ import annotations

from ...ir.pipe_ops import PipeOp, user_loc
from .tensors import GlobalTensor, LocalTensor, _block


_FLAG = [0]


def internal_flag(eng, src, dst):
    """The Matmul API's own synchronisation: ``dst``'s later instructions wait for ``src``'s earlier ones."""
    _FLAG[0] += 1
    key = ("matmul", _FLAG[0])
    attrs = {"key": key, "event": (src, dst), "text": f"Matmul internal {src}_{dst}"}
    loc = user_loc()
    eng.issue(PipeOp("set_flag", src, attrs=attrs, loc=loc))
    eng.issue(PipeOp("wait_flag", dst, attrs=attrs, loc=loc))


class MatrixOffset:
    def __init__(self, offset=0, row=0, col=0, height=0, width=0):
        self.offset, self.row, self.col, self.height, self.width = offset, row, col, height, width

    def __repr__(self):
        return (f"MatrixOffset(offset={self.offset}, row={self.row}, col={self.col}, height={self.height}, "
                f"width={self.width})")


class MatmulModes:
    quant = None          # ("scalar", word) or ("vector", GlobalTensor)
    hf32 = False
    batch_values = None   # the tiles of the last iterate_batch(sync=False), for get_batch_tensor_c
    batch_nums = None
    workspace = user_data = user_tiling = sparse_index = None

    # -- quantisation and HF32 -------------------------------------------------------------------------
    def quant_mode(self):
        """The fixpipe QuantModes name this Matmul's output needs, or None (no conversion but a cast)."""
        a, c = str(self.a_type.dtype), str(self.c_type.dtype)
        vec = self.quant is not None and self.quant[0] == "vector"
        if a in ("int8", "uint8"):
            if c == "float16":
                return "VDEQF16" if vec else "DEQF16"
            if c in ("int8", "uint8"):
                return "VREQ8" if vec else "REQ8"
            return None
        if c in ("int8", "uint8"):
            return "VQF322B8_PRE" if vec else "QF322B8_PRE"
        return None

    def set_quant_scalar(self, quant_scalar):
        """One quantisation word (uint64: scale bits 13-31, offset bits 37-45) for every column of C."""
        self.quant = ("scalar", int(quant_scalar))

    def set_quant_vector(self, quant_vector):
        """One quantisation word per column of C (a uint64 GlobalTensor from the tile's first column)."""
        if not isinstance(quant_vector, GlobalTensor) or str(quant_vector.dtype) != "uint64":
            raise self._fail("set_quant_vector takes a uint64 GlobalTensor of quantisation words",
                             "set_global_buffer over a uint64 argument with one word per column of C")
        self.quant = ("vector", quant_vector)

    def check_quant(self):
        mode = self.quant_mode()
        if mode is not None and self.quant is None:
            raise self._fail(f"a {self.a_type.dtype} x {self.b_type.dtype} Matmul into {self.c_type.dtype} "
                             "converts its result with a quantisation scale that is not set",
                             "call set_quant_scalar(word) or set_quant_vector(gm_words) before computing")
        return mode

    def set_hf32(self, enable_hf32=False, trans_mode=0):
        """Float inputs rounded to HF32 (11 mantissa bits) before the products: ``trans_mode`` is the rounding
        (Ascend C's SetHF32's transMode, as SetHF32TransMode: 0 to nearest even, non-zero toward zero)."""
        self.hf32 = ("toward_zero" if trans_mode else "nearest_even") if enable_hf32 else False

    # -- asynchronous delivery ------------------------------------------------------------------------
    def _sync_after(self, pipes=("S", "V", "MTE2", "MTE3")):
        eng = _block()
        for p in pipes:
            internal_flag(eng, "FIX", p)

    def wait_iterate_all(self):
        """After iterate_all(..., sync=False): later instructions see the whole tile."""
        self._sync_after()

    def wait_iterate_batch(self):
        self._sync_after()

    def wait_get_tensor_c(self):
        self._sync_after(("V", "MTE3", "S"))

    def async_get_tensor_c(self, c):
        """get_tensor_c(c, sync=False): the block is delivered without ordering; wait_get_tensor_c orders it."""
        self.get_tensor_c(c, en_sequential_write=True, sync=False)

    # -- batches -------------------------------------------------------------------------------------
    def set_batch_num(self, batch_a, batch_b):
        self.batch_nums = (int(batch_a), int(batch_b))

    def iterate_n_batch(self, batch_loop, batch_a, batch_b, en_sequential_write, matrix_stride_a=0,
                        matrix_stride_b=0, matrix_stride_c=0, sync=True, wait_iterate_batch=False):
        """``batch_loop`` rounds of iterate_batch, each over the next batch_a (batch_b) matrices of A (B) and
        the next max(batch_a, batch_b) of C."""
        t = self._t()
        m, n, ka = int(t.m), int(t.n), int(t.k_a)
        kb = int(t.k_b or t.k_a)
        sa, sb, sc = (int(matrix_stride_a) or m * ka, int(matrix_stride_b) or kb * n, int(matrix_stride_c) or m * n)
        a0, b0, c0 = self.a, self.b, self.n_batch_c
        if c0 is None:
            raise self._fail("iterate_n_batch writes to the tensor given by set_workspace or a GlobalTensor C",
                             "call set_workspace(c_gm) first")
        nb = max(int(batch_a), int(batch_b))
        for i in range(int(batch_loop)):
            self.a, self.b = a0[i * int(batch_a) * sa:], b0[i * int(batch_b) * sb:]
            self.iterate_batch(c0[i * nb * sc:], batch_a, batch_b, False, matrix_stride_a, matrix_stride_b,
                               matrix_stride_c, sync=sync)
        self.a, self.b = a0, b0

    @property
    def n_batch_c(self):
        return self.workspace if isinstance(self.workspace, GlobalTensor) else None

    def get_batch_tensor_c(self, *args, **kwargs):
        """``get_batch_tensor_c(tensor, batch_a, batch_b, en_sequential_write=False, sync=False)``: the tiles of
        the last ``iterate_batch(..., sync=False)``, one after another (each tail_m x tail_n row-major) into
        a UB tensor."""
        sync = kwargs.pop("sync", args[4] if len(args) > 4 else True)
        if sync:
            raise self._fail("Matmul get_batch_tensor_c only support params sync=False",
                             "pass sync=False (upstream's only mode)", "ValueError")
        tensor = kwargs.pop("tensor", args[0] if args and isinstance(args[0], LocalTensor) else None)
        if tensor is None:
            from .names import not_supported
            raise not_supported("asc.adv.Matmul.get_batch_tensor_c without a destination tensor")
        if not self.batch_values:
            raise self._fail("get_batch_tensor_c has no batch to deliver",
                             "call iterate_batch(..., sync=False) before it")
        total = sum(v.size for v in self.batch_values)
        if tensor.size < total:
            raise self._fail(f"get_batch_tensor_c delivers {total} elements into {tensor.owner}, which holds "
                             f"{tensor.size}", "size the UB tensor for max(batch_a, batch_b) tiles", "OutOfBoundsError")
        eng = _block()
        for p in ("V", "MTE3", "MTE2"):
                internal_flag(eng, p, "FIX")
        eng.issue(PipeOp("get_batch_tensor_c", "FIX", (), (tensor.region(0, total),),
                         {"dst": tensor, "values": list(self.batch_values)}, user_loc()))

    # -- what the engine records -----------------------------------------------------------------------
    def set_workspace(self, addr, size=None):
        self.workspace = addr

    def set_self_define_data(self, data_ptr):
        self.user_data = data_ptr

    def set_user_def_info(self, tiling_ptr):
        self.user_tiling = tiling_ptr

    def set_sparse_index(self, index_global):
        from .names import not_supported
        raise not_supported("asc.adv.Matmul.set_sparse_index (sparse Matmul)")

    def disable_bias(self):
        self.bias = None

    def get_offset_c(self):
        """Where the current base block lies in the single-core tile of C: element offset, row, column,
        height and width."""
        if self.current is None:
            raise self._fail("get_offset_c outside a matmul.iterate() loop", "call it inside `with matmul.iterate()`")
        mi, nj, _ = self.current
        t = self._t()
        bm, bn = int(t.base_m), int(t.base_n)
        tm, tn, _, _, _, ldc = self._shape()
        row, col = mi * bm, nj * bn
        return MatrixOffset(row * ldc + col, row, col, min(bm, tm - row), min(bn, tn - col))

"""The grammar of the differential fuzzer: August kernels built from the public asctile surface.

A ``KernelSpec`` is one kernel and its launch: dtype, a rank-1..3 shape (ragged or not), how the leading length
reaches the kernel (runtime value, ``ConstExpr`` annotation, ``asctile.ConstExpr(n)`` at the call site), the
tile loop (``asctile.range`` strided over blocks with or without ``gm_barrier``, the builtin ``range``, a block's
contiguous tiles stopped with ``min`` or not), the ragged edge (``real_shape`` from ``min``, or the window left to
reach past the end), an expression over the two loaded tiles, and the launch form (``kernel[n]``,
``kernel[n, None]``, ``kernel[None]``). ``render`` writes it as a corpus case; ``reference`` evaluates it in numpy.
"""

from __future__ import annotations

import textwrap
from dataclasses import asdict, dataclass

import numpy as np
from hypothesis import strategies as st

DTYPES = {"float32": 8, "float16": 16}                 # elements per 32-byte block (a tile row's alignment)
BINARY = {"+": np.add, "-": np.subtract, "/": np.divide, "*": np.multiply,
          "asctile.maximum": np.maximum, "asctile.minimum": np.minimum}
UNARY = {"asctile.exp": np.exp, "asctile.abs": np.abs, ".exp()": np.exp, "asctile.sqrt": np.sqrt}
LOOPS = ("strided", "strided_gm_barrier", "builtin_range", "contiguous_min", "contiguous")
EDGES = ("real_shape", "clip")  # each tuple lists the plainest form first
LENGTHS = ("runtime", "annotated", "call_site")
LAUNCHES = ("[n]", "[n, None]", "[None]")


@dataclass(frozen=True)
class KernelSpec:
    dtype: str
    shape: tuple[int, ...]
    tile: int                 # rows of the leading dimension per tile
    length: str               # LENGTHS
    loop: str                 # LOOPS
    edge: str                 # EDGES
    expr: tuple               # ("x",) | ("y",) | ("const", v) | (unary, e) | (binary, e1, e2) | ("reduce", op, e)
    launch: str               # LAUNCHES
    blocks: int

    def reference(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return evaluate(self.expr, x, y).astype(x.dtype)

    @property
    def tolerance(self) -> dict:
        return {"atol": 2e-2, "rtol": 2e-2} if self.dtype == "float16" else {"atol": 1e-4, "rtol": 1e-4}


def evaluate(expr: tuple, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    head = expr[0]
    if head == "x":
        return x
    if head == "y":
        return y
    if head == "const":
        return np.asarray(expr[1], x.dtype)
    if head == "reduce":
        fn = np.sum if expr[1] == "reduce_sum" else np.max
        return fn(evaluate(expr[3], x, y), axis=-1, keepdims=True)
    if head in UNARY:
        return UNARY[head](evaluate(expr[1], x, y))
    return BINARY[head](evaluate(expr[1], x, y), evaluate(expr[2], x, y))


def spell(expr: tuple, rank: int) -> str:
    head = expr[0]
    if head in ("x", "y"):
        return "a" if head == "x" else "b"
    if head == "const":
        return repr(float(expr[1]))
    if head == "reduce":  # the last axis, spelled by its index or as -1
        axis = rank - 1 if expr[2] == "last" else -1
        return f"asctile.{expr[1]}({spell(expr[3], rank)}, {axis}, keep_dims=True)"
    if head == ".exp()":
        return f"({spell(expr[1], rank)}).exp()"
    if head in UNARY:
        return f"{head}({spell(expr[1], rank)})"
    if head.startswith("asctile."):
        return f"{head}({spell(expr[1], rank)}, {spell(expr[2], rank)})"
    return f"({spell(expr[1], rank)} {head} {spell(expr[2], rank)})"


# Draw the ops upstream's interpreter computes (+ - / exp) twice as often, so that more kernels compare results.
BINARY_DRAWS = ["+", "-", "/"] + list(BINARY)
UNARY_DRAWS = ["asctile.exp", ".exp()"] + list(UNARY)


def _exprs():
    leaves = st.sampled_from([("x",), ("y",)]) | st.sampled_from([0.5, 2.0]).map(lambda v: ("const", v))

    def extend(inner):
        tile = inner.map(lambda e: ("x",) if e[0] == "const" else e)  # unary ops and reductions take tiles
        unary = st.tuples(st.sampled_from(UNARY_DRAWS), tile)
        binary = st.tuples(st.sampled_from(BINARY_DRAWS), inner, inner)
        reduce = st.tuples(st.just("reduce"), st.sampled_from(["reduce_sum", "reduce_max"]),
                           st.sampled_from(["last", "last", "last", "-1"]), tile)
        return binary | unary | reduce

    tree = st.recursive(leaves, extend, max_leaves=4)
    # a kernel stores a tile: an expression made of constants only is wrapped into one that reads x
    return tree.map(lambda e: e if "'x'" in repr(e) or "'y'" in repr(e) else ("+", ("x",), e))


# Parts of the grammar that can be left out (``kernel_specs(without=...)``), to look past a known gap.
FEATURES = {"min": "the builtin min in index arithmetic (contiguous_min loops, real_shape edges)",
            "call_site": "asctile.ConstExpr(n) at the call site", "core_num_none": "kernel[None]",
            "rank3": "rank-3 tensors", "gm_barrier": "loops with gm_barrier=True"}


def _allowed(options, without, drop):
    """The options in their order (Hypothesis leans to the first: the plainest form comes first)."""
    return [o for o in options if not any(f in without for f in drop.get(o, ()))]


@st.composite
def kernel_specs(draw, without: frozenset = frozenset()) -> KernelSpec:
    unknown = set(without) - set(FEATURES)
    if unknown:
        raise ValueError(f"unknown grammar features: {', '.join(sorted(unknown))} (known: {', '.join(FEATURES)})")
    dtype = draw(st.sampled_from(list(DTYPES)))
    rank = draw(st.integers(1, 2 if "rank3" in without else 3))
    align = DTYPES[dtype]
    if rank == 1:
        tile = align * draw(st.integers(1, 16))
        lead = draw(st.one_of(st.integers(1, 5).map(lambda k: k * tile), st.integers(1, 6 * tile)))
        shape = (lead,)
    else:
        tile = draw(st.integers(1, 4))
        lead = draw(st.one_of(st.integers(1, 5).map(lambda k: k * tile), st.integers(1, 12)))
        inner = [draw(st.integers(1, 3)) for _ in range(rank - 2)]
        shape = (lead, *inner, align * draw(st.integers(1, 4)))
    blocks = draw(st.integers(1, 8))
    pick = lambda options, drop: draw(st.sampled_from(_allowed(options, without, drop)))  # noqa: E731
    return KernelSpec(dtype=dtype, shape=shape, tile=tile, length=pick(LENGTHS, {"call_site": ["call_site"]}),
                      loop=pick(LOOPS, {"contiguous_min": ["min"], "strided_gm_barrier": ["gm_barrier"]}),
                      edge=pick(EDGES, {"real_shape": ["min"]}), expr=draw(_exprs()),
                      launch=pick(LAUNCHES, {"[None]": ["core_num_none"]}), blocks=blocks)


def _loop(spec: KernelSpec) -> list[str]:
    strided = "asctile.block_idx(), num_tiles, asctile.block_num()"
    if spec.loop == "strided":
        return [f"for t in asctile.range({strided}):"]
    if spec.loop == "strided_gm_barrier":
        return [f"for t in asctile.range({strided}, gm_barrier=True):"]
    if spec.loop == "builtin_range":
        return [f"for t in range({strided}):"]
    stop = "min(first + per_block, num_tiles)" if spec.loop == "contiguous_min" else "first + per_block"
    return ["per_block = asctile.ceildiv(num_tiles, asctile.block_num())",
            "first = asctile.block_idx() * per_block",
            f"for t in asctile.range(first, {stop}):"]


def render(spec: KernelSpec, doc: str = "", expect: str = "accept", error: str | None = None) -> str:
    """The spec as a corpus case: a kernel, a ``run()`` returning its output, ``EXPECT`` / ``TOLERANCE``."""
    rank = len(spec.shape)
    inner = [f"d{i}" for i in range(1, rank)]
    lead_ann = ": asctile.ConstExpr[int]" if spec.length == "annotated" else ""
    params = ", ".join(["x_ptr", "y_ptr", "z_ptr", f"d0{lead_ann}"] + [f"{d}: asctile.ConstExpr[int]" for d in inner]
                       + ["tile: asctile.ConstExpr[int]"])
    dims = "[" + ", ".join(["d0"] + inner) + "]"
    offs = "[" + ", ".join(["off"] + ["0"] * (rank - 1)) + "]"
    window = "[" + ", ".join(["tile"] + inner) + "]"
    real = ""
    body = [f"x = asctile.global_tensor(x_ptr, {dims})", f"y = asctile.global_tensor(y_ptr, {dims})",
            f"z = asctile.global_tensor(z_ptr, {dims})", "num_tiles = asctile.ceildiv(d0, tile)", *_loop(spec)]
    step = ["off = t * tile"]
    if spec.edge == "real_shape":
        step.append("real = [" + ", ".join(["min(tile, d0 - off)"] + inner) + "]")
        real = ", real_shape=real"
    step += [f"a = asctile.copy_in(x, {offs}, {window}{real})", f"b = asctile.copy_in(y, {offs}, {window}{real})",
             f"asctile.copy_out({spell(spec.expr, rank)}, z, {offs}{real})"]
    body += ["    " + s for s in step]
    lead = f"asctile.ConstExpr({spec.shape[0]})" if spec.length == "call_site" else str(spec.shape[0])
    args = ", ".join(["x", "y", "z", lead] + [str(d) for d in spec.shape[1:]] + [str(spec.tile)])
    index = {"[n]": str(spec.blocks), "[n, None]": f"{spec.blocks}, None", "[None]": "None"}[spec.launch]
    error_line = f"ERROR = {error!r}\n" if error else ""
    kernel_body = textwrap.indent("\n".join(body), " " * 4)
    return f'''"""{doc or 'A kernel of the differential fuzzer.'}"""
import numpy as np

from asc.experimental import asctile

EXPECT = {expect!r}
{error_line}TOLERANCE = {spec.tolerance!r}
SPEC = {asdict(spec)!r}


@asctile.jit
def kernel({params}):
{kernel_body}


def run():
    rng = np.random.default_rng(0)
    x = (rng.random({spec.shape!r}) + 0.5).astype(np.{spec.dtype})
    y = (rng.random({spec.shape!r}) + 0.5).astype(np.{spec.dtype})
    z = np.zeros_like(x)
    kernel[{index}]({args})
    return {{"z": z}}
'''

"""``layer_norm`` (pyasc-dev): row-wise Layer Normalization with its mean and rstd (or variance).

For an input of shape [A, R] (or [R]) and ``gamma`` / ``beta`` of shape [R]:
``mean = sum(x) / R``, ``var = sum((x - mean) ** 2) / R`` (the population variance),
``rstd = 1 / sqrt(var + epsilon)``, ``output = (x - mean) * rstd * gamma + beta``. Everything is computed
in float32; ``output`` is rounded once to the input's dtype, ``mean`` and ``rstd`` / ``var`` stay
float32 with shape [A] (or [1] for a 1-D input). ``output_rstd=False`` returns the variance instead of
rstd (on C220 upstream ignores it and always returns rstd; so does this engine). Cost: one fused vector
call of weight 8 (rms_norm's 6 plus the mean pass), with scratch UB of twice the output (pyasc-dev's lowering: ``_work``).
"""
from __future__ import annotations

from ...ir.builder import current_builder
from ...ir.registry import define
from ...ir.types import Location, TileType
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import PlainValue, to_scalar
from .costs import vector_cost
from .memory_ops import vector_operand
from .tile import Tile

_DTYPES = ("float16", "bfloat16", "float32")


def layer_norm(input, gamma, beta, epsilon, output_rstd=True):
    """``(output, mean, rstd_or_var) = layer_norm(input, gamma, beta, epsilon, output_rstd=True)``."""
    for name, value in (("input", input), ("gamma", gamma), ("beta", beta)):
        if not isinstance(value, Tile):
            raise error(TypeError, f"'{name}' argument must be LocalTensor, got {type(value).__name__}",
                        "load gamma and beta as tiles of the row length")
        if str(value.dtype) not in _DTYPES:
            raise error(RuntimeError, f"'{name}' dtype must be one of {', '.join(_DTYPES)}, got {value.dtype}",
                        "convert the tile first, e.g. x.to(@float32)")
    if not (isinstance(epsilon, float) or isinstance(epsilon, PlainValue) and epsilon.dtype.is_float()):
        raise error(TypeError, f"'epsilon' argument must be float or PlainValue with float dtype, got "
                    f"{type(epsilon).__name__}", "write the epsilon as a float literal, e.g. 1e-5 (not 0)")
    if not isinstance(output_rstd, bool):
        raise error(TypeError, f"'output_rstd' argument must be bool, got {type(output_rstd).__name__}",
                    "pass output_rstd=True (rstd) or False (variance)")
    if len(input.shape) > 2:
        raise error(RuntimeError, "Tensor dimensionality greater than two is not supported.",
                    "reshape the tile to [rows, cols] with the normalised dimension last")
    r = input.shape[-1]
    for name, value in (("gamma", gamma), ("beta", beta)):
        if tuple(value.shape) != (r,):
            raise error(RuntimeError, f"'{name}' must have shape [{r}] (the input's last dimension), got "
                        f"{list(value.shape)}", f"load {name} as a 1-D tile of {r} elements")
    input, gamma, beta = (vector_operand(value, what) for value, what in
                          ((input, "@layer_norm"), (gamma, "@layer_norm (gamma)"), (beta, "@layer_norm (beta)")))
    stats = (input.shape[0],) if len(input.shape) == 2 else (1,)
    b = current_builder()
    if b.arch == "c220":
        output_rstd = True
    eps = to_scalar(epsilon, dt.float32)
    op = b.create("tile.layer_norm", [input.handle, gamma.handle, beta.handle, eps.handle],
                  [TileType(tuple(input.shape), input.dtype, Location.UB), TileType(stats, dt.float32, Location.UB),
                   TileType(stats, dt.float32, Location.UB)], {"output_rstd": output_rstd})
    return tuple(Tile(v) for v in op.results)


def _cost(op, hw):
    pipe, ticks = vector_cost()(op, hw)
    return (pipe, 8.0 * ticks)


def _work(op, align, arch):
    """The scratch pyasc-dev's lowering gives a layer_norm of [rows, cols] (as its compiler counts it,
    measured): float32 input: three float32 copies of the input and a float32 per row; 16-bit input: two
    float32 copies of the input and of gamma and beta."""
    t = op.operands[0].type
    cols = t.shape[-1]
    if t.dtype.sizeof() == 2:
        return 8 * t.size + 8 * cols
    return 12 * t.size + -(-4 * (t.size // cols) // align) * align


define("tile.layer_norm", cost=_cost, temp_factor=2, work_bytes=_work)

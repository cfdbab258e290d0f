"""``asctile.language.unary_ops``: element-wise unary ops and normalisations, as upstream groups them."""
from asc.experimental.asctile import (
    abs, bitwise_not, ceil, cos, cosh, erf, exp, exp2, floor, layer_norm, log, log2, negative, relu, rms_norm,
    rsqrt, sin, sinh, softmax, sqrt, tan, tanh,
)

__all__ = [
    'abs', 'bitwise_not', 'ceil', 'cos', 'cosh', 'erf', 'exp', 'exp2', 'floor', 'layer_norm', 'log', 'log2',
    'negative', 'relu', 'rms_norm', 'rsqrt', 'sin', 'sinh', 'softmax', 'sqrt', 'tan', 'tanh',
]

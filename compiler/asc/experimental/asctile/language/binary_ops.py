"""``asctile.language.binary_ops``: element-wise binary ops, comparisons and matmul, as upstream groups them."""
from asc.experimental.asctile import (
    add, bitwise_and, bitwise_or, bitwise_xor, div, equal, greater, greater_equal, left_shift, less,
    less_equal, matmul, matmul_acc, maximum, minimum, mul, not_equal, pow, right_shift, sub,
)

__all__ = [
    'add', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'div', 'equal', 'greater', 'greater_equal',
    'left_shift', 'less', 'less_equal', 'matmul', 'matmul_acc', 'maximum', 'minimum', 'mul', 'not_equal',
    'pow', 'right_shift', 'sub',
]

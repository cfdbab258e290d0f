"""empty's location (an explicit one is kept; an Auto one in use is refused as pyasc-dev's compiler refuses it,
tests/compiler/test_august_new_names.py) and cost (no instruction), and from_asc on this
engine: values come back unchanged, whatever the keywords (as pyasc-dev does for anything but a low-level
tensor)."""
from __future__ import annotations


import numpy as np
import pytest

from asc.experimental import asctile
from asc.ir.types import Location


@asctile.jit
def empties(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16])
    a = asctile.empty([16, 16], asctile.float32, asctile.TensorLocation.UB)
    b = asctile.empty([16, 16], asctile.float16, asctile.TensorLocation.L1)
    c = asctile.empty([16, 16], asctile.float16, "L0A")
    y = asctile.from_asc(x, location=asctile.TensorLocation.UB)
    asctile.copy_out(asctile.where(y > 0, y, a), asctile.global_tensor(out_ptr, [16, 16]), [0, 0])


def test_empty_keeps_an_explicit_location_and_costs_nothing():
    x = np.ones((16, 16), np.float32)
    out = np.zeros_like(x)
    empties[1](x, out)
    np.testing.assert_array_equal(out, x)   # from_asc hands the tile back unchanged
    ck = empties.compile((x, out), {})[0]
    ops = [op for op in ck.fn.walk() if op.name == "tile.empty"]
    assert [op.results[0].type.location for op in ops] == [Location.UB, Location.L1, Location.L0A]
    assert [ck.costs[op.id][1] for op in ops] == [0.0, 0.0, 0.0]


@asctile.jit
def from_asc_call(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, how: asctile.ConstExpr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16]), [0], [16])
    if how == "unknown":
        y = asctile.from_asc(x, zeta=1, alpha=2)
    elif how == "bad_location":
        y = asctile.from_asc(x, location=3)
    else:
        y = asctile.from_asc(x)
    asctile.copy_out(y * 2.0, asctile.global_tensor(out_ptr, [16]), [0])


@pytest.mark.parametrize("how", ["unknown", "bad_location", "plain"])
def test_from_asc_hands_back_a_value_that_is_not_a_low_level_tensor_whatever_its_keywords(how):
    """pyasc-dev looks at the keywords (its location) only for a low-level asc tensor, which this engine has
    none of: any other value comes back as it is."""
    x = np.arange(16, dtype=np.float32)
    out = np.zeros_like(x)
    from_asc_call[1](x, out, how)
    np.testing.assert_array_equal(out, x * 2)

"""``sim.views.broadcast`` stands in for ``np.broadcast_to`` wherever a lane value is spread over the lanes
(``lanes.per_lane``): the same view, as read-only, and numpy's own error for shapes that do not broadcast."""
import numpy as np
import pytest

from asc.sim.lanes import per_lane
from asc.sim.views import broadcast

CASES = [
    (np.arange(3, dtype=np.int32), (4, 3)),                          # one row to every lane
    (np.arange(4, dtype=np.int64).reshape(4, 1), (4, 5)),            # one column to every column
    (np.asarray(7, dtype=np.int64), (1024,)),                        # a uniform scalar to every lane
    (np.ones((1, 1, 8), np.float16), (16, 1, 8)),                    # a tile shared by every lane
    (np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2], (2, 3, 2)),   # a strided view (fallback)
    (np.arange(5, dtype=np.int32)[::-1], (2, 5)),                    # a reversed view (fallback)
    (np.zeros((0,), np.float32), (3, 0)),                            # no elements
    (np.arange(6, dtype=np.int32).reshape(2, 3), (2, 3)),            # already that shape
]


@pytest.mark.parametrize("arr, shape", CASES)
def test_broadcast_is_numpys_broadcast_to(arr, shape):
    got, want = broadcast(arr, shape), np.broadcast_to(arr, shape)
    assert got.shape == want.shape and got.dtype == want.dtype
    # the same elements under every index (a dimension of one element may take any stride)
    assert [s for s, n in zip(got.strides, shape) if n > 1] == [s for s, n in zip(want.strides, shape) if n > 1]
    np.testing.assert_array_equal(got, want)
    assert not got.flags.writeable                     # a write would land on every lane sharing the element
    assert np.shares_memory(got, arr) or arr.size == 0


def test_a_lane_value_spread_over_the_lanes_cannot_be_written_through():
    v = np.arange(3, dtype=np.int32)
    spread = per_lane(v.reshape(1, 3), 4, (3,))
    with pytest.raises(ValueError):
        spread[2, 0] = 99
    assert v[0] == 0


@pytest.mark.parametrize("arr, shape", [(np.arange(3), (4, 2)), (np.arange(6).reshape(2, 3), (3,)),
                                        (np.arange(2), (2, 0))])
def test_shapes_that_do_not_broadcast_raise_numpys_error(arr, shape):
    with pytest.raises(ValueError) as ours:
        broadcast(arr, shape)
    with pytest.raises(ValueError) as numpys:
        np.broadcast_to(arr, shape)
    assert str(ours.value) == str(numpys.value)

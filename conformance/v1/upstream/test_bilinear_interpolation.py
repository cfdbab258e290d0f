"""Upstream's v1 kernel test test/kernels/test_bilinear_interpolation.py, run unmodified (its own assertions check the numbers)."""
UPSTREAM_TEST = "test/kernels/test_bilinear_interpolation.py"
EXPECT = 'reject'
HERE = 'accept'   # kept on purpose: DIFFERS
DIFFERS = ("the v1 sources' own test calls pipe.init_buffer(buf=tmp_buf, num=...), which pyasc-dev's newer "
           "dispatcher has no overload for (only (buf, len)); this engine takes both spellings so that test "
           "runs unmodified")


def run():
    from v1_upstream import run_test
    return run_test(UPSTREAM_TEST)


def reference(arrays):
    from v1_upstream import reference as ref
    return ref(UPSTREAM_TEST)

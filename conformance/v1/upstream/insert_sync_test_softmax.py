"""Upstream's v1 kernel test test/kernels/insert_sync/test_softmax.py, run unmodified (its own assertions check the numbers)."""
UPSTREAM_TEST = "test/kernels/insert_sync/test_softmax.py"
EXPECT = 'accept'


def run():
    from v1_upstream import run_test
    return run_test(UPSTREAM_TEST)


def reference(arrays):
    from v1_upstream import reference as ref
    return ref(UPSTREAM_TEST)

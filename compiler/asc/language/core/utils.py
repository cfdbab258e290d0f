"""Host- and kernel-side helpers."""


def ceildiv(x, y):
    """``(x + y - 1) // y``: works on ints on the host and on scalars inside a kernel."""
    return (x + y - 1) // y

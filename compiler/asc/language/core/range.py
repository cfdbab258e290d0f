"""Loop iterators recognised by the frontend.

``range`` / ``asc2.range`` produce a runtime loop; ``static_range`` is unrolled while tracing.
"""
from __future__ import annotations

from ...ir.builder import tracing_august
from .errors import error


class BaseRange:
    """A runtime loop over int32 bounds (pyasc's ``BaseRange``)."""

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            name = "'range'" if tracing_august() else "range"  # pyasc-dev quotes it; April did not
            raise error(ValueError, f"{name} expects from 1 to 3 arguments, got {len(args)}",
                        "range(stop), range(start, stop) or range(start, stop, step)")
        if len(args) == 1:
            self.start, self.stop, self.step = 0, args[0], 1
        elif len(args) == 2:
            self.start, self.stop, self.step = args[0], args[1], 1
        else:
            self.start, self.stop, self.step = args
        self.unroll_factor = 1
        self.parallel = False

    def __iter__(self):
        from ...ir.pipe_ops import current_block
        if current_block() is not None:   # a v1 kernel's body runs as Python, block by block
            return iter(__import__("builtins").range(int(self.start), int(self.stop), int(self.step)))
        raise error(TypeError, "a kernel loop range can only be iterated by a `for` statement inside "
                    "an @@jit function")


class range(BaseRange):  # noqa: A001 - shadows the builtin inside the asc namespace, as in pyasc
    """``asc.range``: the v1 runtime loop (no unroll / parallel knobs)."""


class static_range:
    """A loop fully unrolled at trace time; the loop variable is a Python int."""

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            name = "'static_range'" if tracing_august() else "static_range"
            raise error(ValueError, f"{name} expects from 1 to 3 arguments, got {len(args)}",
                        "static_range(stop), static_range(start, stop) or static_range(start, stop, step)")
        for a in args:
            if not isinstance(a, int):
                raise error(TypeError, f"static_range bounds must be compile-time ints, got {type(a)}",
                            "pass the bound as an asc.ConstExpr[int] parameter, or use @range for a runtime loop")
        self.values = __builtins__["range"](*args) if isinstance(__builtins__, dict) else \
            __import__("builtins").range(*args)

    def __iter__(self):
        return iter(self.values)

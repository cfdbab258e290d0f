"""``asc2.range``: a runtime loop with ``unroll_factor`` and ``parallel`` knobs."""
from __future__ import annotations

from ..core.errors import error
from ..core.range import BaseRange


class range(BaseRange):  # noqa: A001
    def __init__(self, *args, unroll_factor: int = 1, parallel: bool = False):
        super().__init__(*args)
        if not isinstance(unroll_factor, int) or isinstance(unroll_factor, bool):
            raise error(TypeError, f"'unroll_factor' argument must be int, got {type(unroll_factor)}",
                        "pass a compile-time int, e.g. unroll_factor=2")
        if not isinstance(parallel, bool):
            raise error(TypeError, f"'parallel' argument must be bool, got {type(parallel)}",
                        "pass parallel=True or parallel=False")
        if unroll_factor < 1:
            raise error(ValueError, f"Loop unroll factor must be 1 or greater, got {unroll_factor}",
                        "use unroll_factor=1 (no unrolling) or 2")
        self.unroll_factor = unroll_factor
        self.parallel = parallel

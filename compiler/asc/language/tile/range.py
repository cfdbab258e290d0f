"""``asc2.range``: a runtime loop with ``unroll_factor`` and a loop-end global-memory barrier knob.

The April dialect spells the knob ``parallel`` (default False: barrier), the August one ``gm_barrier``
(default False: no barrier). Both set the same IR flag; which default applies when neither is given
depends on the kernel's generation (``Range.barrier``).
"""
from __future__ import annotations

from ..core.errors import error
from ..core.range import BaseRange


def _check_flag(name, value):
    if value is not None and not isinstance(value, bool):
        raise error(TypeError, f"'{name}' argument must be bool, got {type(value)}",
                    f"pass {name}=True or {name}=False")


class range(BaseRange):  # noqa: A001
    """``asc2.range(start, stop, step, *, unroll_factor=1, parallel=..., gm_barrier=...)``."""

    def __init__(self, *args, unroll_factor: int = 1, parallel=None, gm_barrier=None):
        if not isinstance(unroll_factor, int) or isinstance(unroll_factor, bool):
            raise error(TypeError, f"'unroll_factor' argument must be int, got {type(unroll_factor)}",
                        "pass a compile-time int, e.g. unroll_factor=2")
        _check_flag("parallel", parallel)
        _check_flag("gm_barrier", gm_barrier)
        if unroll_factor < 1:
            raise error(ValueError, f"Loop unroll factor must be 1 or greater, got {unroll_factor}",
                        "use unroll_factor=1 (no unrolling) or 2")
        super().__init__(*args)
        self.unroll_factor = unroll_factor
        self.explicit_parallel = parallel
        self.explicit_gm_barrier = gm_barrier
        self.parallel = bool(parallel)

    def barrier(self, august: bool) -> bool:
        """Whether the loop ends with the MTE3 -> MTE2 barrier, for a kernel of the given generation."""
        if self.explicit_gm_barrier is not None:
            return self.explicit_gm_barrier
        if self.explicit_parallel is not None:
            return not self.explicit_parallel
        return not august


class asctile_range(range):
    """``asctile.range(start, stop, step, *, unroll_factor=1, gm_barrier=False)`` (August only)."""

    def __init__(self, *args, unroll_factor: int = 1, gm_barrier: bool = False):
        if not isinstance(gm_barrier, bool):
            raise error(TypeError, f"'gm_barrier' argument must be bool, got {type(gm_barrier)}",
                        "pass gm_barrier=True or gm_barrier=False")
        super().__init__(*args, unroll_factor=unroll_factor, gm_barrier=gm_barrier)


asctile_range.__name__ = asctile_range.__qualname__ = "range"
asctile_range.__init__.__qualname__ = "range.__init__"  # as in TypeErrors for bad keywords

"""Faults of a running kernel, located at the user's source line: what the simulator raises, and what the
v1 language raises for the queue protocol (a block that can never proceed)."""
from __future__ import annotations


class KernelRuntimeError(RuntimeError):
    """A fault found while simulating the kernel, located at the user's source line. ``category``: its kind
    (``RaceError``, ``OutOfBoundsError``, ...), ``hint``: the fix."""
    category = "KernelRuntimeError"
    hint = None


class PipeHangError(KernelRuntimeError):
    """The block can never proceed on the device: a flag or a queue nobody will satisfy."""
    category = "PipeHangError"


def located(cls, loc, message, hint=None, category=None):
    """``cls`` with the message ``file:line: message`` and ``hint: ...`` below it, as every engine error."""
    where = f"{loc[0]}:{loc[1]}: " if loc else ""
    err = cls(where + message + (f"\nhint: {hint}" if hint else ""))
    err.hint = hint
    if category is not None:
        err.category = category
    return err

"""v1 synchronisation: ``set_flag`` / ``wait_flag`` (HardEvent) and ``pipe_barrier`` (PipeID)."""
from __future__ import annotations

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .addressing import issue as _issue
from .enums import HardEvent, PipeID, event_pipes


def _event_id(event_id):
    i = int(event_id)
    if not 0 <= i <= 7:
        raise error(ValueError, f"event id {i} is outside 0-7", "a HardEvent has 8 ids per core: use 0..7")
    return i


_EVENTS = {e: (e.name,) + event_pipes(e) for e in HardEvent}
_FLAGS = {}     # (kind, event, id) -> (pipe, key, pipes, text): a loop issues the same few flags every trip


def _flag(kind, event, event_id):
    f = _FLAGS.get((kind, event, event_id)) if type(event_id) is int else None
    if f is None:
        name, src, dst = _EVENTS[HardEvent(event)]
        i = _event_id(event_id)
        f = (src if kind == "set_flag" else dst, (name, i), (src, dst), f"{name}, {i}")
        if type(event_id) is int and type(event) in (HardEvent, int):
            _FLAGS[(kind, event, event_id)] = f
    _issue(PipeOp(kind, f[0], attrs={"key": f[1], "event": f[2], "text": f[3]}, loc=user_loc()))


def set_flag(event, event_id=0):
    """``set_flag(HardEvent.X_Y, id)``: on pipe X, once every earlier X instruction is done, set the flag."""
    _flag("set_flag", event, event_id)


def wait_flag(event, event_id=0):
    """``wait_flag(HardEvent.X_Y, id)``: pipe Y's later instructions wait until the flag is set (and clear it)."""
    _flag("wait_flag", event, event_id)


def pipe_barrier(pipe):
    """``pipe_barrier(PipeID.P)``: later P instructions wait for the earlier ones; ``PIPE_ALL``: every pipe."""
    p = PipeID(pipe)
    if p == PipeID.PIPE_S:
        raise error(ValueError, "pipe_barrier(PIPE_S) is illegal (a hardware error on the device)",
                    "the scalar unit runs in order: drop it, or use PIPE_ALL to wait for every pipe")
    name = p.pipe
    _issue(PipeOp("pipe_barrier", "S" if name == "ALL" else name if name in ("V", "MTE2", "MTE3", "MTE1", "M", "FIX")
                  else "S", attrs={"target": name}, loc=user_loc()))


for _name in ("set_flag", "wait_flag", "pipe_barrier"):
    define("v1." + _name)     # ordering, not work: the schedule places their edges

"""Blocks ordering themselves through flags in a GM workspace: ``ib_set`` / ``ib_wait`` (a given block's
event) and ``notify_next_block`` / ``wait_pre_block`` (blocks in turn), and through the cores' own flag
counters: ``cross_core_set_flag`` / ``cross_core_wait_flag``. The flags' semantics, the ordering
they give the GM race checks and their ticks: ``sim/pipes/block_events.py``; the blocks run as
``sim/pipes/phases.py`` runs blocks that wait for each other."""
from __future__ import annotations

from ...ir.pipe_ops import user_loc
from ..core import dtype as dt
from ..core.errors import error
from .cores import on_cube, vector_cores_per_group
from .enums import PipeID
from .sync import pipe_barrier
from .tensors import GlobalTensor, LocalTensor, _block

_UB = ("VECIN", "VECCALC", "VECOUT")


def one_wave(name):
    """Blocks that wait for each other must all run at once: a launch of more blocks than cores hangs."""
    launch = _block().launch
    blocks = launch.core_num
    cores = launch.hw.aic_cores if on_cube(getattr(launch, "kind", "AIV_ONLY")) else launch.hw.aiv_cores
    if blocks > cores:
        raise error(RuntimeError, f"{name} in a launch of {blocks} blocks on {cores} cores: the blocks of a later "
                    "wave start only when the first wave ends, and the first wave waits here for them for ever",
                    f"launch at most {cores} blocks (loop over the work inside each block)")
    return blocks


def _workspaces(name, gm_ws, ub_ws, gm_bytes, ub_bytes):
    """The GM words of ``gm_ws`` (int32, at least ``gm_bytes``) and its first element's index."""
    for what, t, kind in (("gm_workspace", gm_ws, GlobalTensor), ("ub_workspace", ub_ws, LocalTensor)):
        if not isinstance(t, kind) or t.dtype != dt.int32:
            raise error(TypeError, f"{name}: {what} must be an int32 {kind.__name__}, got "
                        f"{getattr(t, 'dtype', type(t).__name__)}", f"pass an int32 {kind.__name__}")
    if ub_ws.position not in _UB:
        raise error(ValueError, f"{name}: ub_workspace is in {ub_ws.position}", "place it in VECIN, VECCALC or VECOUT")
    for what, t, need in (("gm_workspace", gm_ws, gm_bytes), ("ub_workspace", ub_ws, ub_bytes)):
        have = (t.size or 0) * 4
        if have < need:
            raise error(ValueError, f"{name}: {what} holds {have} bytes, this call needs {need}",
                        f"give {what} at least {need} bytes (the GM one zeroed before the launch)")
    return _block().launch.gm[gm_ws.buf], gm_ws.addr // 4


def _events(name):
    """The launch's flags (``Launch.block_events``)."""
    blk = _block()
    events = blk.launch.block_events(blk)
    if events is None:
        raise error(RuntimeError, f"{name} reached from a function this engine did not see calling it: its "
                    "blocks were not run as blocks that wait for each other",
                    f"call {name} in the kernel or in an @asc.jit helper the kernel calls")
    return blk.block_idx, events


def _ib(name, gm_workspace, ub_workspace, block_idx, event_id):
    blocks = one_wave(name)
    i, e = int(block_idx), int(event_id)
    if not 0 <= i < blocks:
        raise error(ValueError, f"{name}: block_idx {i} in a launch of {blocks} blocks", f"use 0..{blocks - 1}")
    if e < 0:
        raise error(ValueError, f"{name}: event_id {e} is negative", "use an event id >= 0")
    slot = e * blocks + i
    words, base = _workspaces(name, gm_workspace, ub_workspace, 32 * slot + 32, 32)
    what = f"the flag of block {i}, event {e} (GM '{gm_workspace.buf}' word {base + 8 * slot})"
    return words, base + 8 * slot, (gm_workspace.buf, base + 8 * slot), what


def ib_set(gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only=True):
    """Set the flag (block_idx, event_id) once every earlier instruction of this block is done; waits while
    the previous set of that flag has not been taken by an ``ib_wait``."""
    words, i, key, what = _ib("ib_set", gm_workspace, ub_workspace, block_idx, event_id)
    pipe_barrier(PipeID.PIPE_ALL)
    b, ev = _events("ib_set")
    ev.ib_set(b, words, i, key, what, user_loc())


def ib_wait(gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only=True):
    """Wait until the flag (block_idx, event_id) is set, and take it: this block's later instructions follow
    everything the setting block did before ``ib_set``."""
    words, i, key, what = _ib("ib_wait", gm_workspace, ub_workspace, block_idx, event_id)
    b, ev = _events("ib_wait")
    ev.ib_wait(b, words, i, key, what, user_loc())


def _turns(name, gm_workspace, ub_workspace):
    blocks = one_wave(name)
    words, base = _workspaces(name, gm_workspace, ub_workspace, 32 * blocks, 32 * blocks + 32)
    return blocks, words, base, (gm_workspace.buf, base)


def notify_next_block(gm_workspace, ub_workspace):
    """Tell the next block this one is done (with everything before this call)."""
    blocks, words, base, ws = _turns("notify_next_block", gm_workspace, ub_workspace)
    pipe_barrier(PipeID.PIPE_ALL)
    b, ev = _events("notify_next_block")
    ev.notify_next(b, words, base, ws)


def wait_pre_block(gm_workspace, ub_workspace):
    """Wait for the previous block's ``notify_next_block`` (block 0: for the last block's previous one)."""
    blocks, words, base, ws = _turns("wait_pre_block", gm_workspace, ub_workspace)
    b, ev = _events("wait_pre_block")
    ev.wait_pre(b, words, base, ws, blocks, user_loc())


def _cross_core(name, flag_id, mode_id, pipe):
    """The flag's key (mode, id, the blocks it spans) and the pipe's name."""
    blk = _block()
    launch = blk.launch
    f, mode = int(flag_id), int(mode_id)
    if not 0 <= f <= 10:
        raise error(ValueError, f"{name}: flag_id {f} is outside 0-10", "use a flag id in 0..10")
    p = PipeID(pipe).pipe
    if p in ("MTE4", "MTE5", "V2"):
        raise error(ValueError, f"{name} on PIPE_{p}: a pipe this engine does not model",
                    "set the flag on the pipe of the instructions it follows (PIPE_V, PIPE_MTE3, ...)")
    blocks = one_wave(name)
    mix = vector_cores_per_group(getattr(launch, "kind", "AIV_ONLY")) == 2
    if mode == 0:
        scope = tuple(range(blocks))
    elif mode == 1:
        if not mix:
            raise error(ValueError, f"{name} mode 1 synchronises the two vector cores of an AI core group, and "
                        f"this {getattr(launch, 'kind', 'AIV_ONLY')} kernel has one core per group",
                        "use mode 0 (every core of the launch), or run the kernel as a MIX_AIC_1_2 kernel")
        g = blk.block_idx - blk.block_idx % 2
        scope = (g, g + 1)
    elif mode == 2:
        raise error(ValueError, f"{name} mode 2 pairs a group's cube core with its vector cores, and this engine "
                    "runs one side of a kernel only (a MIX kernel's cube core serves its Matmul here, no user code)",
                    "use mode 0 or 1 between cores of one kind, or run this kernel with a CANN toolkit and pyasc")
    else:
        raise error(ValueError, f"{name}: mode_id {mode} is not 0, 1 or 2", "use mode 0, 1 or 2")
    return (mode, f, scope), p


def cross_core_set_flag(flag_id, mode_id, pipe):
    """Add one to the flag's counter on every core of the mode's scope, once every core of it has set it."""
    flag, p = _cross_core("cross_core_set_flag", flag_id, mode_id, pipe)
    b, ev = _events("cross_core_set_flag")
    bad = ev.cross_set(b, flag, p)
    if bad is not None:
        raise error(RuntimeError, *bad)


def cross_core_wait_flag(flag_id, mode_id, pipe):
    """Wait until the flag's counter is above 0 and take one: the block's later instructions follow every
    core of the scope's set."""
    flag, _ = _cross_core("cross_core_wait_flag", flag_id, mode_id, pipe)
    b, ev = _events("cross_core_wait_flag")
    ev.cross_wait(b, flag, user_loc())

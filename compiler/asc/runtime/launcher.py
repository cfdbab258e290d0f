"""Launching a compiled kernel on the embedded simulator and reporting what it cost."""
from __future__ import annotations

import json
import os
import sys

import numpy as np

from ..ir.registry import PIPES
from ..language.core.errors import error
from ..sim import timeline
from ..sim.checks import coverage_warnings, narrow_store_warnings, output_role
from ..sim.executor import Executor, KernelRuntimeError
from ..sim.steps import cube_op_ids
from ..sim.memory import PtrVal, any_overlap, bind_buffers
from ..sim.replay import Recorder, verify_tape
from ..sim.schedule import block_schedules, launch_ticks
from . import allocator, warning_channel
from .cache import disk_store
from .environment import getenv
from .footprint import check_launch_memory
from .platforms import hardware

allocator.tune()   # (once per process: a launch's arrays reuse the heap's pages)

LAST_REPORT = [None]
LAUNCH_LISTENERS = []  # callables given every launch report (asc.lib.profiling's active profilers)


def _host_view(name, value):
    """A 1-d numpy view of a host array or CPU tensor (writes go straight into the caller's memory)."""
    if isinstance(value, np.ndarray):
        if not value.flags.c_contiguous:
            raise error(ValueError, f"argument '{name}' is not C-contiguous",
                        "pass np.ascontiguousarray(x) (a strided view cannot be written back in place)")
        if not value.flags.writeable:
            raise error(ValueError, f"argument '{name}' is a read-only array", "pass a writeable copy: x.copy()")
        return value.reshape(-1)
    import torch
    t = value.detach()
    if not t.is_contiguous():
        raise error(ValueError, f"argument '{name}' is not contiguous", "pass x.contiguous()")
    if t.dtype == torch.bfloat16:
        import ml_dtypes
        return t.view(torch.int16).numpy().reshape(-1).view(ml_dtypes.bfloat16)
    return t.numpy().reshape(-1)


def _check_capacity(jit_fn, compiled, hw):
    """The memory plan's bytes per on-chip memory against the platform's (checked once per platform table)."""
    fits = compiled.__dict__.setdefault("_fits", set())
    if hw in fits:
        return
    for mem, used in compiled.memory.items():
        capacity = getattr(hw, f"{mem.lower()}_bytes", None)
        if capacity is not None and used > capacity:   # pyasc-dev's launcher text for August kernels, April's else
            text = (f"{mem} overflow: {capacity} bytes are available, {used} bytes are used." if jit_fn.is_august
                    else f"{mem} overflow: {capacity} is available, {used} is used.")
            raise error(RuntimeError, text,
                        f"use smaller tiles or unroll_factor=1; every tile (and each unrolled copy) takes {mem} space")
    fits.add(hw)


def launch(jit_fn, compiled, core_num, runtime):
    try:
        _launch(jit_fn, compiled, core_num, runtime)
    finally:
        unsaved = compiled.__dict__.pop("unsaved", None)
        if unsaved is not None:   # a kernel traced for this launch: into the on-disk cache, with its schedule
            disk_store(*unsaved, compiled)


def _launch(jit_fn, compiled, core_num, runtime):
    hw = hardware(compiled.platform)
    _check_capacity(jit_fn, compiled, hw)
    written_args = compiled.written_args
    ptrs = [(name, _host_view(name, value)) for name, kind, d, value in runtime if kind == "ptr"]
    check_launch_memory(jit_fn.__name__, core_num, sum(v.nbytes for _, v in ptrs))
    scalars = [np.asarray(value.item() if hasattr(value, "item") and not isinstance(value, (int, float)) else value,
                          dtype=d.to_numpy()) for name, kind, d, value in runtime if kind != "ptr"]
    checks = getenv("ASC_CHECKS", "on").strip().lower() != "off"  # for measuring the checks' cost
    order, order_text = _block_order(core_num, getenv("ASC_BLOCK_ORDER", ""))
    trace_dir = getenv("ASC_TRACE_DIR")
    record = timeline.is_recording(getenv("ASC_TIMELINE", ""), trace_dir)
    replay_mode = getenv("ASC_REPLAY", "").strip().lower()
    # A launch whose structure ran before replays what it recorded (sim/replay.py); not with arguments that
    # share memory, nor while a timeline is recorded.
    overlap = any_overlap([v for _, v in ptrs])
    tapes = None if record or compiled.structure is None or replay_mode == "off" or overlap else compiled.tapes
    key = tape = None
    if tapes is not None:
        # a replay reuses the recorded launch's report: only under the same platform table
        key = (hw, core_num, checks, order_text, tuple(v.shape[0] for _, v in ptrs),
               tuple(v.tobytes() for v in scalars))
        tape = tapes.get(key)
    if tape is not None:
        ex = _executor(compiled, hw, core_num, checks, order, False)
    else:
        buffers, aliased = bind_buffers([(name, view, name in written_args) for name, view in ptrs], overlap)
        scalar = iter(scalars)
        values = [PtrVal(buffers[name], _ZERO) if kind == "ptr" else next(scalar) for name, kind, d, value in runtime]
        ex = _executor(compiled, hw, core_num, checks, order, aliased)
        inputs = [i for i, (name, _) in enumerate(ptrs) if buffers[name].read_only]
        for i, (name, _) in enumerate(ptrs):
            b = buffers[name]
            b.stored = name in written_args
            b.output = output_role(name, b.stored, bool(inputs) and inputs[-1] < i)
        before = None
        if tapes is not None and key not in tapes:
            ex.recorder = Recorder(compiled.structure, [buffers[name] for name, _ in ptrs])
            if replay_mode == "verify":   # (testing the engine)
                before = [view.copy() for _, view in ptrs]
    try:
        if tape is not None:
            tape.replay(ex, [v for _, v in ptrs])
        else:
            ex.run(values)
    except KernelRuntimeError as e:
        if order_text:
            e.args = (f"{e.args[0]}\n(blocks ran in the order of ASC_BLOCK_ORDER={order_text})",)
        raise
    if tape is not None:
        report = _copy_report(tape.report, getattr(compiled.fn, "warnings", []) + ex.warnings)
    else:
        if checks:
            for w in coverage_warnings(buffers.values()) + narrow_store_warnings(buffers.values()):
                ex.add_warning(w)
        report = _report(jit_fn, compiled, ex, hw, core_num, record)
        if ex.recorder is not None:
            recorded = ex.recorder.tape() if not ex.warnings else None
            if recorded is not None and before is not None:
                verify_tape(recorded, jit_fn.__name__, [(name, b, name in written_args) for (name, _), b in zip(ptrs, before)],
                            lambda: _executor(compiled, hw, core_num, checks, order, False), values)
            _remember(tapes, key, recorded, report)
    if order_text:
        report["block_order"] = order_text
    publish(jit_fn, report, hw, record, trace_dir)
    return None


def publish(jit_fn, report, hw, record, trace_dir):
    """Make a launch's report the last one, tell the listeners, write it where the environment asks, and
    issue its warnings through Python's ``warnings`` (``warning_channel``)."""
    report["warnings"] = warning_channel.resolved(jit_fn, report["warnings"])
    LAST_REPORT[0] = report
    jit_fn.last_launch = report
    for listener in list(LAUNCH_LISTENERS):
        listener(report)
    path = getenv("ASC_LAUNCH_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            line = {k: v for k, v in report.items() if k != "timeline"}
            line["warnings"] = [warning_channel.record(w) for w in report["warnings"]]
            f.write(json.dumps(line) + "\n")
    if record and trace_dir:
        timeline.write_launch_trace(trace_dir, report, hw.clock_mhz)
    warning_channel.issue(jit_fn, report["warnings"])


def _executor(compiled, hw, core_num, checks, order, aliased):
    # Loop trips may run batched only if no argument is another's memory under a different name.
    cube = compiled.__dict__.get("_cube_ops")
    if cube is None:
        cube = compiled.__dict__["_cube_ops"] = cube_op_ids(compiled.costs)
    return Executor(compiled.fn, hw, core_num, compiled.costs,
                    batchable=frozenset() if aliased else compiled.batchable_loops,
                    gm_loops=compiled.gm_loops[1 if aliased else 0], checks=checks, block_order=order,
                    hoistable={} if aliased else compiled.hoistable, plans=compiled.plans, cube_ops=cube)


def _remember(tapes, key, tape, report):
    """Keep the tape of a recorded launch with its report (None: this structure is not replayed, e.g. its
    launch warned), within the bounds of ``runtime.caches.REPLAY``."""
    if tape is not None:
        tape.report = _copy_report(report, [])
    tapes.put(key, tape)


def _copy_report(report, warnings):
    out = dict(report)
    out["pipes"], out["roofline"], out["warnings"] = dict(report["pipes"]), dict(report["roofline"]), list(warnings)
    return out


_ZERO = np.asarray(0, dtype=np.int64)
_ZERO.flags.writeable = False
_ANNOUNCED = set()


def _block_order(core_num, spec):
    """The lane order of the blocks: natural, or ``ASC_BLOCK_ORDER=shuffle[:SEED]`` (a seeded random
    permutation that exposes assumptions about the order blocks run in; the seed is printed)."""
    spec = spec.strip()
    if spec in ("", "natural"):
        return None, None
    kind, _, seed = spec.partition(":")
    if kind != "shuffle" or (seed and not seed.isdigit()):
        raise error(ValueError, f"ASC_BLOCK_ORDER={spec!r} is not a block order",
                    "use ASC_BLOCK_ORDER=shuffle (a random seed, printed) or shuffle:SEED, or unset it")
    if not seed:
        seed = str(int.from_bytes(os.urandom(4), "little"))
        os.environ["ASC_BLOCK_ORDER"] = f"shuffle:{seed}"  # one seed for the whole process
    text = f"shuffle:{seed}"
    if text not in _ANNOUNCED:
        _ANNOUNCED.add(text)
        print(f"asc: blocks run in a shuffled order (ASC_BLOCK_ORDER={text})", file=sys.stderr)
    return np.random.default_rng(int(seed)).permutation(core_num).astype(np.int64), text


def _report(jit_fn, compiled, ex, hw, core_num, record):
    which, scheds = block_schedules(compiled, hw, ex.visits, core_num, record)
    cube = ex.cube
    bytes_in, bytes_out = ex.bytes["in"], ex.bytes["out"]
    ticks, starts, pipes, flops, roof = _summary(hw, core_num, which, scheds, cube, bytes_in, bytes_out)
    report = {"kernel": jit_fn.__name__, "platform": compiled.platform.value, "core_num": core_num,
              "ticks": ticks, "pipes": dict(pipes), "peak_ub_bytes": int(compiled.memory["UB"]),
              "bytes_in": bytes_in, "bytes_out": bytes_out, "flops": flops, "roofline": dict(roof),
              "warnings": getattr(compiled.fn, "warnings", []) + ex.warnings}
    if record:
        report["timeline"] = timeline.events(which, scheds, starts)
    return report


def _summary(hw, core_num, which, scheds, cube, bytes_in, bytes_out):
    """(ticks, block starts, busy ticks per pipe, flops, roofline) of a launch whose blocks ran ``scheds``;
    kept with the schedules (``block_schedules`` reuses them for launches with the same loop and branch
    record), so a relaunch pays a lookup."""
    memo = scheds[0].__dict__.setdefault("_summaries", {})
    key = (hw, core_num, cube, bytes_in, bytes_out, which.tobytes())
    hit = memo.get(key)
    if hit is not None:
        return hit
    ticks, starts = launch_ticks(hw, which, scheds, cube=cube)
    # each pipe's busy ticks on its busiest block, as scheduled (fused vector calls share one issue overhead)
    per_block = np.array([s.busy for s in scheds])[which]
    pipes = {p: int(round(b)) for p, b in zip(PIPES, per_block.max(axis=0).tolist()) if b > 0}
    flops = 2 * int(sum(scheds[k].macs for k in which.tolist())) if cube else 0
    if len(memo) >= 16:
        memo.clear()
    memo[key] = hit = (int(round(ticks)), starts, pipes, flops,
                       roofline(hw, core_num, bytes_in, bytes_out, flops, ticks, cube))
    return hit


def roofline(hw, core_num, bytes_in, bytes_out, flops, ticks, cube):
    """The launch against the platform's roofline: the ticks its DMA traffic (at every used core's load and
    store rates) or its cube FLOPs (at the cube peak) need at least, and that over the modelled ticks."""
    cores = max(1, min(core_num, hw.aic_cores if cube else hw.aiv_cores))
    dma = max(bytes_in / hw.mte2_bytes_per_tick, bytes_out / hw.mte3_bytes_per_tick) / cores
    mma = flops / (2.0 * hw.mmad_macs_per_tick * cores)
    ideal = max(dma, mma)
    return {"bound": "cube" if mma > dma else "dma", "ideal_ticks": round(ideal, 1),
            "efficiency": round(ideal / ticks, 4) if ticks else None}


class PlatformInfo:
    """What pyasc's launcher tells test helpers about a SoC (sizes in bytes)."""

    def __init__(self, platform, hw):
        self.platform = platform
        self.arch = hw.arch
        self.ub_size = hw.ub_bytes
        self.l1_size = hw.l1_bytes
        self.l0a_size = hw.l0a_bytes
        self.l0b_size = hw.l0b_bytes
        self.l0c_size = hw.l0c_bytes
        self.aiv_core_num = hw.aiv_cores
        self.aic_core_num = hw.aic_cores
        self.clock_mhz = hw.clock_mhz

    def __repr__(self):
        return f"PlatformInfo({self.platform.value}, ub_size={self.ub_size})"


def get_platform_info(soc=None) -> PlatformInfo:
    """Capacities of ``soc`` (a ``config.Platform`` or its name; default: the selected platform)."""
    from . import config
    if soc is None:
        soc = config.current_platform()
    elif not isinstance(soc, config.Platform):
        try:
            soc = config.Platform(soc)
        except ValueError:
            raise ValueError(f"unknown platform {soc!r}; expected one of "
                             f"{', '.join(p.value for p in config.Platform)}") from None
    return PlatformInfo(soc, hardware(soc))

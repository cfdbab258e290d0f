"""Launching a v1 kernel (``asc.GlobalTensor`` / ``asc.data_copy`` / ``asc.set_flag`` ...): every block runs
the kernel's Python body with v1 objects, issuing one ``PipeOp`` per instruction to its ``BlockEngine``;
then the blocks' pipe timings give the launch ticks, the report and the timeline like any launch."""
from __future__ import annotations

import os

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..frontend.v1_kernel import kernel_kind, run_block, uses_auto_tensors, waits_for_blocks
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.errors import error
from ..language.v1.cores import has_cube_server, on_cube, vector_cores_per_group
from ..language.v1.struct import is_struct
from ..language.v1.tensors import GmPointer
from .arguments import MockTensor, MockValue, arg_kind
from .caches import KernelTapes
from .footprint import check_launch_memory
from ..ir.registry import PIPES
from ..sim import timeline
from ..sim.memory import any_overlap
from ..sim.pipes.engine import BlockEngine, Launch
from ..sim.pipes.phases import Phaser
from ..sim.pipes.replay import build_tape
from ..sim.pipes.tracer import STATS as TRACE_STATS, ClassTapes, Untraced, apart, run_class, trace_classes
from ..sim.pipes.uniform import TraceEngine, run_as_block0, same_stream
from ..ir.block_index import BlockDependent
from .v1_structure import structure_key, verify_replay
from ..sim.schedule import launch_ticks
from . import launcher as _launcher
from .platforms import hardware


def launch_v1(jit_fn, platform, core_num, args, kwargs, options):
    hw = hardware(platform)
    environ = os.environ
    checks = environ.get("ASC_CHECKS", "on").strip().lower() != "off"
    trace_dir = environ.get("ASC_TRACE_DIR")
    record = timeline.is_recording(environ.get("ASC_TIMELINE", ""), trace_dir)
    values, gm = bind_arguments(jit_fn, args, kwargs)
    check_launch_memory(jit_fn.__name__, core_num, sum(v.nbytes for v in gm.values()))
    # insert-sync: asked for, or (unset) implied by a LocalTensorAuto in the kernel, as in pyasc
    insert_sync = options.get("insert_sync")
    if insert_sync is None:
        insert_sync = uses_auto_tensors(jit_fn.node)
    # core_num AI core groups; the user's code runs on each group's vector cores (two in MIX_AIC_1_2, the type
    # of a registered Matmul; one in the others) or on its cube core (AIC_ONLY, MIX_AIC_1_0 ...)
    kind = kernel_kind(jit_fn.node, options)
    blocks = max(1, vector_cores_per_group(kind)) * core_num
    phased = blocks > 1 and waits_for_blocks(jit_fn)

    def run(buffers, recording=False):
        launch = Launch(hw, buffers, blocks, checks=checks, record=record, insert_sync=bool(insert_sync))
        launch.kind = kind
        launch.phased = phased
        launch.recording = recording
        launch.uniform = uniform
        return launch, _run_blocks(jit_fn, launch, values, blocks, traced)

    # A launch whose structure ran before replays its data ops (sim/pipes/replay.py); not with arguments
    # that share memory, nor while a timeline is recorded.
    replay_mode = environ.get("ASC_REPLAY", "").strip().lower()
    # the body traced once for every block, else blocks that issue block 0's stream again run as block 0
    # ran; ASC_V1_BLOCKS=untraced skips the trace, ASC_V1_BLOCKS=each runs each block's body in full
    shared = any_overlap(list(gm.values()))    # overlaps of different dtypes stay separate buffers
    blocks_mode = environ.get("ASC_V1_BLOCKS", "").strip().lower()
    uniform = blocks_mode != "each" and not shared
    traced = uniform and blocks_mode != "untraced"
    key = None
    if not record and replay_mode != "off" and not shared:
        key = structure_key(jit_fn, hw, core_num, checks, bool(insert_sync), kind, values, options)
        key = None if key is None else key + (uniform,)
    tapes = jit_fn.__dict__.get("_v1_tapes")
    if tapes is None:
        tapes = jit_fn._v1_tapes = KernelTapes()
    tape = tapes.get(key) if key is not None else None
    if tape is not None:
        tape.replay(gm)
        report = _copy_report(tape.report)
    else:
        recording = key is not None and key not in tapes
        before = {n: v.copy() for n, v in gm.items()} if recording and replay_mode == "verify" else None
        launch, (timings, recorded) = run(gm, recording)
        report = _report(jit_fn, hw, platform, core_num, kind, blocks, launch, timings, record)
        if recording:
            tape = None
            if launch.recording and not launch.warnings:
                tape = launch.tape      # built already when blocks 1.. ran as block 0
                if tape is None:
                    tape = build_tape(recorded, BlockEngine.capacities(hw), None)
                if tape is not None:
                    tape.report = _copy_report(report)
            if tape is not None and before is not None:
                verify_replay(jit_fn.__name__, tape, before,
                              lambda bufs: _report(jit_fn, hw, platform, core_num, kind, blocks,
                                                   *_first_and_timings(run(bufs)), False))
            tapes.put(key, tape)      # None: this structure is not recorded again
    _launcher.publish(jit_fn, report, hw, record, trace_dir)


def _first_and_timings(result):
    launch, (timings, _) = result
    return launch, timings


def _run_blocks(jit_fn, launch, values, blocks, traced=False):
    """Run every block: (their pipe timings, their recorded data ops or None). The body traced once for
    every block (``sim/pipes/tracer.py``), else: blocks 1.. that issue block 0's stream again run as block 0
    ran (``sim/pipes/uniform.py``), the others in full, in turn."""
    def block_values():
        return {k: (v.kernel_copy() if is_struct(v) else v) for k, v in values.items()}

    if launch.phased:
        return _run_phased(jit_fn, launch, block_values, blocks)
    if traced and blocks > 1:
        result = _run_traced(jit_fn, launch, block_values, blocks)
        if result is not None:
            if launch.checks:
                launch.warnings.extend(launch.gm_races.coverage())
            return result
    timings, recorded = [], []
    for b in range(blocks):
        eng = BlockEngine(launch, b)
        run_block(jit_fn, eng, block_values())
        eng.finish()
        timings.append(eng.timing)
        recorded.append(eng.recorded)
        if b == 0 and eng.trace is not None and blocks > 1 and not eng.reordered:
            others = _as_block0(jit_fn, launch, eng, blocks, block_values)
            if others is not None:
                timings = [eng.timing] * blocks
                recorded = recorded + others if eng.recorded is not None else [None] * blocks
                break
            launch.uniform = False
    if launch.checks:
        launch.warnings.extend(launch.gm_races.coverage())
    return timings, recorded


def _run_traced(jit_fn, launch, block_values, blocks):
    """The body run once with a symbolic block index (once per class of blocks where a decision differs
    between blocks), each stream run for its blocks (the first in full, the others as lanes or in full);
    None when the body cannot be traced (the launch state as it was)."""
    before = (list(launch.warnings), dict(launch.peak))

    def body(tr):
        run_block(jit_fn, tr, block_values())
        if launch.warnings != before[0]:
            raise Untraced("a warning while tracing")     # block 0's warnings must come in program order

    try:
        classes = trace_classes(launch, body, blocks)
    except Exception as e:     # the stream may depend on data, or the body failed: block by block
        TRACE_STATS["untraced: " + _untraced_why(e)] += 1
        launch.warnings[:], launch.peak = before
        return None
    launch.uniform = False      # the engines below need not keep their ops: the streams have them
    recording = launch.recording
    why = apart(launch, classes, blocks)
    timings, recorded, paths, tapes = [], [], [], []
    try:
        for dom, stream in classes:
            t, r, tape = run_class(launch, dom, stream, why, recording, paths)
            timings += t
            recorded += r
            if why is None and tape is None and recording:
                tape = build_tape(r, BlockEngine.capacities(launch.hw), None)    # a class run in full
            tapes.append(tape)
    finally:     # the path of the classes whose first block ran (a later block may raise)
        fell = [p for p in paths if p != "lanes"]
        if paths:
            TRACE_STATS[fell[0] if fell else "lanes" if len(classes) == 1 else
                        f"lanes in {len(classes)} classes of blocks"] += 1
    if why is None:     # apart: the classes' tapes are the launch's (else built from ``recorded``)
        launch.tape = tapes[0] if len(tapes) == 1 else ClassTapes(tapes) if None not in tapes else None
        if launch.tape is None:
            launch.recording = False
    return timings, recorded


def _untraced_why(e):
    if isinstance(e, BlockDependent):
        return f"the block index as a value ({e.where()})"
    if isinstance(e, Untraced):
        return str(e)
    return f"an error ({type(e).__name__})"


def _run_phased(jit_fn, launch, block_values, blocks):
    """Blocks that wait for each other (``sync_all``): each in a thread, one at a time (``sim/pipes/phases.py``);
    such a launch is neither run as block 0's stream nor replayed."""
    launch.uniform = launch.recording = False
    engines = [BlockEngine(launch, b) for b in range(blocks)]
    launch.phaser = Phaser(launch, engines)

    def run(b):
        run_block(jit_fn, engines[b], block_values())
        engines[b].finish()

    launch.phaser.run(run)
    if launch.checks:
        launch.warnings.extend(launch.gm_races.coverage())
    return [e.timing for e in engines], [None] * blocks


def _as_block0(jit_fn, launch, eng0, blocks, block_values):
    """Blocks 1.. run as block 0 when they issue its stream again (their data ops), else None."""
    traces = []
    try:
        for b in range(1, blocks):
            tr = TraceEngine(launch, b)
            run_block(jit_fn, tr, block_values())
            if not same_stream(eng0.trace, tr.trace):
                return None
            traces.append(tr.trace)
    except Exception:   # Diverged, or an error of a later block: the blocks run in full and meet it in turn
        return None
    return run_as_block0(launch, eng0, traces)


def _report(jit_fn, hw, platform, core_num, kind, blocks, launch, timings, record):
    which = np.arange(blocks, dtype=np.int64)
    spans = _shared_cube(hw, timings, vector_cores_per_group(kind)) if has_cube_server(kind) else timings
    ticks, starts = launch_ticks(hw, which, spans, cube=on_cube(kind))
    busy = np.array([t.busy for t in timings])
    pipes = {p: int(round(v)) for p, v in zip(PIPES, busy.max(axis=0).tolist()) if v > 0}
    report = {"kernel": jit_fn.__name__, "platform": platform.value, "core_num": core_num, "api": "v1",
              "kernel_type": kind, "blocks": blocks,
              "ticks": int(round(ticks)), "pipes": pipes, "peak_ub_bytes": int(launch.peak.get("UB", 0)),
              "bytes_in": launch.bytes["in"], "bytes_out": launch.bytes["out"], "flops": 0,
              "roofline": _launcher.roofline(hw, core_num, launch.bytes["in"], launch.bytes["out"], 0, ticks, False),
              "warnings": list(launch.warnings)}
    if record:
        report["timeline"] = timeline.events(which, timings, starts)
    return report


def _copy_report(report):
    out = dict(report)
    out["pipes"], out["roofline"], out["warnings"] = dict(report["pipes"]), dict(report["roofline"]), \
        list(report["warnings"])
    return out


class _GroupSpan:
    """A MIX vector block's span with its group's cube work: the vector cores of a group (two in MIX_AIC_1_2,
    one in MIX_AIC_1_1) share one cube core, whose pipes (MTE2 loads into L1, MTE1, M, FIX) serve their
    Matmul calls in turn."""

    def __init__(self, timing, span):
        self.timing, self.span = timing, span

    def frontier(self):
        return self.span


def _shared_cube(hw, timings, per_group):
    from ..sim.pipes.cube import CUBE_PIPES
    out = []
    for g in range(0, len(timings), per_group):
        pair = timings[g: g + per_group]
        cube = max(sum(t.busy[p] for t in pair) for p in CUBE_PIPES)
        cube = max(cube, sum(getattr(t, "cube_mte2", 0.0) for t in pair))
        out.extend(_GroupSpan(t, max(t.frontier(), cube)) for t in pair)
    return out


def bind_arguments(jit_fn, args, kwargs):
    """(parameter name -> value the body sees, GM buffer name -> host view): arrays and CPU tensors become
    GM pointers over the caller's memory, ConstExpr arguments their values, scalars Python numbers."""
    try:
        bound = jit_fn.signature.bind(*args, **kwargs)
    except TypeError as e:
        raise error(TypeError, f"{jit_fn.__name__}: {e}",
                    f"the kernel takes ({', '.join(jit_fn.signature.parameters)})") from None
    values, gm = {}, {}
    for name, p in jit_fn.signature.parameters.items():
        if name not in bound.arguments:
            raise error(TypeError, f"{jit_fn.__name__}: missing a required argument: '{name}'",
                        "pass every argument")
        v = bound.arguments[name]
        if is_constexpr_annotation(p.annotation) or isinstance(v, ConstExpr):
            values[name] = ConstExpr.unwrap(v)
            continue
        if is_struct(v):      # packed and passed by value: each block gets a copy it may assign
            values[name] = v
            continue
        v = _unmock(v)
        kind, d = arg_kind(name, v)
        if kind == "ptr":
            gm[name] = _launcher._host_view(name, v)
            values[name] = GmPointer(name, d, gm[name].size)
        else:
            values[name] = v.item() if hasattr(v, "item") else v
    return values, _shared_memory(values, gm)


def _unmock(v):
    """pyasc's MockTensor / MockValue: a GM argument of no elements, a scalar 0 (``runtime/jit.py``)."""
    if isinstance(v, MockTensor):
        return np.zeros(0, dtype=v.dtype.to_numpy())
    if isinstance(v, MockValue):
        return np.zeros((), dtype=v.dtype.to_numpy())[()]
    return v


def _shared_memory(values, gm):
    """Arguments over overlapping memory (an in-place launch ``k(x, x)``, or two slices of one array) are one GM
    buffer, so their accesses meet in the checks: the union of their bytes, named after the first, each
    argument a pointer at its offset into it. Overlaps of different element types, or at an offset that is
    not a whole element, stay separate buffers."""
    spans = [(g.__array_interface__["data"][0], name, g) for name, g in gm.items()]
    spans.sort(key=lambda s: s[0])
    out, group = {}, []

    def close():
        if not group:
            return
        start = group[0][0]
        end = max(a + g.nbytes for a, _, g in group)
        first = min(group, key=lambda s: list(gm).index(s[1]))[1]
        base = group[0][2]
        isz = base.itemsize
        union = base if len(group) == 1 else as_strided(base, shape=((end - start) // isz,), strides=(isz,))
        out[first] = union
        for a, name, g in group:
            p = values[name]
            values[name] = GmPointer(first, p.dtype, (a - start) // isz + g.size, (a - start) // isz)
        group.clear()

    for a, name, g in spans:
        if group:
            g0 = group[0][2]
            reach = max(x + y.nbytes for x, _, y in group)
            if a < reach and g.dtype == g0.dtype and (a - group[0][0]) % g0.itemsize == 0:
                group.append((a, name, g))
                continue
            close()
        group.append((a, name, g))
    close()
    return {name: out[name] for name in gm if name in out}

"""Launching a v1 kernel (``asc.GlobalTensor`` / ``asc.data_copy`` / ``asc.set_flag`` ...): every block runs
the kernel's Python body with v1 objects, issuing one ``PipeOp`` per instruction to its ``BlockEngine``;
then the blocks' pipe timings give the launch ticks, the report and the timeline like any launch."""
from __future__ import annotations

import os

import numpy as np

from ..frontend.v1_kernel import run_block, uses_auto_tensors
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.errors import error
from ..language.v1.tensors import GmPointer
from .arguments import arg_kind
from ..ir.registry import PIPES
from ..sim import timeline
from ..sim.pipes.engine import BlockEngine, Launch
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
    # insert-sync: asked for, or (unset) implied by a LocalTensorAuto in the kernel, as in pyasc
    insert_sync = options.get("insert_sync")
    if insert_sync is None:
        insert_sync = uses_auto_tensors(jit_fn.node)
    launch = Launch(hw, gm, core_num, checks=checks, record=record, insert_sync=bool(insert_sync))
    timings = []
    for b in range(core_num):
        eng = BlockEngine(launch, b)
        run_block(jit_fn, eng, values)
        eng.finish()
        timings.append(eng.timing)
    which = np.arange(core_num, dtype=np.int64)
    ticks, starts = launch_ticks(hw, which, timings)
    busy = np.array([t.busy for t in timings])
    pipes = {p: int(round(v)) for p, v in zip(PIPES, busy.max(axis=0).tolist()) if v > 0}
    report = {"kernel": jit_fn.__name__, "platform": platform.value, "core_num": core_num, "api": "v1",
              "ticks": int(round(ticks)), "pipes": pipes, "peak_ub_bytes": int(launch.peak.get("UB", 0)),
              "bytes_in": launch.bytes["in"], "bytes_out": launch.bytes["out"], "flops": 0,
              "roofline": _launcher.roofline(hw, core_num, launch.bytes["in"], launch.bytes["out"], 0, ticks, False),
              "warnings": list(launch.warnings)}
    if record:
        report["timeline"] = timeline.events(which, timings, starts)
    _launcher.publish(jit_fn, report, hw, record, trace_dir)


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
        kind, d = arg_kind(name, v)
        if kind == "ptr":
            view = _launcher._host_view(name, v)
            gm[name] = view
            values[name] = GmPointer(name, d, view.size)
        else:
            values[name] = v.item() if hasattr(v, "item") else v
    return values, gm

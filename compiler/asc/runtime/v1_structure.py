"""The structure of a v1 launch: what decides the instruction stream a v1 kernel's Python body issues (so two
launches of one structure issue the same ops over the same memory and only the data differ), and the
``ASC_REPLAY=verify`` check that a replay of it equals a full run."""
from __future__ import annotations

import numpy as np

from ..sim.executor import KernelRuntimeError
from .dependencies import constants, value_key


def structure_key(jit_fn, hw, core_num, checks, insert_sync, kind, values, options):
    """The launch's structure, or None when something the body sees has no stand-in (a struct argument, an
    object of the user's): the platform, blocks and switches, every argument's value (GM arguments: buffer,
    dtype and size), the options and the values of the module-level constants (numbers, strings, enums,
    dtypes) the kernel and its helpers name."""
    parts = []
    for name, v in values.items():
        k = value_key(v)
        if k is None:
            return None
        parts.append((name, k))
    consts = constants(jit_fn)
    if consts is None:
        return None     # a module-level sequence of objects without a stand-in: no replay
    opts = tuple(sorted((k, repr(v)) for k, v in options.items()))
    return (hw, core_num, checks, insert_sync, kind, tuple(parts), consts, opts)


def verify_replay(name, tape, before, run_full):
    """``ASC_REPLAY=verify`` (for testing the engine): run the launch in full and replay it, both on the same
    changed copy of the buffers it started from (``before``: name -> data); any difference in the buffers,
    the report (ticks, warnings) or the error raised is an engine bug."""
    from ..sim.replay import _changed
    outcomes = []
    for replayed in (False, True):
        datas = {n: _changed(d) for n, d in before.items()}
        report = error = None
        try:
            if replayed:
                tape.replay(datas)
                report = tape.report
            else:
                report = run_full(datas)
        except KernelRuntimeError as e:
            error = str(e)
        outcomes.append(({n: d.view(np.uint8).copy() for n, d in datas.items()}, report, error))
    (full, full_rep, full_err), (rep, rep_rep, rep_err) = outcomes
    diffs = [n for n in full if not np.array_equal(full[n], rep[n])]
    if diffs or full_rep != rep_rep or full_err != rep_err:
        raise RuntimeError(f"replaying v1 kernel '{name}' differs from running it: buffers {diffs}, reports "
                           f"{full_rep} / {rep_rep}, errors {full_err!r} / {rep_err!r}")

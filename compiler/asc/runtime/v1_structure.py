"""The structure of a v1 launch: what decides the instruction stream a v1 kernel's Python body issues (so two
launches of one structure issue the same ops over the same memory and only the data differ), and the
``ASC_REPLAY=verify`` check that a replay of it equals a full run."""
from __future__ import annotations

import enum

import numpy as np

from ..language.core.dtype import DataType as _Dtype
from ..language.v1.tensors import GmPointer
from ..sim.executor import KernelRuntimeError

_SIMPLE = (int, float, bool, str, type(None), np.integer, np.floating, np.bool_, enum.Enum, _Dtype)


def _value_key(v):
    """A hashable stand-in for a value the body sees, or None when it has none (then no replay)."""
    if isinstance(v, GmPointer):
        return ("gm", v.buf, str(v.dtype), v.size, v.offset)
    if isinstance(v, _Dtype):
        return ("dtype", str(v))       # pyasc's DataType is unhashable
    if isinstance(v, (float, np.floating)):
        return ("float", float(v).hex())   # -0.0 is not 0.0 (a muls by it gives -0.0), and NaN is itself
    if isinstance(v, _SIMPLE):
        return (type(v).__name__, v)
    if isinstance(v, (tuple, list)):
        parts = [_value_key(x) for x in v]
        return None if any(p is None for p in parts) else (type(v).__name__, tuple(parts))
    return None


def _referenced_globals(jit_fn):
    """(globals dict, name) of the module-level names the kernel and its ``@asc.jit`` helpers use."""
    found = jit_fn.__dict__.get("_v1_globals")
    if found is not None:
        return found
    found, seen = [], set()

    def visit(fn):
        if fn in seen:
            return
        seen.add(fn)
        g = fn.__globals__
        codes = [fn.__code__]
        while codes:
            code = codes.pop()
            codes.extend(c for c in code.co_consts if hasattr(c, "co_names"))
            for n in code.co_names:
                if n in g:
                    found.append((g, n))
                    inner = getattr(g[n], "fn", None)
                    if inner is not None and hasattr(inner, "__code__"):
                        visit(inner)
    visit(jit_fn.fn)
    jit_fn._v1_globals = found
    return found


def structure_key(jit_fn, hw, core_num, checks, insert_sync, kind, values, options):
    """The launch's structure, or None when something the body sees has no stand-in (a struct argument, an
    object of the user's): the platform, blocks and switches, every argument's value (GM arguments: buffer,
    dtype and size), the options and the values of the module-level constants (numbers, strings, enums,
    dtypes) the kernel and its helpers name."""
    parts = []
    for name, v in values.items():
        k = _value_key(v)
        if k is None:
            return None
        parts.append((name, k))
    consts = tuple((n, _value_key(g.get(n))) for g, n in _referenced_globals(jit_fn)
                   if isinstance(g.get(n), _SIMPLE + (tuple, list)))
    if any(k is None for _, k in consts):
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

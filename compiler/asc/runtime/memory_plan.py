"""On-chip capacity checks of a traced kernel.

With static allocation (the C310 default) every UB tile of the kernel gets its own buffer, rounded up
to 32 bytes, and each unrolled clone of a loop body its own copy; otherwise (C220's queue allocator, or
``reuse_ub=True``) the peak of simultaneously live tiles counts. Cube operands are checked per tile
against the L0A / L0B / L0C / L1 budgets.
"""
from __future__ import annotations

from ..frontend.errors import CompilationError
from ..ir.types import Location, TileType

_ZERO_COPY = {"tile.reshape"}
_TEMP_FACTOR = {"tile.softmax": 2, "tile.rms_norm": 2}


def _round(n):
    return (n + 31) // 32 * 32


def _walk(block, factor, out):
    for op in block.ops:
        for r in op.results:
            if isinstance(r.type, TileType) and op.name not in _ZERO_COPY:
                extra = _TEMP_FACTOR.get(op.name, 0) * r.type.nbytes
                out.append((op, r.type, factor * (_round(r.type.nbytes) + _round(extra)) if extra else
                            factor * _round(r.type.nbytes)))
        for region in op.regions:
            uf = op.attrs.get("unroll_factor", 1) if op.name == "scf.for" else 1
            _walk(region, factor * max(1, uf), out)


def _liveness_peak(fn):
    order, last_use = [], {}
    def visit(block):
        for op in block.ops:
            order.append(op)
            for o in op.operands:
                last_use[o.id] = len(order) - 1
            for region in op.regions:
                visit(region)
    visit(fn.body)
    live, peak, ends = 0, 0, {}
    for i, op in enumerate(order):
        for r in op.results:
            if isinstance(r.type, TileType) and r.type.location == Location.UB and op.name not in _ZERO_COPY:
                live += _round(r.type.nbytes)
                ends.setdefault(last_use.get(r.id, i), []).append(_round(r.type.nbytes))
        peak = max(peak, live)
        live -= sum(ends.pop(i, []))
    return peak


def plan(fn, hw, options):
    items = []
    _walk(fn.body, 1, items)
    budgets = {Location.L0A: hw.l0a_bytes, Location.L0B: hw.l0b_bytes, Location.L0C: hw.l0c_bytes,
               Location.L1: hw.l1_bytes}
    for op, t, _ in items:
        cap = budgets.get(t.location)
        if cap is not None and t.nbytes > cap:
            loc = op.loc
            raise CompilationError(
                f"{t.location.name} overflow: tile {list(t.shape)} x {t.dtype} needs {t.nbytes} bytes, "
                f"{t.location.name} holds {cap} bytes", loc.file if loc else None, loc.line if loc else None,
                loc.col if loc else None, None,
                "use smaller tiles: for matmul keep m_tile * k * elem_size and n_tile * k * elem_size <= 64 KiB "
                "(tile K with zeros_acc + matmul_acc)" if t.location in (Location.L0A, Location.L0B) else
                "use smaller tiles")
    static = options.static_alloc if options.static_alloc is not None else (hw.arch.value == "c310")
    if static and not options.reuse_ub:
        ub = sum(b for _, t, b in items if t.location == Location.UB)
    else:
        ub = _liveness_peak(fn)
    return {"UB": ub}

"""On-chip capacity checks of a traced kernel.

With static allocation (the C310 default) every UB tile of the kernel gets its own buffer, rounded up
to 32 bytes, and each unrolled clone of a loop body its own copy; otherwise (C220's queue allocator, or
``reuse_ub=True``) the peak of simultaneously live tiles counts. The August ``reuse_alloc`` option chooses
explicitly: 0 every tile (and unrolled copy) its own buffer, 1 tiles reuse the UB of dead ones but a
tile made in a loop keeps its buffer until the loop ends, 2 reuse also within and across iterations. Cube operands are checked per tile
against the L0A / L0B / L0C / L1 budgets.
"""
from __future__ import annotations

from ..frontend.errors import CompilationError
from ..ir.registry import traits
from ..ir.types import Location, TileType



def _round(n):
    return (n + 31) // 32 * 32


def _walk(block, factor, out):
    for op in block.ops:
        for r in op.results:
            if isinstance(r.type, TileType) and not traits(op.name).zero_copy:
                extra = traits(op.name).temp_factor * r.type.nbytes
                out.append((op, r.type, factor * (_round(r.type.nbytes) + _round(extra)) if extra else
                            factor * _round(r.type.nbytes)))
        for region in op.regions:
            uf = op.attrs.get("unroll_factor", 1) if op.name == "scf.for" else 1
            _walk(region, factor * max(1, uf), out)


def _liveness_peak(fn, loop_scoped=False, unrolled=False):
    """Peak bytes of simultaneously live UB tiles. ``loop_scoped``: a tile made inside a loop stays
    allocated until the loop ends (no reuse across iterations); ``unrolled``: each unrolled copy of a
    loop body holds its own tiles."""
    order, last_use, size = [], {}, {}

    def visit(block, loop_end_marks, factor):
        for op in block.ops:
            order.append(op)
            i = len(order) - 1
            for o in op.operands:
                last_use[o.id] = i
            for r in op.results:
                if isinstance(r.type, TileType) and r.type.location == Location.UB and not traits(op.name).zero_copy:
                    size[r.id] = factor * _round(r.type.nbytes)
                    loop_end_marks.append(r.id)
            for region in op.regions:
                uf = op.attrs.get("unroll_factor", 1) if op.name == "scf.for" and unrolled else 1
                inner = [] if op.name in ("scf.for", "scf.while") and loop_scoped else loop_end_marks
                visit(region, inner, factor * max(1, uf))
                if inner is not loop_end_marks:
                    end = len(order) - 1
                    for rid in inner:
                        last_use[rid] = max(last_use.get(rid, end), end)
                    loop_end_marks.extend(inner)
    visit(fn.body, [], 1)
    live, peak, ends = 0, 0, {}
    for i, op in enumerate(order):
        for r in op.results:
            if r.id in size:
                live += size[r.id]
                ends.setdefault(max(last_use.get(r.id, i), i), []).append(size[r.id])
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
    reuse = getattr(options, "reuse_alloc", None)
    if reuse == 0:
        return {"UB": sum(b for _, t, b in items if t.location == Location.UB)}
    if reuse in (1, 2):
        return {"UB": _liveness_peak(fn, loop_scoped=reuse == 1, unrolled=True)}
    static = options.static_alloc if options.static_alloc is not None else (hw.arch.value == "c310")
    if static and not options.reuse_ub:
        ub = sum(b for _, t, b in items if t.location == Location.UB)
    else:
        ub = _liveness_peak(fn)
    return {"UB": ub}

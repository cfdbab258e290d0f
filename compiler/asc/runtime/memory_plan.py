"""On-chip capacity checks of a traced kernel: the bytes per memory the launch checks.

Cube operands are checked per tile against the L0A / L0B / L0C / L1 budgets. The UB figure is what the
kernel's allocator would use, each tile rounded up to 32 bytes (in August kernels on C220, whose TPipe
buffers pyasc-dev counts as they are, not rounded), plus each op's scratch (its ``work_bytes`` trait,
pyasc-dev's lowering; April kernels: ``temp_factor``). August kernels also get pyasc-dev's L1 / L0A /
L0B / L0C / BT totals (C220: counted into UB, as its TPipe buffers are).

- August kernels follow pyasc-dev's ``reuse_alloc`` (``asctile/runtime/compiler.py``; 0 when not
  given, on C220 too): 0 gives every UB tile of every copy of an unrolled loop body its own buffer;
  2 reuses buffers (ReuseTensorAllocation): a tile takes the buffer of tiles no longer read, an
  element-wise result the buffer of an operand it is the last reader of (the ``in_place`` trait;
  MarkReuseSource), and the copies of a body that stays a loop each keep their own buffers
  (ComputeReuseGroup); 1 (ReuseUBAllocation, run twice: ``ub_reuse.dead_first``) prefers a dead tile's buffer,
  overwrites an operand only when the result dies no later than every tile live across its op, then
  joins the buffers of the unrolled copies and of the remainder, and sums buffers as large as their
  largest members. The copies are those of UnrollLoop: ``unroll_factor`` u over a loop of
  T trips keeps the loop when T < u, else makes u copies plus one for the remainder (T % u trips, or
  unknown T); a copy sequence that runs once is straight-line code.
- April kernels without ``reuse_alloc``: static allocation (C310) counts every tile and every unrolled
  clone; C220's queue allocator (or ``reuse_ub=True``) the peak of simultaneously live tiles.
"""
from __future__ import annotations

from ..frontend.errors import CompilationError
from ..ir.registry import traits
from ..ir.types import Location, TileType
from .ub_reuse import dead_first
from .ub_sizes import CAST, LOOPS, round_up, ub_bytes, unrolled_pieces, uses_in, writes_in_place

_TRANSPOSE = "tile.transpose"
_CUBE = (Location.L1, Location.L0A, Location.L0B, Location.L0C, Location.BT)


def _scalar_read(user, value, arch, same):
    """Whether ``user`` reads the constant tile ``value`` as a scalar (its ``scalar_constants`` trait)."""
    rule = traits(user.name).scalar_constants
    if not callable(rule):
        return bool(rule)
    return all(rule(user, i, arch) for i, v in enumerate(user.operands) if same.get(v.id, v.id) == value.id)


def _common(fn):
    """pyasc-dev's CSE: a side-effect-free op computing what an op before it (in its block or an enclosing
    one) computes from the same operands is removed. Returns {result id: id of the equal earlier result}."""
    same = {}

    def key(v):
        o = v.owner
        if getattr(o, "name", None) == "scalar.const":
            return ("const", repr(o.attrs.get("value")), str(v.type))
        return same.get(v.id, v.id)

    def visit(block, seen):
        seen = dict(seen)
        for op in block.ops:
            for region in op.regions:
                visit(region, seen)
            t = traits(op.name)
            if op.regions or len(op.results) != 1 or not (op.operands or t.constant) or t.dma or t.atomic \
                    or t.reads_gm is not None or t.writes_gm is not None:
                continue
            k = (op.name, tuple(key(v) for v in op.operands), repr(sorted(op.attrs.items())), str(op.results[0].type))
            if k in seen:
                same[op.results[0].id] = seen[k]
            else:
                seen[k] = op.results[0].id
    visit(fn.body, {})
    return same


def _unbuffered(fn, align, arch, same):
    """The UB tiles of an August kernel that get no buffer where they are made, and the bytes of the
    hoisted ones (as pyasc-dev's compiler counts them): a constant tile is hoisted to the kernel's start
    (live throughout, one buffer even in an unrolled loop), unless only ops with a scalar form read it
    (``x + full(c)`` is one Adds: no buffer at all); a loop's result tile is the buffer the loop carried
    unless only stores read it; a cast read only by another cast is folded into it; on C310 a load read
    only by a transpose loads the transposed tile."""
    users = {}
    for op in fn.walk():
        for v in op.operands:
            users.setdefault(same.get(v.id, v.id), []).append(op)
    ids, hoisted = set(same) | _dead(fn, users), 0
    for op in fn.walk():
        if traits(op.name).constant and op.results[0].id not in same:
            r = op.results[0]
            ids.add(r.id)
            if not all(_scalar_read(u, r, arch, same) for u in users.get(r.id, [])):
                hoisted += ub_bytes(op, r, align)
        elif op.name in LOOPS:
            ids.update(r.id for r in op.results
                       if not all(traits(u.name).writes_gm is not None for u in users.get(r.id, [])))
        elif op.name == CAST and [u.name for u in users.get(op.results[0].id, [])] == [CAST]:
            ids.add(op.results[0].id)   # FoldCast: a cast read only by a cast is folded into it
            inner = users[op.results[0].id][0]
            if inner.results[0].type == op.operands[0].type:   # ... a round trip is the source itself
                same[inner.results[0].id] = same.get(op.operands[0].id, op.operands[0].id)
                ids.add(inner.results[0].id)
        elif op.name == _TRANSPOSE and arch == "c310" and traits(getattr(op.operands[0].owner, "name", "")).reads_gm \
                is not None and users.get(op.operands[0].id) == [op]:
            ids.add(op.operands[0].id)   # VectorTransposeToLoadStore: the load writes the transposed tile
    return ids, hoisted


def _dead(fn, users):
    """Tiles no op with an effect reads (pyasc-dev's canonicalizer drops the ops making them, loads too)."""
    dead, changed = set(), True
    ops = [op for op in fn.walk() if op.results and not op.regions and traits(op.name).writes_gm is None
           and not traits(op.name).atomic and all(isinstance(r.type, TileType) for r in op.results)]
    while changed:
        changed = False
        for op in ops:
            if op.results[0].id not in dead and all(
                    all(u.results and u.results[0].id in dead for u in users.get(r.id, [])) for r in op.results):
                dead.update(r.id for r in op.results)
                changed = True
    return dead


def _scratch(fn, arch, same):
    """``work(op, align)``: the scratch of ``op`` as pyasc-dev's lowering allots it (its ``work_bytes``
    trait; none for a ``source_scratch`` op that is the last reader of its tile operand, which it then
    works in: isReuseSource, decided on program order), else the April rule's temporaries."""
    last = {}
    for op in fn.walk():
        for v in op.operands:
            last[same.get(v.id, v.id)] = op

    def work(op, align=32):
        t = traits(op.name)
        if op.results and op.results[0].id in same:   # a common subexpression: computed once
            return 0
        if t.work_bytes is None:
            return _temp_bytes(op, align)
        if t.source_scratch and last.get(same.get(op.operands[0].id, op.operands[0].id)) is op:
            return 0
        return t.work_bytes(op, align, arch)
    return work


def _temp_bytes(op, align=32):
    extra = traits(op.name).temp_factor * sum(r.type.nbytes for r in op.results if isinstance(r.type, TileType))
    return round_up(extra, align) if extra else 0


# -- reuse_alloc=0 and static allocation: every tile its own buffer ------------------------------------
def _static_sum(block, copies_of, skip=frozenset(), work=_temp_bytes, align=32, location=Location.UB):
    """The bytes of every tile in ``location`` of every copy (and, in UB, each op's scratch)."""
    total = 0
    for op in block.ops:
        sizes = [0 if r.id in skip else ub_bytes(op, r, align, location) for r in op.results]
        total += sum(sizes)
        if location == Location.UB and (any(sizes) or traits(op.name).work_bytes):
            total += work(op, align) + _scalar_tile(op, align, skip)
        for region in op.regions:
            total += copies_of(op) * _static_sum(region, copies_of, skip, work, align, location)
    return total


def _scalar_tile(op, align, skip=frozenset()):
    """The bytes of the tile ``op`` keeps its scalar result in (its ``scalar_tile`` trait), 0 if none."""
    rule = traits(op.name).scalar_tile
    return rule(op, align) if rule and op.results[0].id not in skip else 0


def _august_copies(op):
    return sum(c for c, _ in unrolled_pieces(op)) if op.name == "scf.for" else 1


def _april_copies(op):
    return max(1, op.attrs.get("unroll_factor", 1)) if op.name == "scf.for" else 1


# -- reuse_alloc=1 / 2: buffers reused once their tiles are dead ------------------------------------------


def _region_peak(op, skip, work, align, same, locations):
    """UB a region-holding op needs while it runs, beyond the tiles live around it (each region planned by
    ``_reuse_peak``)."""
    if op.name == "scf.for":
        body = _reuse_peak(op.regions[0], skip, work, align, same, locations)
        return max(copies * body if is_loop else body for copies, is_loop in unrolled_pieces(op))
    return max((_reuse_peak(r, skip, work, align, same, locations) for r in op.regions), default=0)


def _reuse_peak(block, skip, work, align, same, locations=(Location.UB,)):
    """Peak bytes of the tiles in ``locations`` of ``block`` with buffer reuse: tiles from outside the
    block are counted by its owner, the tiles ``skip`` not at all; a use of a tile in ``same`` (a common
    subexpression) reads the tile it equals."""
    last = {}
    for i, op in enumerate(block.ops):
        if op.results and op.results[0].id in same:   # removed by CSE: reads nothing
            continue
        for v in uses_in(op):
            last[same.get(v.id, v.id)] = i
    buffer_of, size, end = {}, {}, {}
    live, peak = 0, 0
    for i, op in enumerate(block.ops):
        inner = _region_peak(op, skip, work, align, same, locations) if op.regions else 0
        born = 0
        for r in op.results:
            nbytes = sum(ub_bytes(op, r, align, loc) for loc in locations)
            if not isinstance(r.type, TileType) and Location.UB in locations and _scalar_tile(op, align, skip):
                size[r.id] = _scalar_tile(op, align, skip)    # a scalar kept in a tile until its last reader
                born += size[r.id]
                end[r.id] = max(i, last.get(r.id, i))
                continue
            if not isinstance(r.type, TileType) or r.type.location not in locations or r.id in skip:
                continue
            source = op.operands[0] if traits(op.name).zero_copy and op.operands else None
            if source is not None and source.id in buffer_of:      # a view of its operand's buffer
                buf = buffer_of[source.id]
            elif writes_in_place(op) and \
                    (buf := _reusable(op, i, nbytes, buffer_of, size, end, same)) is not None:
                pass                                                  # the result overwrites that operand
            elif nbytes:
                buf = r.id
                size[buf] = nbytes
                born += nbytes
            else:
                continue
            buffer_of[r.id] = buf
            end[buf] = max(end.get(buf, i), last.get(r.id, i))
        live += born
        peak = max(peak, live + inner + work(op, align))
        for buf in [b for b, e in end.items() if e == i]:
            live -= size.pop(buf)
            del end[buf]
    return peak


def _reusable(op, i, nbytes, buffer_of, size, end, same):
    """The buffer of a UB operand of ``op`` read for the last time by ``op`` and as large as its result."""
    for o in op.operands:
        buf = buffer_of.get(same.get(o.id, o.id))
        if buf is not None and end.get(buf) == i and size.get(buf) == nbytes:
            return buf
    return None


def _check_cube_budgets(fn, hw):
    budgets = {Location.L0A: hw.l0a_bytes, Location.L0B: hw.l0b_bytes, Location.L0C: hw.l0c_bytes,
               Location.L1: hw.l1_bytes}
    for op in fn.walk():
        for r in op.results:
            t = r.type
            cap = budgets.get(getattr(t, "location", None)) if isinstance(t, TileType) else None
            if cap is None or traits(op.name).zero_copy or t.nbytes <= cap:
                continue
            loc = op.loc
            raise CompilationError(
                f"{t.location.name} overflow: tile {list(t.shape)} x {t.dtype} needs {t.nbytes} bytes, "
                f"{t.location.name} holds {cap} bytes", loc.file if loc else None, loc.line if loc else None,
                loc.col if loc else None, None,
                "use smaller tiles: for matmul keep m_tile * k * elem_size and n_tile * k * elem_size <= 64 KiB "
                "(tile K with zeros_acc + matmul_acc)" if t.location in (Location.L0A, Location.L0B) else
                "use smaller tiles")


def _april_live_peak(block):
    """April's peak of simultaneously live UB tiles (a tile lives from its op to its last use)."""
    order, last_use, size = [], {}, {}

    def visit(block):
        for op in block.ops:
            order.append(op)
            i = len(order) - 1
            for o in op.operands:
                last_use[o.id] = i
            for r in op.results:
                if ub_bytes(op, r):
                    size[r.id] = ub_bytes(op, r)
            for region in op.regions:
                visit(region)
    visit(block)
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
    _check_cube_budgets(fn, hw)
    reuse = getattr(options, "reuse_alloc", None)
    if reuse is not None or getattr(fn.dialect, "august", False):   # pyasc-dev's allocation (above)
        align = 32 if hw.arch.value == "c310" else 1   # C220's TPipe buffers are counted unrounded
        same = _common(fn)
        skip, hoisted = _unbuffered(fn, align, hw.arch.value, same)
        work = _scratch(fn, hw.arch.value, same)
        c220 = hw.arch.value == "c220"   # its cube tiles are TPipe buffers, counted (and reused) as UB
        if reuse:
            block_plan = dead_first if reuse == 1 else _reuse_peak
            used = {"UB": hoisted + block_plan(fn.body, skip, work, align, same,
                                               (Location.UB,) + (_CUBE if c220 else ()))}
        else:
            used = {"UB": hoisted + _static_sum(fn.body, _august_copies, skip, work, align)}
        for loc in () if reuse and c220 else _CUBE:   # every cube tile of every copy
            n = _static_sum(fn.body, _august_copies, skip, work, align, loc)
            key = loc.name if hw.arch.value == "c310" else "UB"
            if n:
                used[key] = used.get(key, 0) + n
        return used
    static = options.static_alloc if options.static_alloc is not None else (hw.arch.value == "c310")
    if static and not options.reuse_ub:
        return {"UB": _static_sum(fn.body, _april_copies)}
    return {"UB": _april_live_peak(fn.body)}

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
  (ComputeReuseGroup); 1 (ReuseUBAllocation, run twice: ``_dead_first``) prefers a dead tile's buffer,
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

_LOOPS = ("scf.for", "scf.while")
_CAST, _TRANSPOSE = "tile.cast", "tile.transpose"
_CUBE = (Location.L1, Location.L0A, Location.L0B, Location.L0C, Location.BT)


def _round(n, align=32):
    return (n + align - 1) // align * align


def _const(value):
    owner = value.owner
    return owner.attrs.get("value") if getattr(owner, "name", None) == "scalar.const" else None


def _trips(loop):
    """The trip count of an ``scf.for`` when its bounds are constants, else None."""
    lb, ub, step = (_const(v) for v in loop.operands[:3])
    if None in (lb, ub, step) or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def unrolled_pieces(loop):
    """What pyasc-dev's UnrollLoop makes of ``loop``: the pieces run one after another, each
    ``(copies of the body, whether it stays a loop)``."""
    u = max(1, int(loop.attrs.get("unroll_factor", 1))) if loop.name == "scf.for" else 1
    trips = _trips(loop) if loop.name == "scf.for" else None
    if u == 1 or (trips is not None and trips < u):
        return [(1, trips is None or trips > 1)]
    if trips is None:
        return [(u, True), (1, True)]
    main, rest = divmod(trips, u)
    return [(u, main > 1)] + ([(1, rest > 1)] if rest else [])


def _ub_bytes(op, r, align=32, location=Location.UB):
    """The buffer ``r`` takes in ``location`` (none for a view, nor for ``matmul_acc`` updating its
    accumulator); an L0A / L0B / BT tile not copied from L1 is staged through an L1 buffer of its size
    (pyasc-dev's FulfillDataTransfer)."""
    t = r.type
    if not isinstance(t, TileType) or traits(op.name).zero_copy or op.name in _LOOPS and location != Location.UB \
            or traits(op.name).accumulator and any(getattr(o.type, "location", None) == t.location for o in op.operands):
        return 0   # a view; a cube loop's result (the buffer it carried); an accumulator updated in place
    if location == Location.L1 and t.location in (Location.L0A, Location.L0B, Location.BT):
        source = op.operands[0].type if op.operands else None
        return 0 if getattr(source, "location", None) == Location.L1 else _round(t.nbytes, align)
    return _round(t.nbytes, align) if t.location == location else 0


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
                hoisted += _ub_bytes(op, r, align)
        elif op.name in _LOOPS:
            ids.update(r.id for r in op.results
                       if not all(traits(u.name).writes_gm is not None for u in users.get(r.id, [])))
        elif op.name == _CAST and [u.name for u in users.get(op.results[0].id, [])] == [_CAST]:
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
    return _round(extra, align) if extra else 0


# -- reuse_alloc=0 and static allocation: every tile its own buffer ------------------------------------
def _static_sum(block, copies_of, skip=frozenset(), work=_temp_bytes, align=32, location=Location.UB):
    """The bytes of every tile in ``location`` of every copy (and, in UB, each op's scratch)."""
    total = 0
    for op in block.ops:
        sizes = [0 if r.id in skip else _ub_bytes(op, r, align, location) for r in op.results]
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
def _uses_in(op):
    yield from op.operands
    for region in op.regions:
        for inner in region.walk():
            yield from inner.operands


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
        for v in _uses_in(op):
            last[same.get(v.id, v.id)] = i
    buffer_of, size, end = {}, {}, {}
    live, peak = 0, 0
    for i, op in enumerate(block.ops):
        inner = _region_peak(op, skip, work, align, same, locations) if op.regions else 0
        born = 0
        for r in op.results:
            nbytes = sum(_ub_bytes(op, r, align, loc) for loc in locations)
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
            elif _in_place(op) and \
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


def _in_place(op):
    """Whether ``op``'s result may overwrite an operand (its ``in_place`` trait: True or a predicate)."""
    rule = traits(op.name).in_place
    return rule(op) if callable(rule) else bool(rule)


def _reusable(op, i, nbytes, buffer_of, size, end, same):
    """The buffer of a UB operand of ``op`` read for the last time by ``op`` and as large as its result."""
    for o in op.operands:
        buf = buffer_of.get(same.get(o.id, o.id))
        if buf is not None and end.get(buf) == i and size.get(buf) == nbytes:
            return buf
    return None


# -- reuse_alloc=1: a dead tile's buffer first, an operand's only when the result dies as early -----------
_NEW_BUFFER_AT_1 = ("tile.select",)   # level 1 writes a select's result into a buffer of its own


class _Tile:
    """A tile, or an op's scratch, to place in a buffer: live from ``start`` to ``end``, op i of its block
    at 2 i (2 i - 1: just before it, where a scalar is read out of a tile for its instruction);
    ``overwrites``: the operands its op may write it over (those read for the last time there, in operand
    order); ``dma``:
    a load writes it or a store moves it to GM (a one-element tile is stored by the scalar unit); ``dtype``:
    its element type (scratch: bytes)."""
    __slots__ = ("id", "start", "end", "nbytes", "overwrites", "dma", "dtype")

    def __init__(self, id_, start, end, nbytes, overwrites=(), dma=False, dtype="uint8"):
        self.id, self.start, self.end, self.nbytes, self.overwrites = id_, start, end, nbytes, tuple(overwrites)
        self.dma, self.dtype = dma, dtype


def _block_tiles(block, skip, work, align, same, locations):
    """The scratch of each op's instruction (its ``work_bytes``, live while it runs; a ``source_scratch``
    op working in its input still gets a buffer, of 0 bytes, that later tiles may grow), and the tiles of
    ``block`` in program order (a view extends its operand's tile; the tiles of regions are their blocks';
    a scalar result kept in a tile, ``scalar_tile``, lives until just before its last reader). A result
    may overwrite an operand read for the last time by its op, of its size, when it dies no later than
    every tile live across its op (``c = a + b`` read after ``b`` dies takes a buffer of its own)."""
    last, stored = {}, set()
    for i, op in enumerate(block.ops):
        if op.results and op.results[0].id in same:   # removed by CSE: reads nothing
            continue
        for v in _uses_in(op):
            last[same.get(v.id, v.id)] = i
        for inner in [op, *(o for r in op.regions for o in r.walk())]:
            if traits(inner.name).writes_gm is not None:   # a one-element tile is stored by the scalar unit
                stored.update(same.get(v.id, v.id) for v in inner.operands
                              if isinstance(v.type, TileType) and v.type.size > 1)
    for op in reversed(block.ops):   # a cast folded into the next one: that one reads its operand
        if op.name == _CAST and op.results[0].id in skip and op.results[0].id in last:
            source = same.get(op.operands[0].id, op.operands[0].id)
            last[source] = max(last.get(source, 0), last[op.results[0].id])
    tiles, scratch, tile_of, operands, kept = [], [], {}, {}, set()
    for i, op in enumerate(block.ops):
        if op.results and op.results[0].id in same:
            continue
        at = 2 * i
        reads_kept = any(same.get(v.id, v.id) in kept for v in op.operands)
        if work(op, align) or traits(op.name).source_scratch:   # a scalar read out of a tile: filled before
            scratch.append(_Tile(("work", i), at - reads_kept, at, work(op, align), dtype=_scratch_dtype(op)))
        for r in op.results:
            if traits(op.name).scalar_tile and not isinstance(r.type, TileType) and Location.UB in locations:
                reader = last.get(r.id, i)
                end = 2 * reader - (reader > i and not block.ops[reader].regions)
                tiles.append(_Tile(r.id, at, end, traits(op.name).scalar_tile(op, align), dtype=str(r.type)))
                kept.add(r.id)
                continue
            if not isinstance(r.type, TileType) or r.type.location not in locations or r.id in skip:
                continue
            source = op.operands[0] if traits(op.name).zero_copy and op.operands else None
            source = source and same.get(source.id, source.id)
            if source in tile_of:                       # a view of its operand's buffer
                t = tile_of[r.id] = tile_of[source]
                t.end = max(t.end, 2 * last.get(r.id, i))
                t.dma = t.dma or r.id in stored
                continue
            nbytes = sum(_ub_bytes(op, r, align, loc) for loc in locations)
            if not nbytes:
                continue
            dma = traits(op.name).reads_gm is not None or r.id in stored
            tile_of[r.id] = t = _Tile(r.id, at, 2 * max(i, last.get(r.id, i)), nbytes, dma=dma, dtype=str(r.type.dtype))
            tiles.append(t)
            if _in_place(op) and op.name not in _NEW_BUFFER_AT_1:
                operands[t] = [tile_of[o] for o in (same.get(v.id, v.id) for v in op.operands) if o in tile_of]
    for t, of in operands.items():   # once every view has extended its tile: the operands dying at t's op
        if not any(u.start < t.start < u.end < t.end for u in tiles):   # ... unless t outlives a live tile
            t.overwrites = tuple(dict.fromkeys(u.id for u in of if u.end == t.start and u.nbytes == t.nbytes))
    return scratch, tiles


def _scratch_dtype(op):
    """The element type of ``op``'s scratch allocation: an element-wise op's is a scalar filled into a tile
    of its type, any other's a temporary of bytes (a reduction's, ``softmax``'s)."""
    t = op.results[0].type if op.results else None
    return str(t.dtype) if _in_place(op) and isinstance(t, TileType) else "uint8"


def _reuse_in_out(scratch, tiles):
    """ReuseUBAllocation's first run (``reuse_in_out=True``, before UnrollLoop) over one block: the
    instructions' scratch is placed first (a reduction's work buffer takes a buffer its input could
    otherwise have overwritten); then each tile, the one dying first first (of those dying together, the
    smaller, then the one born later), takes the buffer dead longest whose tiles are all dead while it lives (of two, the one
    whose last tile was born later), else the buffer of an operand it may overwrite (one of its own size
    first, then the operand born last), else a new buffer. Returns the buffers, each a list of tiles."""
    buffers = []
    for t in scratch + sorted(tiles, key=lambda t: (t.end, t.nbytes, -t.start)):
        def apart(u):
            return u.end < t.start or t.end < u.start
        free = min((b for b in buffers if all(map(apart, b))),
                   key=lambda b: (max(u.end for u in b), -max(u.start for u in b)), default=None)
        if free is None:   # an operand's buffer: one of the result's size first, then the latest operand's
            over = [(max(u.nbytes for u in b) != t.nbytes, -max(u.start for u in b if u.id in t.overwrites), i)
                    for i, b in enumerate(buffers) if any(u.id in t.overwrites for u in b)
                    and all(apart(u) or u.id in t.overwrites for u in b)]
            free = buffers[min(over)[2]] if over else None
        if free is None:
            buffers.append([t])
        else:
            free.append(t)
    return buffers


class _Buffer:
    """A buffer of the first run in one copy of its block, as the second run sees it: live from the first
    to the last use of its tiles (positions in the unrolled program), as large as its largest tile and of
    its element type (the hoisted allocation's), ``dma`` when one of its tiles is; ``copy``: the loop copies
    it is in, from the outermost (a tuple of (loop, piece, copy index, or None where the piece runs once or
    is one copy))."""
    __slots__ = ("start", "end", "nbytes", "dtype", "dma", "copy")

    def __init__(self, tiles, spans, copy):
        self.start = min(2 * spans[(t.start + 1) // 2][0] - t.start % 2 for t in tiles)
        self.end = max(2 * spans[t.end // 2][1] if t.end % 2 == 0 else 2 * spans[(t.end + 1) // 2][0] - 1 for t in tiles)
        largest = max(tiles, key=lambda t: t.nbytes)
        self.nbytes, self.dtype, self.dma, self.copy = largest.nbytes, largest.dtype, any(t.dma for t in tiles), copy


def _joinable(u, m):
    """Whether the second run may put buffers ``u`` and ``m`` (live apart) in one: any two, except two in
    different copies of one loop that stays a loop (whose transfers stay independent of each other) when
    both move data to or from GM or their element types differ."""
    for x, y in zip(u.copy, m.copy):
        if x != y:
            concurrent = x[:2] == y[:2] and x[2] is not None and y[2] is not None
            return not (concurrent and (u.dma and m.dma or u.dtype != m.dtype))
    return True


def _dead_first(block, skip, work, align, same, locations=(Location.UB,)):
    """``reuse_alloc=1``: pyasc-dev runs ReuseUBAllocation twice (``asctile/runtime/compiler.py``). First on
    each block before UnrollLoop (``_reuse_in_out``); then, the copies made and their buffers hoisted, on
    those buffers (``reuse_in_out=False``): each, the one dying first first, joins the buffer dead longest
    among those whose members are all dead while it lives and ``_joinable`` with it, else becomes a buffer of
    its own. The block needs the sum of the buffers, each as large as its largest member, so a small buffer
    joined by a large one grows (a one-row reduction's 32-byte result buffer taking the next copy's 32 KB
    load)."""
    firsts, members, pos = {}, [], 0

    def walk(blk, copy):
        nonlocal pos
        if id(blk) not in firsts:
            firsts[id(blk)] = _reuse_in_out(*_block_tiles(blk, skip, work, align, same, locations))
        spans = []
        for op in blk.ops:
            first = pos
            if op.name == "scf.for":
                for piece, (copies, is_loop) in enumerate(unrolled_pieces(op)):
                    for c in range(copies):
                        walk(op.regions[0], copy + ((id(op), piece, c if is_loop and copies > 1 else None),))
            else:
                for region in op.regions:
                    walk(region, copy)
            spans.append((first, pos))
            pos += 1
        members.extend(_Buffer(tiles, spans, copy) for tiles in firsts[id(blk)])
    walk(block, ())
    buffers = []
    for m in sorted((m for m in members if m.nbytes), key=lambda m: (m.end, m.start)):   # empty ones: no buffer
        free = [b for b in buffers if all((u.end < m.start or m.end < u.start) and _joinable(u, m) for u in b)]
        if free:
            min(free, key=lambda b: max(u.end for u in b)).append(m)
        else:
            buffers.append([m])
    return sum(max(u.nbytes for u in b) for b in buffers)


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
                if _ub_bytes(op, r):
                    size[r.id] = _ub_bytes(op, r)
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
            block_plan = _dead_first if reuse == 1 else _reuse_peak
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

"""``reuse_alloc=1``: pyasc-dev's ReuseUBAllocation, run once per block before UnrollLoop and once over the
unrolled copies after it (``dead_first``; the rules in ``memory_plan``'s docstring)."""
from __future__ import annotations

from ..ir.registry import traits
from ..ir.types import Location, TileType
from .ub_sizes import CAST, ub_bytes, unrolled_pieces, uses_in, writes_in_place


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
        for v in uses_in(op):
            last[same.get(v.id, v.id)] = i
        for inner in [op, *(o for r in op.regions for o in r.walk())]:
            if traits(inner.name).writes_gm is not None:   # a one-element tile is stored by the scalar unit
                stored.update(same.get(v.id, v.id) for v in inner.operands
                              if isinstance(v.type, TileType) and v.type.size > 1)
    for op in reversed(block.ops):   # a cast folded into the next one: that one reads its operand
        if op.name == CAST and op.results[0].id in skip and op.results[0].id in last:
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
            nbytes = sum(ub_bytes(op, r, align, loc) for loc in locations)
            if not nbytes:
                continue
            dma = traits(op.name).reads_gm is not None or r.id in stored
            tile_of[r.id] = t = _Tile(r.id, at, 2 * max(i, last.get(r.id, i)), nbytes, dma=dma, dtype=str(r.type.dtype))
            tiles.append(t)
            if writes_in_place(op) and op.name not in _NEW_BUFFER_AT_1:
                operands[t] = [tile_of[o] for o in (same.get(v.id, v.id) for v in op.operands) if o in tile_of]
    for t, of in operands.items():   # once every view has extended its tile: the operands dying at t's op
        if not any(u.start < t.start < u.end < t.end for u in tiles):   # ... unless t outlives a live tile
            t.overwrites = tuple(dict.fromkeys(u.id for u in of if u.end == t.start and u.nbytes == t.nbytes))
    return scratch, tiles


def _scratch_dtype(op):
    """The element type of ``op``'s scratch allocation: an element-wise op's is a scalar filled into a tile
    of its type, any other's a temporary of bytes (a reduction's, ``softmax``'s)."""
    t = op.results[0].type if op.results else None
    return str(t.dtype) if writes_in_place(op) and isinstance(t, TileType) else "uint8"


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


def dead_first(block, skip, work, align, same, locations=(Location.UB,)):
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

"""The UB sizes the memory plans share: a tile's buffer, a loop's trips and the pieces UnrollLoop makes of it,
the values an op and its regions read, and whether a result may overwrite an operand."""
from __future__ import annotations

from ..ir.registry import traits
from ..ir.types import Location, TileType

LOOPS = ("scf.for", "scf.while")
CAST = "tile.cast"


def round_up(n, align=32):
    return (n + align - 1) // align * align


def const_value(value):
    owner = value.owner
    return owner.attrs.get("value") if getattr(owner, "name", None) == "scalar.const" else None


def trip_count(loop):
    """The trip count of an ``scf.for`` when its bounds are constants, else None."""
    lb, ub, step = (const_value(v) for v in loop.operands[:3])
    if None in (lb, ub, step) or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def unrolled_pieces(loop):
    """What pyasc-dev's UnrollLoop makes of ``loop``: the pieces run one after another, each
    ``(copies of the body, whether it stays a loop)``."""
    u = max(1, int(loop.attrs.get("unroll_factor", 1))) if loop.name == "scf.for" else 1
    trips = trip_count(loop) if loop.name == "scf.for" else None
    if u == 1 or (trips is not None and trips < u):
        return [(1, trips is None or trips > 1)]
    if trips is None:
        return [(u, True), (1, True)]
    main, rest = divmod(trips, u)
    return [(u, main > 1)] + ([(1, rest > 1)] if rest else [])


def ub_bytes(op, r, align=32, location=Location.UB):
    """The buffer ``r`` takes in ``location`` (none for a view, nor for ``matmul_acc`` updating its
    accumulator); an L0A / L0B / BT tile not copied from L1 is staged through an L1 buffer of its size
    (pyasc-dev's FulfillDataTransfer)."""
    t = r.type
    if not isinstance(t, TileType) or traits(op.name).zero_copy or op.name in LOOPS and location != Location.UB \
            or traits(op.name).accumulator and any(getattr(o.type, "location", None) == t.location for o in op.operands):
        return 0   # a view; a cube loop's result (the buffer it carried); an accumulator updated in place
    if location == Location.L1 and t.location in (Location.L0A, Location.L0B, Location.BT):
        source = op.operands[0].type if op.operands else None
        return 0 if getattr(source, "location", None) == Location.L1 else round_up(t.nbytes, align)
    return round_up(t.nbytes, align) if t.location == location else 0


def uses_in(op):
    yield from op.operands
    for region in op.regions:
        for inner in region.walk():
            yield from inner.operands


def writes_in_place(op):
    """Whether ``op``'s result may overwrite an operand (its ``in_place`` trait: True or a predicate)."""
    rule = traits(op.name).in_place
    return rule(op) if callable(rule) else bool(rule)

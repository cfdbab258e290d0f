"""Which kernel arguments an op reads or writes through memory, and which loops the simulator may batch.

A global-memory op reaches a buffer through a tensor made from a pointer argument (possibly offset);
when that chain cannot be followed (a tensor carried through a loop), the op may touch any buffer.
"""
from __future__ import annotations

from .core import Function
from .registry import traits

UNKNOWN = None


def buffer_of(tensor, arg_ids):
    """The pointer argument behind a tensor value, or UNKNOWN."""
    owner = tensor.owner
    v = owner.operands[0] if getattr(owner, "name", None) == "tensor.make" else tensor
    while getattr(v.owner, "name", None) == "ptr.offset":
        v = v.owner.operands[0]
    return v.id if v.id in arg_ids else UNKNOWN


def _touched(ops, trait, arg_ids):
    """The pointer arguments the ops read (``trait="reads_gm"``) or write (``"writes_gm"``)."""
    out = set()
    for op in ops:
        index = getattr(traits(op.name), trait)
        if index is not None:
            out.add(buffer_of(op.operands[index], arg_ids))
    return out


def readers(fn: Function):
    """{value id: the ops that read it}, over every region of ``fn``."""
    out = {}
    for op in fn.walk():
        for v in op.operands:
            out.setdefault(v.id, []).append(op)
    return out


def written_args(fn: Function):
    """Names of the pointer arguments some store may write (the others are read-only in this kernel)."""
    names = dict(zip((a.id for a in fn.args), fn.arg_names))
    written = _touched(fn.walk(), "writes_gm", names)
    if UNKNOWN in written:
        return set(fn.arg_names)
    return {names[i] for i in written}


def batchable_loops(fn: Function):
    """Ids of the sequential ``scf.for`` loops whose trips the simulator may run as one batch.

    A trip can only depend on an earlier one through carried values or through memory an earlier trip
    wrote. Loops without carried values whose body loads nothing from a buffer it also writes (and has
    no atomics, whose float order would change) give the same result batched: lanes keep program order
    for stores to the same element, and the tick model charges each trip as the sequential loop does.
    Arguments that alias each other are the launcher's concern (it does not batch then).
    """
    arg_ids = {a.id for a in fn.args}
    out = set()
    for op in fn.walk():
        if op.name != "scf.for" or op.attrs.get("parallel") or len(op.operands) > 3:
            continue
        body = list(op.regions[0].walk())
        if any(traits(o.name).atomic for o in body):
            continue
        read, written = _touched(body, "reads_gm", arg_ids), _touched(body, "writes_gm", arg_ids)
        if written and (UNKNOWN in read or UNKNOWN in written or read & written):
            continue
        out.add(op.id)
    return frozenset(out)


def unbarriered_gm_loops(fn: Function, aliased: bool = False):
    """Ids of the un-barriered loops (``parallel=True`` / ``gm_barrier=False``) whose body both loads and
    stores global memory that may be the same (the same argument, an unknown one, or any two when
    arguments alias): one iteration may load what another stores, which the simulator then checks."""
    arg_ids = {a.id for a in fn.args}
    out = set()
    for op in fn.walk():
        if op.name != "scf.for" or not op.attrs.get("parallel"):
            continue
        body = list(op.regions[0].walk())
        read, written = _touched(body, "reads_gm", arg_ids), _touched(body, "writes_gm", arg_ids)
        if read and written and (aliased or UNKNOWN in read or UNKNOWN in written or read & written):
            out.add(op.id)
    return frozenset(out)


def hoistable_ops(fn: Function):
    """For each ``scf.for`` that carries values, the ids of the body's top-level ops that depend neither
    on a carried value nor on an op that does (directly or through another such op), have no regions
    and write no memory: the simulator may run them for every trip as one batch before stepping through
    the carried chain. Only for loops whose body loads nothing it also stores (as ``batchable_loops``)."""
    arg_ids = {a.id for a in fn.args}
    out = {}
    for op in fn.walk():
        if op.name != "scf.for" or len(op.operands) <= 3:
            continue
        body = op.regions[0]
        inner = list(body.walk())
        if any(traits(o.name).atomic for o in inner):
            continue
        read, written = _touched(inner, "reads_gm", arg_ids), _touched(inner, "writes_gm", arg_ids)
        if written and (UNKNOWN in read or UNKNOWN in written or read & written):
            continue
        tainted = {a.id for a in body.args[1:]}
        hoisted = set()
        for o in body.ops:
            if o.regions or traits(o.name).writes_gm is not None or o.name in ("scf.yield", "scf.condition") \
                    or any(v.id in tainted for v in o.operands):
                tainted.update(r.id for r in o.results)
                continue
            hoisted.add(o.id)
        if hoisted:
            out[op.id] = frozenset(hoisted)
    return out


# Ops a recorded launch cannot replay: loops and masks whose lanes follow the data, memory accesses other
# than tile loads and stores, undefined tiles, and ops with effects of their own (printing, asserting).
_NOT_REPLAYED = frozenset(("scf.while", "mask.region", "tensor.get_value", "tensor.set_value", "tile.gather",
                           "tile.scatter", "tile.atomic", "tile.empty", "debug.print", "debug.assert"))
# Operands that decide where the lanes go or which memory an op touches (all but a store's value).
_SINKS = {"scf.for": lambda op: op.operands[:3], "scf.if": lambda op: op.operands[:1],
          "tile.load": lambda op: op.operands, "tile.store": lambda op: op.operands[1:],
          "tensor.make": lambda op: op.operands, "ptr.offset": lambda op: op.operands}


def launch_structure(fn: Function):
    """Whether a launch of ``fn`` can be recorded and replayed, and which values are its *structure*.

    Structure values are computed only from the scalar and pointer arguments, block ids, constants and the
    induction variables of loops: given the same arguments (and buffer sizes) they are the same in every
    launch. A launch is replayable when everything that decides which lanes run which ops and where memory
    is accessed is structure, so that only the tile data differ between launches. Returns
    ``(structure value ids, None)`` or ``(None, why not)``."""
    structure = {a.id for a in fn.args}

    def walk(block):
        for op in block.ops:
            if op.name in _NOT_REPLAYED:
                return f"it uses {op.name}"
            sink = _SINKS.get(op.name)
            if sink is not None and any(v.id not in structure for v in sink(op)):
                return f"{op.name} depends on tile data"
            if op.name == "scf.for":
                structure.add(op.regions[0].args[0].id)   # the induction variable (carried values are data)
            elif not op.regions and traits(op.name).reads_gm is None and traits(op.name).writes_gm is None \
                    and all(v.id in structure for v in op.operands):
                structure.update(r.id for r in op.results)
            for region in op.regions:
                why = walk(region)
                if why:
                    return why
        return None

    why = walk(fn.body)
    return (None, why) if why else (frozenset(structure), None)

"""IR values, ops, blocks and functions."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count

_ids = count()


@dataclass(frozen=True)
class SourceLoc:
    file: str
    line: int
    col: int

    def __str__(self):
        return f"{self.file}:{self.line}:{self.col}"


class Value:
    __slots__ = ("id", "type", "loc", "owner")

    def __init__(self, type_, loc=None, owner=None):
        self.id = next(_ids)
        self.type = type_
        self.loc = loc
        self.owner = owner  # the Op producing it, or the Block for block arguments

    def __repr__(self):
        return f"%v{self.id}: {self.type}"


class Block:
    __slots__ = ("args", "ops")

    def __init__(self, args=()):
        self.args = list(args)
        self.ops: list[Op] = []

    def walk(self):
        for op in self.ops:
            yield op
            for region in op.regions:
                yield from region.walk()


class Op:
    __slots__ = ("name", "operands", "results", "attrs", "regions", "loc", "id")

    def __init__(self, name, operands, result_types, attrs=None, regions=(), loc=None):
        self.id = next(_ids)
        self.name = name
        self.operands = list(operands)
        self.attrs = dict(attrs or {})
        self.regions = list(regions)
        self.loc = loc
        self.results = [Value(t, loc, self) for t in result_types]

    @property
    def result(self):
        return self.results[0]

    def __repr__(self):
        return f"<Op {self.name} #{self.id}>"


@dataclass
class Function:
    name: str
    args: list          # block arguments of the body (runtime parameters)
    arg_names: list
    body: Block
    source_file: str = ""
    constexprs: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)   # trace-time warnings for every launch report
    dialect: object = None                          # the kernel's dialect (how hints spell names)

    def walk(self):
        return self.body.walk()

    def __getstate__(self):
        # Facts the executor keeps by object id (``sim.steps.last_uses``, ``op_steps``) hold only in the
        # process that found them: a pickled function (the on-disk cache) finds them again.
        return {k: v for k, v in self.__dict__.items() if k not in ("_last_uses", "_op_steps")}

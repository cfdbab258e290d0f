"""The block index of a v1 kernel traced once for every block: ``asc.get_block_idx()`` returns a
``BlockIndex``, a whole number per block of the launch. Whole-number arithmetic on it (``+``, ``-``, ``*``,
``//``, ``%``, with ints or another block value) gives another: affine, ``c + k * block``, while it stays
so (the GM addresses the kernel computes from it then move by one stride per block), else the table of
its value in each block (``(block + 1) % blocks``, ``block % 4 // 2``); a result equal in every block is a
plain int again. A comparison or ``bool()`` that comes out the same in every block is that bool, so
``if block < used:`` with every block below ``used`` traces on. A comparison that differs between blocks, or
``range`` / ``int()`` of a value that does, raises ``BlockSplit`` with the runs of consecutive blocks that
agree (the tracer traces each run again, as a class of blocks: the last block's shorter tile, ``if block <
used``); anything else that needs a concrete value (a float, text, ``/``, bit operations) raises
``BlockDependent``: the stream may depend on the block there, and the launch runs block by block. The
values range over ``dom``, the consecutive blocks being traced (all of the launch's, or one class)."""
from __future__ import annotations

import operator

from .pipe_ops import user_loc


class BlockDependent(Exception):
    """Python needed a concrete value of the block index: the kernel's stream may differ per block. ``loc``:
    the kernel's (file, line) that asked."""

    def __init__(self, why):
        self.loc = user_loc()
        super().__init__(why)

    def where(self):
        return f"{self.args[0]} at {self.loc[0].rsplit('/', 1)[-1]}:{self.loc[1]}" if self.loc else self.args[0]


class BlockSplit(BlockDependent):
    """A decision that differs between blocks: ``runs``, the ranges of consecutive blocks on which it agrees."""

    def __init__(self, why, runs):
        super().__init__(why)
        self.runs = runs


def _runs(dom, values):
    """The ranges of consecutive blocks of ``dom`` over which ``values`` (one per block) agree."""
    out, start = [], 0
    for i in range(1, len(values) + 1):
        if i == len(values) or values[i] != values[start]:
            out.append(range(dom[start], dom[i - 1] + 1))
            start = i
    return out


class BlockIndex:
    """A whole number per block: ``c + k * block`` (``table`` None), or ``table[block - dom.start]``.
    ``dom``: the range of blocks traced (``n``: blocks 0..n-1; None: unknown, then only the affine forms are
    computed)."""
    __slots__ = ("c", "k", "dom", "table")
    __array_ufunc__ = None        # numpy scalars defer to these operators instead of making object arrays

    def __init__(self, c=0, k=1, n=None, table=None, dom=None):
        self.c, self.k, self.table = c, k, table
        self.dom = dom if dom is not None or n is None else range(n)

    def at(self, block):
        return self.table[block - self.dom.start] if self.table is not None else self.c + self.k * block

    def values(self, why):
        """Its value in each block (``why`` names the operation when the block count is unknown)."""
        if self.table is not None:
            return self.table
        if self.dom is None:
            raise BlockDependent(why)
        return tuple(self.c + self.k * b for b in self.dom)

    @staticmethod
    def _int(o):
        if isinstance(o, BlockIndex):
            return o
        if not isinstance(o, bool) and hasattr(o, "__index__"):
            try:
                return o.__index__()
            except TypeError:      # an array of more than one element
                pass
        raise BlockDependent(f"the block index combined with {type(o).__name__}")

    def nonnegative(self):
        """Whether it is at least 0 in every block (where C's truncating division is the floor one)."""
        return min(self.values("the sign of the block index")) >= 0

    def combine(self, o, fn, why, swap=False):
        """``fn(self, o)`` (``fn(o, self)`` with ``swap``) block by block, as one value."""
        return self._each(o if isinstance(o, BlockIndex) else self._int(o), fn, why, swap)

    def _each(self, o, fn, why, swap=False):
        """``fn`` of this value and ``o`` (an int or a block value) in every block, as one value."""
        a = self.values(why)
        b = o.values(why) if isinstance(o, BlockIndex) else (o,) * len(a)
        if swap:
            a, b = b, a
        return of_values([fn(x, y) for x, y in zip(a, b)], self.dom)

    def __add__(self, o):
        if type(o) is int and self.table is None:      # the common case: an offset added to an affine index
            return BlockIndex(self.c + o, self.k, dom=self.dom)
        o = self._int(o)
        if self.table is None and (not isinstance(o, BlockIndex) or o.table is None):
            if isinstance(o, BlockIndex):
                return _affine(self.c + o.c, self.k + o.k, self.dom or o.dom)
            return BlockIndex(self.c + o, self.k, dom=self.dom)
        return self._each(o, operator.add, "the block index + a table")

    __radd__ = __add__

    def __neg__(self):
        if self.table is None:
            return BlockIndex(-self.c, -self.k, dom=self.dom)
        return of_values([-v for v in self.table], self.dom)

    def __pos__(self):
        return self

    def __sub__(self, o):
        return self + -self._int(o)

    def __rsub__(self, o):
        return -self + self._int(o)

    def __mul__(self, o):
        o = self._int(o)
        if self.table is None and not isinstance(o, BlockIndex):
            return _affine(self.c * o, self.k * o, self.dom)
        return self._each(o, operator.mul, "the block index times itself")

    __rmul__ = __mul__

    def __floordiv__(self, o):
        o = self._int(o)
        if self.table is None and not isinstance(o, BlockIndex) and o > 0 and self.k % o == 0:
            return _affine(self.c // o, self.k // o, self.dom)
        return self._each(o, operator.floordiv, f"the block index // {o!r}")

    def __rfloordiv__(self, o):
        return self._each(self._int(o), operator.floordiv, f"{o!r} // the block index", swap=True)

    def __mod__(self, o):
        o = self._int(o)
        if self.table is None and not isinstance(o, BlockIndex) and o > 0 and self.k % o == 0:
            return self.c % o
        return self._each(o, operator.mod, f"the block index % {o!r}")

    def __rmod__(self, o):
        return self._each(self._int(o), operator.mod, f"{o!r} % the block index", swap=True)

    def _compare(self, o, fn, sign):
        o = self._int(o)
        out = self._each(o, lambda x, y: int(fn(x, y)), f"a comparison of the block index ({sign} {o!r})")
        if isinstance(out, BlockIndex):
            raise BlockSplit(f"a comparison of the block index ({sign} {o!r}) that differs between blocks",
                             _runs(self.dom, out.values("")))
        return bool(out)

    def __eq__(self, o):
        return self._compare(o, operator.eq, "==")

    def __ne__(self, o):
        return self._compare(o, operator.ne, "!=")

    def __lt__(self, o):
        return self._compare(o, operator.lt, "<")

    def __le__(self, o):
        return self._compare(o, operator.le, "<=")

    def __gt__(self, o):
        return self._compare(o, operator.gt, ">")

    def __ge__(self, o):
        return self._compare(o, operator.ge, ">=")

    def __bool__(self):
        return self._compare(0, operator.ne, "!=")

    def _split(self, *_):
        """``range`` / ``int()``: one value wanted, where it differs (an equal one is a plain int already)."""
        if self.dom is None:
            raise BlockDependent("a concrete value of the block index")
        raise BlockSplit("a concrete value of the block index that differs between blocks",
                         _runs(self.dom, self.values("")))

    def _concrete(self, *_):
        raise BlockDependent("a concrete value of the block index")

    __index__ = __int__ = _split
    __float__ = __hash__ = _concrete
    __truediv__ = __rtruediv__ = __pow__ = __rpow__ = _concrete
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = _concrete

    def __str__(self, *_):     # printing or formatting it wants the block's number
        raise BlockDependent("the block index as text")

    __repr__ = __format__ = __str__

    def text(self):
        if self.table is not None:
            return f"(per block: {', '.join(map(str, self.table))})"
        return f"({self.c} + {self.k} * block)"


def _affine(c, k, dom):
    if k == 0 or (dom is not None and len(dom) == 1):      # equal in every block: a plain int
        return c + k * (dom.start if dom is not None else 0)
    return BlockIndex(c, k, dom=dom)


def of_values(vals, dom):
    """One value from its value in each block of ``dom``: an int when they agree, affine when they move by one
    step, else the table."""
    v0 = vals[0]
    if len(vals) < 2:
        return v0
    step = vals[1] - v0
    if all(vals[i] - vals[i - 1] == step for i in range(2, len(vals))):
        return _affine(v0 - step * dom.start, step, dom)
    return BlockIndex(None, None, table=tuple(vals), dom=dom)


def at(v, block):
    """``v`` in block ``block`` (a plain value stays itself)."""
    return v.at(block) if type(v) is BlockIndex else v


def stride(v):
    """How far ``v`` moves from one block to the next (0: the same in every block; None: it does not move
    by one step)."""
    if type(v) is not BlockIndex:
        return 0
    return v.k if v.table is None else None

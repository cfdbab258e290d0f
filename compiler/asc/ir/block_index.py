"""The block index of a v1 kernel traced once for every block: ``asc.get_block_idx()`` returns a
``BlockIndex``, a whole number per block of the launch. Whole-number arithmetic on it (``+``, ``-``, ``*``,
``//``, ``%``, with ints or another block value) gives another: affine, ``c + k * block``, while it stays
so (the GM addresses the kernel computes from it then move by one stride per block), else the table of
its value in each block (``(block + 1) % blocks``, ``block % 4 // 2``); a result equal in every block is a
plain int again. A comparison or ``bool()`` that comes out the same in every block is that bool, so
``if block < used:`` with every block below ``used`` traces on. Anything else that needs a concrete value
(``if`` / a comparison that differs between blocks, ``range``, ``int()``, a float, text) raises
``BlockDependent``: the stream may depend on the block there, and the launch runs block by block."""
from __future__ import annotations

import operator


class BlockDependent(Exception):
    """Python needed a concrete value of the block index: the kernel's stream may differ per block."""


class BlockIndex:
    """A whole number per block: ``c + k * block`` (``table`` None), or ``table[block]``. ``n``: the
    launch's block count (None: unknown, then only the affine forms are computed)."""
    __slots__ = ("c", "k", "n", "table")
    __array_ufunc__ = None        # numpy scalars defer to these operators instead of making object arrays

    def __init__(self, c=0, k=1, n=None, table=None):
        self.c, self.k, self.n, self.table = c, k, n, table

    def at(self, block):
        return self.table[block] if self.table is not None else self.c + self.k * block

    def values(self, why):
        """Its value in each block (``why`` names the operation when the block count is unknown)."""
        if self.table is not None:
            return self.table
        if self.n is None:
            raise BlockDependent(why)
        return tuple(self.c + self.k * b for b in range(self.n))

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
        return of_values([fn(x, y) for x, y in zip(a, b)], self.n)

    def __add__(self, o):
        if type(o) is int and self.table is None:      # the common case: an offset added to an affine index
            return BlockIndex(self.c + o, self.k, self.n)
        o = self._int(o)
        if self.table is None and (not isinstance(o, BlockIndex) or o.table is None):
            if isinstance(o, BlockIndex):
                return _affine(self.c + o.c, self.k + o.k, self.n or o.n)
            return BlockIndex(self.c + o, self.k, self.n)
        return self._each(o, operator.add, "the block index + a table")

    __radd__ = __add__

    def __neg__(self):
        if self.table is None:
            return BlockIndex(-self.c, -self.k, self.n)
        return of_values([-v for v in self.table], self.n)

    def __pos__(self):
        return self

    def __sub__(self, o):
        return self + -self._int(o)

    def __rsub__(self, o):
        return -self + self._int(o)

    def __mul__(self, o):
        o = self._int(o)
        if self.table is None and not isinstance(o, BlockIndex):
            return _affine(self.c * o, self.k * o, self.n)
        return self._each(o, operator.mul, "the block index times itself")

    __rmul__ = __mul__

    def __floordiv__(self, o):
        o = self._int(o)
        if self.table is None and not isinstance(o, BlockIndex) and o > 0 and self.k % o == 0:
            return _affine(self.c // o, self.k // o, self.n)
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
            raise BlockDependent(f"a comparison of the block index ({sign} {o!r}) that differs between blocks")
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

    def _concrete(self, *_):
        raise BlockDependent("a concrete value of the block index")

    __index__ = __int__ = __float__ = __hash__ = _concrete
    __truediv__ = __rtruediv__ = __pow__ = __rpow__ = _concrete
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = _concrete

    def __str__(self, *_):     # printing or formatting it wants the block's number
        raise BlockDependent("the block index as text")

    __repr__ = __format__ = __str__

    def text(self):
        if self.table is not None:
            return f"(per block: {', '.join(map(str, self.table))})"
        return f"({self.c} + {self.k} * block)"


def _affine(c, k, n):
    return c if k == 0 else BlockIndex(c, k, n)


def of_values(vals, n):
    """One value from its value in each block: an int when they agree, affine when they move by one step,
    else the table."""
    v0 = vals[0]
    if len(vals) < 2:
        return v0
    step = vals[1] - v0
    if all(vals[i] - vals[i - 1] == step for i in range(2, len(vals))):
        return _affine(v0, step, n)
    return BlockIndex(None, None, n, tuple(vals))


def at(v, block):
    """``v`` in block ``block`` (a plain value stays itself)."""
    return v.at(block) if type(v) is BlockIndex else v


def stride(v):
    """How far ``v`` moves from one block to the next (0: the same in every block; None: it does not move
    by one step)."""
    if type(v) is not BlockIndex:
        return 0
    return v.k if v.table is None else None

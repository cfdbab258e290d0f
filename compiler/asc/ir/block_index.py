"""The block index of a v1 kernel traced once for every block: ``asc.get_block_idx()`` returns a
``BlockIndex``, ``c + k * block``, which whole-number arithmetic keeps affine (``+``, ``-``, ``*`` by ints,
``//`` and ``%`` by a divisor of ``k``), so the GM addresses the kernel computes from it are functions of the
block. Anything that needs a concrete value (``if``, ``range``, a comparison, ``int()``, ``bool()``, a float)
raises ``BlockDependent``: the stream may depend on the block there, and the launch runs block by block."""
from __future__ import annotations


class BlockDependent(Exception):
    """Python needed a concrete value of the block index: the kernel's stream may differ per block."""


class BlockIndex:
    __slots__ = ("c", "k")
    __array_ufunc__ = None        # numpy scalars defer to these operators instead of making object arrays

    def __init__(self, c=0, k=1):
        self.c, self.k = c, k

    def at(self, block):
        return self.c + self.k * block

    @staticmethod
    def _int(o):
        if isinstance(o, BlockIndex):
            return o
        if isinstance(o, bool) or not hasattr(o, "__index__"):
            raise BlockDependent(f"the block index combined with {type(o).__name__} {o!r}")
        return int(o)

    def __add__(self, o):
        o = self._int(o)
        if isinstance(o, BlockIndex):
            return _affine(self.c + o.c, self.k + o.k)
        return BlockIndex(self.c + o, self.k)

    __radd__ = __add__

    def __neg__(self):
        return BlockIndex(-self.c, -self.k)

    def __pos__(self):
        return self

    def __sub__(self, o):
        return self + -self._int(o) if not isinstance(o, BlockIndex) else self + -o

    def __rsub__(self, o):
        return -self + o

    def __mul__(self, o):
        o = self._int(o)
        if isinstance(o, BlockIndex):
            raise BlockDependent("the block index times itself")
        return _affine(self.c * o, self.k * o)

    __rmul__ = __mul__

    def __floordiv__(self, o):
        o = self._int(o)
        if isinstance(o, BlockIndex) or o <= 0 or self.k % o:
            raise BlockDependent(f"the block index // {o!r}")
        return _affine(self.c // o, self.k // o)

    def __mod__(self, o):
        o = self._int(o)
        if isinstance(o, BlockIndex) or o <= 0 or self.k % o:
            raise BlockDependent(f"the block index % {o!r}")
        return self.c % o

    def _concrete(self, *_):
        raise BlockDependent("a concrete value of the block index")

    __index__ = __int__ = __float__ = __bool__ = __hash__ = _concrete
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _concrete
    __rfloordiv__ = __rmod__ = __truediv__ = __rtruediv__ = __pow__ = __rpow__ = _concrete
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = _concrete

    def __str__(self, *_):     # printing or formatting it wants the block's number
        raise BlockDependent("the block index as text")

    __repr__ = __format__ = __str__

    def text(self):
        return f"({self.c} + {self.k} * block)"


def _affine(c, k):
    return c if k == 0 else BlockIndex(c, k)


def at(v, block):
    """``v`` in block ``block`` (a plain value stays itself)."""
    return v.at(block) if type(v) is BlockIndex else v


def stride(v):
    """How far ``v`` moves from one block to the next (0: the same in every block)."""
    return v.k if type(v) is BlockIndex else 0

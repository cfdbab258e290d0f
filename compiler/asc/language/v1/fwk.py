"""TPipe / TQue / TBuf: buffers carved from on-chip memory and the queue protocol that orders the pipes.

A queue's buffers go FREE -> allocated -> enqueued -> dequeued -> FREE. On a VECIN queue (GM -> UB) the
producer is MTE2 and the consumer V; on a VECOUT queue (UB -> GM) V and MTE3. ``enque`` sets the flag
``deque`` waits for (write-then-read), ``free_tensor`` sets the flag the next ``alloc_tensor`` of that
buffer waits for (read-then-overwrite), exactly as Ascend C's TQue does. VECCALC queues and TBufs order
nothing: pipes sharing them need the user's flags."""
from __future__ import annotations

import collections

from ...ir.faults import PipeHangError, located  # noqa: F401  (PipeHangError: re-exported)
from ...ir.pipe_ops import QUEUE_PIPES, PipeOp, user_loc
from ..core import dtype as dt
from ..core.errors import error
from .enums import TPosition, memory_of
from .tensors import LocalTensor, _block



class TPipe:
    """The kernel's buffer manager: ``init_buffer`` places a queue's or TBuf's buffers in its memory."""

    def __init__(self):
        self._blk = _block()
        if getattr(self._blk, "tpipe", None) is not None:
            # pyasc's own message (fwk/tpipe.py, TPipeManager.set)
            raise error(RuntimeError, "TPipe instance is already created, use get_tpipe_ptr() to obtain it",
                        "create one TPipe at the start of the kernel and init_buffer every queue and TBuf on it "
                        "(a second one would allocate over the first one's buffers)")
        self._blk.tpipe = self

    def init_buffer(self, que=None, num=None, len=None, buf=None):   # noqa: A002  (pyasc's names)
        target = que if que is not None else buf
        if isinstance(target, TBuf):
            nbytes = int(num if len is None else len)
            target._place(self._blk.alloc(target.space, nbytes, target.owner), nbytes)
            return
        if not isinstance(target, TQue):
            raise error(TypeError, "init_buffer needs que=TQue(...) or buf=TBuf(...)")
        n, nbytes = int(num), int(len)
        if n < 1:
            raise error(ValueError, f"init_buffer: num={n} buffers", "a queue needs at least one buffer")
        target._place([self._blk.alloc(target.space, nbytes, f"{target.owner} buffer {i}") for i in range(n)], nbytes)

    def destroy(self):
        from .sync import pipe_barrier
        from .enums import PipeID
        pipe_barrier(PipeID.PIPE_ALL)


class _Buffer:
    __slots__ = ("addr", "state", "freed", "index")

    def __init__(self, addr, index):
        self.addr, self.state, self.freed, self.index = addr, "FREE", False, index


class TQue:
    """``TQue(pos, depth)``: buffers handed out round-robin; ``enque`` / ``deque`` / ``free_tensor`` order the
    producer and consumer pipes of ``pos``."""

    def __init__(self, pos=TPosition.VECIN, depth=None):
        blk = _block()
        self.position = TPosition(pos).name
        self.space = memory_of(pos)
        self.depth = 1 if depth is None else int(depth)
        self.id = blk.new_queue_id()
        loc = user_loc()
        self.owner = f"TQue({self.position}) of line {loc[1] if loc else '?'}"
        self.buffers = []
        self.fifo = collections.deque()
        self.next = 0
        self.producer, self.consumer = QUEUE_PIPES.get(self.position, (None, None))

    def _place(self, addrs, nbytes):
        self.buffers = [_Buffer(a, i) for i, a in enumerate(addrs)]
        self.nbytes = nbytes

    def _sync(self, kind, pipe, buf, evt):
        _block().issue(PipeOp(kind, pipe, attrs={"key": ("queue", self.id, buf.index, evt), "event": evt,
                                                  "text": f"{self.owner} buffer {buf.index}"}, loc=user_loc()))

    def _find(self, t):
        for b in self.buffers:
            if b.addr == getattr(t, "_queue_addr", t.addr) and getattr(t, "_queue", None) is self:
                return b
        raise error(ValueError, f"{self.owner}: the tensor is not one of this queue's buffers",
                    "enque / free_tensor the tensor this queue's alloc_tensor or deque returned")

    def alloc_tensor(self, dtype):
        if not self.buffers:
            raise error(RuntimeError, f"{self.owner} has no buffers", "call pipe.init_buffer(que, num, len) first")
        n = len(self.buffers)
        for k in range(n):
            b = self.buffers[(self.next + k) % n]
            if b.state == "FREE":
                break
        else:
            raise _hang(f"alloc_tensor on {self.owner}: all {n} buffer(s) are in use, none was freed",
                        "the device waits here for ever: free_tensor a buffer of this queue before allocating "
                        "again (or give the queue more buffers)")
        self.next = (b.index + 1) % n
        if b.freed and self.producer:
            self._sync("wait_flag", self.producer, b, (self.consumer, self.producer))
        b.state, b.freed = "ALLOC", False
        return self._tensor(b, dtype)

    def _tensor(self, b, dtype):
        t = LocalTensor._view(_Proto(self), b.addr, self.nbytes // dtype.sizeof(), dtype)
        t._queue, t._queue_addr = self, b.addr
        return t

    def enque(self, t):
        b = self._find(t)
        if b.state != "ALLOC":
            raise error(RuntimeError, f"enque on {self.owner}: buffer {b.index} is {b.state.lower()}, not allocated",
                        "enque a tensor once, after alloc_tensor")
        if len(self.fifo) >= max(self.depth, 1) and self.depth:
            raise _hang(f"enque on {self.owner}: the queue already holds {len(self.fifo)} tensor(s) (depth "
                        f"{self.depth})", "deque before enqueuing more, or make the queue deeper")
        b.state = "ENQUE"
        self.fifo.append(b)
        if self.producer:
            self._sync("set_flag", self.producer, b, (self.producer, self.consumer))
        return True

    def deque(self, *args, **kwargs):
        """``deque(dtype)`` (or ``deque(dtype, src_user_pos, dst_user_pos)``): the oldest enqueued tensor;
        ``deque(tensor)``: the same, into ``tensor`` in place (returns None)."""
        first = args[0] if args else kwargs.get("dtype", kwargs.get("tensor"))
        into = first if isinstance(first, LocalTensor) else None
        if into is None and not isinstance(first, dt.DataType):
            raise error(TypeError, f"deque on {self.owner} takes a dtype or a LocalTensor, got "
                        f"{'nothing' if first is None else type(first).__name__}",
                        "write que.deque(asc.float32) (the dtype of the tensors in the queue), or que.deque(t)")
        if not self.fifo:
            raise _hang(f"deque on {self.owner}: the queue is empty",
                        "the device waits here for ever: enque a tensor into this queue before dequeuing it")
        b = self.fifo.popleft()
        b.state = "DEQUE"
        if self.producer:
            self._sync("wait_flag", self.consumer, b, (self.producer, self.consumer))
        t = self._tensor(b, first if into is None else into.dtype)
        if into is None:
            return t
        into.__dict__.update(t.__dict__)
        return None

    def free_tensor(self, t):
        b = self._find(t)
        if b.state == "FREE":
            raise error(RuntimeError, f"free_tensor on {self.owner}: buffer {b.index} is already free",
                        "free each allocated tensor once")
        if b.state == "ENQUE":
            self.fifo.remove(b)
        b.state, b.freed = "FREE", True
        if self.producer:
            self._sync("set_flag", self.consumer, b, (self.consumer, self.producer))


class _Proto:
    """The fields a queue's tensors share (position, memory, owner)."""

    def __init__(self, q):
        self.__dict__.update(position=q.position, space=q.space, buf=q.space, owner=q.owner, shape=None)


class TBuf:
    """``TBuf(pos)``: one buffer with no queue protocol; ``get(dtype)`` / ``alloc_tensor(dtype)`` view it."""

    def __init__(self, pos=TPosition.VECCALC):
        self.position = TPosition(pos).name
        self.space = memory_of(pos)
        loc = user_loc()
        self.owner = f"TBuf({self.position}) of line {loc[1] if loc else '?'}"
        self.addr = None

    def _place(self, addr, nbytes):
        self.addr, self.nbytes = addr, nbytes

    def get(self, dtype, len=None):   # noqa: A002
        if self.addr is None:
            raise error(RuntimeError, f"{self.owner} has no buffer", "call pipe.init_buffer(buf=..., num=bytes) first")
        n = self.nbytes // dtype.sizeof() if len is None else int(len)
        return LocalTensor._view(_Proto(self), self.addr, n, dtype)

    alloc_tensor = get

    def free_tensor(self, t):
        pass


def _hang(message, hint):
    return located(PipeHangError, user_loc(), message, hint)


def get_tpipe_ptr():
    """The kernel's TPipe (pyasc's TPipeManager.get)."""
    pipe = getattr(_block(), "tpipe", None)
    if pipe is None:
        raise error(RuntimeError, "TPipe instance is not initialized, use TPipe() to create it",
                    "create the kernel's TPipe with asc.TPipe() before asking for it")
    return pipe

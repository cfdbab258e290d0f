"""TPipe / TQue / TQueBind / TBuf / TBufPool: buffers carved from on-chip memory and the queue protocol that
orders the pipes.

A queue's buffers go FREE -> allocated -> enqueued -> dequeued -> FREE (a dequeued buffer may be enqueued
again, in place). On a VECIN queue (GM -> UB) the
producer is MTE2 and the consumer V; on a VECOUT queue (UB -> GM) V and MTE3. ``enque`` sets the flag
``deque`` waits for (write-then-read), ``free_tensor`` sets the flag the next ``alloc_tensor`` of that
buffer waits for (read-then-overwrite), exactly as Ascend C's TQue does. VECCALC queues and TBufs order
nothing: pipes sharing them need the user's flags."""
from __future__ import annotations

import collections

from ...ir.faults import PipeHangError, located  # noqa: F401  (PipeHangError: re-exported)
from ...ir.pipe_ops import QUEUE_PIPES, PipeOp, scalar_code, user_loc
from ..core import dtype as dt
from ..core.errors import error
from .enums import HardEvent, TPosition, memory_of
from .tensors import LocalTensor, _block



_IDS = 8      # event ids per HardEvent


def _bytes32(nbytes):
    """Buffer lengths round up to 32 bytes (Ascend C's InitBuffer)."""
    return -(-int(nbytes) // 32) * 32


class TPipe:
    """The kernel's buffer manager: ``init_buffer`` places a queue's or TBuf's buffers in its memory,
    ``init_buf_pool`` a TBufPool's; ``alloc_event_id`` / ``release_event_id`` hand out the 8 ids of a HardEvent."""

    def __init__(self):
        self._blk = _block()
        self._register()
        self._start = dict(self._blk.top)      # reset / destroy give back what this pipe placed
        self._events = {}

    def _register(self):
        if getattr(self._blk, "tpipe", None) is not None:
            # pyasc's own message (fwk/tpipe.py, TPipeManager.set)
            raise error(RuntimeError, "TPipe instance is already created, use get_tpipe_ptr() to obtain it",
                        "create one TPipe at the start of the kernel and init_buffer every queue and TBuf on it "
                        "(a second one would allocate over the first one's buffers; destroy() the first one "
                        "before creating another)")
        self._blk.tpipe = self

    def _take(self, space, nbytes, what):
        return self._blk.alloc(space, nbytes, what)

    def init_buffer(self, *args, **kwargs):
        """``init_buffer(que, num=0, len=0)``: ``num`` buffers of ``len`` bytes for a queue;
        ``init_buffer(buf, len=0)``: ``len`` bytes for a TBuf (rounded up to 32 bytes)."""
        _init_buffer(self._take, *_buffer_args(args, kwargs))
        return True

    def init_buf_pool(self, buf_pool, len=0, share_buf=None):   # noqa: A002
        """Carve ``len`` bytes for a TBufPool (with ``share_buf``: the same bytes as that pool)."""
        _init_buf_pool(self._take, buf_pool, len, share_buf)
        return True

    def _rewind(self):
        self._blk.top.clear()
        self._blk.top.update(self._start)
        self._events = {}

    def reset(self):
        """Back to the state after construction: every buffer and event id given back (init_buffer again)."""
        self._rewind()

    def destroy(self):
        """Release the pipe's resources once every pipe is idle; a new TPipe (or ``init()``) may follow."""
        from .sync import pipe_barrier
        from .enums import PipeID
        pipe_barrier(PipeID.PIPE_ALL)
        self._rewind()
        if self._blk.tpipe is self:
            self._blk.tpipe = None

    def init(self):
        """Initialise the pipe's memory and event ids again (after ``destroy``)."""
        if self._blk.tpipe is not self:
            self._register()
        self._rewind()

    def _ids(self, event):
        return self._events.setdefault(HardEvent(event), set())

    def fetch_event_id(self, event=HardEvent.V_S):
        """The lowest id of ``event`` not allocated (not taken: two fetches return the same id)."""
        used = self._ids(event)
        free = [i for i in range(_IDS) if i not in used]
        if not free:
            raise error(RuntimeError, f"{_name(event)}: all {_IDS} event ids are allocated",
                        "release_event_id(id, event) each id once its wait_flag has run")
        return free[0]

    def alloc_event_id(self, event=HardEvent.V_S):
        """The lowest free id of ``event``, taken until ``release_event_id``."""
        i = self.fetch_event_id(event)
        self._ids(event).add(i)
        return i

    def release_event_id(self, id, event=HardEvent.V_S):   # noqa: A002  (pyasc's name)
        used = self._ids(event)
        if int(id) not in used:
            raise error(RuntimeError, f"release_event_id({int(id)}, {_name(event)}): the id is not allocated",
                        "release only ids alloc_event_id returned for the same HardEvent, each once")
        used.discard(int(id))

    def get_base_addr(self, logic_pos=None):
        """Byte address of a position's memory: local tensors' addresses here count from its start."""
        return 0


def _name(event):
    return f"HardEvent.{HardEvent(event).name}"


def _buffer_args(args, kwargs):
    """(target, num, len) of pyasc's two forms: ``(que, num=0, len=0)`` and ``(buf, len=0)``."""
    args = list(args)
    target = kwargs.pop("que", None) or kwargs.pop("buf", None) or (args.pop(0) if args else None)
    if isinstance(target, TBuf):
        names = ("len",)
        if "num" in kwargs and "len" not in kwargs:
            kwargs["len"] = kwargs.pop("num")     # upstream's own kernel tests size a TBuf with num=
    elif isinstance(target, TQueBind):
        names = ("num", "len")
    else:
        raise error(TypeError, f"init_buffer needs que=TQue(...) or buf=TBuf(...), got {type(target).__name__}",
                    "write init_buffer(que, num, len) or init_buffer(buf, len)")
    if len(args) > len(names) or set(kwargs) - set(names):
        raise error(TypeError, f"init_buffer({type(target).__name__}, ...) takes {', '.join(names)}",
                    "write init_buffer(que, num, len) or init_buffer(buf, len)")
    got = dict(zip(names, args), **kwargs)
    return target, int(got.get("num", 0)), int(got.get("len", 0))


def _init_buffer(take, target, n, nbytes):
    """Place a TQue's ``n`` buffers of ``nbytes`` bytes, or a TBuf's ``nbytes`` bytes, with ``take``."""
    scalar_code()
    if isinstance(target, TBuf):
        target._place(take(target.space, _bytes32(nbytes), target.owner), nbytes)
        return 1
    if n < 1:
        raise error(ValueError, f"init_buffer: num={n} buffers", "a queue needs at least one buffer")
    target._place([take(target.space, _bytes32(nbytes), f"{target.owner} buffer {i}") for i in range(n)], nbytes)
    return n


def _init_buf_pool(take, pool, nbytes, share):
    scalar_code()
    if not isinstance(pool, TBufPool):
        raise error(TypeError, f"init_buf_pool needs a TBufPool, got {type(pool).__name__}")
    if share is not None:
        if share.addr is None:
            raise error(RuntimeError, f"init_buf_pool: the shared {share.owner} has no memory yet",
                        "init_buf_pool the pool to share first")
        if int(nbytes) > share.len or share.space != pool.space:
            raise error(ValueError, f"init_buf_pool: {int(nbytes)} bytes of {pool.space} cannot share "
                        f"{share.owner} ({share.len} bytes of {share.space})",
                        "a shared pool has the other pool's memory and at most its length")
        pool._place(share.addr, int(nbytes))
        return
    pool._place(take(pool.space, _bytes32(nbytes), pool.owner), int(nbytes))


class _Buffer:
    __slots__ = ("addr", "state", "freed", "index")

    def __init__(self, addr, index):
        self.addr, self.state, self.freed, self.index = addr, "FREE", False, index


def _local(src, dst):
    """The on-chip end of a queue from ``src`` to ``dst`` (a TQue's position is both)."""
    src, dst = TPosition(src), TPosition(dst)
    return dst if src == TPosition.GM else src


def _pipes(src, dst):
    """(producer, consumer) of a queue: the pipe that fills ``src`` and the one that drains ``dst``, as Ascend
    C's TQueBind picks its EnQue / DeQue events (``TQueBind(VECIN, VECOUT)``: MTE2 -> MTE3); (None, None)
    where a side has no such pipe (VECCALC: the queue orders nothing)."""
    src, dst = TPosition(src), TPosition(dst)
    if src == TPosition.GM or dst == TPosition.GM or src == dst:
        return QUEUE_PIPES.get(_local(src, dst).name, (None, None))
    producer = QUEUE_PIPES.get(src.name, (None, None))[0]
    consumer = QUEUE_PIPES.get(dst.name, (None, None))[1]
    return (producer, consumer) if producer and consumer else (None, None)


class TQueBind:
    """``TQueBind(src, dst, depth)``: buffers of the on-chip end of the path src -> dst, handed out round-robin,
    each FREE -> allocated -> enqueued -> dequeued (-> enqueued again, in place) -> FREE as Ascend C's TQueBind;
    ``enque`` / ``deque`` / ``free_tensor`` order the producer and consumer pipes of the position."""

    def __init__(self, src=TPosition.VECIN, dst=TPosition.VECIN, depth=0, mask=0):
        blk = _block()
        pos = _local(src, dst)
        self.position = pos.name
        self.space = memory_of(pos)
        self.depth = int(depth)
        self.id = blk.new_queue_id()
        loc = user_loc()
        self.owner = f"{type(self).__name__}({self.position}) of line {loc[1] if loc else '?'}"
        self.buffers = []
        self.fifo = collections.deque()
        self.next = 0
        self.producer, self.consumer = _pipes(src, dst)

    def _place(self, addrs, nbytes):
        self.buffers = [_Buffer(a, i) for i, a in enumerate(addrs)]
        self.nbytes = nbytes

    def _sync(self, kind, pipe, buf, evt):
        flags = self.__dict__.setdefault("_flags", {})     # (buffer, event) -> (key, text): made once
        f = flags.get((buf.index, evt))
        if f is None:
            f = flags[(buf.index, evt)] = (("queue", self.id, buf.index, evt), f"{self.owner} buffer {buf.index}")
        _block().issue(PipeOp(kind, pipe, attrs={"key": f[0], "event": evt, "text": f[1]}, loc=user_loc()))

    def _find(self, t):
        for b in self.buffers:
            if b.addr == getattr(t, "_queue_addr", t.addr) and getattr(t, "_queue", None) is self:
                return b
        raise error(ValueError, f"{self.owner}: the tensor is not one of this queue's buffers",
                    "enque / free_tensor the tensor this queue's alloc_tensor or deque returned")

    def alloc_tensor(self, dtype=None, tensor=None):
        """``alloc_tensor(dtype)``: a free buffer as a tensor; ``alloc_tensor(tensor)``: into ``tensor``."""
        if isinstance(dtype, LocalTensor):
            dtype, tensor = None, dtype
        _typed(tensor, f"alloc_tensor on {self.owner}")
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
        return _into(tensor, self._tensor(b, dtype if tensor is None else tensor.dtype))

    def _tensor(self, b, dtype):
        t = LocalTensor._view(_Proto(self), b.addr, self.nbytes // dtype.sizeof(), dtype)
        t._queue, t._queue_addr = self, b.addr
        return t

    def enque(self, tensor, src_user_pos=None, dst_user_pos=None):
        """Push an allocated tensor, or one dequeued from this queue (in-place reuse), as Ascend C's EnQue."""
        b = self._find(tensor)
        if b.state not in ("ALLOC", "DEQUE"):
            raise error(RuntimeError, f"enque on {self.owner}: buffer {b.index} is "
                        f"{'free' if b.state == 'FREE' else 'already enqueued'}",
                        "enque a tensor alloc_tensor or deque returned, once before each deque")
        if self.depth and len(self.fifo) >= self.depth:
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
        into = _typed(first if isinstance(first, LocalTensor) else None, f"deque on {self.owner}")
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
        return _into(into, self._tensor(b, first if into is None else into.dtype))

    def free_tensor(self, tensor):
        b = self._find(tensor)
        if b.state == "FREE":
            raise error(RuntimeError, f"free_tensor on {self.owner}: buffer {b.index} is already free",
                        "free each allocated tensor once")
        if b.state == "ENQUE":
            self.fifo.remove(b)
        b.state, b.freed = "FREE", True
        if self.producer:
            self._sync("set_flag", self.consumer, b, (self.consumer, self.producer))

    def free_all_event(self):
        """Consume the pending free events: the producer waits for the consumer of every freed buffer (its
        next ``alloc_tensor`` then waits for nothing)."""
        for b in self.buffers:
            if b.freed and self.producer:
                self._sync("wait_flag", self.producer, b, (self.consumer, self.producer))
            b.freed = False

    def get_tensor_count_in_que(self):
        return len(self.fifo)

    def has_tensor_in_que(self):
        return bool(self.fifo)

    def vacant_in_que(self):
        return not self.depth or len(self.fifo) < self.depth

    def has_idle_buffer(self):
        return any(b.state == "FREE" for b in self.buffers)


class TQue(TQueBind):
    """``TQue(pos, depth)``: a TQueBind from ``pos`` to ``pos``."""

    def __init__(self, pos=TPosition.VECIN, depth=None, mask=0):
        super().__init__(pos, pos, 1 if depth is None else depth, mask)


def _typed(tensor, what):
    if tensor is not None and tensor.dtype is None:
        raise error(TypeError, f"{what} into a LocalTensor without an element type",
                    "declare it with its dtype: t = asc.LocalTensor(asc.float32)")
    return tensor


def _into(tensor, t):
    """The in-place forms (``alloc_tensor(t)``, ``deque(t)``) make ``tensor`` the buffer's tensor."""
    if tensor is None:
        return t
    tensor.__dict__.update(t.__dict__)
    return None


class _Proto:
    """The fields a queue's tensors share (position, memory, owner)."""

    def __init__(self, q):
        self.__dict__.update(position=q.position, space=q.space, buf=q.space, owner=q.owner, shape=None)


class TBuf(TQueBind):
    """``TBuf(pos)``: one buffer, viewed by ``get(dtype)`` / ``alloc_tensor(dtype)`` whenever the kernel
    likes. As upstream's TBuf is a TQueBind from ``pos`` to ``pos``, it also has the queue methods: its one
    buffer, always allocated, can be enqueued and dequeued (ordering the position's pipes as a TQue of that
    position does; VECCALC orders nothing), any number of times in turn."""

    def __init__(self, pos=TPosition.VECCALC):
        super().__init__(pos, pos, 0)
        self.addr = None

    def _place(self, addr, nbytes):
        self.addr, self.nbytes = addr, nbytes
        buf = _Buffer(addr, 0)
        buf.state = "ALLOC"           # get() hands the buffer out without alloc_tensor
        self.buffers, self.fifo = [buf], collections.deque()

    def get(self, dtype, len=None, shape=None):   # noqa: A002
        if self.addr is None:
            raise error(RuntimeError, f"{self.owner} has no buffer", "call pipe.init_buffer(buf=..., len=bytes) first")
        n = self.nbytes // dtype.sizeof() if len is None else int(len)
        if n * dtype.sizeof() > self.nbytes:
            raise error(ValueError, f"{self.owner}.get: {n} x {dtype} is {n * dtype.sizeof()} bytes, the buffer "
                        f"has {self.nbytes}", "get at most the bytes init_buffer gave the TBuf")
        t = LocalTensor._view(_Proto(self), self.addr, n, dtype)
        t._queue, t._queue_addr = self, self.addr
        if shape is not None:
            t.shape = tuple(int(d) for d in shape)
        return t

    def get_with_offset(self, size, buf_offset, dtype):
        """``size`` elements of ``dtype`` from byte ``buf_offset`` (a multiple of 32) of the buffer."""
        if int(buf_offset) % 32 != 0:
            raise error(ValueError, "buf_offset must be align to 32B.",
                        "pass a byte offset that is a multiple of 32")
        t = self.get(dtype)
        if int(buf_offset) + int(size) * dtype.sizeof() > self.nbytes:
            raise error(ValueError, f"{self.owner}.get_with_offset: bytes [{int(buf_offset)}, "
                        f"{int(buf_offset) + int(size) * dtype.sizeof()}) are past its {self.nbytes} bytes",
                        "keep offset + size inside the buffer init_buffer gave the TBuf")
        return LocalTensor._view(t, self.addr + int(buf_offset), int(size))

    def alloc_tensor(self, dtype=None, tensor=None):
        """The whole buffer as a tensor (``alloc_tensor(t)``: into ``t``)."""
        if isinstance(dtype, LocalTensor):
            dtype, tensor = None, dtype
        _typed(tensor, f"alloc_tensor on {self.owner}")
        return _into(tensor, self.get(dtype if tensor is None else tensor.dtype))

    def free_tensor(self, tensor):
        """Nothing to free: the buffer stays the TBuf's (an enqueued one leaves the queue)."""
        if self.buffers and self.buffers[0].state == "ENQUE":
            self.fifo.clear()
            self.buffers[0].state = "ALLOC"


class TBufPool:
    """``TBufPool(pos, buf_id_size)``: a block of on-chip memory (from ``pipe.init_buf_pool``) whose queues and
    TBufs are placed and, after ``reset``, placed again over the same bytes (memory reuse between stages)."""

    def __init__(self, pos=None, buf_id_size=4):
        if pos is None:
            raise error(TypeError, "TBufPool needs a position", "write asc.TBufPool(asc.TPosition.VECCALC)")
        self.position = TPosition(pos).name
        self.space = memory_of(pos)
        self.buf_id_size = int(buf_id_size)
        if not 1 <= self.buf_id_size <= 16:
            raise error(ValueError, f"TBufPool buf_id_size={self.buf_id_size}", "a TBufPool holds 1 to 16 buffers")
        loc = user_loc()
        self.owner = f"TBufPool({self.position}) of line {loc[1] if loc else '?'}"
        self.addr, self.len, self.used, self.count = None, 0, 0, 0

    def _place(self, addr, nbytes):
        self.addr, self.len, self.used, self.count = addr, nbytes, 0, 0

    def _take(self, space, nbytes, what):
        if self.addr is None:
            raise error(RuntimeError, f"{self.owner} has no memory", "call pipe.init_buf_pool(pool, len) first")
        if space != self.space:
            raise error(ValueError, f"{what} is in {space}, {self.owner} in {self.space}",
                        "place a TQue or TBuf in a pool of the same memory")
        if self.used + nbytes > self.len:
            raise error(ValueError, f"{what} needs bytes [{self.used}, {self.used + nbytes}) of {self.owner}, which "
                        f"has {self.len} bytes", "give the pool more bytes (init_buf_pool) or its buffers fewer")
        addr = self.addr + self.used
        self.used += nbytes
        return addr

    def init_buffer(self, *args, **kwargs):
        n = _init_buffer(self._take, *_buffer_args(args, kwargs))
        self.count += n
        if self.count > self.buf_id_size:
            raise error(ValueError, f"{self.owner} holds {self.count} buffers, its buf_id_size is "
                        f"{self.buf_id_size}", "declare the pool with a larger buf_id_size (at most 16)")
        return True

    def init_buf_pool(self, buf_pool, len=0, share_buf=None):   # noqa: A002
        _init_buf_pool(self._take, buf_pool, len, share_buf)
        return True

    def reset(self):
        """End the pool's work (every pipe idle) and give its bytes back, to be placed again."""
        from .sync import pipe_barrier
        from .enums import PipeID
        pipe_barrier(PipeID.PIPE_ALL)
        self.used, self.count = 0, 0


def _hang(message, hint):
    return located(PipeHangError, user_loc(), message, hint)


def get_tpipe_ptr():
    """The kernel's TPipe (pyasc's TPipeManager.get)."""
    pipe = getattr(_block(), "tpipe", None)
    if pipe is None:
        raise error(RuntimeError, "TPipe instance is not initialized, use TPipe() to create it",
                    "create the kernel's TPipe with asc.TPipe() before asking for it")
    return pipe

"""``LocalMemAllocator``: local tensors placed one after another in one physical memory, from its start (no
TPipe, no queues: the program orders its pipes with flags)."""
from __future__ import annotations

from ..core.errors import error
from .enums import Hardware, memory_of
from .tensors import LocalTensor, _block


class LocalMemAllocator:
    def __init__(self, hard=Hardware.UB):
        _block()
        self.hard = Hardware(hard)
        self.space = self.hard.name
        if self.space not in ("UB", "L1", "L0A", "L0B", "L0C"):
            raise error(ValueError, f"LocalMemAllocator(Hardware.{self.space}): not an on-chip memory of this engine",
                        "use Hardware.UB, L1, L0A, L0B or L0C")
        self.cur = 0

    def get_cur_addr(self):
        """The byte address the next ``alloc`` places its tensor at."""
        return self.cur

    def alloc(self, pos, data_type, tile_size):
        """A LocalTensor of ``tile_size`` elements at the current address (the next one starts 32-byte aligned
        after it)."""
        if memory_of(pos) != self.space:
            raise error(ValueError, f"LocalMemAllocator.alloc: a {pos.name} tensor is not in {self.space}",
                        f"allocate positions of {self.space} from this allocator")
        t = LocalTensor(data_type, pos, self.cur, int(tile_size))
        self.cur += -(-int(tile_size) * data_type.sizeof() // 32) * 32
        return t

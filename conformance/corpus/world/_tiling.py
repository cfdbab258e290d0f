"""Host tiling helpers as reference harnesses write them: tile and block counts from a UB budget."""
UB_BYTES = 192 * 1024   # the smaller UB of the two platforms (C220); leaves C310's extra 56 KiB unused
CORES = 8


def pick_tile(n_elems, itemsize, live_tiles, *, align=32, cap=4096):
    """The largest aligned tile such that ``live_tiles`` tiles of it fit in UB, and no larger than the data."""
    tile = UB_BYTES // (live_tiles * itemsize)
    tile = min(tile, cap, max(align, -(-n_elems // align) * align))
    return max(align, tile // align * align)


def pick_blocks(n_tiles, cores=CORES):
    """As many blocks as there are tiles, at most one per core."""
    return max(1, min(cores, n_tiles))


def pick_rows(rows, cols, itemsize, live_tiles):
    """Rows per tile for a row-wise kernel: as many whole rows as the UB budget holds, at least one."""
    return max(1, min(rows, UB_BYTES // (live_tiles * cols * itemsize)))

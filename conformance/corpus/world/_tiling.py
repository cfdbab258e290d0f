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


SOC = "Ascend950PR_9599"  # the platform the conformance driver selects


def ub_bytes(soc=SOC):
    """UB capacity as operator harnesses read it: ``get_platform_info(soc).ub_size``."""
    from asc.runtime import config
    from asc.runtime.launcher import get_platform_info

    return get_platform_info(config.Platform(soc)).ub_size


def tile_from_budget(n_elems, itemsize, live_tiles, *, budget=None, align=32):
    """CANN-style: the UB budget split over the live tiles (double-buffered), aligned down, capped by the data."""
    budget = ub_bytes() if budget is None else budget
    per_tile = budget // (live_tiles * 2) // itemsize
    per_tile = per_tile // (align // itemsize) * (align // itemsize)
    aligned_data = -(-n_elems // (align // itemsize)) * (align // itemsize)
    return max(align // itemsize, min(per_tile, aligned_data))


def ceildiv(a, b):
    return -(-a // b)

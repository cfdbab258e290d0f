"""The host tiling rule (CANN's tiling library is not here): a valid ``TCubeTiling`` for a platform.

1. Base block. Fixed parts (``set_fix_split``) are kept; free parts start at 128 x 256 x 64 for 2-byte
   inputs (128 x 128 x 32 for 4-byte, 128 x 256 x 128 for 1-byte) and are halved, largest first, until
   A and B blocks fit half of L0A / L0B (ping-pong) and the C block fits L0C (or the buffer space given).
   Free parts are multiples of 16, never more than the (16-rounded) single-core tile.
2. Core split. Every (m_cores, n_cores) with m_cores * n_cores <= dim (capped at the platform's vector
   core count) is tried; single-core sizes are
   ceil(M / m_cores) and ceil(N / n_cores) rounded up to the base block when it is fixed, to 16 otherwise
   (K is not split). The split with the smallest single-core tile wins; ties go to tiles without tails,
   then to the smaller perimeter (less data loaded), then to fewer cores.
3. L1 depth: as many K steps of A and B blocks (plus the bias row) as the L1 space holds, at most the
   number of K steps, at least 1.
4. Whatever the caller fixed that no valid tiling satisfies (a base block over L0, one stage over L1, a
   non-positive shape or dim) is a ``TilingError`` naming the numbers.
Constraints the caller may add: ``set_single_shape`` fixes single-core sizes (K is never split: a single K
below K is refused), ``set_single_range`` bounds them, ``set_align_split`` rounds them up to its multiples
instead of 16, ``set_split_range`` bounds the free base parts, ``set_double_buffer(c=True)`` keeps the C
block within half of L0C. Batched matmuls (``set_batch_num`` / ``set_batch_info_for_normal``) tile one
batch's M x N x K by the same rule (each core computes its tile of every batch: ``batch_m = batch_n = 1``)."""
from __future__ import annotations

from ...language.v1 import cube_tiling


class TilingError(ValueError):
    """A tiling request no valid tiling satisfies."""


def _ceil(a, b):
    return -(-a // b)


def _up(a, b):
    return _ceil(a, b) * b


_DEFAULT_BASE = {1: (128, 256, 128), 2: (128, 256, 64), 4: (128, 128, 32)}


def choose(hw, m, n, k, dim, a_bytes, b_bytes, c_bytes=4, bias=False, fixed=(-1, -1, -1), l1=None, l0c=None,
           traverse=0, single=(-1, -1, -1), single_range=(-1,) * 6, split_range=(-1,) * 6, align=(-1, -1, -1),
           db_l0c=False):
    """The tiling fields (a dict) for an M x N x K matmul on ``dim`` cores."""
    for what, v in (("M", m), ("N", n), ("K", k), ("dim", dim)):
        if int(v) <= 0:
            raise TilingError(f"matmul tiling: {what} = {v} must be positive")
    dim = min(int(dim), hw.aiv_cores)        # no more cores than the platform has
    l1 = hw.l1_bytes if l1 is None or l1 < 0 else int(l1)
    l0c = hw.l0c_bytes if l0c is None or l0c < 0 else int(l0c)
    fm, fn, fk = (int(x) for x in fixed)
    for name, v, cap_what in (("base_m", fm, "M"), ("base_n", fn, "N"), ("base_k", fk, "K")):
        if v > 0 and v % 16:
            raise TilingError(f"matmul tiling: set_fix_split {name} = {v} is not a multiple of 16 (the cube's "
                              "fractal size)")
    size = max(a_bytes, b_bytes)
    dm, dn, dk = _DEFAULT_BASE.get(size, _DEFAULT_BASE[2])
    bm0 = fm if fm > 0 else min(dm, _up(m, 16))
    bn0 = fn if fn > 0 else min(dn, _up(n, 16))
    bk = fk if fk > 0 else min(dk, _up(k, 16))

    max_bm, max_bn, max_bk, min_bm, min_bn, min_bk = (int(x) for x in split_range)
    bm0 = min(bm0, max_bm) if fm <= 0 and max_bm > 0 else bm0
    bn0 = min(bn0, max_bn) if fn <= 0 and max_bn > 0 else bn0
    bk = min(bk, max_bk) if fk <= 0 and max_bk > 0 else bk
    sm, sn, sk = (int(x) for x in single)
    if sk > 0 and sk < k:
        raise TilingError(f"matmul tiling: set_single_shape single_k = {sk} is below K = {k}; this rule does not "
                          "split K over cores")
    max_m, max_n, _, min_m, min_n, _ = (int(x) for x in single_range)
    am = int(align[0]) if int(align[0]) > 0 else (fm if fm > 0 else 16)
    an = int(align[1]) if int(align[1]) > 0 else (fn if fn > 0 else 16)

    def allowed(sc, lo, hi, whole):
        return (hi <= 0 or sc <= hi) and (lo <= 0 or sc >= min(lo, whole))

    # 2. core split (with the base block before shrinking to the tile)
    best = None
    for mc in range(1, int(dim) + 1):
        ncs = int(dim) // mc
        scm = sm if sm > 0 else _up(_ceil(m, mc), am)
        for nc in {ncs, 1, max(1, ncs // 2)}:
            scn = sn if sn > 0 else _up(_ceil(n, nc), an)
            used = _ceil(m, scm) * _ceil(n, scn)
            if used > dim or not (allowed(scm, min_m, max_m, m) and allowed(scn, min_n, max_n, n)):
                continue
            key = (scm * scn, (m % scm != 0) + (n % scn != 0), scm + scn, used)
            if best is None or key < best[0]:
                best = (key, scm, scn, used)
    if best is None:
        raise TilingError(f"matmul tiling: no split of {m} x {n} over {dim} cores meets the single-core shape "
                          f"{tuple(single)} / range {tuple(single_range)}")
    _, scm, scn, used = best
    bm = bm0 if fm > 0 else min(bm0, scm)
    bn = bn0 if fn > 0 else min(bn0, scn)

    # 1. base block within L0 (ping-pong halves for A and B when free)
    c_room = l0c // 2 if db_l0c else l0c

    def fits(bm, bn, bk, half):
        div = 2 if half else 1
        return (bm * bk * a_bytes <= hw.l0a_bytes // div and bk * bn * b_bytes <= hw.l0b_bytes // div
                and bm * bn * c_bytes <= c_room)
    while not fits(bm, bn, bk, True):
        free = [(v, i) for i, (v, f) in enumerate(((bm, fm), (bn, fn), (bk, fk))) if f <= 0 and v > 16]
        if not free:
            break
        _, i = max(free)
        if i == 0:
            bm = _up(bm // 2, 16)
        elif i == 1:
            bn = _up(bn // 2, 16)
        else:
            bk = _up(bk // 2, 16)
    if not fits(bm, bn, bk, False):
        raise TilingError(f"matmul tiling: no base block fits with the fixed split (base_m, base_n, base_k) = "
                          f"({fm}, {fn}, {fk}): A {bm} x {bk} needs {bm * bk * a_bytes} of {hw.l0a_bytes} bytes of "
                          f"L0A, B {bk} x {bn} needs {bk * bn * b_bytes} of {hw.l0b_bytes} bytes of L0B, C {bm} x "
                          f"{bn} needs {bm * bn * c_bytes} of {c_room} bytes of L0C")
    for name, v, lo in (("base_m", bm, min_bm), ("base_n", bn, min_bn), ("base_k", bk, min_bk)):
        if lo > 0 and v < lo:
            raise TilingError(f"matmul tiling: {name} = {v} is below set_split_range's minimum {lo} (the largest "
                              "base block that fits L0)")

    # 3. L1 depth
    stage = bm * bk * a_bytes + bk * bn * b_bytes
    room = l1 - (bn * 4 if bias else 0)
    if stage > room:
        raise TilingError(f"matmul tiling: one K step of A ({bm} x {bk}) and B ({bk} x {bn}) blocks takes {stage} "
                          f"bytes, more than the {room} bytes of L1 available")
    depth = max(1, min(room // stage, _ceil(k, bk)))
    fields = dict(used_core_num=used, m=m, n=n, k_a=k, k_b=k, single_core_m=scm, single_core_n=scn,
                  single_core_k=k, base_m=bm, base_n=bn, base_k=bk, depth_a1=depth, depth_b1=depth, step_m=1,
                  step_n=1, step_k_a=max(1, depth // 2), step_k_b=max(1, depth // 2), is_bias=int(bool(bias)),
                  iterate_order=int(traverse), db_l0a=2, db_l0b=2, db_l0c=2 if db_l0c else 1, share_mode=0, share_l1_size=l1,
                  share_l0c_size=l0c, share_ub_size=0, trans_length=0)
    return fields


def check(hw, tiling, a_bytes, b_bytes, c_bytes=4, bias=False, l1=None, l0c=None):
    bad = cube_tiling.problems(tiling, hw, a_bytes, b_bytes, c_bytes, bias, l1, l0c)
    if bad:
        raise TilingError("matmul tiling is not valid: " + "; ".join(bad))

"""What makes a ``TCubeTiling`` valid on a platform (shared by the host tiling rule and the kernel's
``Matmul.init``): every base block fits L0A / L0B / L0C, the blocks staged in L1 fit L1, and the
single-core tiles of ``used_core_num`` cores cover the matrix. Messages carry the numbers."""
from __future__ import annotations


def _ceil(a, b):
    return -(-a // b)


def problems(t, hw, a_bytes, b_bytes, c_bytes=4, bias=False, l1_bytes=None, l0c_bytes=None):
    """The reasons tiling ``t`` is not valid (an empty list: valid). ``*_bytes``: element sizes."""
    out = []
    need = {"m": t.m, "n": t.n, "k_a": t.k_a, "single_core_m": t.single_core_m, "single_core_n": t.single_core_n,
            "single_core_k": t.single_core_k, "base_m": t.base_m, "base_n": t.base_n, "base_k": t.base_k}
    bad = [f"{k}={v}" for k, v in need.items() if int(v) <= 0]
    if bad:
        return [f"the tiling has non-positive fields ({', '.join(bad)})"]
    if t.k_b > 0 and t.k_b != t.k_a:
        out.append(f"k_a={t.k_a} and k_b={t.k_b} differ")
    l0a = t.base_m * t.base_k * a_bytes
    if l0a > hw.l0a_bytes:
        out.append(f"an A base block base_m x base_k = {t.base_m} x {t.base_k} takes {l0a} bytes of L0A, which has "
                   f"{hw.l0a_bytes} bytes")
    l0b = t.base_k * t.base_n * b_bytes
    if l0b > hw.l0b_bytes:
        out.append(f"a B base block base_k x base_n = {t.base_k} x {t.base_n} takes {l0b} bytes of L0B, which has "
                   f"{hw.l0b_bytes} bytes")
    l0c_cap = hw.l0c_bytes if l0c_bytes is None else l0c_bytes
    l0c = t.base_m * t.base_n * c_bytes
    if l0c > l0c_cap:
        out.append(f"a C base block base_m x base_n = {t.base_m} x {t.base_n} takes {l0c} bytes of L0C, which has "
                   f"{l0c_cap} bytes")
    l1_cap = hw.l1_bytes if l1_bytes is None else l1_bytes
    l1 = staged_l1_bytes(t, a_bytes, b_bytes, bias)
    if l1 > l1_cap:
        out.append(f"the blocks staged in L1 (depth_a1={max(1, t.depth_a1)} A blocks of {t.base_m} x {t.base_k}, "
                   f"depth_b1={max(1, t.depth_b1)} B blocks of {t.base_k} x {t.base_n}"
                   f"{', the bias row' if bias else ''}) take {l1} bytes of L1, which has {l1_cap} bytes")
    tiles = _ceil(t.m, t.single_core_m) * _ceil(t.n, t.single_core_n) * _ceil(t.k_a, t.single_core_k)
    if t.used_core_num < tiles:
        out.append(f"single-core tiles of {t.single_core_m} x {t.single_core_n} (x {t.single_core_k} of K) need "
                   f"{tiles} cores to cover the {t.m} x {t.n} (x {t.k_a}) matrix, but used_core_num is "
                   f"{t.used_core_num}")
    return out


def staged_l1_bytes(t, a_bytes, b_bytes, bias=False):
    return (max(1, t.depth_a1) * t.base_m * t.base_k * a_bytes + max(1, t.depth_b1) * t.base_k * t.base_n * b_bytes
            + (t.base_n * 4 if bias else 0))

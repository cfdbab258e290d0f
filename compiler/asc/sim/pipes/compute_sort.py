"""Element math of v1 sorting: 8-byte (score, uint32 index) records sorted or merged highest score first,
ties to the earlier element (sort32, sort) or the earlier list (mrg_sort); region proposals (8 elements,
the score the fifth) filled, read, sorted per 16 (rp_sort16) and merged (mrg_sort4) the same way."""
from __future__ import annotations

import numpy as np

from .impls import impl


def _records(scores, index, dtype):
    """(n, 8) bytes of records: the score (half: then 2 zero bytes) and the index."""
    rec = np.zeros((scores.size, 8), np.uint8)
    s = np.asarray(scores, dtype).view(np.uint8).reshape(scores.size, -1)
    rec[:, :s.shape[1]] = s
    rec[:, 4:] = np.asarray(index, np.uint32).view(np.uint8).reshape(-1, 4)
    return rec


def _scores(rec, dtype):
    return rec[:, :np.dtype(dtype).itemsize].copy().view(dtype).reshape(-1)


@impl("sort32", "sort", pure=True)
def _sort32(eng, op):
    """sort32, and sort: per repeat of 32, or (``full``) all repeats as one list; stable, highest first."""
    a = op.attrs
    n = 32 * a["repeat"]
    if not n:                                # repeat_time 0: nothing sorted, nothing written
        return
    x, xb = eng.view(a["src0"])
    i, ib = eng.view(a["src1"])
    group = n if a.get("full") else 32
    s = x[xb: xb + n].reshape(-1, group)
    order = np.argsort(-s.astype(np.float64), axis=1, kind="stable")
    sorted_s = np.take_along_axis(s, order, 1).reshape(-1)
    sorted_i = np.take_along_axis(i[ib: ib + n].reshape(-1, group), order, 1).reshape(-1)
    records = _records(sorted_s, sorted_i, x.dtype).reshape(-1)
    for t in (a["dst"], a.get("tmp")):
        if t is not None:
            d, db = eng.byte_view(t)
            d[db: db + 8 * n] = records


def _merge(keys, suspend):
    """The merge order of lists ``keys`` (scores, each list meant to be sorted): (list, position) pairs,
    highest head first, ties to the earlier list; with ``suspend``, up to the record that empties a list."""
    heads = [0] * len(keys)
    out = []
    while True:
        live = [k for k in range(len(keys)) if heads[k] < len(keys[k])]
        if not live or (suspend and len(live) < len(keys)):
            return out
        k = max(live, key=lambda j: (keys[j][heads[j]], -j))
        out.append((k, heads[k]))
        heads[k] += 1


@impl("mrg_sort", "mrg_sort4")
def _mrg_sort(eng, op):
    """Records of ``record`` bytes (the score ``score_at`` bytes in) merged list by list, per repeat; each repeat
    reads and writes the lists' total further on (its docstring), also when suspension stops it short."""
    a = op.attrs
    counts, total = a["counts"], sum(a["counts"])
    size, at = a.get("record", 8), a.get("score_at", 0)
    dtype = a["dst"].np_dtype
    d, db = eng.byte_view(a["dst"])
    taken = [0] * len(counts)
    for r in range(a["repeat"]):
        recs = []
        for t, c in zip(a["srcs"], counts):
            m, mb = eng.byte_view(t)
            start = mb + r * total * size
            recs.append(m[start: start + size * c].reshape(c, size))
        keys = [_scores(rec[:, at:], dtype).astype(np.float64) for rec in recs]
        if all(np.all(k[:-1] >= k[1:]) for k in keys) and not a["suspend"]:
            flat = np.concatenate(keys)     # sorted lists: the merge is a stable sort, list by list
            order = np.argsort(-flat, kind="stable")
            merged = np.concatenate(recs)[order]
            taken = list(counts)
        else:
            pick = _merge([list(k) for k in keys], a["suspend"])
            merged = np.array([recs[k][p] for k, p in pick], np.uint8).reshape(-1, size)
            taken = [sum(1 for k, _ in pick if k == j) for j in range(len(counts))]
        out = db + r * total * size
        d[out: out + merged.size] = merged.reshape(-1)
    return taken


# -- region proposals: 8 elements each, the score the fifth --------------------------------------------------
@impl("proposal_concat", pure=True)
def _proposal_concat(eng, op):
    a = op.attrs
    n = a["n"]
    x, xb = eng.view(a["src"])
    d, dbase = eng.view(a["dst"])
    d[dbase + a["field"]: dbase + 8 * n: 8] = x[xb: xb + n]


@impl("proposal_extract", pure=True)
def _proposal_extract(eng, op):
    a = op.attrs
    n = a["n"]
    x, xb = eng.view(a["src"])
    d, dbase = eng.view(a["dst"])
    d[dbase: dbase + n] = x[xb + a["field"]: xb + 8 * n: 8]


@impl("rp_sort16", pure=True)
def _rp_sort16(eng, op):
    a = op.attrs
    n = 16 * a["repeat"]
    x, xb = eng.view(a["src"])
    props = x[xb: xb + 8 * n].reshape(-1, 16, 8).copy()      # copied: dst may be src
    order = np.argsort(-props[:, :, 4].astype(np.float64), axis=1, kind="stable")
    d, dbase = eng.view(a["dst"])
    d[dbase: dbase + 8 * n] = np.take_along_axis(props, order[:, :, None], 1).reshape(-1)

"""What the kernel probe measures: outputs compared with the references (float64, per-case max abs / rel
error and mismatch count), the output captured at the file-descriptor level (camodel prints from C) and
ticks read from the ``ASC_LAUNCH_REPORT`` file. Part of the probe (see probe.py): standard library and
numpy only, loaded beside probe.py by path (the harness imports only ``read_launch_report`` from it, for
files run as scripts)."""

import json
import os
import re
import sys
import tempfile

TICK_RE = re.compile(r"Total tick\s*[:=]\s*(\d+)")


# ---------------------------------------------------------------------------------------------------
# comparison


def to_float64(value, np):
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # torch tensor
        import torch

        return value.detach().cpu().to(torch.float64).numpy()
    arr = np.asarray(value)
    if arr.dtype == object:
        raise TypeError(f"cannot compare a value of type {type(value).__name__}")
    return arr.astype(np.float64)


def shape_of(value):
    try:
        return [int(x) for x in (value or [])]
    except (TypeError, ValueError):
        return []


def as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def copy_inputs(inputs):
    out = []
    for x in inputs:
        if hasattr(x, "clone") and hasattr(x, "detach"):
            out.append(x.detach().clone())
        elif hasattr(x, "copy") and hasattr(x, "dtype"):
            out.append(x.copy())
        else:
            out.append(x)
    return tuple(out)


def compare(outputs, references, atol, rtol, np):
    """Return (max_abs, max_rel, mismatches, elements, message)."""
    outs, refs = as_tuple(outputs), as_tuple(references)
    if len(outs) != len(refs):
        raise ValueError(f"launch returned {len(outs)} output(s) but reference returned {len(refs)}")
    max_abs = max_rel = 0.0
    mismatches = elements = 0
    notes = []
    tiny = np.finfo(np.float64).tiny
    for k, (o, r) in enumerate(zip(outs, refs)):
        o64, r64 = to_float64(o, np), to_float64(r, np)
        if o64.shape != r64.shape:
            raise ValueError(f"output {k} has shape {tuple(o64.shape)} but the reference has {tuple(r64.shape)}")
        o64, r64 = o64.ravel(), r64.ravel()
        elements += int(r64.size)
        ref_finite = np.isfinite(r64)
        out_finite = np.isfinite(o64)
        both = ref_finite & out_finite
        # non-finite output where the reference is finite
        bad_nonfinite = int(np.count_nonzero(ref_finite & ~out_finite))
        # where the reference is non-finite the output must be the same kind (NaN vs the same infinity)
        ref_nf = ~ref_finite
        same_kind = (np.isnan(r64) & np.isnan(o64)) | (np.isinf(r64) & (o64 == r64))
        bad_special = int(np.count_nonzero(ref_nf & ~same_kind))
        if bad_nonfinite:
            notes.append(f"{bad_nonfinite} NaN/Inf value(s) where the reference is finite")
        if bad_special:
            notes.append(f"{bad_special} value(s) differ where the reference is NaN/Inf")
        if np.any(both):
            diff = np.abs(o64[both] - r64[both])
            ref_abs = np.abs(r64[both])
            rel = diff / np.maximum(ref_abs, tiny)
            max_abs = max(max_abs, float(diff.max()))
            max_rel = max(max_rel, float(rel.max()))
            mismatches += int(np.count_nonzero(diff > atol + rtol * ref_abs))
        mismatches += bad_nonfinite + bad_special
    return max_abs, max_rel, mismatches, elements, "; ".join(notes)


# ---------------------------------------------------------------------------------------------------
# output capture (camodel prints from C, so capture at the file-descriptor level)


class CaptureFds:
    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.tmp = tempfile.TemporaryFile()
        self.saved = (os.dup(1), os.dup(2))
        os.dup2(self.tmp.fileno(), 1)
        os.dup2(self.tmp.fileno(), 2)
        return self

    def __exit__(self, *exc):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        os.close(self.saved[0])
        os.close(self.saved[1])
        # replay the output into the run's log and collect "Total tick" lines, chunk by chunk
        self.tmp.seek(0)
        self.ticks = []
        carry = b""
        while True:
            chunk = self.tmp.read(1 << 20)
            if not chunk:
                break
            _write_all(1, chunk)
            lines = (carry + chunk).split(b"\n")
            carry = lines.pop()[-4096:]
            self.ticks += [int(t) for t in TICK_RE.findall(b"\n".join(lines).decode("utf-8", "replace"))]
        self.ticks += [int(t) for t in TICK_RE.findall(carry.decode("utf-8", "replace"))]
        self.tmp.close()
        return False


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except OSError:
            return
        view = view[n:]


def read_launch_report(path, offset, roofline=None, warnings=None):
    """Sum of ``ticks`` over the JSON lines appended after ``offset``; (ticks or None, new offset).
    ``roofline``: a list that gets the launches' roofline efficiency (their ideal ticks over their ticks);
    ``warnings``: a list that gets the launches' warnings (``launch_warning``), each distinct one once."""
    if not path or not os.path.exists(path):
        return None, offset
    with open(path, "rb") as fh:
        fh.seek(offset)
        data = fh.read()
        new_offset = fh.tell()
    total, seen, ideal = 0, False, 0.0
    for line in data.decode("utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("ticks"), (int, float)):
            total += int(entry["ticks"])
            seen = True
            for w in entry.get("warnings") or ():
                w = launch_warning(w)
                if warnings is not None and w not in warnings:
                    warnings.append(w)
            roof = entry.get("roofline")
            if isinstance(roof, dict) and isinstance(roof.get("ideal_ticks"), (int, float)):
                ideal += float(roof["ideal_ticks"])
    if roofline is not None and seen and total and ideal:
        roofline.append(round(ideal / total, 4))
    return (total if seen else None), new_offset


def launch_warning(w):
    """A launch-report warning as the harness keeps it: {kind, where (file base name:line), message}."""
    if not isinstance(w, dict):   # (a report of an engine that lists texts)
        return {"kind": "KernelWarning", "where": None, "message": str(w)}
    where = f"{os.path.basename(str(w['file']))}:{w['line']}" if w.get("file") and w.get("line") else None
    return {"kind": str(w.get("kind") or "KernelWarning"), "where": where,
            "message": str(w.get("message") or w.get("text") or "")}

#!/usr/bin/env python3
"""Wall time of the golden kernel library on this machine.

Runs every case of every file in golden/kernels/ (full shapes included) through the golden interface
-- make_inputs, reference, launch -- in one process on Backend.Model / Ascend950PR_9599, checks each
result against the reference (float64, atol + rtol * |ref|), and prints one row per file: the time
to import it, to build inputs, to compute the reference, to launch, its total, and the simulated
ticks summed over its launches. The last line is the total wall time of the whole set, interpreter
start-up and imports included.

    python bench/goldens.py                 # all files
    python bench/goldens.py --quick         # skip full_only cases
    python bench/goldens.py --cli           # time each file's own CLI run (python FILE -r Model -v ...)
    python bench/goldens.py golden/kernels/abs_f16.py ...
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

START = time.perf_counter()

from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
KERNELS = REPO / "golden" / "kernels"


def to_float64(value):
    if hasattr(value, "detach"):
        import torch

        return value.detach().cpu().to(torch.float64).numpy()
    return np.asarray(value).astype(np.float64)


def mismatches(outputs, references, atol, rtol):
    outs = outputs if isinstance(outputs, tuple) else (outputs,)
    refs = references if isinstance(references, tuple) else (references,)
    bad = 0
    for o, r in zip(outs, refs):
        o64, r64 = to_float64(o).ravel(), to_float64(r).ravel()
        finite = np.isfinite(r64)
        bad += int(np.count_nonzero(finite & ~np.isfinite(o64)))
        both = finite & np.isfinite(o64)
        bad += int(np.count_nonzero(np.abs(o64[both] - r64[both]) > atol + rtol * np.abs(r64[both])))
    return bad


def read_ticks(report, offset):
    if not os.path.exists(report):
        return 0, offset
    with open(report, encoding="utf-8") as f:
        f.seek(offset)
        lines = f.read().splitlines()
        offset = f.tell()
    return sum(json.loads(line)["ticks"] for line in lines if line.strip()), offset


def bench_in_process(files, quick):
    report = os.path.join(tempfile.mkdtemp(prefix="bench-goldens-"), "launches.jsonl")
    os.environ["ASC_LAUNCH_REPORT"] = report
    import asc.runtime.config as config

    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rows, failures, offset = [], [], 0
    for path in files:
        t0 = time.perf_counter()
        spec = importlib.util.spec_from_file_location(f"golden_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        t_import = time.perf_counter() - t0
        t_inputs = t_ref = t_launch = 0.0
        ticks = ncases = 0
        for case in module.CASES:
            if quick and case.get("full_only"):
                continue
            ncases += 1
            t = time.perf_counter()
            inputs = module.make_inputs(case)
            inputs = inputs if isinstance(inputs, tuple) else (inputs,)
            t_inputs += time.perf_counter() - t
            t = time.perf_counter()
            expected = module.reference(*inputs)
            t_ref += time.perf_counter() - t
            t = time.perf_counter()
            out = module.launch(*inputs)
            t_launch += time.perf_counter() - t
            n_bad = mismatches(out, expected, case.get("atol", module.TOLERANCE["atol"]),
                               case.get("rtol", module.TOLERANCE["rtol"]))
            if n_bad:
                failures.append(f"{path.name} {case['id']}: {n_bad} element(s) outside the tolerance")
            launched, offset = read_ticks(report, offset)
            ticks += launched
        total = time.perf_counter() - t0
        rows.append((path.name, ncases, t_import, t_inputs, t_ref, t_launch, total, ticks))
    header = ("file", "cases", "import_s", "inputs_s", "reference_s", "launch_s", "total_s", "ticks")
    print(f"{header[0]:<20} {header[1]:>5} {header[2]:>9} {header[3]:>9} {header[4]:>11} {header[5]:>9} "
          f"{header[6]:>8} {header[7]:>9}")
    for name, n, a, b, c, d, e, k in rows:
        print(f"{name:<20} {n:>5} {a:>9.3f} {b:>9.3f} {c:>11.3f} {d:>9.3f} {e:>8.3f} {k:>9}")
    files_total = sum(r[6] for r in rows)
    print(f"{'sum of files':<20} {sum(r[1] for r in rows):>5} {'':>9} {'':>9} {'':>11} "
          f"{sum(r[5] for r in rows):>9.3f} {files_total:>8.3f} {sum(r[7] for r in rows):>9}")
    print(f"total wall time (process start-up, imports, {len(rows)} files): {time.perf_counter() - START:.2f} s")
    return failures


def bench_cli(files, quick):
    if quick:
        print("note: --cli runs each file's own CLI, which always runs every case", file=sys.stderr)
    failures, total = [], 0.0
    print(f"{'file':<20} {'wall_s':>8}  status")
    for path in files:
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, str(path), "-r", "Model", "-v", "Ascend950PR_9599"], cwd=REPO,
                              capture_output=True, text=True)
        wall = time.perf_counter() - t
        total += wall
        status = "ok" if proc.returncode == 0 else f"exit {proc.returncode}"
        if proc.returncode:
            failures.append(f"{path.name}: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else status}")
        print(f"{path.name:<20} {wall:>8.2f}  {status}")
    print(f"total wall time ({len(files)} processes, run one after another): {total:.2f} s")
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description="Wall time of the golden kernel library.")
    parser.add_argument("files", nargs="*", type=Path, help="golden files (default: all of golden/kernels)")
    parser.add_argument("--quick", action="store_true", help="skip full_only cases")
    parser.add_argument("--cli", action="store_true", help="time each file's CLI in its own process")
    args = parser.parse_args(argv)
    files = [p.resolve() for p in args.files] or sorted(p for p in KERNELS.glob("*.py") if not p.name.startswith("_"))
    failures = bench_cli(files, args.quick) if args.cli else bench_in_process(files, args.quick)
    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""The v1 tick path against camodel: on every cell with a camodel figure of CANN's operator (the cell's
``reference`` in capabilities.yaml: an ``aclnn*`` launch's Total tick, same shape, same platform) that also
has an Ascend C reference kernel (golden/ascendc/), the reference kernel's modelled ticks at that shape
next to camodel's, the error (model / camodel - 1) per row and the median absolute error.

The two are different programs computing the same operator (our hand-written v1 kernel, CANN's
ops-math / ops-nn kernel), so the error mixes the tick model's error with the difference between the
kernels; rows whose operator has no reference kernel yet are listed as such.

    .venv/bin/python bench/ascendc_vs_camodel.py [--markdown]
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import tempfile
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"ascendc_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def modelled_ticks(kernel: Path, platform: str, shape: list) -> int:
    """Ticks of the kernel file's case at ``shape`` on ``platform`` (summed over its launches)."""
    import asc.runtime.config as config

    mod = _load(kernel)
    case = next((c for c in mod.CASES if list(c["shape"]) == list(shape)), None)
    if case is None:
        raise SystemExit(f"{kernel} has no case of shape {shape}")
    config.set_platform(config.Backend.Model, config.Platform(platform))
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "launches.jsonl"
        os.environ["ASC_LAUNCH_REPORT"] = str(log)     # every launch appends its report (docs/interfaces.md)
        try:
            mod.launch(*mod.make_inputs(case))
        finally:
            del os.environ["ASC_LAUNCH_REPORT"]
        return sum(json.loads(line)["ticks"] for line in log.read_text().splitlines() if line.strip())


def rows(cap: Path = ROOT / "capabilities.yaml") -> list[dict]:
    doc = yaml.safe_load(cap.read_text())
    out = []
    for c in doc["cells"]:
        ref = c.get("reference")
        if not ref:
            continue
        row = {"cell": c["id"], "impl": ref["impl"], "shape": ref["shape"], "camodel": ref["ticks"],
               "kernel": c.get("ascendc"), "model": None, "error": None}
        if row["kernel"]:
            row["model"] = modelled_ticks(ROOT / row["kernel"], c["platform"], ref["shape"])
            row["error"] = row["model"] / row["camodel"] - 1.0
        out.append(row)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--markdown", action="store_true", help="print a markdown table (for docs/simulator.md)")
    args = p.parse_args(argv)
    table = rows()
    errors = [abs(r["error"]) for r in table if r["error"] is not None]
    if args.markdown:
        print("| cell | CANN operator | shape | camodel ticks | v1 reference ticks | error |")
        print("|---|---|---|---:|---:|---:|")
        for r in table:
            shape = "x".join(map(str, r["shape"]))
            if r["model"] is None:
                print(f"| {r['cell']} | {r['impl']} | {shape} | {r['camodel']} | no reference kernel | |")
            else:
                print(f"| {r['cell']} | {r['impl']} | {shape} | {r['camodel']} | {r['model']} | {r['error']:+.1%} |")
    else:
        print(f"{'cell':38s} {'operator':20s} {'shape':>10s} {'camodel':>8s} {'v1 ref':>8s} {'error':>8s}")
        for r in table:
            shape = "x".join(map(str, r["shape"]))
            model = "-" if r["model"] is None else str(r["model"])
            err = "no reference kernel" if r["error"] is None else f"{r['error']:+.1%}"
            print(f"{r['cell']:38s} {r['impl']:20s} {shape:>10s} {r['camodel']:>8d} {model:>8s} {err:>8s}")
    if errors:
        print(f"{len(errors)} of {len(table)} rows compared; median |error| {statistics.median(errors):.1%}, "
              f"largest {max(errors):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

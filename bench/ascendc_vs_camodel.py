"""The v1 tick path against camodel: on every cell with a camodel figure of CANN's operator (the cell's
``reference`` in capabilities.yaml: an ``aclnn*`` launch's Total tick, same shape, same platform) that also
has an Ascend C reference kernel (golden/ascendc/), the reference kernel's modelled ticks at that shape
next to camodel's, the error (model / camodel - 1) per row and the median absolute error.

The two are different programs computing the same operator (our hand-written v1 kernel, CANN's
ops-math / ops-nn kernel), so the error mixes the tick model's error with the difference between the
kernels; rows whose operator has no reference kernel yet are listed as such.

    .venv/bin/python bench/ascendc_vs_camodel.py [--markdown] [--variants]
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


def modelled_ticks(kernel: Path, platform: str, shape: list, variant=None) -> int:
    """Ticks of the kernel file's case at ``shape`` on ``platform`` (summed over its launches); ``variant``
    changes the loaded module first (its host tiling)."""
    import asc.runtime.config as config

    mod = _load(kernel)
    if variant is not None:
        variant(mod)
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


def _row_cores(cores):
    """reduce_sum's rows over ``cores`` vector cores instead of all of them."""
    def patch(mod):
        own = mod.tiling

        def tiling(rows, cols):
            _, stride, _, tile_rows = own(rows, cols)
            core_rows = -(-rows // cores)
            return -(-rows // core_rows), stride, core_rows, min(tile_rows, core_rows)
        mod.tiling = tiling
    return patch


def _tiles(cores, tiles):
    """An elementwise reference's elements over ``cores`` cores in ``tiles`` tiles a core."""
    def patch(mod):
        def tiling(total_len):
            aligned_len = total_len // mod.ALIGN * mod.ALIGN
            core_len = -(-(aligned_len // mod.ALIGN) // cores) * mod.ALIGN
            return -(-aligned_len // core_len), core_len, aligned_len, -(-core_len // (tiles * mod.ALIGN)) * mod.ALIGN
        mod.tiling = tiling
    return patch


# Schedules CANN's operator might follow where the reference's differs, each a change of the reference's host
# tiling (docs/simulator.md, "The v1 tick path against camodel", says what each shows).
VARIANTS = {
    "reduce_sum/float16/Ascend950PR_9599": [("rows over 16 cores", _row_cores(16)), ("rows over 8 cores", _row_cores(8))],
    "reduce_sum/float32/Ascend950PR_9599": [("rows over 16 cores", _row_cores(16)), ("rows over 8 cores", _row_cores(8))],
    "gelu/float32/Ascend950PR_9599": [("16 cores, 2 tiles a core", _tiles(16, 2)), ("32 cores, 1 tile a core", _tiles(32, 1))],
    "apply_adam/float32/Ascend950PR_9599": [("32 cores, 1 tile a core", _tiles(32, 1)),
                                            ("16 cores, 2 tiles a core", _tiles(16, 2))],
}


def variant_rows(cap: Path = ROOT / "capabilities.yaml") -> list[dict]:
    """The VARIANTS' modelled ticks next to camodel's figure of CANN's operator."""
    doc = yaml.safe_load(cap.read_text())
    out = []
    for c in doc["cells"]:
        for label, patch in VARIANTS.get(c["id"], ()):
            ref = c["reference"]
            model = modelled_ticks(ROOT / c["ascendc"], c["platform"], ref["shape"], patch)
            out.append({"cell": c["id"], "variant": label, "camodel": ref["ticks"], "model": model,
                        "error": model / ref["ticks"] - 1.0})
    return out


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
    p.add_argument("--variants", action="store_true",
                   help="also run the references with the host tilings of VARIANTS (CANN-like schedules)")
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
    if args.variants:
        print()
        print("| cell | reference variant | camodel ticks | v1 ticks | error |")
        print("|---|---|---:|---:|---:|")
        for r in variant_rows():
            print(f"| {r['cell']} | {r['variant']} | {r['camodel']} | {r['model']} | {r['error']:+.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

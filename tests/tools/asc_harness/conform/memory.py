"""conformance-memory: the on-chip bytes pyasc-dev's compiler allots each corpus kernel against this engine's.

pyasc's launcher refuses a kernel whose compiled ``memory_consumed`` exceeds a memory of the platform
("UB overflow: 253952 bytes are available, ... are used."); this engine checks its own memory plan
(``runtime/memory_plan.py``) the same way. A kernel that fits there must fit here and the other way round,
so each accepted corpus case (``conformance/corpus``) runs through ``memory_driver.py`` twice per
platform: under pyasc-dev (its real code generator and pass pipeline, the C++ compilation stubbed out)
and under this engine (the plan, nothing run). Reported per launch: both figures per memory, and whether
they put the kernel on the same side of the platform's capacity.

A launch whose two figures fall on different sides of a capacity is a disagreement (exit 1): one engine
would run a kernel the other refuses. Figures that differ but agree on the verdict are listed and counted.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

from tabulate import tabulate

from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import default_root
from asc_harness.conform.conformance import load_corpus, write_json
from asc_harness.conform.pyasc_dev import DEFAULT_VENV, pyasc_interpreter
from asc_harness.run import sandbox
from asc_harness.store.cli import make_parser, run_main

PROG = "conformance-memory"
EXIT_CODES = """\
  0  every launch is on the same side of every capacity in both engines
  1  a launch fits in one engine and overflows in the other
  2  cannot run: no pyasc-dev interpreter, bad corpus, or a driver failed on every case"""
DRIVER = Path(__file__).resolve().parent / "memory_driver.py"
PLATFORMS = ("Ascend950PR_9599", "Ascend910B1")
MEMORY_MB = 8192


def capacities(platform: str) -> dict[str, int]:
    """Bytes of each on-chip memory (this engine's platform table, the figures pyasc's launcher checks)."""
    from asc.runtime.config import Platform
    from asc.runtime.platforms import hardware
    hw = hardware(Platform(platform))
    return {"UB": hw.ub_bytes, "L1": hw.l1_bytes, "L0A": hw.l0a_bytes, "L0B": hw.l0b_bytes, "L0C": hw.l0c_bytes}


def run_driver(python: Path, case_path: Path, platform: str, timeout_s: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="asc-memory-") as tmp:
        result = Path(tmp) / "result.json"
        sb = sandbox.run([str(python), str(DRIVER), str(case_path), str(result), platform], timeout_s=timeout_s,
                         memory_mb=MEMORY_MB, writable=[tmp], readable=[case_path.parent, python.parent],
                         network=False)
        if sb.timed_out:
            return {"launches": [], "error": f"timed out after {timeout_s:g} s"}
        try:
            return json.loads(result.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = "\n".join((sb.error or sb.stderr).strip().splitlines()[-3:])
            return {"launches": [], "error": f"the driver wrote no result (exit {sb.exit_code}): {tail}"}


def compare_launches(case: str, platform: str, up: dict, here: dict, caps: dict[str, int]) -> list[dict]:
    """One row per launch both engines reached: the figures per memory and the verdicts."""
    rows = []
    ours = {l["case"]: l for l in here.get("launches", [])}
    for u in up.get("launches", []):
        h = ours.get(u["case"])
        row = {"case": case, "launch": u["case"], "platform": platform, "pyasc": u.get("memory"),
               "here": (h or {}).get("memory"), "note": u.get("error") or (h or {}).get("error")}
        if row["pyasc"] is None or row["here"] is None:
            row["status"] = "not compared"
            rows.append(row)
            continue
        differ, disagree = [], []
        for mem in sorted(set(row["pyasc"]) | set(row["here"])):
            a, b = row["pyasc"].get(mem, 0), row["here"].get(mem, 0)
            if a != b:
                differ.append(mem)
            cap = caps.get(mem)
            if cap is not None and (a > cap) != (b > cap):
                disagree.append(mem)
        row["status"] = "DISAGREE" if disagree else ("differs" if differ else "equal")
        row["memories"] = disagree or differ
        rows.append(row)
    return rows


def summary(rows: list[dict]) -> dict:
    compared = [r for r in rows if r["status"] != "not compared"]
    ratios = [r["here"].get("UB", 0) / r["pyasc"]["UB"] for r in compared if r["pyasc"].get("UB")]
    return {"launches": len(rows), "compared": len(compared),
            "equal": sum(r["status"] == "equal" for r in compared),
            "differs": sum(r["status"] == "differs" for r in compared),
            "disagree": sum(r["status"] == "DISAGREE" for r in compared),
            "here_higher": sum(r["here"].get("UB", 0) > r["pyasc"].get("UB", 0) for r in compared),
            "here_lower": sum(r["here"].get("UB", 0) < r["pyasc"].get("UB", 0) for r in compared),
            "ub_ratio_median": round(statistics.median(ratios), 3) if ratios else None,
            "ub_ratio_range": [round(min(ratios), 3), round(max(ratios), 3)] if ratios else None}


def _fmt(mem: dict | None) -> str:
    return "-" if mem is None else " ".join(f"{k} {v}" for k, v in sorted(mem.items()))


def _parser():
    root = default_root()
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    p.add_argument("cases", nargs="*", metavar="PATTERN", help="only cases matching these globs, e.g. 'golden/*'")
    p.add_argument("--corpus", type=Path, default=root / "conformance" / "corpus", help="corpus directory")
    p.add_argument("--pyasc-python", metavar="PATH",
                   help="interpreter of a pyasc-dev virtualenv (default: $PYASC_DEV_PYTHON, else --venv)")
    p.add_argument("--venv", type=Path, default=Path(os.environ.get("PYASC_DEV_VENV") or DEFAULT_VENV),
                   help=f"the pyasc-dev virtualenv (default: $PYASC_DEV_VENV or {DEFAULT_VENV})")
    p.add_argument("--setup", action="store_true", help="create the virtualenv and install pyasc-dev if missing")
    p.add_argument("--platform", action="append", choices=PLATFORMS,
                   help="platform (repeatable; default: both)")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    p.add_argument("--all", action="store_true", help="list equal launches too (default: differences only)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="cases run at once (default 2)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per run of one case")
    return p


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    cases = [c for c in load_corpus(args.corpus, args.cases) if c.expect == "accept"]
    python = pyasc_interpreter(args.pyasc_python, args.venv, args.setup)
    platforms = args.platform or list(PLATFORMS)
    jobs = [(c, p) for c in cases for p in platforms]

    def one(job):
        case, platform = job
        up = run_driver(python, case.path, platform, args.timeout)
        here = run_driver(Path(sys.executable), case.path, platform, args.timeout)
        rows = compare_launches(case.name, platform, up, here, capacities(platform))
        problems = [f"{case.name} @ {platform}: {side}: {d['error']}" for side, d in (("pyasc", up), ("here", here))
                    if d.get("error")]
        return rows, problems

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, jobs))
    rows = [r for rs, _ in results for r in rs]
    problems = [p for _, ps in results for p in ps]
    shown = [r for r in rows if args.all or r["status"] != "equal"]
    print(tabulate([[r["case"], r["launch"], r["platform"], _fmt(r["pyasc"]), _fmt(r["here"]), r["status"]]
                    for r in shown], headers=["case", "launch", "platform", "pyasc-dev", "here", "status"]))
    for p in problems:
        print(f"not run: {p}")
    s = summary(rows)
    print(f"{s['launches']} launches ({s['compared']} compared): equal {s['equal']}, figures differ on the same side "
          f"of the capacity {s['differs']}, disagree {s['disagree']}; UB here higher {s['here_higher']}, lower "
          f"{s['here_lower']}, here / pyasc-dev median {s['ub_ratio_median']} range {s['ub_ratio_range']}")
    if args.json:
        write_json(args.json, {"pyasc_python": str(python), "summary": s, "launches": rows, "problems": problems})
    if not s["compared"] and jobs:
        raise HarnessError("no launch was compared: " + ("; ".join(problems[:3]) or "no launches"))
    return 1 if s["disagree"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())

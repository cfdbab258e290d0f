"""conformance-compile: what pyasc-dev's compiler says of each corpus kernel, against this engine.

``conformance`` asks pyasc-dev's interpreter mode, whose front end lets through what its compiler refuses
(casts the vector unit lacks, ``real_shape`` loads outside UB, tiles of rank 3, Ascend910B1 queue
placement ...). Here each corpus case (``conformance/corpus``) runs through ``compile_driver.py`` twice per
platform: under pyasc-dev (its real code generator and pass pipeline, only the final C++ compilation
stubbed out) and under this engine (compiled and planned, nothing run). Per launch:

  compile   accepted / rejected by each. A kernel pyasc-dev's compiler refuses must be refused here (and the
            other way round); when both refuse, pyasc's own message must be contained in this engine's.
  memory    the on-chip bytes: pyasc's launcher refuses a kernel whose ``memory_consumed`` exceeds a memory
            ("UB overflow: 253952 bytes are available, ... are used."), this engine checks its memory plan
            (``runtime/memory_plan.py``) the same way, so the two figures must fall on the same side of
            every capacity. Figures that differ on the same side are listed and counted.

A disagreement passes when ``conformance/allowlist.yaml`` lists it (aspects ``compile`` / ``memory``) with a
reason.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

from tabulate import tabulate

from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import default_root
from asc_harness.conform.conformance import COMPILE_ASPECTS, load_allowlist, load_corpus, write_json
from asc_harness.conform.sandboxed import run_driver as sandboxed_driver
from asc_harness.conform.pyasc_dev import DEFAULT_VENV, pyasc_interpreter
from asc_harness.store.cli import make_parser, run_main

PROG = "conformance-compile"
EXIT_CODES = """\
  0  no disagreement, or each one is in the allow-list
  1  a launch compiles in one engine and not in the other, a message or a capacity verdict differs, unlisted
  2  cannot run: no pyasc-dev interpreter, bad corpus or allow-list, or no launch could be compared"""
DRIVER = Path(__file__).resolve().parent / "compile_driver.py"
PLATFORMS = ("Ascend950PR_9599", "Ascend910B1")


def capacities(platform: str) -> dict[str, int]:
    """Bytes of each on-chip memory (this engine's platform table, the figures pyasc's launcher checks)."""
    from asc.runtime.config import Platform
    from asc.runtime.platforms import hardware
    hw = hardware(Platform(platform))
    return {"UB": hw.ub_bytes, "L1": hw.l1_bytes, "L0A": hw.l0a_bytes, "L0B": hw.l0b_bytes, "L0C": hw.l0c_bytes}


def run_driver(python: Path, case_path: Path, platform: str, timeout_s: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="asc-compile-") as tmp:
        data, problem = sandboxed_driver(python, DRIVER, case_path, Path(tmp) / "result.json", [platform],
                                         timeout_s=timeout_s)
        return data if data is not None else {"launches": [], "error": problem}


_EXC_LINE = re.compile(r"^(?:\w+\.)*(\w*(?:Error|Exception)): (.*)$", re.M)


def _own_text(launch: dict) -> str:
    """The error line of a rejection (``Type: message``), without the source excerpt around it."""
    text = str(launch.get("error") or "")
    found = _EXC_LINE.findall(text)
    return f"{found[-1][0]}: {found[-1][1]}" if found else (launch.get("message") or text)


def _compile_row(row: dict, u: dict, h: dict, expect: str) -> None:
    """Both engines reached the launch and at least one refused it: the verdicts, or the messages. Messages
    are compared for refusals of pyasc-dev's pass pipeline of kernels meant to compile only (front-end
    messages and those of the corpus's invalid kernels are ``conformance``'s)."""
    if "memory" in u:
        row["status"], row["aspect"] = "DISAGREE", "compile"
        row["detail"] = f"this engine refuses what pyasc-dev's compiler accepts: {_one_line(_own_text(h))}"
    elif "memory" in h:
        row["status"], row["aspect"] = "DISAGREE", "compile"
        row["detail"] = f"pyasc-dev's compiler refuses (line {u.get('line')}): {_one_line(u.get('message'))}"
    elif expect == "reject" or "Failed to run passes" not in str(u.get("error")) \
            or str(u.get("message") or "").strip() in str(h.get("error")):
        row["status"] = "both refuse"
    else:
        row["status"], row["aspect"] = "DISAGREE", "compile"
        row["detail"] = (f"both refuse, with other messages: pyasc-dev {_one_line(u.get('message'))!r}; here "
                         f"{_one_line(_own_text(h))!r}")


def _one_line(text, limit: int = 200) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def compare_launches(case: str, platform: str, up: dict, here: dict, caps: dict[str, int],
                     expect: str = "accept") -> list[dict]:
    """One row per launch pyasc-dev reached: the verdicts, and the figures per memory when both compiled."""
    rows = []
    ours = {l["case"]: l for l in here.get("launches", [])}
    for u in up.get("launches", []):
        h = ours.get(u["case"])
        row = {"case": case, "launch": u["case"], "platform": platform, "pyasc": u.get("memory"),
               "here": (h or {}).get("memory"), "aspect": None, "detail": None}
        rows.append(row)
        if h is None or "finished without a launch" in str(u.get("error")) + str(h.get("error")):
            row["status"], row["detail"] = "not compared", "a launch only one engine reached"
            continue
        if row["pyasc"] is None or row["here"] is None:
            _compile_row(row, u, h, expect)
            continue
        differ, disagree = [], []
        for mem in sorted(set(row["pyasc"]) | set(row["here"])):
            a, b = row["pyasc"].get(mem, 0), row["here"].get(mem, 0)
            if a != b:
                differ.append(mem)
            cap = caps.get(mem)
            if cap is not None and (a > cap) != (b > cap):
                disagree.append(f"{mem}: pyasc-dev {a}, here {b}, capacity {cap}")
        if disagree:
            row["status"], row["aspect"], row["detail"] = "DISAGREE", "memory", "; ".join(disagree)
        else:
            row["status"] = "differs" if differ else "equal"
    return rows


def judge(rows: list[dict], allowed: dict) -> None:
    """Marks each disagreement allowed (by case and aspect) or not, in place."""
    for r in rows:
        entry = allowed.get((r["case"], r["aspect"])) if r["status"] == "DISAGREE" else None
        r["allowed"] = {"kind": entry["kind"], "reason": str(entry["reason"]).strip()} if entry else None


def summary(rows: list[dict]) -> dict:
    both = [r for r in rows if r["pyasc"] is not None and r["here"] is not None]
    ratios = [r["here"].get("UB", 0) / r["pyasc"]["UB"] for r in both if r["pyasc"].get("UB")]
    disagree = [r for r in rows if r["status"] == "DISAGREE"]
    return {"launches": len(rows), "both_compile": len(both),
            "pyasc_refuses": sum(r["pyasc"] is None and r["status"] != "not compared" for r in rows),
            "both_refuse": sum(r["status"] == "both refuse" for r in rows),
            "equal": sum(r["status"] == "equal" for r in rows),
            "differs": sum(r["status"] == "differs" for r in rows),
            "compile_disagree": sum(r["aspect"] == "compile" for r in disagree),
            "memory_disagree": sum(r["aspect"] == "memory" for r in disagree),
            "allowed": sum(bool(r.get("allowed")) for r in disagree),
            "not_allowed": sum(not r.get("allowed") for r in disagree),
            "here_higher": sum(r["here"].get("UB", 0) > r["pyasc"].get("UB", 0) for r in both),
            "here_lower": sum(r["here"].get("UB", 0) < r["pyasc"].get("UB", 0) for r in both),
            "ub_ratio_median": round(statistics.median(ratios), 3) if ratios else None,
            "ub_ratio_range": [round(min(ratios), 3), round(max(ratios), 3)] if ratios else None}


def _fmt(mem: dict | None) -> str:
    return "-" if mem is None else " ".join(f"{k} {v}" for k, v in sorted(mem.items()))


def _parser():
    root = default_root()
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    p.add_argument("cases", nargs="*", metavar="PATTERN", help="only cases matching these globs, e.g. 'golden/*'")
    p.add_argument("--corpus", type=Path, default=root / "conformance" / "corpus", help="corpus directory")
    p.add_argument("--allowlist", type=Path, default=root / "conformance" / "allowlist.yaml",
                   help="reasoned allow-list of known disagreements (aspects compile / memory)")
    p.add_argument("--pyasc-python", metavar="PATH",
                   help="interpreter of a pyasc-dev virtualenv (default: $PYASC_DEV_PYTHON, else --venv)")
    p.add_argument("--venv", type=Path, default=Path(os.environ.get("PYASC_DEV_VENV") or DEFAULT_VENV),
                   help=f"the pyasc-dev virtualenv (default: $PYASC_DEV_VENV or {DEFAULT_VENV})")
    p.add_argument("--setup", action="store_true", help="create the virtualenv and install pyasc-dev if missing")
    p.add_argument("--platform", action="append", choices=PLATFORMS,
                   help="platform (repeatable; default: both)")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    p.add_argument("--all", action="store_true", help="list every launch (default: those that differ)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="cases run at once (default 2)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per run of one case")
    return p


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    cases = load_corpus(args.corpus, args.cases)
    allowed = load_allowlist(args.allowlist)
    python = pyasc_interpreter(args.pyasc_python, args.venv, args.setup)
    platforms = args.platform or list(PLATFORMS)
    jobs = [(c, p) for c in cases for p in platforms]

    def one(job):
        case, platform = job
        up = run_driver(python, case.path, platform, args.timeout)
        here = run_driver(Path(sys.executable), case.path, platform, args.timeout)
        rows = compare_launches(case.name, platform, up, here, capacities(platform), case.expect)
        problems = [f"{case.name} @ {platform}: {side}: {d['error']}" for side, d in (("pyasc", up), ("here", here))
                    if d.get("error")]
        return rows, problems

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, jobs))
    rows = [r for rs, _ in results for r in rs]
    problems = [p for _, ps in results for p in ps]
    judge(rows, allowed)
    shown = [r for r in rows if args.all or r["status"] not in ("equal", "both refuse")]
    print(tabulate([[r["case"], r["launch"], r["platform"], _fmt(r["pyasc"]), _fmt(r["here"]),
                     r["status"] + (f" ({r['aspect']}, allowed)" if r.get("allowed") else "")] for r in shown],
                   headers=["case", "launch", "platform", "pyasc-dev", "here", "status"]))
    for r in rows:
        if r["status"] == "DISAGREE":
            tag = f"allowed ({r['allowed']['kind']})" if r["allowed"] else "NOT ALLOWED"
            print(f"{r['case']} [{r['launch']} @ {r['platform']}]: {r['aspect']} {tag}: {r['detail']}")
    for p in problems:
        print(f"not run: {p}")
    used = {(r["case"], r["aspect"]) for r in rows if r.get("allowed")}
    ran = {r["case"] for r in rows}
    for c, a in sorted(set(allowed) - used):
        if a in COMPILE_ASPECTS and c in ran:
            print(f"note: the allow-list entry {c} ({a}) matched no disagreement")
    s = summary(rows)
    print(f"{s['launches']} launches: both compile {s['both_compile']} (memory equal {s['equal']}, differs on the "
          f"same side of the capacity {s['differs']}, disagrees {s['memory_disagree']}), pyasc-dev's compiler "
          f"refuses {s['pyasc_refuses']} (this engine too, same message: {s['both_refuse']}); compile verdicts "
          f"or messages disagree {s['compile_disagree']}; disagreements allowed {s['allowed']}, not "
          f"{s['not_allowed']}; UB here higher {s['here_higher']}, lower {s['here_lower']}, here / pyasc-dev "
          f"median {s['ub_ratio_median']} range {s['ub_ratio_range']}")
    if args.json:
        write_json(args.json, {"pyasc_python": str(python), "summary": s, "launches": rows, "problems": problems})
    if not rows and jobs:
        raise HarnessError("no launch was compared: " + ("; ".join(problems[:3]) or "no launches"))
    return 1 if s["not_allowed"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())

"""conformance: differential runs of a corpus of asctile kernels on pyasc-dev and on this engine.

Each case of the corpus (``conformance/corpus/**/*.py``) runs twice through ``conformance_driver.py``:
under the interpreter of a pyasc-dev virtualenv with ``ASCTILE_INTERPRET=1`` (upstream's real front end,
then its numpy interpreter) and under this environment's interpreter (the embedded engine). Compared:

  verdict   accepted / rejected. pyasc's verdict is its front end's: when the front end accepted a
            kernel and only the interpreter failed (it lacks ops such as abs or ``*``), the verdict is
            "accepted" and the results are not compared.
  message   when both reject: pyasc's error text must be contained in this engine's.
  results   when both ran: every output, same shape, equal within the case's TOLERANCE.
  expected  this engine against the case's own EXPECT ("accept" / "reject") and ERROR (a text its
            message must contain).

A disagreement of the first three kinds passes when ``conformance/allowlist.yaml`` lists it with a
reason; an unmet expectation always fails. A case may name, in ``PENDING``, engine work it waits for: it still
fails until that lands, and the report says so.
"""

from __future__ import annotations

import fnmatch
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import yaml
from tabulate import tabulate

from asc_harness.store.cli import make_parser, run_main
from asc_harness.common.errors import HarnessError
from asc_harness.store.kernelfile import read_kernel_file
from asc_harness.common.paths import default_root
from asc_harness.conform.pyasc_dev import DEFAULT_VENV, pyasc_interpreter
from asc_harness.conform.sandboxed import run_driver

PROG = "conformance"
EXIT_CODES = """\
  0  no disagreement, or each one is listed in the allow-list
  1  a disagreement not in the allow-list, or this engine misses a case's expectation
  2  cannot run: no pyasc-dev interpreter, its virtualenv cannot be set up, bad corpus or allow-list"""
DRIVER = Path(__file__).resolve().parent / "conformance_driver.py"
ALLOW_KINDS = {
    "interpreter-gap": "upstream's interpreter cannot run or check this",
    "engine-check": "this engine reports a mistake on purpose that upstream's front end lets through",
    "engine-extension": "this engine accepts on purpose what upstream rejects (a documented extension)",
    "upstream-text": "upstream's error text is wrong; this engine keeps a correct one",
    "engine-limit": "this engine cannot simulate this; its error names the limitation (listed in the docs)",
    "upstream-compiler-fault": "pyasc-dev's compiler fails on a kernel its API allows (an internal pass error)",
    "not-yet-enforced": "pyasc-dev refuses this and this engine does not check it yet (listed in the docs)",
}
ASPECTS = ("verdict", "message", "results")
COMPILE_ASPECTS = ("compile", "memory")   # conformance-compile's (compile_check.py), in the same allow-list
DEFAULT_TOLERANCE = {"atol": 1e-5, "rtol": 1e-5}
DEFAULT_TIMEOUT_S = 300.0


# --------------------------------------------------------------------------------------------------
# corpus and allow-list


@dataclass
class Case:
    name: str                      # path below the corpus without .py, e.g. "invalid/break_in_loop"
    path: Path
    expect: str                    # "accept" | "reject"
    error: str | None = None       # text this engine's message must contain
    tolerance: dict = field(default_factory=lambda: dict(DEFAULT_TOLERANCE))
    pending: str | None = None     # engine work the case waits for (it may fail until that lands)


def load_corpus(corpus: Path, patterns: Sequence[str] = ()) -> list[Case]:
    if not corpus.is_dir():
        raise HarnessError(f"corpus directory not found: {corpus}")
    cases = []
    for path in sorted(corpus.rglob("*.py")):
        if path.name.startswith("_"):
            continue
        name = path.relative_to(corpus).with_suffix("").as_posix()
        if patterns and not any(fnmatch.fnmatch(name, p) for p in patterns):
            continue
        kf = read_kernel_file(path)
        if kf.syntax_error:
            raise HarnessError(f"corpus case {name}: {kf.syntax_error}")
        expect = kf.values.get("EXPECT")
        if expect not in ("accept", "reject"):
            raise HarnessError(f"corpus case {name}: EXPECT must be 'accept' or 'reject', got {expect!r}")
        if "run" not in kf.functions and not kf.has_golden_interface:
            raise HarnessError(f"corpus case {name}: defines neither run() nor the golden interface")
        tolerance = dict(DEFAULT_TOLERANCE)
        tolerance.update(kf.values.get("TOLERANCE") or {})
        cases.append(Case(name, path, expect, kf.values.get("ERROR"), tolerance, kf.values.get("PENDING")))
    if not cases:
        raise HarnessError(f"no corpus case in {corpus}" + (f" matches {', '.join(patterns)}" if patterns else ""))
    return cases


def load_allowlist(path: Path) -> dict[tuple[str, str], dict]:
    """{(case, aspect): entry} from the allow-list file (a missing file is an empty list)."""
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise HarnessError(f"{path}: not valid YAML: {exc}") from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise HarnessError(f"{path}: expected a mapping with a list 'entries'")
    allowed = {}
    for i, e in enumerate(entries):
        where = f"{path}: entry {i + 1}"
        if not isinstance(e, dict) or not {"case", "aspect", "kind", "reason"} <= set(e):
            raise HarnessError(f"{where}: needs case, aspect, kind and reason")
        if e["aspect"] not in ASPECTS + COMPILE_ASPECTS:
            raise HarnessError(f"{where}: aspect must be one of {', '.join(ASPECTS + COMPILE_ASPECTS)}, "
                               f"got {e['aspect']!r}")
        if e["kind"] not in ALLOW_KINDS:
            raise HarnessError(f"{where}: kind must be one of {', '.join(ALLOW_KINDS)}, got {e['kind']!r}")
        if not str(e["reason"]).strip():
            raise HarnessError(f"{where}: the reason is empty")
        allowed[(str(e["case"]), e["aspect"])] = e
    return allowed



# --------------------------------------------------------------------------------------------------
# running and comparing


@dataclass
class Run:
    verdict: str | None            # accepted | rejected | None (the driver did not report)
    message: str | None = None
    text: str | None = None
    in_launcher: bool = False
    outputs: dict[str, np.ndarray] | None = None
    problem: str | None = None     # the driver itself failed


def run_case(case: Case, python: Path, env: dict[str, str], platform: str, timeout_s: float) -> Run:
    with tempfile.TemporaryDirectory(prefix="asc-conformance-") as tmp:
        result, outputs = Path(tmp) / "result.json", Path(tmp) / "outputs.npz"
        data, problem = run_driver(python, DRIVER, case.path, result, [str(outputs), platform],
                                   timeout_s=timeout_s, env=env)
        if data is None:
            return Run(None, problem=problem)
        run = Run(data["verdict"], data.get("message"), data.get("text"), bool(data.get("in_launcher")))
        if run.verdict == "accepted":
            with np.load(outputs) as npz:
                run.outputs = {k: npz[k] for k in npz.files}
        return run


def compare_outputs(up: dict[str, np.ndarray], here: dict[str, np.ndarray], tol: dict) -> str | None:
    """None when every output agrees, else what differs."""
    if set(up) != set(here):
        return f"outputs differ: pyasc has {sorted(up)}, here {sorted(here)}"
    for name in sorted(up):
        a, b = up[name], here[name]
        if a.shape != b.shape:
            return f"{name}: shape {a.shape} upstream, {b.shape} here"
        close = np.isclose(b, a, atol=tol["atol"], rtol=tol["rtol"], equal_nan=True)
        if not close.all():
            bad = int((~close).sum())
            i = tuple(int(x) for x in np.argwhere(~close)[0])
            return (f"{name}: {bad}/{a.size} elements differ, first at {list(i)}: upstream {float(a[i])!r}, "
                    f"here {float(b[i])!r}")
    return None


def _one_line(text: str | None, limit: int = 160) -> str:
    """The error's own line: the last one that is not this engine's fix hint or the blocks it happened in."""
    lines = [ln.strip() for ln in (text or "").strip().splitlines()
             if ln.strip() and not ln.startswith(("hint:", "in block(s) "))]
    line = lines[-1] if lines else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def compare(case: Case, up: Run, here: Run) -> dict:
    """The case's entry of the report: each engine's outcome and each aspect's status."""
    up_verdict = "accepted" if up.verdict == "rejected" and up.in_launcher else up.verdict
    entry: dict[str, Any] = {
        "case": case.name, "expect": case.expect,
        "pyasc": {"verdict": up_verdict, "message": up.message, "interpreter_error": None,
                  "problem": up.problem},
        "here": {"verdict": here.verdict, "message": here.text, "problem": here.problem},
        "verdict": None, "message": None, "results": None, "expected": None, "disagreements": [],
        "pending": case.pending,
    }
    if up.in_launcher and up.verdict == "rejected":
        entry["pyasc"]["interpreter_error"] = up.message
    problems = [f"{side}: {r.problem}" for side, r in (("pyasc", up), ("here", here)) if r.problem]
    if problems:  # a run that reported nothing: upstream's is "cannot run", ours is a failure of this engine
        entry["problem"] = "; ".join(problems)
        entry["problem_side"] = "pyasc" if up.problem else "here"
        return entry

    def disagree(aspect: str, detail: str) -> None:
        entry[aspect] = "disagree"
        entry["disagreements"].append({"aspect": aspect, "detail": detail})

    if up_verdict == here.verdict:
        entry["verdict"] = "agree"
    else:
        disagree("verdict", f"pyasc {up_verdict}, here {here.verdict}: "
                            + _one_line(here.text if here.verdict == "rejected" else up.message))
    if up_verdict == here.verdict == "rejected":
        if (up.message or "").strip() in (here.text or ""):
            entry["message"] = "agree"
        else:
            disagree("message", f"pyasc's {_one_line(up.message)!r} is not in ours: {_one_line(here.text)!r}")
    if up.outputs is not None and here.outputs is not None:
        diff = compare_outputs(up.outputs, here.outputs, case.tolerance)
        if diff is None:
            entry["results"] = "agree"
        else:
            disagree("results", diff)
    elif up_verdict == here.verdict == "accepted":
        entry["results"] = "n/a"
    wanted = "accepted" if case.expect == "accept" else "rejected"
    if here.verdict != wanted:
        entry["expected"] = f"expected {wanted}, got {here.verdict}: {_one_line(here.text)}"
    elif case.error and case.error not in (here.text or ""):
        entry["expected"] = f"message lacks {case.error!r}: {_one_line(here.text)}"
    else:
        entry["expected"] = "met"
    return entry


def judge(entries: list[dict], allowed: dict[tuple[str, str], dict]) -> dict:
    """Marks each disagreement allowed or not (in place) and returns the summary figures."""
    used = set()
    for e in entries:
        for d in e["disagreements"]:
            key = (e["case"], d["aspect"])
            if key in allowed:
                used.add(key)
                d["allowed"] = {"kind": allowed[key]["kind"], "reason": str(allowed[key]["reason"]).strip()}
            else:
                d["allowed"] = None
    ran = [e for e in entries if not e.get("problem")]

    def count(aspect: str, value: str) -> int:
        return sum(1 for e in ran if e[aspect] == value)

    return {
        "cases": len(entries), "compared": len(ran),
        "upstream_not_run": sum(1 for e in entries if e.get("problem_side") == "pyasc"),
        "here_not_run": sum(1 for e in entries if e.get("problem_side") == "here"),
        "verdicts_agree": count("verdict", "agree"),
        "messages_compared": count("message", "agree") + count("message", "disagree"),
        "messages_agree": count("message", "agree"),
        "results_compared": count("results", "agree") + count("results", "disagree"),
        "results_agree": count("results", "agree"),
        "results_not_comparable": count("results", "n/a"),
        "disagreements": sum(len(e["disagreements"]) for e in ran),
        "allowed": sum(1 for e in ran for d in e["disagreements"] if d["allowed"]),
        "not_allowed": sum(1 for e in ran for d in e["disagreements"] if not d["allowed"]),
        "expectations_missed": sum(1 for e in ran if e["expected"] != "met"),
        "pending_failing": sum(1 for e in entries if e.get("pending") and _status(e) != "ok"
                               and _status(e) != "allowed"),
        "stale_allowlist": sorted(f"{c} ({a})" for c, a in set(allowed) - used
                                  if a in ASPECTS and any(e["case"] == c for e in ran)),
    }


def run_corpus(cases: list[Case], python: Path, *, platform: str, jobs: int, timeout_s: float) -> list[dict]:
    upstream_env = {"ASCTILE_INTERPRET": "1"}

    def one(case: Case) -> dict:
        up = run_case(case, python, upstream_env, platform, timeout_s)
        here = run_case(case, Path(sys.executable), {}, platform, timeout_s)
        return compare(case, up, here)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, cases))


# --------------------------------------------------------------------------------------------------
# report


def _status(e: dict) -> str:
    if e.get("problem"):
        return "NOT RUN"
    if e["expected"] != "met" or any(not d["allowed"] for d in e["disagreements"]):
        return "FAIL (pending)" if e.get("pending") else "FAIL"
    return "allowed" if e["disagreements"] else "ok"


def table(entries: list[dict]) -> str:
    rows = []
    for e in entries:
        rows.append([e["case"], e["expect"], e["pyasc"]["verdict"] or "-", e["here"]["verdict"] or "-",
                     e["verdict"] or "-", e["message"] or "-", e["results"] or "-", _status(e)])
    return tabulate(rows, headers=["case", "expect", "pyasc", "here", "verdict", "message", "results", "status"])


def details(entries: list[dict]) -> list[str]:
    lines = []
    for e in entries:
        if e.get("problem"):
            lines.append(f"{e['case']}: not run: {e['problem']}")
            continue
        for d in e["disagreements"]:
            tag = f"allowed ({d['allowed']['kind']})" if d["allowed"] else "NOT ALLOWED"
            lines.append(f"{e['case']}: {d['aspect']} {tag}: {d['detail']}")
        if e["expected"] != "met":
            lines.append(f"{e['case']}: expectation missed: {e['expected']}")
        if e.get("pending") and _status(e) not in ("ok", "allowed"):
            lines.append(f"{e['case']}: pending: {e['pending']}")
    return lines


def figures(s: dict) -> str:
    return (f"{s['cases']} cases ({s['compared']} compared); verdicts agree {s['verdicts_agree']}/{s['compared']}; "
            f"messages agree {s['messages_agree']}/{s['messages_compared']}; results agree "
            f"{s['results_agree']}/{s['results_compared']} ({s['results_not_comparable']} accepted cases not "
            f"comparable: upstream interpreter gaps); disagreements {s['disagreements']} ({s['allowed']} allowed, "
            f"{s['not_allowed']} not); expectations missed {s['expectations_missed']}"
            + (f"; failing cases pending engine work {s['pending_failing']}" if s.get("pending_failing") else ""))


def write_json(path: Path, report: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".conformance-", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=1)
    os.replace(tmp, path)


# --------------------------------------------------------------------------------------------------
# command line


def _parser():
    root = default_root()
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    p.add_argument("cases", nargs="*", metavar="PATTERN", help="only cases matching these globs, e.g. 'invalid/*'")
    p.add_argument("--corpus", type=Path, default=root / "conformance" / "corpus", help="corpus directory")
    p.add_argument("--allowlist", type=Path, default=root / "conformance" / "allowlist.yaml",
                   help="reasoned allow-list of known disagreements")
    p.add_argument("--pyasc-python", metavar="PATH",
                   help="interpreter of a pyasc-dev virtualenv (default: $PYASC_DEV_PYTHON, else --venv)")
    p.add_argument("--venv", type=Path, default=Path(os.environ.get("PYASC_DEV_VENV") or DEFAULT_VENV),
                   help=f"the pyasc-dev virtualenv (default: $PYASC_DEV_VENV or {DEFAULT_VENV})")
    p.add_argument("--setup", action="store_true", help="create the virtualenv and install pyasc-dev if missing")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    p.add_argument("-v", "--platform", default="Ascend950PR_9599", help="platform (default Ascend950PR_9599)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="cases run at once (default 2)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds per run of one case")
    return p


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    cases = load_corpus(args.corpus, args.cases)
    allowed = load_allowlist(args.allowlist)
    python = pyasc_interpreter(args.pyasc_python, args.venv, args.setup)
    entries = run_corpus(cases, python, platform=args.platform, jobs=args.jobs, timeout_s=args.timeout)
    summary = judge(entries, allowed)
    print(table(entries))
    for line in details(entries):
        print(line)
    for stale in summary["stale_allowlist"]:
        print(f"note: the allow-list entry {stale} matched no disagreement")
    print(figures(summary))
    if args.json:
        write_json(args.json, {"pyasc_python": str(python), "platform": args.platform, "summary": summary,
                               "cases": entries})
    if summary["upstream_not_run"]:
        return 2
    return 1 if summary["not_allowed"] or summary["expectations_missed"] or summary["here_not_run"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())

"""v1 differential: a corpus of v1 kernels through pyasc-dev's own v1 front end and through this engine.

Each case (``conformance/v1/**/*.py``: a ``@asc.jit`` kernel with one call form, ``run()`` and
``reference(arrays)``) runs under pyasc-dev's interpreter, where its front end builds the kernel's IR, runs its
passes and translates it to Ascend C (the driver stops where the device compiler would start: accepted, or
rejected with its message), and under this project's interpreter on Backend.Model, whose results are checked
against the case's numpy reference. Per case, one outcome:

  agree            both accept and the numbers match numpy
  hardware-rule    pyasc-dev's front end accepts, this engine refuses by a rule upstream's docstrings state
                   (a mask beyond the lanes of one repeat, a field outside its hardware range), message shown;
                   or both reject a kernel of two mistakes and this engine stops at such a rule first
  device-rule      pyasc-dev's front end accepts, this engine refuses an element type the Ascend C instruction
                   is not instantiated for (upstream's device compiler, which the differential stops before,
                   rejects it)
  same-message     both reject and pyasc-dev's message is contained in this engine's
  same-mistake     both reject and the messages name the same mistake (the same argument / overload / dtype)
  numbers          both accept, this engine's numbers differ from numpy
  verdict          one accepts, the other rejects (and no hardware rule explains it)
  message          both reject for different mistakes

A case may set ``DIFFERS = "reason"`` for a disagreement kept on purpose (reported as allowed), ``EXPECT``
(pyasc-dev's verdict when the case was written: a change upstream is a note) and ``HERE`` (this engine's
verdict, default ``EXPECT``; without pyasc-dev the corpus still checks this engine against it and numpy).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Sequence

import numpy as np
from tabulate import tabulate

from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import default_root
from asc_harness.conform.pyasc_dev import DEFAULT_VENV, pyasc_interpreter
from asc_harness.conform.sandboxed import MEMORY_MB
from asc_harness.conform.v1_cases import Case, load_corpus, reference_cases, upstream_sources  # noqa: F401
from asc_harness.run import sandbox
from asc_harness.store.cli import make_parser, run_main

PROG = "conformance-v1"
EXIT_CODES = """\
  0  every case agrees, or its disagreement is kept on purpose (DIFFERS)
  1  a disagreement, or this engine misses a case's HERE verdict or its numbers
  2  cannot run: no pyasc-dev interpreter, a malformed corpus case"""
DRIVER = Path(__file__).resolve().parent / "v1_driver.py"
AGREEING = ("agree", "hardware-rule", "device-rule", "same-message", "same-mistake")
TIMEOUT_S = 600.0

# this engine's refusals of what pyasc-dev's front end lets through, each a rule upstream's docstrings state
HARDWARE_RULES = (
    ("mask beyond the lanes of one repeat", re.compile(r"mask \d+ is outside \[1, \d+\]"),
     "mask (int): [1, 128] for 16-bit, [1, 64] for 32-bit elements"),
    ("mask bits beyond the lanes of one repeat", re.compile(r"mask list selects none|mask list has 1 or 2 words"),
     "mask (list): 2 words for 16-bit, 1 word for 32-bit elements"),
    ("mask register length beyond the lanes of one repeat",
     re.compile(r"set_vector_mask: len \d+ is outside \[1, \d+\]"),
     "set_vector_mask(len) in Normal mode: the first len lanes of one repeat"),
    ("repeat_times beyond its field", re.compile(r"repeat_times \d+ is outside \[0, 255\]"),
     "repeat_times: [0, 255]"),
    ("stride beyond its field", re.compile(r"is outside \[0, 255\] \(the instruction's field\)"),
     "block / repeat strides: uint8 fields"),
    ("on-chip capacity", re.compile(r"capacity"), "UB holds 192 KiB (Ascend910B1)"),
    ("count form of whole repeats", re.compile(r"not a multiple of 256 \(the count form compares whole repeats\)"),
     "Compare's count form: count elements must take a multiple of 256 bytes"),
    ("region proposal field beyond its six", re.compile(r"proposal_\w+: mode_number -?\d+ is outside \[0, 5\]"),
     "proposal_concat / proposal_extract: mode_number in [0, 5] (x1, y1, x2, y2, score, label)"),
    ("shift beyond the element's bits", re.compile(r"shifting \w+ by -?\d+ bits is outside"),
     "Ascend C's ShiftLeft / ShiftRight: scalarValue in [0, bits of T)"),
)
# this engine's refusals of element types the Ascend C instruction has no instantiation for: pyasc-dev's front
# end passes them on and its device compiler (bisheng, absent here) is what rejects them
DEVICE_RULES = (
    ("element type the Ascend C instruction does not take", re.compile(r"Invalid (dst|src\w*) data type, got"),
     "Ascend C's template is instantiated for the types named in the message"),
    ("operands of more than one element type", re.compile(r"takes operands of one element type, got"),
     "Ascend C's template takes one element type T for these operands"),
    ("rounding mode the Ascend C conversion does not take", re.compile(r"cast: CAST_ODD rounds float32 to float16 only"),
     "Ascend C's Cast rounds to odd (CAST_ODD) from float to half only"),
)
# pyasc-dev's message -> the text of ours naming the same mistake (\1 etc. from upstream's match)
SAME_MISTAKE = (
    (re.compile(r"No viable candidates were found to dispatch (?:[\w.]*\.vec_)?(\w+)\(\)"),
     r"\1[:(]? ?(?:\(\))?.*(unexpected arguments|unexpected keyword argument|missing required|"
     r"needs an element count|mask form needs|got multiple values|takes)"),
    (re.compile(r"Invalid (dst|src0|src1|src) data type, got (\w+)"), r"Invalid \1 data type, got \2"),
    (re.compile(r"must be same type"), r"must be same type|one element type"),
    (re.compile(r"(\w+)\(\) missing \d+ required keyword-only arguments?: '(\w+)'"),
     r"\1\(\) missing required (?:keyword )?argument '\2'"),
    # a plain function's signature (copy): the count form it lacks, the repeat parameters left out
    (re.compile(r"(\w+)\(\) missing \d+ required positional arguments?: '(\w+)'"),
     r"\1(?:\(\))?:? (?:has no count form|the mask form needs|missing required argument '\2')"),
    (re.compile(r"Unsupported value type for materialization: list"), r"has no mask-list form"),
    # compare / compare_scalar / select dispatch under their module's name
    (re.compile(r"No viable candidates were found to dispatch asc\.language\.basic\.vec_cmpsel\(\)"),
     r"(?:compare|compare_scalar|select)(?:\(\))?:? (?:unexpected arguments|got an unexpected keyword|"
     r"missing required|needs an element count|the mask form needs|got multiple values|takes)"),
    (re.compile(r"(\w+)\(\) got an unexpected keyword argument '(\w+)'"),
     r"\1(?:\(\))?:? (?:(?:got an )?unexpected (?:keyword )?arguments?.*'\2'|has no count form)"),
    # a jit helper's argument: no IR value for it, or not the type of the helper's first call
    (re.compile(r"Unsupported value type for materialization: (\w+)"),
     r"Unsupported value type for materialization: \1"),
    (re.compile(r"'func.call' op operand type mismatch"), r"'func.call' op operand type mismatch"),
)


# -- running ---------------------------------------------------------------------------------------------
def run_side(side: str, python: Path, paths: list[Path], platform: str = "Ascend910B1",
             timeout_s: float = TIMEOUT_S, upstream: Path | None = None, specs: list | None = None,
             launches: list | None = None) -> list[dict]:
    """One driver run over ``paths`` (given to the driver as ``specs`` where set): per case its verdict, message,
    (here) outputs and reference, and the launches a reference case recorded (``launches``: what pyasc-dev
    compiles of each reference case)."""
    specs = specs or [None] * len(paths)
    with tempfile.TemporaryDirectory(prefix="asc-v1diff-") as tmp:
        results = Path(tmp) / "results.json"
        for i, recorded in enumerate(launches or []):
            if recorded is not None:
                (Path(tmp) / f"{i}.launches.json").write_text(json.dumps(recorded), encoding="utf-8")
        readable = sorted({str(p.parent) for p in paths} | {str(python.parent), str(DRIVER.parent)})
        args = [spec or str(p) for spec, p in zip(specs, paths)]
        sb = sandbox.run([str(python), str(DRIVER), side, str(results), tmp, *args],
                         timeout_s=timeout_s, memory_mb=MEMORY_MB,
                         env_extra={"V1_PLATFORM": platform, "V1_UPSTREAM": str(upstream or "")},
                         writable=[tmp], readable=readable, network=False)
        try:
            data = json.loads(results.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = "\n".join((sb.error or sb.stderr).strip().splitlines()[-5:])
            raise HarnessError(f"the v1 driver ({side}) wrote no result (exit {sb.exit_code}): {tail}") from None
        for i, entry in enumerate(data):
            npz = Path(tmp) / f"{i}.npz"
            if npz.exists():
                with np.load(npz) as z:
                    entry["arrays"] = {k: z[k] for k in z.files}
            recorded = Path(tmp) / f"{i}.launches.json"
            if side == "here" and recorded.exists():
                entry["launches"] = json.loads(recorded.read_text(encoding="utf-8"))
        return data


def compare_numbers(arrays: dict | None, tol: dict | None) -> str | None:
    """None when every ``out.X`` with a ``ref.X`` agrees, else what differs."""
    if not arrays:
        return "no outputs"
    tol = tol or {"atol": 1e-6, "rtol": 1e-6}
    refs = [k[4:] for k in arrays if k.startswith("ref.")]
    if not refs:
        return "the case has no reference"
    for name in sorted(refs):
        got, want = arrays[f"out.{name}"].astype(np.float64), arrays[f"ref.{name}"].astype(np.float64)
        if got.shape != want.shape:
            return f"{name}: shape {got.shape} here, {want.shape} in numpy"
        ok = np.isclose(got, want, atol=tol["atol"], rtol=tol["rtol"], equal_nan=True)
        if not ok.all():
            i = int(np.argwhere(~ok)[0][0])
            return (f"{name}: {int((~ok).sum())}/{ok.size} elements differ from numpy, first at [{i}]: "
                    f"here {got.flat[i]!r}, numpy {want.flat[i]!r}")
    return None


def hardware_rule(message: str | None, rules=HARDWARE_RULES) -> tuple[str, str] | None:
    for rule, pattern, statement in rules:
        if message and pattern.search(message):
            return rule, statement
    return None


def same_mistake(up: str, here: str) -> bool:
    for pattern, ours in SAME_MISTAKE:
        m = pattern.search(up or "")
        if m and re.search(m.expand(ours), here or "", re.S):
            return True
    return False


def _unlocated(message: str | None) -> str:
    """This engine's message without the ``file:line: `` a v1 body's error puts before its text."""
    return re.sub(r"^(\w+: )\S+?:\d+: ", r"\1", message or "")


def _gist(message: str | None) -> str:
    """pyasc-dev's own words: the text after its CodegenError wrapper, first line."""
    text = (message or "").split("\n")[0]
    return re.sub(r"^(CodegenError: )?", "", text)


def classify(case: Case, up: dict | None, here: dict) -> dict:
    """The case's entry of the report."""
    entry = {"case": case.name, "pyasc": up and up["verdict"], "here": here["verdict"],
             "pyasc_message": up and up.get("message"), "here_message": here.get("message"),
             "outcome": None, "detail": "", "allowed": case.differs, "notes": []}
    numbers = compare_numbers(here.get("arrays"), case.tolerance) if here["verdict"] == "accepted" else None
    want_here = {"accept": "accepted", "reject": "rejected"}.get(case.here)
    if want_here and here["verdict"] != want_here:
        entry["notes"].append(f"here {here['verdict']}, the case expects {want_here}: "
                              f"{_one_line(here.get('message'))}")
    if here["verdict"] == "accepted" and numbers:
        entry["notes"].append(f"numbers: {numbers}")
    if up is None:                     # no pyasc-dev: this engine against the case alone
        entry["outcome"] = "numbers" if numbers else ("agree" if not entry["notes"] else "verdict")
        return entry
    if case.expect and up["verdict"] != ("accepted" if case.expect == "accept" else "rejected"):
        entry["notes"].append(f"pyasc-dev now {up['verdict']} (the case records {case.expect})")
    if up["verdict"] == here["verdict"] == "accepted":
        entry["outcome"], entry["detail"] = ("numbers", numbers) if numbers else ("agree", "")
    elif up["verdict"] == "accepted":
        rule = hardware_rule(here.get("message"))
        device = hardware_rule(here.get("message"), DEVICE_RULES)
        if rule:
            entry["outcome"], entry["detail"] = "hardware-rule", f"{rule[0]} ({rule[1]}): {_one_line(here['message'])}"
        elif device:
            entry["outcome"], entry["detail"] = "device-rule", f"{device[0]}: {_one_line(here['message'])}"
        else:
            entry["outcome"], entry["detail"] = "verdict", f"pyasc accepts, here: {_one_line(here.get('message'))}"
    elif here["verdict"] == "accepted":
        entry["outcome"], entry["detail"] = "verdict", f"pyasc rejects: {_gist(up.get('message'))}"
    elif _gist(up.get("message")) in _unlocated(here.get("message")):
        entry["outcome"] = "same-message"
    elif same_mistake(up.get("message"), here.get("message")):
        entry["outcome"] = "same-mistake"
        entry["detail"] = f"pyasc {_gist(up.get('message'))!r}; here {_one_line(here.get('message'))!r}"
    elif hardware_rule(here.get("message")):       # a kernel of two mistakes: this engine stops at the one
        rule = hardware_rule(here.get("message"))  # pyasc's front end does not check
        entry["outcome"] = "hardware-rule"
        entry["detail"] = (f"{rule[0]} ({rule[1]}), before pyasc's {_gist(up.get('message'))!r}: "
                           f"{_one_line(here.get('message'))}")
    else:
        entry["outcome"] = "message"
        entry["detail"] = f"pyasc {_gist(up.get('message'))!r}; here {_one_line(here.get('message'))!r}"
    return entry


def _one_line(text: str | None, limit: int = 200) -> str:
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip() and not ln.startswith("hint:")]
    line = lines[0] if lines else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def failed(entry: dict) -> bool:
    return bool(entry["notes"] and not entry["allowed"]) or (entry["outcome"] not in AGREEING
                                                               and not entry["allowed"])


def summarise(entries: list[dict]) -> dict:
    up_acc = [e for e in entries if e["pyasc"] == "accepted"]
    up_rej = [e for e in entries if e["pyasc"] == "rejected"]
    count = {k: sum(1 for e in entries if e["outcome"] == k) for k in
             AGREEING + ("numbers", "verdict", "message")}
    return {"cases": len(entries), "pyasc_accepted": len(up_acc), "pyasc_rejected": len(up_rej),
            "accepted_agree": sum(1 for e in up_acc if e["outcome"] in ("agree", "hardware-rule", "device-rule")),
            "accepted_run": sum(1 for e in up_acc if e["outcome"] == "agree"),
            "rejected_agree": sum(1 for e in up_rej if e["outcome"] in ("same-message", "same-mistake")),
            "outcomes": count, "allowed": sum(1 for e in entries if e["allowed"] and e["outcome"] not in AGREEING),
            "failing": sum(1 for e in entries if failed(e))}


def figures(s: dict) -> str:
    if not s["pyasc_accepted"] and not s["pyasc_rejected"]:
        return (f"v1 corpus (this engine only): {s['cases']} cases, {s['outcomes']['agree']} as expected, "
                f"failing {s['failing']}")
    o = s["outcomes"]
    return (f"v1 differential: {s['cases']} cases; pyasc-dev accepts {s['pyasc_accepted']}, of which here "
            f"{s['accepted_agree']} agree ({s['accepted_run']} run with numpy's numbers, {o['hardware-rule']} refused "
            f"by a stated hardware rule, {o['device-rule']} by the instruction's element types); pyasc-dev rejects {s['pyasc_rejected']}, of which here "
            f"{s['rejected_agree']} reject too ({o['same-message']} with its message, {o['same-mistake']} naming the "
            f"same mistake); disagreements: numbers {o['numbers']}, verdict {o['verdict']}, message {o['message']} "
            f"({s['allowed']} kept on purpose); failing {s['failing']}")


def table(entries: list[dict], everything: bool = False) -> str:
    rows = [[e["case"], e["pyasc"] or "-", e["here"], e["outcome"] + (" (allowed)" if e["allowed"] and
            e["outcome"] not in AGREEING else ""), (e["detail"] or "; ".join(e["notes"]))[:110]]
            for e in entries if everything or e["outcome"] not in ("agree", "same-message") or e["notes"]]
    return tabulate(rows, headers=["case", "pyasc", "here", "outcome", "detail"]) if rows else ""


def run_cases(cases: list[Case], python: Path | None, platform: str = "Ascend910B1",
              upstream: Path | None = None) -> list[dict]:
    paths, specs = [c.path for c in cases], [c.spec for c in cases]
    heres = run_side("here", Path(sys.executable), paths, platform, upstream=upstream, specs=specs)
    launches = [h.pop("launches", None) for h in heres]    # a reference case's, compiled by pyasc-dev
    ups = run_side("pyasc", python, paths, upstream=upstream, specs=specs, launches=launches) if python \
        else [None] * len(cases)
    return [classify(c, u, h) for c, u, h in zip(cases, ups, heres)]


def record(cases: list[Case], entries: list[dict]) -> int:
    """Write pyasc-dev's verdict (``EXPECT``) and, where a stated rule makes it refuse, this engine's (``HERE``)
    into each case file; returns how many files changed."""
    word = {"accepted": "accept", "rejected": "reject"}
    changed = 0
    for case, e in zip(cases, entries):
        if e["pyasc"] not in word:
            continue
        text = case.path.read_text(encoding="utf-8")
        lines = [ln for ln in text.splitlines() if not ln.startswith(("EXPECT = ", "HERE = "))]
        at = next((i for i, ln in enumerate(lines) if ln.startswith(("SPEC = ", "UPSTREAM_TEST = "))), 0) + 1
        new = [f"EXPECT = {word[e['pyasc']]!r}"]
        if e["outcome"] in ("hardware-rule", "device-rule"):
            new.append(f"HERE = {word[e['here']]!r}   # {e['detail'].split(':')[0]}")
        elif case.differs and e["here"] in word:
            new.append(f"HERE = {word[e['here']]!r}   # kept on purpose: DIFFERS")
        out = "\n".join(lines[:at] + new + lines[at:]) + "\n"
        if out != text:
            case.path.write_text(out, encoding="utf-8")
            changed += 1
    return changed


# -- command line ----------------------------------------------------------------------------------------
def _parser():
    root = default_root()
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    p.add_argument("cases", nargs="*", metavar="PATTERN", help="only cases matching these globs, e.g. 'docs/*'")
    p.add_argument("--corpus", type=Path, default=root / "conformance" / "v1", help="v1 corpus directory")
    p.add_argument("--pyasc-python", metavar="PATH",
                   help="interpreter of a pyasc-dev virtualenv (default: $PYASC_DEV_PYTHON, else --venv)")
    p.add_argument("--venv", type=Path, default=DEFAULT_VENV, help=f"the pyasc-dev virtualenv ({DEFAULT_VENV})")
    p.add_argument("--upstream", type=Path, default=upstream_sources(root),
                   help="upstream's pyasc v1 sources, whose kernel tests the upstream/ cases run "
                        "(default ../shared/upstream/pyasc-v1 beside the repository)")
    p.add_argument("--no-references", action="store_true",
                   help="leave out the Ascend C reference kernels (golden/ascendc/, cases 'ascendc/*')")
    p.add_argument("--here-only", action="store_true", help="check this engine against the corpus, no pyasc-dev")
    p.add_argument("--all", action="store_true", help="list every case, not only the notable ones")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    p.add_argument("--record", action="store_true",
                   help="write pyasc-dev's verdicts into the cases (EXPECT, and HERE where a stated rule differs)")
    p.add_argument("-v", "--platform", default="Ascend910B1", help="this engine's platform (default Ascend910B1)")
    return p


def _main(argv: Sequence[str] | None) -> int:
    import os

    args = _parser().parse_args(argv)
    cases = load_corpus(args.corpus, args.cases, args.upstream, allow_empty=not args.no_references)
    if not args.no_references:
        cases += reference_cases(default_root(), args.cases)
    if not cases:
        raise HarnessError("no v1 case matches")
    python = None if args.here_only else pyasc_interpreter(args.pyasc_python, Path(
        os.environ.get("PYASC_DEV_VENV") or args.venv), False)
    entries = run_cases(cases, python, args.platform, args.upstream)
    if args.record and python:
        print(f"recorded the verdicts of {record(cases, entries)} cases")
    summary = summarise(entries)
    text = table(entries, args.all)
    if text:
        print(text)
    for e in entries:
        for note in e["notes"]:
            print(f"{e['case']}: {note}")
    print(figures(summary))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"summary": summary, "cases": entries}, indent=1), encoding="utf-8")
    return 1 if summary["failing"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())

"""conformance-fuzz: differential fuzzing of August kernels on pyasc-dev and on this engine.

Hypothesis draws kernels from the grammar in ``fuzz_grammar`` (ops and argument forms, dtypes, ragged and
rank-3 shapes, static and dynamic lengths, launch forms, loops with and without ``gm_barrier``). Each one runs
through both engines exactly as a corpus case does (``conformance.run_case``: pyasc-dev's front end, then its
interpreter; this engine) and is compared the same way: verdicts, messages when both reject, results when
both computed. Each distinct disagreement (its aspect and the first words of the message) is written to
``conformance/corpus/fuzz/`` as a corpus case whose ``EXPECT`` is upstream's verdict, unless that directory
already holds a case with the same signature.
"""

from __future__ import annotations

import hashlib
import re
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

from hypothesis import HealthCheck, Phase, given, seed, settings

from asc_harness.store.cli import make_parser, run_main
from asc_harness.conform.conformance import DEFAULT_TIMEOUT_S, Case, compare, run_case, write_json
from asc_harness.conform.pyasc_dev import DEFAULT_VENV, pyasc_interpreter
from asc_harness.conform.conformance import _one_line
from asc_harness.conform.fuzz_grammar import FEATURES, KernelSpec, kernel_specs, render
from asc_harness.common.paths import default_root

PROG = "conformance-fuzz"
EXIT_CODES = """\
  0  no new disagreement (every one found has a corpus case already)
  1  new disagreements: written to the corpus directory as cases
  2  cannot run: no pyasc-dev interpreter"""


@dataclass
class Finding:
    signature: str
    aspect: str
    detail: str
    spec: KernelSpec
    pyasc_verdict: str | None
    here_verdict: str | None
    written: str | None = None


@dataclass
class FuzzRun:
    generated: int = 0
    compared_results: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)   # "pyasc/here" -> count
    interpreter_gaps: dict[str, int] = field(default_factory=dict)  # why upstream's interpreter did not compute
    findings: list[Finding] = field(default_factory=list)


def _gist(message: str | None) -> str:
    """An error's own line without numbers, quoted names, shapes or the blocks it happened in: the same
    mistake in another kernel."""
    line = _one_line(message, limit=10_000).split(" in block")[0]
    text = re.sub(r"'[^']*'|\[[^\]]*\]|\d+(\.\d+)?", "_", line)
    text = re.sub(r"_(?:[\s,]*_)+", "_", re.sub(r"[()]", "", text))  # nested tuples of blanks: one blank
    return " ".join(text.split()[:10])


def signature(aspect: str, entry: dict) -> str:
    """A disagreement's kind: its aspect, each engine's verdict and the gist of its error."""
    up, here = entry["pyasc"], entry["here"]
    sides = [f"pyasc {up['verdict']}" + (f" ({_gist(up['message'])})" if up["verdict"] == "rejected" else ""),
             f"here {here['verdict']}" + (f" ({_gist(here['message'])})" if here["verdict"] == "rejected" else "")]
    return f"{aspect}: " + ", ".join(sides)


def check_one(spec: KernelSpec, python: Path, platform: str, timeout_s: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="asc-fuzz-") as tmp:
        path = Path(tmp) / "fuzz_case.py"
        path.write_text(render(spec), encoding="utf-8")
        case = Case("fuzz/case", path, "accept", tolerance=spec.tolerance)
        up = run_case(case, python, {"ASCTILE_INTERPRET": "1"}, platform, timeout_s)
        here = run_case(case, Path(sys.executable), {}, platform, timeout_s)
        return compare(case, up, here)


def existing_signatures(directory: Path) -> set[str]:
    sigs = set()
    for path in directory.glob("*.py"):
        m = re.search(r"^FUZZ_SIGNATURE = (.+)$", path.read_text(encoding="utf-8"), re.M)
        if m:
            sigs.add(eval(m.group(1), {}))  # noqa: S307 - a string literal this tool wrote
    return sigs


def write_case(finding: Finding, directory: Path) -> Path:
    expect = "accept" if finding.pyasc_verdict == "accepted" else "reject"
    doc = (f"Found by the differential fuzzer: {finding.aspect} disagreement (pyasc-dev "
           f"{finding.pyasc_verdict}, this engine {finding.here_verdict}).\n\n"
           + finding.detail.replace("\\", "/").replace('"""', "'''") + "\n")
    text = render(finding.spec, doc=doc, expect=expect)
    text = text.replace("\nEXPECT = ", f"\nFUZZ_SIGNATURE = {finding.signature!r}\nEXPECT = ", 1)
    digest = hashlib.sha1(finding.signature.encode()).hexdigest()[:8]
    slug = re.sub(r"[^a-z0-9]+", "_", finding.signature.lower()).strip("_")[:40]
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{slug}_{digest}.py"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def fuzz(python: Path, *, examples: int, seed_value: int, platform: str = "Ascend950PR_9599",
         timeout_s: float = DEFAULT_TIMEOUT_S, without: frozenset = frozenset(), progress=None) -> FuzzRun:
    run = FuzzRun()
    seen: set[str] = set()

    @seed(seed_value)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(kernel_specs(without))
    def one(spec: KernelSpec) -> None:
        entry = check_one(spec, python, platform, timeout_s)
        run.generated += 1
        key = f"{entry['pyasc']['verdict']}/{entry['here']['verdict']}"
        run.verdicts[key] = run.verdicts.get(key, 0) + 1
        run.compared_results += entry["results"] in ("agree", "disagree")
        gap = entry["pyasc"]["interpreter_error"]
        if gap and entry["results"] == "n/a":
            run.interpreter_gaps[_gist(gap)] = run.interpreter_gaps.get(_gist(gap), 0) + 1
        problems = [("problem", entry["problem"])] if entry.get("problem") else []
        for aspect, detail in problems + [(d["aspect"], d["detail"]) for d in entry["disagreements"]]:
            sig = signature(aspect, entry)
            if sig not in seen:
                seen.add(sig)
                run.findings.append(Finding(sig, aspect, detail, spec, entry["pyasc"]["verdict"],
                                            entry["here"]["verdict"]))
        if progress:
            progress(run, spec, entry)

    one()
    return run


def report(run: FuzzRun, known: set[str]) -> dict:
    return {"generated": run.generated, "results_compared": run.compared_results, "verdicts": run.verdicts,
            "interpreter_gaps": run.interpreter_gaps,
            "findings": [dict(asdict(f), spec=asdict(f.spec), new=f.signature not in known) for f in run.findings]}


def _parser():
    root = default_root()
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    p.add_argument("--examples", type=int, default=40, help="kernels to generate (default 40)")
    p.add_argument("--seed", type=int, default=2026, help="hypothesis seed (default 2026)")
    p.add_argument("--out", type=Path, default=root / "conformance" / "corpus" / "fuzz",
                   help="where new disagreements are written as corpus cases")
    p.add_argument("--no-write", action="store_true", help="report disagreements without writing cases")
    p.add_argument("--pyasc-python", metavar="PATH", help="interpreter of a pyasc-dev virtualenv")
    p.add_argument("--venv", type=Path, default=DEFAULT_VENV, help=f"the pyasc-dev virtualenv ({DEFAULT_VENV})")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    p.add_argument("-v", "--platform", default="Ascend950PR_9599", help="platform (default Ascend950PR_9599)")
    p.add_argument("--without", action="append", default=[], choices=sorted(FEATURES),
                   help="leave a part of the grammar out, to look past a known gap (repeatable)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds per run of one kernel")
    return p


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    python = pyasc_interpreter(args.pyasc_python, args.venv, False)
    known = existing_signatures(args.out) if args.out.is_dir() else set()

    def progress(run, spec, entry):
        mark = "!" if entry["disagreements"] or entry.get("problem") else "."
        print(mark, end="", flush=True, file=sys.stderr)

    run = fuzz(python, examples=args.examples, seed_value=args.seed, platform=args.platform,
               timeout_s=args.timeout, without=frozenset(args.without), progress=progress)
    print(file=sys.stderr)
    new = [f for f in run.findings if f.signature not in known]
    for f in run.findings:
        if f in new and not args.no_write:
            f.written = str(write_case(f, args.out))
        state = f"new, written to {f.written}" if f.written else ("new" if f in new else "known")
        print(f"{f.signature} ({state})\n    pyasc {f.pyasc_verdict}, here {f.here_verdict}: {f.detail[:200]}")
    verdicts = ", ".join(f"{k} {v}" for k, v in sorted(run.verdicts.items()))
    print(f"fuzz: {run.generated} kernels generated (verdicts pyasc/here: {verdicts}); results compared "
          f"{run.compared_results}; {len(run.findings)} distinct disagreements ({len(new)} new)")
    gaps = ", ".join(f"{k} ({v})" for k, v in sorted(run.interpreter_gaps.items(), key=lambda kv: -kv[1]))
    if gaps:
        print(f"results not compared, upstream's interpreter stopped: {gaps}")
    if args.json:
        write_json(args.json, report(run, known))
    return 1 if new else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())

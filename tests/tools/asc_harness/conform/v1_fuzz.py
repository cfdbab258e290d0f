"""v1 differential fuzzer: Hypothesis draws call forms of the elementwise v1 instructions (op x dtype x form
(count / mask-int / mask-list / Counter mode) x mask / repeat / stride values x how the call spells its
arguments; ``v1_forms``), of the reduction, compare, cast, gather and sort families (``v1_families``) and of the
block and address instructions (brcb, gatherb, scatter, transpose, sort, proposal_*; ``v1_blocks``), each
is compiled by pyasc-dev's front end and run here against numpy (``v1_diff``); the first kernel
of each kind of disagreement is kept in ``conformance/v1/fuzz/`` (a regression corpus the differential runs
with the rest), ``EXPECT`` being pyasc-dev's verdict.

Hypothesis only draws (``Phase.generate``, a fixed seed): the kernels then run in one batch per engine.
"""

from __future__ import annotations

import hashlib
import re
import sys
import tempfile
from pathlib import Path
from typing import Sequence

from hypothesis import HealthCheck, Phase, given, settings, seed, strategies as st

from asc_harness.common.paths import default_root
from asc_harness.conform import v1_blocks, v1_diff, v1_families, v1_forms, v1_strategies
from asc_harness.conform.pyasc_dev import DEFAULT_VENV, pyasc_interpreter
from asc_harness.store.cli import make_parser, run_main

PROG = "conformance-v1-fuzz"
EXIT_CODES = """\
  0  no new kind of disagreement
  1  a new kind was found (and written to the regression corpus unless --no-write)
  2  cannot run (no pyasc-dev)"""
DTYPES = ("float16", "float32", "int16", "int32")
FORMS = ("count", "mask_int", "mask_list", "counter", "register")
FULL = (1 << 64) - 1


@st.composite
def form_specs(draw) -> dict:
    """One elementwise call form; its plainest choices first (Hypothesis leans to them)."""
    fam = draw(st.sampled_from(("binary", "unary", "scalar", "axpy", "duplicate", "copy")))
    op = draw(st.sampled_from(v1_forms.FAMILIES[fam]))
    dtype = draw(st.sampled_from(DTYPES))
    form = draw(st.sampled_from(FORMS))
    lanes = v1_forms.lanes(dtype)
    spec: dict = {"op": op, "dtype": dtype, "form": form}
    if fam in ("scalar", "axpy", "duplicate"):
        spec["scalar"] = draw(st.sampled_from((2.0, 0.5, -1.5, 3)))
    keyword = draw(st.booleans())
    if form == "count":
        spec["count"] = draw(st.one_of(st.sampled_from((lanes, lanes - 1, lanes + 1, 2 * lanes, 1, 0)),
                                       st.integers(1, 4 * lanes)))
        spec["call"] = [["count" if keyword else None, "count"]]
        return spec
    k = v1_forms.OPERANDS[fam]
    if form == "register":
        mode = draw(st.sampled_from(("NORMAL", "COUNTER", None)))
        if mode == "COUNTER" or draw(st.booleans()):
            top = 3 * lanes if mode == "COUNTER" else lanes
            spec["register"] = {"len": draw(st.sampled_from((lanes, 1, lanes + 1)) | st.integers(1, top))}
        else:
            spec["register"] = {"high": draw(st.sampled_from((0, FULL)) | st.integers(0, FULL)),
                                "low": draw(st.sampled_from((FULL, 0xFF)) | st.integers(1, FULL))}
        spec["register"]["mode"] = mode
        spec["mask"] = draw(st.sampled_from((0, lanes)))     # a placeholder: the register holds the mask
    elif form == "mask_list":
        lo = draw(st.sampled_from((FULL, 0xFFFF, 1 << 63, 0)) | st.integers(0, FULL))
        hi = draw(st.sampled_from((0, FULL, 1)) | st.integers(0, FULL))
        spec["mask"] = [lo, hi] if draw(st.booleans()) or dtype in ("float16", "int16") else [lo]
    else:
        spec["mask"] = draw(st.one_of(st.sampled_from((lanes, 1, lanes - 1, lanes + 1, 128)),
                                      st.integers(1, 3 * lanes if form == "counter" and fam != "copy" else lanes)))
    spec["repeat_times"] = draw(st.one_of(st.sampled_from((1, 2, 4, 0)), st.integers(0, 8)))
    blk = draw(st.sampled_from((1, 2, 0)) | st.integers(0, 4))
    rep = draw(st.sampled_from((8, 16, 4, 0)) | st.integers(0, 16))
    spec["strides"] = [[blk, rep]] + [[draw(st.sampled_from((1, 2))), draw(st.sampled_from((8, 4, 16)))]
                                     for _ in range(k - 1)]
    # how the call spells the mask form: positional or by keyword, upstream's spellings and the variants
    # its own examples use (repeat_time=, params=), the repeat parameters left out
    rt_kw = draw(st.sampled_from(("repeat_times", "repeat_time")[::-1 if fam == "copy" else 1])) if keyword else None
    if fam == "duplicate":
        tail = [["dst_block_stride" if keyword else None, "dst_blk"],
                ["dst_repeat_stride" if keyword else None, "dst_rep"]]
    else:
        params_kw = draw(st.sampled_from(("repeat_params", "params"))) if keyword else None
        tail = [[params_kw, "params"]] if draw(st.integers(0, 5)) else []
    spec["call"] = [["mask" if keyword else None, "mask"], [rt_kw, "repeat_times"]] + tail
    if form == "register":
        spec["is_set_mask"] = False
        spec["call"].append(["is_set_mask" if keyword or not tail or fam == "duplicate" else None, "is_set_mask"])
    return spec


def forms_of(spec: dict):
    """The module that renders and models ``spec``: v1_families or v1_blocks for theirs, else v1_forms."""
    if spec["op"] in v1_blocks.FAMILY_OF:
        return v1_blocks
    return v1_families if spec["op"] in v1_families.FAMILY_OF else v1_forms


def family(spec: dict) -> str:
    return forms_of(spec).FAMILY_OF[spec["op"]]


FAMILY_NAMES = tuple(v1_forms.FAMILIES) + tuple(v1_families.FAMILIES) + tuple(v1_blocks.FAMILIES)


def _blank(text: str) -> str:
    text = re.sub(r"/\S+\.py:\d+: ", "", text or "")
    return re.sub(r"\d+", "N", text.split("\n")[0])[:120]


def signature(spec: dict, entry: dict) -> str:
    """A disagreement's kind: its outcome, the form and the gist of each engine's message."""
    fam = family(spec)
    return (f"{entry['outcome']}|{fam}|{spec['form']}|pyasc {entry['pyasc']}: {_blank(entry['pyasc_message'])}|"
            f"here {entry['here']}: {_blank(entry['here_message'])}")


def draw_specs(examples: int, seed_value: int, families: Sequence[str] = ()) -> list[dict]:
    """Kernels drawn from every family (a third of the draws from each module), or only from ``families``."""
    specs: list[dict] = []
    strategy = st.one_of(form_specs(), v1_strategies.spec_strategy(), v1_strategies.blocks_strategy())
    if families:
        strategy = strategy.filter(lambda s: family(s) in families)

    @seed(seed_value)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(spec):
        forms = forms_of(spec)
        if forms.fits(spec) and forms.defined(spec):
            specs.append(spec)

    one()
    return specs


def existing_signatures(directory: Path) -> set[str]:
    out = set()
    for path in directory.glob("*.py") if directory.is_dir() else ():
        m = re.search(r"^FUZZ_SIGNATURE = (.*)$", path.read_text(encoding="utf-8"), re.M)
        if m:
            out.add(eval(m.group(1), {}))       # a repr'd string written by write_case
    return out


def write_case(spec: dict, entry: dict, sig: str, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(sig.encode()).hexdigest()[:8]
    path = directory / f"{v1_forms.describe(spec)}_{digest}.py"
    doc = (f"Found by the v1 differential fuzzer: {entry['outcome']}\n    pyasc-dev {entry['pyasc']}, here "
           f"{entry['here']}: {(entry['detail'] or '')[:160]}")
    word = {"accepted": "accept", "rejected": "reject"}
    path.write_text(forms_of(spec).render(spec, doc, expect=word[entry["pyasc"]], extra={"FUZZ_SIGNATURE": sig}),
                    encoding="utf-8")
    return path


def fuzz(python: Path, examples: int, seed_value: int, platform: str = "Ascend910B1",
         families: Sequence[str] = ()) -> tuple[list, list]:
    """(specs, entries): every drawn kernel through both engines."""
    specs = draw_specs(examples, seed_value, families)
    with tempfile.TemporaryDirectory(prefix="asc-v1fuzz-") as tmp:
        cases = []
        for i, spec in enumerate(specs):
            path = Path(tmp) / f"k{i}.py"
            forms = forms_of(spec)
            path.write_text(forms.render(spec, "fuzz"), encoding="utf-8")
            cases.append(v1_diff.Case(path.stem, path, None, None, None, forms.tolerance(spec)))
        entries = v1_diff.run_cases(cases, python, platform)
    return specs, entries


def _parser():
    root = default_root()
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    p.add_argument("--examples", type=int, default=200, help="kernels drawn (default 200)")
    p.add_argument("--seed", type=int, default=2026, help="hypothesis seed (default 2026)")
    p.add_argument("--out", type=Path, default=root / "conformance" / "v1" / "fuzz", help="regression corpus")
    p.add_argument("--no-write", action="store_true", help="only report")
    p.add_argument("--family", action="append", default=[], choices=FAMILY_NAMES,
                   help="draw only this family (repeatable; default every family)")
    p.add_argument("--pyasc-python", metavar="PATH", help="pyasc-dev's interpreter (default $PYASC_DEV_PYTHON)")
    p.add_argument("--venv", type=Path, default=DEFAULT_VENV, help=f"the pyasc-dev virtualenv ({DEFAULT_VENV})")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    return p


def _main(argv: Sequence[str] | None) -> int:
    import json
    import os

    args = _parser().parse_args(argv)
    python = pyasc_interpreter(args.pyasc_python, Path(os.environ.get("PYASC_DEV_VENV") or args.venv), False)
    specs, entries = fuzz(python, args.examples, args.seed, families=args.family)
    known = existing_signatures(args.out)
    findings, new = {}, []
    for spec, e in zip(specs, entries):
        if e["outcome"] in v1_diff.AGREEING and not e["notes"]:
            continue
        sig = signature(spec, e)
        if sig in findings:
            continue
        findings[sig] = (spec, e)
        if sig not in known:
            new.append(sig)
            if not args.no_write:
                write_case(spec, e, sig, args.out)
    for sig, (spec, e) in findings.items():
        print(f"{'NEW ' if sig in new else ''}{sig}\n    {forms_of(spec).call_text(spec)[-1]}  ->  "
              f"{e['detail'][:160]}")
    outcomes, per_family = {}, {}
    for spec, e in zip(specs, entries):
        outcomes[e["outcome"]] = outcomes.get(e["outcome"], 0) + 1
        per_family[family(spec)] = per_family.get(family(spec), 0) + 1
    print(f"kernels per family: {dict(sorted(per_family.items()))}")
    print(f"v1 fuzz: {len(entries)} kernels (pyasc-dev accepts {sum(e['pyasc'] == 'accepted' for e in entries)}); "
          f"outcomes {dict(sorted(outcomes.items()))}; {len(findings)} distinct disagreements ({len(new)} new)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"outcomes": outcomes, "findings": [
            {"signature": s, "spec": sp, "entry": en} for s, (sp, en) in findings.items()]}, indent=1, default=str))
    return 1 if new else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())

"""surface-v1: upstream's v1 API (the ``__all__`` of pyasc-dev's ``asc.language.basic / core / fwk / adv``, the
members of its tensors and framework classes, the members of its enums) against this engine's, and against
the v1 tests.

``surface_v1_probe.py`` describes the names in each interpreter (pyasc-dev's: the specification). Each
upstream entry is reported:

  present    the name is there (at ``asc.language.<package>``, where upstream code imports it, or at ``asc`` /
             ``asc.adv``); a name refused with "not supported by this engine" is not present
  signature  "same" (the parameters as upstream's: names, kinds, defaults); "overloads k/n": this engine's one
             signature accepts k of upstream's n ``typing.overload`` forms (all of them counts as matching);
             "differs" otherwise
  exercised  a v1 test that checks numbers (a file comparing arrays, or a kernel of the mistakes corpus,
             whose rewrites are compared with numpy) uses it: ``asc.X`` / ``asc.adv.X``, a name imported from
             ``asc.language.*``, or ``.member`` for a class member
"""

from __future__ import annotations

import ast
import json
import sys
import tempfile
from pathlib import Path
from typing import Sequence

from tabulate import tabulate

from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import default_root
from asc_harness.conform.conformance import write_json
from asc_harness.conform.sandboxed import MEMORY_MB
from asc_harness.conform.pyasc_dev import DEFAULT_VENV, pyasc_interpreter
from asc_harness.run import sandbox
from asc_harness.store.cli import make_parser, run_main

PROG = "surface-v1"
EXIT_CODES = """\
  0  the report was written (whatever the coverage, unless --fail-under is not met)
  1  a coverage figure is below --fail-under
  2  cannot run: no pyasc-dev interpreter, a probe failed"""
PROBE = Path(__file__).resolve().parent / "surface_v1_probe.py"
REQUIRED = "<required>"
# The front end's IR plumbing and the TBufPool internals TQueBind exposes: not kernel API.
INTERNAL = {"from_ir", "to_ir", "handle", "ensure_shape", "init_buf_handle", "init_start_buf_handle"}
POSITIONAL = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")
NUMBER_CHECKS = ("assert_array_equal", "assert_allclose", "np.allclose", "array_equal")


def accepts(here: list, form: list, by_type: bool = False) -> bool:
    """Whether a function of parameters ``here`` takes every call upstream's ``form`` allows: its positional
    parameters by the same names at the same places (``by_type``: upstream dispatches ``*args`` on the
    arguments' types, so only the places count), its keywords, its defaults; nothing more required."""
    star = next((i for i, p in enumerate(here) if p[1] == "VAR_POSITIONAL"), None)
    kwargs = any(p[1] == "VAR_KEYWORD" for p in here)
    by_name = {p[0]: p for p in here if p[1] not in ("VAR_POSITIONAL", "VAR_KEYWORD")}
    used = set()
    for i, (name, kind, default) in enumerate(form):
        if kind == "VAR_POSITIONAL":
            if star is None:
                return False
            continue
        if kind == "VAR_KEYWORD":
            if not kwargs:
                return False
            continue
        if kind in POSITIONAL and (star is None or i < star):
            if i >= len(here) or here[i][1] not in POSITIONAL:
                return False
            if kind != "POSITIONAL_ONLY" and here[i][0] != name:
                if not by_type or name not in by_name:
                    return False
                mine = by_name[name]      # the same parameter, by keyword; positionally, by its type
            else:
                mine = here[i]
        elif name in by_name:
            mine = by_name[name]
        elif (kind in POSITIONAL and star is not None) or kwargs:
            continue          # taken by *args / **kwargs
        else:
            return False
        if default != REQUIRED and mine[2] != default:
            return False
        used.add(mine[0])
    return all(p[0] in used or p[2] != REQUIRED for p in by_name.values())


def compare_signature(up: dict, here: dict) -> str:
    ups, mine = up.get("params"), here.get("params")
    if ups is None and mine is None:
        return "n/a"
    if mine is None or ups is None:
        return "unknown: " + ("this engine's" if mine is None else "upstream's") + " signature cannot be read"
    if ups == mine:
        return "same"
    dispatch = any(p[1] == "VAR_POSITIONAL" for p in ups)
    forms = up.get("overloads") or [ups]
    if dispatch and not up.get("overloads"):
        return "unknown: upstream takes (*args, **kwargs) and declares no overloads"
    ok = sum(accepts(mine, f, dispatch) for f in forms)
    if ok == len(forms):
        return f"overloads {ok}/{len(forms)}" if len(forms) > 1 else "compatible"
    if ok:
        return f"overloads {ok}/{len(forms)}: differs in the others"
    return f"differs: upstream ({_spell(forms[0])}), here ({_spell(mine)})"


def _spell(ps: list) -> str:
    return ", ".join(("*" if k == "VAR_POSITIONAL" else "**" if k == "VAR_KEYWORD" else "") + n +
                     ("" if d == REQUIRED or k.startswith("VAR") else f"={d}") for n, k, d in ps)


def matching(signature: str) -> bool:
    return signature in ("same", "compatible") or (signature.startswith("overloads") and "differs" not in signature)


# -- what the tests exercise ------------------------------------------------------------------------------
def v1_test_files(tests: Path) -> list[Path]:
    """The v1 tests that check numbers: files comparing arrays, and the mistakes corpus's kernels."""
    out = []
    for path in sorted(tests.glob("test_v1*.py")) + sorted(tests.glob("v1_corpus*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name.startswith("v1_corpus") or any(c in text for c in NUMBER_CHECKS):
            out.append(path)
    return out


def scan_tests(files: list[Path]) -> tuple[dict[str, str], dict[str, str]]:
    """({name used as asc.X / asc.adv.X / imported from asc.language.*: file}, {.member: file})."""
    names, members = {}, {}
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                chain, base = [node.attr], node.value
                while isinstance(base, ast.Attribute):
                    chain.append(base.attr)
                    base = base.value
                if isinstance(base, ast.Name) and base.id == "asc":
                    chain = chain[::-1]
                    head = chain[1] if chain[0] in ("adv", "language") and len(chain) > 1 else chain[0]
                    if chain[0] == "language" and len(chain) > 2:
                        head = chain[2]
                    names.setdefault(head, path.name)
                members.setdefault(node.attr, path.name)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("asc"):
                for alias in node.names:
                    names.setdefault(alias.name, path.name)
    return names, members


def exercised(key: str, kind: str, names: dict, members: dict) -> tuple[bool | None, str | None]:
    parts = key.split(".")
    if kind in ("module",):
        return None, None
    if kind in ("method", "property", "attribute") and len(parts) == 3:
        return parts[2] in members, members.get(parts[2])
    if kind == "member" and len(parts) == 3:
        hit = parts[2] in members and parts[1] in names
        return hit, members.get(parts[2]) if hit else None
    return parts[1] in names, names.get(parts[1])


# -- the report ---------------------------------------------------------------------------------------------
def compare(up: dict, here: dict, names: dict, members: dict) -> list[dict]:
    rows = []
    for key in sorted(up["entries"]):
        u, h = up["entries"][key], here["entries"].get(key, {"kind": "missing"})
        parent = here["entries"].get(key.rsplit(".", 1)[0], {})
        if h["kind"] == "missing" and parent.get("kind") == "unsupported":
            h = parent                  # a member of a class or enum this engine refuses
        row = {"name": key, "kind": u["kind"], "present": h["kind"] not in ("missing", "unsupported"),
               "signature": "n/a", "exercised": None, "by": None, "note": None}
        if key.rsplit(".", 1)[-1] in INTERNAL:
            row["note"] = "internal: the front end's IR plumbing"
            rows.append(row)
            continue
        if h["kind"] == "unsupported":
            row["note"] = "refused at the user's line: not supported by this engine"
        elif row["present"]:
            row["signature"] = compare_signature(u, h)
            if h.get("path") is False and len(key.split(".")) == 2:
                row["note"] = f"not at asc.language.{key.split('.')[0]} (at asc{'.adv' if key.startswith('adv.') else ''})"
        row["exercised"], row["by"] = exercised(key, u["kind"], names, members) if row["present"] else (False, None)
        rows.append(row)
    return rows


def summarise(rows: list[dict]) -> dict:
    api = [r for r in rows if not (r["note"] or "").startswith("internal")]
    present = [r for r in api if r["present"]]
    comparable = [r for r in present if r["signature"] != "n/a" and not r["signature"].startswith("unknown")]
    same = [r for r in comparable if matching(r["signature"])]
    needs = [r for r in api if r["exercised"] is not None]
    hit = [r for r in needs if r["exercised"]]

    def pct(a, b):
        return round(100.0 * len(a) / len(b), 1) if b else 100.0

    by_package = {}
    for pkg in ("basic", "core", "fwk", "adv"):
        mine = [r for r in api if r["name"].startswith(pkg + ".")]
        by_package[pkg] = {"entries": len(mine), "present": sum(r["present"] for r in mine),
                           "exercised": sum(bool(r["exercised"]) for r in mine)}
    return {"upstream_entries": len(api), "present": len(present), "present_pct": pct(present, api),
            "signatures_compared": len(comparable), "signatures_match": len(same),
            "signatures_match_pct": pct(same, comparable), "exercisable": len(needs), "exercised": len(hit),
            "exercised_pct": pct(hit, needs), "by_package": by_package,
            "not_supported": [r["name"] for r in api if (r["note"] or "").startswith("refused")],
            "missing": [r["name"] for r in api if not r["present"] and not (r["note"] or "").startswith("refused")],
            "signature_differences": [r["name"] for r in comparable if r not in same],
            "not_exercised": [r["name"] for r in needs if r["present"] and not r["exercised"]]}


def table(rows: list[dict]) -> str:
    def mark(v):
        return "-" if v is None else ("yes" if v else "NO")

    body = [[r["name"], r["kind"], mark(r["present"]), r["signature"][:80], mark(r["exercised"]), r["by"] or "",
             r["note"] or ""] for r in rows]
    return tabulate(body, headers=["upstream v1 name", "kind", "present", "signature", "exercised", "by", "note"])


def figures(s: dict) -> str:
    pk = "; ".join(f"{k} {v['present']}/{v['entries']} present, {v['exercised']} exercised"
                   for k, v in s["by_package"].items())
    return (f"surface-v1: {s['upstream_entries']} upstream entries; present here {s['present']} ({s['present_pct']}%; "
            f"{len(s['not_supported'])} refused as not supported, {len(s['missing'])} missing); signatures match "
            f"{s['signatures_match']}/{s['signatures_compared']} ({s['signatures_match_pct']}%); exercised by "
            f"number-checking v1 tests {s['exercised']}/{s['exercisable']} ({s['exercised_pct']}%)\n  by package: {pk}")


def run_probe(python: Path, out_dir: Path, names: Path | None = None, timeout_s: float = 300.0) -> dict:
    out = out_dir / ("here.json" if names else "upstream.json")
    argv = [str(python), str(PROBE), str(out)] + ([str(names)] if names else [])
    sb = sandbox.run(argv, timeout_s=timeout_s, memory_mb=MEMORY_MB, writable=[out_dir],
                     readable=[python.parent, out_dir], network=False)
    try:
        return json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        tail = "\n".join((sb.error or sb.stderr).strip().splitlines()[-3:])
        raise HarnessError(f"the v1 surface probe under {python} wrote nothing (exit {sb.exit_code}): {tail}") from None


def build_report(python: Path, tests: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="asc-surface-v1-") as tmp:
        tmp = Path(tmp)
        up = run_probe(python, tmp)
        names = tmp / "names.json"
        names.write_text(json.dumps(up["names"]), encoding="utf-8")
        here = run_probe(Path(sys.executable), tmp, names)
    used, members = scan_tests(v1_test_files(tests))
    rows = compare(up, here, used, members)
    return {"pyasc_python": str(python), "summary": summarise(rows), "upstream": rows}


def _parser():
    root = default_root()
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    p.add_argument("--tests", type=Path, default=root / "tests" / "compiler", help="the directory of the v1 tests")
    p.add_argument("--pyasc-python", metavar="PATH", help="interpreter of a pyasc-dev virtualenv")
    p.add_argument("--venv", type=Path, default=DEFAULT_VENV, help=f"the pyasc-dev virtualenv ({DEFAULT_VENV})")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    p.add_argument("--fail-under", type=float, metavar="PCT",
                   help="exit 1 when present, signature or exercised coverage is below PCT percent")
    p.add_argument("--all", action="store_true", help="list every entry, not only those with a gap")
    return p


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    python = pyasc_interpreter(args.pyasc_python, args.venv, False)
    report = build_report(python, args.tests)
    s = report["summary"]
    shown = report["upstream"] if args.all else [
        r for r in report["upstream"] if not r["present"] and not (r["note"] or "").startswith("internal")
        or r["exercised"] is False or (r["signature"] != "n/a" and not matching(r["signature"]))]
    print(table(shown))
    print(figures(s))
    if args.json:
        write_json(args.json, report)
    if args.fail_under is not None and min(s["present_pct"], s["signatures_match_pct"], s["exercised_pct"]) \
            < args.fail_under:
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())

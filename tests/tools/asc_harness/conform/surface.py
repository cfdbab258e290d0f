"""surface: upstream's public asctile surface, walked mechanically, against this engine's and the corpus.

``surface_probe.py`` describes ``asc.experimental.asctile`` in each interpreter: every public name (enum
members too), every public member of ``LocalTensor`` / ``GlobalTensor``, every field of ``CompileOptions``,
``CodegenOptions`` and ``LaunchOptions``, every keyword ``jit`` accepts, every custom builtin of a kernel,
and the launch forms ``kernel[...]``. Each upstream entry is reported:

  present    the name exists here
  signature  same parameter names, kinds and defaults ("same"); here adds optional parameters
             ("extension"); anything else ("differs", with both)
  exercised  some conformance corpus case uses it (found in the cases' syntax trees by name: an
             ``asctile.X`` attribute, a ``.method`` / ``.property`` access, a ``jit`` keyword, a builtin
             called in a kernel, a launch subscript of that form)

Entries here that upstream lacks are listed as extras (deliberate: this engine also speaks the April dialect).
"""

from __future__ import annotations

import ast
import json
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from tabulate import tabulate

from asc_harness.run import sandbox
from asc_harness.store.cli import make_parser, run_main
from asc_harness.conform.conformance import write_json
from asc_harness.conform.sandboxed import MEMORY_MB
from asc_harness.conform.pyasc_dev import DEFAULT_VENV, pyasc_interpreter
from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import default_root

PROG = "surface"
EXIT_CODES = """\
  0  the report was written (whatever the coverage, unless --fail-under is not met)
  1  a coverage figure is below --fail-under
  2  cannot run: no pyasc-dev interpreter, a probe failed"""
PROBE = Path(__file__).resolve().parent / "surface_probe.py"
# Upstream members that are the front end's IR plumbing (LocalTensor.from_ir / to_ir, .handle), not kernel API.
INTERNAL = {"from_ir", "to_ir", "handle"}
# The simulator selection, which the conformance driver makes for every case, not kernels.
HOST_ONLY = ("Platform", "Backend", "set_platform")
NO_EXERCISE_KINDS = {"module"}
# Signature differences this engine keeps on purpose, and why (the report lists them as such).
DELIBERATE = {
    "CompileOptions.insert_sync": "one option set serves both dialects: None is each jit's own default (True for "
                                  "asctile / asc2 kernels, as upstream)",
    "CompileOptions.reuse_alloc": "None is 'not given': the memory plan then follows static_alloc / reuse_ub, the "
                                  "options April kernels use; 0, 1, 2 as upstream when given",
    "copy": "one function takes April's copy(tile, shape, *, offsets, location) and August's copy(src, offsets, "
            "shape, location, distrib), decided by the call's form and the kernel's dialect",
    "matmul_acc": "takes both argument orders (accumulator first as upstream, or last as April); hf32 keyword-only",
    "inline": "Ascend C cannot be simulated: any call is refused at the user's line (engine-limit)",
    "inline_vf": "Ascend C cannot be simulated: any call is refused at the user's line (engine-limit)",
    "GlobalAddress": "built by the launcher from each pointer argument, never by kernels",
    "GlobalTensor": "built by global_tensor(), never constructed by kernels",
}
OPTION_CLASSES = {"CompileOptions"}


@dataclass
class Usage:
    """What the corpus uses, by name."""
    attrs: set[str] = field(default_factory=set)            # asctile.X and asctile.X.Y chains ("X", "X.Y")
    members: set[str] = field(default_factory=set)          # .name accessed in a kernel on anything but the module
    jit_keywords: set[str] = field(default_factory=set)
    builtins: set[str] = field(default_factory=set)         # called (or assert) inside a jit kernel
    launch_forms: set[str] = field(default_factory=set)
    where: dict[str, str] = field(default_factory=dict)     # first case using each key


def _attr_chain(node: ast.AST) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id] + parts[::-1]
    return None


def _is_jit(dec: ast.AST) -> ast.Call | bool:
    target = dec.func if isinstance(dec, ast.Call) else dec
    chain = _attr_chain(target)
    if chain and chain[-1] == "jit":
        return dec if isinstance(dec, ast.Call) else True
    return False


def launch_form(index: ast.AST) -> str:
    elts = index.elts if isinstance(index, ast.Tuple) else [index]
    spelled = ["None" if isinstance(e, ast.Constant) and e.value is None else "n" for e in elts]
    return "[" + ", ".join(spelled) + "]"


def scan_corpus(corpus: Path) -> Usage:
    usage = Usage()

    def note(key: str, case: str) -> None:
        usage.where.setdefault(key, case)

    for path in sorted(corpus.rglob("*.py")):
        case = path.relative_to(corpus).with_suffix("").as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        kernels = set()
        for fn in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            for dec in fn.decorator_list:
                jit = _is_jit(dec)
                if not jit:
                    continue
                kernels.add(fn.name)
                for kw in (jit.keywords if isinstance(jit, ast.Call) else []):
                    usage.jit_keywords.add(kw.arg)
                    note(f"jit({kw.arg}=)", case)
                for node in ast.walk(fn):
                    if isinstance(node, ast.Attribute) and (_attr_chain(node) or [""])[0] != "asctile":
                        usage.members.add(node.attr)  # a member used in a kernel (host code's numpy is not)
                        note(f".{node.attr}", case)
                    if isinstance(node, ast.Assert):
                        usage.builtins.add("assert")
                        note("builtin assert", case)
                    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                        usage.builtins.add(node.func.id)
                        note(f"builtin {node.func.id}", case)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                chain = _attr_chain(node)
                if chain and chain[0] == "asctile":
                    for i in range(2, len(chain) + 1):
                        usage.attrs.add(".".join(chain[1:i]))
                        note(".".join(chain[1:i]), case)
            elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in kernels:
                form = launch_form(node.slice)
                usage.launch_forms.add(form)
                note(f"kernel{form}", case)
    return usage


def exercised_by(key: str, kind: str, usage: Usage) -> tuple[bool | None, str | None]:
    """(exercised, by which case); None when the entry is not kernel API the corpus can exercise."""
    head, _, rest = key.partition(".")
    if kind in NO_EXERCISE_KINDS or head in HOST_ONLY:
        return None, None
    if key.startswith("builtin "):
        name = key.split(" ", 1)[1]
        return name in usage.builtins, usage.where.get(key)
    if key.startswith("jit("):
        name = key[4:-2]
        return name in usage.jit_keywords, usage.where.get(key)
    if key.startswith("kernel["):
        return key[len("kernel"):] in usage.launch_forms, usage.where.get(key)
    if head in ("CompileOptions", "CodegenOptions"):
        return rest in usage.jit_keywords, usage.where.get(f"jit({rest}=)")
    if head == "LaunchOptions":
        forms = usage.launch_forms
        hit = bool(forms) if rest == "core_num" else any("," in f for f in forms) or "stream" in usage.jit_keywords
        return hit, next((usage.where[f"kernel{f}"] for f in sorted(forms)), None) if hit else None
    if head in ("LocalTensor", "GlobalTensor") and rest:
        return rest in usage.members, usage.where.get(f".{rest}")
    return key in usage.attrs, usage.where.get(key)


def exercised_as_a_whole(rows: list[dict]) -> None:
    """A class kernels never spell (LocalTensor, GlobalTensor, CompileOptions) is exercised through its members."""
    for row in rows:
        if row["kind"] != "class" or row["exercised"] is not False:
            continue
        prefix = row["name"] + "."
        used = [r for r in rows if r["name"].startswith(prefix) and r["exercised"]]
        if used:
            row["exercised"], row["by"] = True, f"{used[0]['by']} ({used[0]['name']})"


def compare_params(up: list | None, here: list | None) -> str:
    if up is None and here is None:
        return "n/a"
    if up is None or here is None:
        return "unknown: " + ("upstream's" if up is None else "this engine's") + " signature cannot be read"
    if up == here:
        return "same"
    n = len(up)
    extra = here[n:]
    head_ok = all(u[:2] == h[:2] and (u[2] == h[2] or u[2] == "<required>") for u, h in zip(up, here[:n]))
    if len(here) >= n and head_ok and all(p[2] != "<required>" or p[1] in ("VAR_POSITIONAL", "VAR_KEYWORD")
                                          for p in extra):
        defaulted = [h[0] for u, h in zip(up, here) if u[2] != h[2]]
        return "extension: here also " + ", ".join([p[0] for p in extra] + [f"a default for {d}" for d in defaulted])
    return f"differs: upstream ({_spell(up)}), here ({_spell(here)})"


def _spell(params: list) -> str:
    out, star = [], False
    for name, kind, default in params:
        if kind == "KEYWORD_ONLY" and not star:
            out.append("*")
            star = True
        prefix = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}.get(kind, "")
        star = star or kind == "VAR_POSITIONAL"
        out.append(prefix + name + ("" if default == "<required>" or prefix else f"={default}"))
        if kind == "POSITIONAL_ONLY":
            out.append("/")
    return ", ".join(out)


def _launch_entries(forms: dict) -> dict[str, dict]:
    """The launch forms as entries: upstream's verdict is its launcher's (its interpreter cannot run every
    form), this engine's is a real launch."""
    out = {}
    for form, verdict in forms.items():
        if form.endswith(" launcher"):
            continue
        out[f"kernel{form}"] = {"kind": "launch", "verdict": forms.get(f"{form} launcher", verdict)}
    return out


def compare(up: dict, here: dict, usage: Usage) -> tuple[list[dict], list[dict]]:
    """(rows for upstream's entries, rows for this engine's extras)."""
    ups = dict(up["entries"], **_launch_entries(up.get("launch_forms", {})))
    heres = dict(here["entries"], **_launch_entries(here.get("launch_forms", {})))
    rows = []
    for key in sorted(ups):
        u, h = ups[key], heres.get(key)
        row = {"name": key, "kind": u["kind"], "present": h is not None, "signature": "n/a",
               "exercised": None, "by": None, "note": None}
        if key.rpartition(".")[2] in INTERNAL:
            row["note"] = "internal: the front end's IR plumbing"
            rows.append(row)
            continue
        if h is not None:
            if u["kind"] == "launch":
                row["present"] = h["verdict"].startswith("accepted") == u["verdict"].startswith("accepted")
                row["signature"] = "same" if row["present"] else f"differs: {h['verdict']}"
            elif "default" in u:
                row["signature"] = "same" if u["default"] == h.get("default") else \
                    f"differs: default {u['default']} upstream, {h.get('default')} here"
            elif key in OPTION_CLASSES:
                row["signature"] = "n/a"  # compared field by field (this engine's class serves both dialects)
            elif "params" in u or "params" in h:
                row["signature"] = compare_params(u.get("params"), h.get("params"))
            if row["signature"].startswith("differs") and key in DELIBERATE:
                row["signature"] = "deliberate: " + row["signature"][len("differs: "):]
                row["note"] = DELIBERATE[key]
            if h["kind"] != u["kind"] and u["kind"] != "launch" and {h["kind"], u["kind"]} != {"attribute", "property"}:
                row["note"] = f"a {u['kind']} upstream, a {h['kind']} here"
        row["exercised"], row["by"] = exercised_by(key, u["kind"], usage)
        rows.append(row)
    exercised_as_a_whole(rows)
    extras = [{"name": k, "kind": v["kind"]} for k, v in sorted(heres.items()) if k not in ups]
    return rows, extras


def summarise(rows: list[dict], extras: list[dict]) -> dict:
    api = [r for r in rows if r["note"] is None or not r["note"].startswith("internal")]
    present = [r for r in api if r["present"]]
    comparable = [r for r in present if r["signature"] != "n/a" and not r["signature"].startswith("unknown")]
    same = [r for r in comparable if r["signature"] == "same" or r["signature"].startswith("extension")]
    deliberate = [r for r in comparable if r["signature"].startswith("deliberate")]
    needs = [r for r in api if r["exercised"] is not None]
    hit = [r for r in needs if r["exercised"]]

    def pct(a, b):
        return round(100.0 * len(a) / len(b), 1) if b else 100.0

    return {"upstream_entries": len(api), "present": len(present), "present_pct": pct(present, api),
            "signatures_compared": len(comparable), "signatures_match": len(same),
            "signatures_match_pct": pct(same, comparable), "exercisable": len(needs), "exercised": len(hit),
            "exercised_pct": pct(hit, needs), "missing": [r["name"] for r in api if not r["present"]],
            "signature_differences": [r["name"] for r in comparable if r not in same and r not in deliberate],
            "deliberate_differences": {r["name"]: r["note"] for r in deliberate},
            "not_exercised": [r["name"] for r in needs if not r["exercised"]],
            "extras_here": len(extras), "internal": [r["name"] for r in rows if r not in api]}


def table(rows: list[dict]) -> str:
    def mark(v):
        return "-" if v is None else ("yes" if v else "NO")

    body = [[r["name"], r["kind"], mark(r["present"]), r["signature"][:90], mark(r["exercised"]),
             r["by"] or "", r["note"] or ""] for r in rows]
    return tabulate(body, headers=["upstream name", "kind", "present", "signature", "exercised", "by case", "note"])


def figures(s: dict) -> str:
    return (f"surface: {s['upstream_entries']} upstream entries; present here {s['present']} "
            f"({s['present_pct']}%); signatures match {s['signatures_match']}/{s['signatures_compared']} "
            f"({s['signatures_match_pct']}%; {len(s['deliberate_differences'])} differ on purpose, "
            f"{len(s['signature_differences'])} otherwise); exercised by the corpus {s['exercised']}/{s['exercisable']} "
            f"({s['exercised_pct']}%); {s['extras_here']} extras here (both dialects)")


# --------------------------------------------------------------------------------------------------


def run_probe(python: Path, env: dict[str, str], platform: str, timeout_s: float = 300.0) -> dict:
    with tempfile.TemporaryDirectory(prefix="asc-surface-") as tmp:
        out = Path(tmp) / "surface.json"
        sb = sandbox.run([str(python), str(PROBE), str(out), platform], timeout_s=timeout_s, memory_mb=MEMORY_MB,
                         env_extra=env, writable=[tmp], readable=[python.parent], network=False)
        try:
            return json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = "\n".join((sb.error or sb.stderr).strip().splitlines()[-3:])
            raise HarnessError(f"the surface probe under {python} wrote nothing (exit {sb.exit_code}): {tail}") \
                from None


def build_report(python: Path, corpus: Path, platform: str) -> dict:
    up = run_probe(python, {"ASCTILE_INTERPRET": "1"}, platform)
    here = run_probe(Path(sys.executable), {}, platform)
    rows, extras = compare(up, here, scan_corpus(corpus))
    return {"pyasc_python": str(python), "summary": summarise(rows, extras), "upstream": rows, "extras": extras}


def _parser():
    root = default_root()
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    p.add_argument("--corpus", type=Path, default=root / "conformance" / "corpus", help="corpus directory")
    p.add_argument("--pyasc-python", metavar="PATH", help="interpreter of a pyasc-dev virtualenv")
    p.add_argument("--venv", type=Path, default=DEFAULT_VENV, help=f"the pyasc-dev virtualenv ({DEFAULT_VENV})")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the JSON report here")
    p.add_argument("-v", "--platform", default="Ascend950PR_9599", help="platform (default Ascend950PR_9599)")
    p.add_argument("--fail-under", type=float, metavar="PCT",
                   help="exit 1 when present, signature or exercised coverage is below PCT percent")
    p.add_argument("--all", action="store_true", help="list every entry, not only those with a gap")
    return p


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    python = pyasc_interpreter(args.pyasc_python, args.venv, False)
    report = build_report(python, args.corpus, args.platform)
    s = report["summary"]
    shown = report["upstream"] if args.all else [
        r for r in report["upstream"] if not r["present"] or r["exercised"] is False
        or not (r["signature"] in ("same", "n/a") or r["signature"].startswith("extension"))]
    print(table(shown))
    by_kind = defaultdict(list)
    for e in report["extras"]:
        by_kind[e["kind"]].append(e["name"])
    for kind, names in sorted(by_kind.items()):
        print(f"extra here ({kind}): {', '.join(names)}")
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

"""The harness package has no import cycle: every import counts, also the ones inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parents[1] / "tools" / "asc_harness"


def import_graph(package: Path) -> dict[str, set[str]]:
    """{module: modules of the same package it imports} for the package directory ``package``."""
    name = package.name
    mods: dict[str, Path] = {}
    for path in package.rglob("*.py"):
        rel = path.relative_to(package.parent).with_suffix("").parts
        mod = ".".join(rel[:-1] if rel[-1] == "__init__" else rel)
        mods[mod] = path

    def target(mod_name: str) -> str | None:
        while mod_name and mod_name not in mods:
            mod_name = mod_name.rpartition(".")[0]
        return mod_name or None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = pkg
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                base = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
                names = [f"{base}.{a.name}" for a in node.names] + [base]
            for imported in names:
                if not (imported == name or imported.startswith(name + ".")):
                    continue
                t = target(imported)
                if t and t != mod and not mod.startswith(t + "."):
                    edges[mod].add(t)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_harness_has_no_import_cycle():
    edges = import_graph(HARNESS)
    assert "asc_harness.batch.pipeline" in edges and "asc_harness.report.dashboard_data" in edges
    assert cycles(edges) == []


def test_generate_and_nightly_share_the_pipeline_instead_of_importing_each_other():
    edges = import_graph(HARNESS)
    assert "asc_harness.batch.nightly" not in edges["asc_harness.batch.generate"]
    assert "asc_harness.batch.pipeline" in edges["asc_harness.batch.generate"]
    assert "asc_harness.batch.pipeline" in edges["asc_harness.batch.nightly"]


def test_the_dashboard_reuses_the_registry_and_evidence_loaders():
    edges = import_graph(HARNESS)
    assert {"asc_harness.store.registry", "asc_harness.store.evidence_read"} <= edges["asc_harness.report.dashboard_records"]
    assert "asc_harness.report.dashboard_records" in edges["asc_harness.report.dashboard_data"]
    data_side = edges["asc_harness.report.dashboard_data"] | edges["asc_harness.report.dashboard_records"]
    assert "asc_harness.report.dashboard" not in data_side | edges["asc_harness.report.dashboard_render"]


@pytest.mark.parametrize("late_import", [False, True])
def test_a_cycle_is_found_also_through_an_import_inside_a_function(tmp_path, late_import):
    pkg = tmp_path / "asc_harness"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import f\n")
    body = "def g():\n    from . import a\n" if late_import else "from asc_harness import a\n"
    (pkg / "b.py").write_text(body + "def f():\n    pass\n")
    (pkg / "c.py").write_text("from . import a\n")
    assert cycles(import_graph(pkg)) == [["asc_harness.a", "asc_harness.b"]]


# The harness stages and what each may import (imports flow downward only). Conformance sits beside
# running a kernel; the top-level modules (the ``nightly`` and ``generate`` commands, which compose stages,
# and the ``retention`` shim at its old path) sit above every stage.
STAGES = {
    "common": {"common"},
    "store": {"common", "store"},
    "run": {"common", "store", "run"},
    "conform": {"common", "store", "run", "conform"},
    "batch": {"common", "store", "run", "batch"},
    "report": {"common", "store", "run", "batch", "report"},
}
MAX_LINES = 400


def stage_of(module: str) -> str | None:
    """The stage of ``asc_harness.<stage>...``; None for the package root and the top-level commands."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in STAGES else None


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    bad = []
    for mod, targets in sorted(edges.items()):
        stage = stage_of(mod)
        is_root = mod.count(".") == 0
        for t in sorted(targets):
            if is_root and t != mod:
                bad.append(f"{mod} -> {t} (the package root imports nothing of the harness)")
            elif stage is not None and t.count(".") > 0 and stage_of(t) not in STAGES[stage]:
                bad.append(f"{mod} ({stage}) -> {t} ({stage_of(t) or 'top-level command'})")
    return bad


def test_every_harness_module_belongs_to_a_stage_or_is_a_top_level_command():
    mods = import_graph(HARNESS)
    top_level = sorted(m for m in mods if m.count(".") == 1 and stage_of(m) is None)
    assert top_level == ["asc_harness.generate", "asc_harness.nightly", "asc_harness.retention"]
    assert {stage_of(m) for m in mods} - {None} == set(STAGES)


def test_harness_stages_import_downward_only():
    assert upward_imports(import_graph(HARNESS)) == []


def test_an_upward_import_is_reported_also_from_inside_a_function(tmp_path):
    pkg = tmp_path / "asc_harness"
    for stage in ("store", "batch", "report"):
        (pkg / stage).mkdir(parents=True)
        (pkg / stage / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "report" / "dashboard.py").write_text("from asc_harness.store import registry\n")
    (pkg / "store" / "registry.py").write_text("")
    (pkg / "batch" / "pipeline.py").write_text("def finish():\n    from asc_harness.report import dashboard\n")
    assert upward_imports(import_graph(pkg)) == [
        "asc_harness.batch.pipeline (batch) -> asc_harness.report (report)",
        "asc_harness.batch.pipeline (batch) -> asc_harness.report.dashboard (report)"]


def test_no_harness_module_passes_the_line_limit():
    long = {str(p.relative_to(HARNESS)): n for p in HARNESS.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"split these by responsibility (limit {MAX_LINES} lines): {long}"

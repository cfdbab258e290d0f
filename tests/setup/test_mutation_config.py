"""The mutation-testing set-up stays runnable: every module and test it names exists, and every mutant
recorded as equivalent still points at a line of its module (a stale entry would hide a new mutant)."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "tests" / "mutation"


def _load(name):
    with open(HERE / name, "rb") as fh:
        return tomllib.load(fh)


def test_modules_and_their_tests_exist():
    modules = _load("modules.toml")["modules"]
    assert {"memory_plan", "launcher", "platforms", "status", "evidence", "sandbox", "run_kernel",
            "check_capabilities", "sync_capabilities", "sim_memory", "sim_executor"} <= set(modules)
    for name, spec in modules.items():
        assert (REPO / spec["path"]).is_file(), f"{name}: {spec['path']} does not exist"
        assert spec["tests"], name
        for t in spec["tests"]:
            assert (REPO / t.split("::")[0]).exists(), f"{name}: test path {t} does not exist"


def test_equivalent_mutants_name_a_current_line_and_a_reason():
    modules = {spec["path"] for spec in _load("modules.toml")["modules"].values()}
    for e in _load("equivalent.toml").get("equivalent", []):
        assert e["module"] in modules, e
        lines = {line.strip() for line in (REPO / e["module"]).read_text().splitlines()}
        assert e["line"].strip() in lines, f"stale entry: {e['line']!r} is no longer in {e['module']}"
        assert e["operator"].startswith("core/") and len(e["reason"]) > 20, e

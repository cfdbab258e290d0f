"""capabilities.yaml: schema validation with exact paths, structure rules, cell ids, the committed registry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import default_root
from asc_harness.store.registry import (cell_matches, check_patterns, load_registry, load_valid_registry,
                                  parse_cell_id)
from asc_harness.store.validation import validate

from conftest import ABS, REGISTRY

REPO = default_root()


def _reg(tmp_path: Path, text: str):
    p = tmp_path / "capabilities.yaml"
    p.write_text(text)
    return load_registry(p)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_fixture_registry_is_valid(tmp_path):
    assert _reg(tmp_path, REGISTRY).issues() == []


def test_wrong_type_reports_exact_path_and_line(tmp_path):
    text = REGISTRY.replace("tolerance: {atol: 1.0e-3, rtol: 1.0e-3}\n    prompts:\n      minimal: \"Write abs.\"",
                            "tolerance: {atol: tight, rtol: 1.0e-3}\n    prompts:\n      minimal: \"Write abs.\"")
    issues = _reg(tmp_path, text).issues()
    assert [i.path for i in issues] == ["cells[0].tolerance.atol"]
    assert "'tight' is not of type 'number'" in issues[0].message
    assert issues[0].line == _line_of(text, "atol: tight")


def test_unknown_field_is_reported_at_its_own_path(tmp_path):
    text = REGISTRY.replace("    golden: golden/kernels/add_f16.py\n", "    golden: golden/kernels/add_f16.py\n    colour: blue\n")
    issues = _reg(tmp_path, text).issues()
    assert len(issues) == 1
    assert issues[0].path == "cells[1].colour"
    assert issues[0].message.startswith("unknown field")
    assert issues[0].line == _line_of(text, "colour: blue")


def test_missing_required_field(tmp_path):
    text = REGISTRY.replace('      guided: "Write abs, carefully."\n', "")
    issues = _reg(tmp_path, text).issues()
    assert [(i.path, i.message) for i in issues] == [("cells[0].prompts.guided", "missing required field")]


def test_bad_status_and_absolute_golden_path(tmp_path):
    text = REGISTRY.replace("golden_status: pending      # set by sync", "golden_status: done")
    text = text.replace("golden: golden/kernels/add_f16.py", "golden: /home/someone/add_f16.py")
    issues = {i.path: i.message for i in _reg(tmp_path, text).issues()}
    assert set(issues) == {"cells[0].golden_status", "cells[1].golden"}
    assert "'done' is not one of" in issues["cells[0].golden_status"]
    assert "Repository-relative" in issues["cells[1].golden"]


def test_schema_version_and_date_format(tmp_path):
    text = REGISTRY.replace("schema_version: 1", "schema_version: 2").replace("since: 2026-05-06", "since: May 2026")
    issues = {i.path: i.message for i in _reg(tmp_path, text).issues()}
    assert issues["schema_version"] == "must be 1, got 2"
    assert "cells[1].known_issues[0].since" in issues


def test_structure_rules(tmp_path):
    text = REGISTRY.replace(f"  - id: {ABS}\n    op: abs", f"  - id: abs/float32/Ascend950PR_9599\n    op: abs")
    text = text.replace("    golden_status: pending\n    generative_status: pending",
                        "    golden_status: confirmed\n    generative_status: pending")
    text = text.replace("  - {name: matmul, tier: 3,", "  - {name: matmul, tier: 7,")
    issues = {i.path: i.message for i in _reg(tmp_path, text).issues()}
    assert "does not match op/dtype/platform" in issues["cells[0].id"]
    assert "requires an evidence link" in issues["cells[1].evidence.golden"]
    assert issues["operations[2].tier"] == "tier 7 is not defined in tiers"


def test_duplicate_cell_and_unknown_platform(tmp_path):
    text = REGISTRY.replace("platforms: [Ascend950PR_9599]", "platforms: [Ascend910B1]")
    issues = [i for i in _reg(tmp_path, text).issues() if i.path.endswith(".platform")]
    assert len(issues) == 3 and "not listed in platforms" in issues[0].message


@pytest.mark.parametrize("text, fragment", [
    ("cells: [\n  - oops", "invalid YAML"),
    ("schema_version: 1\n  bad: indent\n", "invalid YAML"),
    ("", "is empty"),
    ("- a\n- b\n", "not a mapping"),
])
def test_malformed_yaml_is_a_clean_error(tmp_path, text, fragment):
    with pytest.raises(HarnessError, match=re.escape(fragment)) as exc:
        _reg(tmp_path, text)
    assert fragment in str(exc.value)
    assert exc.value.exit_code == 2


def test_malformed_yaml_reports_line_and_column(tmp_path):
    with pytest.raises(HarnessError, match=r"capabilities.yaml:3:9: invalid YAML: mapping values"):
        _reg(tmp_path, "schema_version: 1\nplatforms: [x]\ncells: a: b\n")


def test_missing_file(tmp_path):
    with pytest.raises(HarnessError, match="capabilities file not found"):
        load_registry(tmp_path / "nope.yaml")


def test_load_valid_registry_lists_problems(tmp_path):
    p = tmp_path / "capabilities.yaml"
    p.write_text(REGISTRY.replace("dtype: float16\n    platform: Ascend950PR_9599\n    golden: golden/kernels/abs",
                                  "dtype: float12\n    platform: Ascend950PR_9599\n    golden: golden/kernels/abs"))
    with pytest.raises(HarnessError, match=r"cells\[0\]\.dtype"):
        load_valid_registry(p)


def test_cell_ids_and_globs():
    assert str(parse_cell_id(ABS)) == ABS
    for bad in ("abs", "abs/float16", "a/b/c/d", "abs//x", " abs/float16/x"):
        with pytest.raises(HarnessError, match="invalid cell id"):
            parse_cell_id(bad)
    assert cell_matches("abs", ABS)
    assert cell_matches("abs/*", ABS)
    assert cell_matches("*/float16/Ascend950*", ABS)
    assert cell_matches("a?s/float1[6]/*", ABS)
    assert not cell_matches("abs/float32", ABS)
    assert not cell_matches("ab", ABS)          # globs match whole components
    assert not cell_matches("*", "abs/x")       # not a cell id
    assert check_patterns(["abs,add/*", "matmul"]) == ["abs", "add/*", "matmul"]
    with pytest.raises(HarnessError, match="invalid cell pattern 'a/b/c/d'"):
        check_patterns(["a/b/c/d"])


def test_schemas_are_versioned_draft_2020_12():
    import json

    from asc_harness.common.paths import SCHEMA_DIR

    for name in ("capabilities", "evidence"):
        schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["properties"]["schema_version"] == {"const": 1}
    assert validate({"schema_version": 1}, "capabilities")  # incomplete documents are rejected


# --------------------------------------------------------------------------------------------------
# the committed registry

PLATFORMS = ["Ascend950PR_9599", "Ascend910B1"]
EXPECTED = {
    # file: (op, dtype, tier, shapes, atol, rtol); one cell per platform
    "abs_f16": ("abs", "float16", 0, [[1, 128], [4, 2048], [32, 4096], [100003]], 1e-3, 1e-3),
    "abs_f32": ("abs", "float32", 0, [[1, 128], [4, 2048], [32, 4096], [100003]], 1e-5, 1e-5),
    "add_f16": ("add", "float16", 0, [[1, 128], [4, 2048], [32, 4096], [100003]], 1e-3, 1e-3),
    "leaky_relu_f16": ("leaky_relu", "float16", 2, [[1, 128], [4, 2048], [32, 4096], [100003]], 1e-3, 1e-3),
    "gelu_f16": ("gelu", "float16", 2, [[1, 128], [4, 2048], [32, 4096], [100003]], 5e-2, 5e-2),
    "gelu_f32": ("gelu", "float32", 2, [[1, 128], [4, 2048], [32, 4096], [100003]], 1e-2, 1e-2),
    "reduce_sum_f16": ("reduce_sum", "float16", 1, [[32, 4096], [1, 128], [7, 1000]], 2.0, 5e-2),
    "reduce_sum_f32": ("reduce_sum", "float32", 1, [[32, 4096], [1, 128], [7, 1000]], 1e-2, 1e-3),
    "reduce_max_f32": ("reduce_max", "float32", 1, [[32, 4096], [16, 2048]], 0.0, 0.0),
    "softmax_f16": ("softmax", "float16", 3, [[32, 4096], [64, 1024]], 5e-2, 5e-2),
    "softmax_f32": ("softmax", "float32", 3, [[32, 4096], [64, 1024]], 1e-5, 1e-5),
    "matmul_f16": ("matmul", "float16", 3, [[16, 16, 16], [32, 16, 32], [32, 32, 32], [256, 256, 256]], 1e-2, 1e-2),
    "rms_norm_f16": ("rms_norm", "float16", 3, [[8, 256], [8, 1055], [64, 100003]], 5e-2, 5e-2),
    "rms_norm_f32": ("rms_norm", "float32", 3, [[8, 256], [8, 1055], [64, 100003]], 1e-4, 1e-4),
    "add_bf16": ("add", "bfloat16", 0, [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 0.01, 0.0078125),
    "add_inplace_f16": ("add_inplace", "float16", 0,
                        [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 0.001, 0.001),
    "addcdiv_f16": ("addcdiv", "float16", 2,
                    [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 0.002, 0.002),
    "apply_adam_f32": ("apply_adam", "float32", 2,
                       [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 1e-06, 1e-05),
    "batch_norm_f32": ("batch_norm", "float32", 3,
                       [[2, 16, 8, 8], [4, 24, 25, 25], [8, 32, 1623, 1], [16, 64, 32, 32]], 0.0001, 0.0001),
    "bmm_f16": ("bmm", "float16", 3,
                [[1, 16, 32, 16], [2, 32, 64, 32], [3, 48, 96, 48], [8, 128, 512, 128]], 0.01, 0.01),
    "broadcast_f16": ("broadcast", "float16", 3,
                      [[1, 128], [2500, 24], [32, 4096], [100, 1623], [7000, 128]], 0.0, 0.0),
    "cast_bf16": ("cast", "bfloat16", 0, [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 0.0, 0.0),
    "cast_f16": ("cast", "float16", 0, [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 0.0, 0.0),
    "dropout_f16": ("dropout", "float16", 2,
                    [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 0.001, 0.001),
    "kl_div_f32": ("kl_div", "float32", 2, [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 1e-05, 1e-05),
    "layer_norm_bf16": ("layer_norm", "bfloat16", 3,
                        [[8, 256], [2500, 24], [100, 1623], [7000, 1, 128]], 0.015625, 0.0078125),
    "layer_norm_f16": ("layer_norm", "float16", 3, [[8, 256], [2500, 24], [100, 1623], [7000, 1, 128]], 0.01, 0.01),
    "one_hot_i32": ("one_hot", "int32", 3, [[1, 16], [60000, 8], [100003, 16], [7000, 128]], 0.0, 0.0),
    "reciprocal_f32": ("reciprocal", "float32", 0,
                       [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 1e-06, 1e-06),
    "reduce_sum_bf16": ("reduce_sum", "bfloat16", 1,
                        [[1, 128], [7, 1000], [2500, 24], [32, 4096], [100, 1623], [7000, 128]], 0.05, 0.0078125),
    "rms_norm_bf16": ("rms_norm", "bfloat16", 3, [[8, 256], [8, 1055], [2500, 24], [64, 100003]], 0.015625, 0.0078125),
    "select_f16": ("select", "float16", 0, [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 0.0, 0.0),
    "softmax_bf16": ("softmax", "bfloat16", 3, [[32, 4096], [64, 1024], [2500, 64], [7000, 1, 128]], 0.0001, 0.0078125),
    "split_f16": ("split", "float16", 3, [[8, 96], [2500, 24], [100, 1623], [7000, 1, 128]], 0.0, 0.0),
    "tanh_f16": ("tanh", "float16", 0, [[1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128]], 0.001, 0.001),
    "transpose_f16": ("transpose", "float16", 3, [[1, 16], [64, 128], [2500, 24], [100, 1623], [7000, 128]], 0.0, 0.0),
}


def test_committed_registry_is_valid_and_complete():
    reg = load_valid_registry(REPO / "capabilities.yaml")
    assert [t["id"] for t in reg.tiers] == [0, 1, 2, 3]
    assert list(reg.platforms) == PLATFORMS
    by_platform = {p: {c["golden"]: c for c in reg.cells if c["platform"] == p} for p in PLATFORMS}
    assert len(reg.cells) == len(EXPECTED) * len(PLATFORMS)
    for platform, cells in by_platform.items():
        assert set(cells) == {f"golden/kernels/{f}.py" for f in EXPECTED}
        for name, (op, dtype, tier, shapes, atol, rtol) in EXPECTED.items():
            c = cells[f"golden/kernels/{name}.py"]
            assert c["id"] == f"{op}/{dtype}/{platform}"
            assert reg.tier_of(op) == tier
            assert [list(s) for s in c["shapes"]] == shapes
            assert (c["tolerance"]["atol"], c["tolerance"]["rtol"]) == (atol, rtol)
            assert c["prompts"]["minimal"].strip() and platform in c["prompts"]["guided"]
    cells = by_platform["Ascend950PR_9599"]
    refs = {c["id"]: c["reference"] for c in reg.cells if c.get("reference")}
    assert all(cid.endswith("/Ascend950PR_9599") for cid in refs), "the aclnn references are C310 measurements"
    assert refs["matmul/float16/Ascend950PR_9599"]["ticks"] == 4074
    assert refs["rms_norm/float32/Ascend950PR_9599"]["shape"] == [8, 256]
    rms16 = cells["golden/kernels/rms_norm_f16.py"]
    assert [(list(s["shape"]), s["atol"]) for s in rms16["shape_tolerances"]] == [([8, 256], 2e-2)]
    issues = " ".join(i["text"] for i in cells["golden/kernels/gelu_f32.py"]["known_issues"])
    assert "erf" in issues and "64" in issues
    assert cells["golden/kernels/matmul_f16.py"]["known_issues"]


def test_committed_registry_round_trips_byte_for_byte():
    reg = load_registry(REPO / "capabilities.yaml")
    assert reg.dump() == reg.text


def test_committed_registry_passes_soft_check(capsys):
    from asc_harness.store import check_capabilities

    assert check_capabilities.main(["--soft-runtime"]) == 0, capsys.readouterr().out

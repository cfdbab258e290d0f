"""Generate the v1 differential's corpus from upstream's own sources: the call examples of the docstrings.

pyasc documents each vector instruction with examples (``py_example`` of the docstring functions in
``asc/language/basic/utils.py``: the shared templates ``set_binary_docstring``, ``set_binary_scalar_docstring``,
``set_unary_docstring`` filled in with each instruction decorated with them, and the ``DOC_HANDLES`` entries of
``axpy`` / ``duplicate``). Each example call (``asc.add(dst, src0, src1, mask=mask, repeat_times=4,
repeat_params=params)``, with the ``mask = ...`` / ``params = asc.BinaryRepeatParams(...)`` lines before it)
becomes a form spec (``v1_forms``) keeping the example's spelling, in float16, float32 and int16, and is
written as ``conformance/v1/docs/<op>_<dtype>_<n>.py``. Upstream's verdict is recorded later by running the
differential (``EXPECT`` is filled in with ``--record``).

    python -m asc_harness.conform.v1_corpus --upstream ~/.cache/asc-embedded/pyasc-dev/lib/python3.11/site-packages
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

from asc_harness.conform import v1_forms

DTYPES = ("float16", "float32", "int16")
TEMPLATES = {"set_binary_docstring": "vec_binary.py", "set_binary_scalar_docstring": "vec_binary_scalar.py",
             "set_unary_docstring": "vec_unary.py"}
HANDLES = {"axpy": "axpy_docstring", "duplicate": "duplicate_docstring"}
ROLE_OF_KEYWORD = {"count": "count", "mask": "mask", "repeat_times": "repeat_times", "repeat_time": "repeat_times",
                   "repeat_params": "params", "params": "params", "is_set_mask": "is_set_mask",
                   "dst_block_stride": "dst_blk", "dst_repeat_stride": "dst_rep"}
# names the examples leave to the reader
EXAMPLE_NAMES = {"uint64_max": (1 << 64) - 1, "src_data_size": 512}
SCALAR = 2.0
SIZEOF = {"half": 2, "float16": 2, "float": 4, "float32": 4, "int16": 2, "int32": 4}


def _function_source(src: str, name: str) -> str:
    tree = ast.parse(src)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_source_segment(src, node)
    raise LookupError(name)


def _example(fn_src: str) -> str:
    m = re.search(r'py_example = f?"""(.*?)"""', fn_src, re.S)
    return m.group(1) if m else ""


def statements(example: str) -> list[str]:
    """The example's code lines as whole statements (continuation lines joined)."""
    out, cur, depth = [], "", 0
    for raw in example.splitlines():
        line = raw.split("#")[0].strip()
        if not line or line.startswith(("..", "-", "*")):
            continue
        cur = f"{cur} {line}".strip()
        depth = cur.count("(") + cur.count("[") - cur.count(")") - cur.count("]")
        if depth <= 0:
            out.append(cur)
            cur = ""
    return out


def _value(node: ast.AST, env: dict):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id, EXAMPLE_NAMES.get(node.id, SCALAR if node.id == "scalar" else None))
    if isinstance(node, ast.List):
        return [_value(e, env) for e in node.elts]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.endswith("Params"):
        return ("params", [_value(a, env) for a in node.args])
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "sizeof"
            and isinstance(node.func.value, ast.Attribute)):        # asc.half.sizeof()
        return SIZEOF.get(node.func.value.attr)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mult, ast.Add, ast.Sub)):
        a, b = _value(node.left, env), _value(node.right, env)
        if isinstance(a, int) and isinstance(b, int):
            return {ast.FloorDiv: a // b if b else None, ast.Mult: a * b, ast.Add: a + b,
                    ast.Sub: a - b}[type(node.op)]
    return None


def calls_of(example: str, op: str) -> list[dict]:
    """Each call of ``asc.<op>`` in ``example`` as {args: [...], keywords: [(name, value)], params: [...]}."""
    env, found = {}, []
    for stmt in statements(example):
        try:
            node = ast.parse(stmt).body[0]
        except SyntaxError:
            continue
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            env[node.targets[0].id] = _value(node.value, env)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            c = node.value
            if isinstance(c.func, ast.Attribute) and c.func.attr == op:
                found.append({"args": [_value(a, env) for a in c.args],
                              "keywords": [(k.arg, _value(k.value, env)) for k in c.keywords],
                              "text": stmt})
    return found


def spec_of(op: str, dtype: str, call: dict) -> dict | None:
    """The form spec of one example call, or None when it is not an elementwise call form."""
    fam = v1_forms.FAMILY_OF[op]
    n_operands = {"binary": 3, "unary": 2, "scalar": 3, "axpy": 3, "duplicate": 2}[fam]
    rest = call["args"][n_operands:]
    spec = {"op": op, "dtype": dtype}
    if fam in ("scalar", "axpy", "duplicate"):
        s = call["args"][n_operands - 1] if len(call["args"]) >= n_operands else SCALAR
        spec["scalar"] = float(s if isinstance(s, (int, float)) else SCALAR)
    kws = dict(call["keywords"])
    order = ["count"] if "count" in kws or (len(rest) == 1) else (
        ["mask", "repeat_times", "dst_blk", "dst_rep"] if fam == "duplicate" else ["mask", "repeat_times", "params"])
    roles = [[None, r] for r in order[:len(rest)]] + [[k, ROLE_OF_KEYWORD.get(k, k)] for k, _ in call["keywords"]]
    values = dict(zip(order, rest))
    values.update({ROLE_OF_KEYWORD.get(k, k): v for k, v in call["keywords"]})
    spec["call"] = roles
    if "count" in values:
        spec.update(form="count", count=int(values["count"]))
        return spec
    mask = values.get("mask")
    if mask is None or "repeat_times" not in values or (isinstance(mask, list) and None in mask):
        return None      # a mask the example leaves to the reader
    spec.update(form="mask_list" if isinstance(mask, list) else "mask_int", mask=mask,
                repeat_times=int(values["repeat_times"]))
    k = v1_forms.OPERANDS[fam]
    if fam == "duplicate":
        spec["strides"] = [[int(values.get("dst_blk", 1)), int(values.get("dst_rep", 8))]]
    else:
        p = values.get("params")
        nums = p[1] if isinstance(p, tuple) else [1] * k + [8] * k
        spec["strides"] = [[int(nums[i]), int(nums[k + i])] for i in range(k)]
    return spec


def doc_calls(upstream: Path) -> dict[str, list[dict]]:
    """{op: [example call, ...]} from upstream's docstrings under ``upstream`` (the directory holding ``asc``)."""
    basic = upstream / "asc" / "language" / "basic"
    utils = (basic / "utils.py").read_text(encoding="utf-8")
    out: dict[str, list[dict]] = {}
    for template, module in TEMPLATES.items():
        example = _example(_function_source(utils, template))
        text = (basic / module).read_text(encoding="utf-8")
        for op in re.findall(rf"@{template}\([^)]*\)\s*\ndef (\w+)\(", text):
            if op in v1_forms.FAMILY_OF:
                out[op] = calls_of(example.replace("{api_name}", op), op)
    for op, handle in HANDLES.items():
        out[op] = calls_of(_example(_function_source(utils, handle)), op)
    return out


def generate(upstream: Path, dest: Path) -> list[Path]:
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for op, calls in sorted(doc_calls(upstream).items()):
        for i, call in enumerate(calls):
            for dtype in DTYPES:
                spec = spec_of(op, dtype, call)
                if spec is None:
                    continue
                path = dest / f"{op}_{dtype}_{i}.py"
                doc = (f"{op} in {dtype}, the call form of upstream's docstring example {i + 1}:\n"
                       f"    {call['text']}")
                path.write_text(v1_forms.render(spec, doc, expect=None), encoding="utf-8")
                written.append(path)
    return written


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="v1_corpus", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--upstream", type=Path, required=True, help="directory holding upstream's asc package")
    p.add_argument("--dest", type=Path, default=Path("conformance/v1/docs"))
    args = p.parse_args(argv)
    paths = generate(args.upstream, args.dest)
    print(f"v1_corpus: wrote {len(paths)} cases to {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

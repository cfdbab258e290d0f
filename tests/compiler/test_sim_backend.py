"""The simulator is a backend of the op registry: every op has a cost and an implementation, and the
language layer that defines ops does not depend on the simulator."""
import ast
import pathlib

import asc
import asc2  # noqa: F401  (defines every op)
from asc.ir.registry import OPS
from asc.sim.ops import IMPLS

LANGUAGE = pathlib.Path(asc.__file__).parent / "language"


def test_every_op_has_a_cost_and_an_implementation():
    """Tile ops run on the executor (``asc.sim.ops``); v1 instructions (``v1.<name>``) on the pipe engine
    (tests/compiler/test_op_traits.py checks those)."""
    tile = {n: d for n, d in OPS.items() if not n.startswith("v1.")}
    assert tile, "no ops registered"
    assert sorted(set(tile) - set(IMPLS)) == []
    assert sorted(set(IMPLS) - set(tile)) == []
    assert [name for name, d in tile.items() if not callable(d.cost)] == []


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            # resolve relative imports against the file's package
            if node.level:
                pkg = path.relative_to(LANGUAGE.parent.parent).with_suffix("").parts[:-node.level]
                mod = ".".join(pkg + tuple(p for p in mod.split(".") if p))
            yield mod
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


def test_language_does_not_import_the_simulator():
    offenders = sorted(f"{p.relative_to(LANGUAGE)}: {m}" for p in LANGUAGE.rglob("*.py")
                       for m in _imports(p) if m == "asc.sim" or m.startswith("asc.sim."))
    assert offenders == []
    # the scan resolves relative imports (it would see a regression)
    assert "asc.ir.builder" in set(_imports(LANGUAGE / "tile" / "memory_ops.py"))

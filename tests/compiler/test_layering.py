"""The compiler's imports flow one way: core -> ir -> language -> frontend -> runtime -> lib / public
packages, with the simulator beside (it sees the IR only, and only the runtime and above drive it). No
import cycle anywhere under compiler/ (imports inside functions count too)."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

COMPILER = Path(__file__).resolve().parents[2] / "compiler"

# layer of a module: the longest matching prefix wins
LAYERS = {
    "asc.language.core.dtype": 0,
    "asc.ir": 1,
    "asc.sim": 1.5,
    "asc.language": 2,
    "asc.frontend": 3,
    "asc.runtime": 4,
    "asc.lib": 5,
    "asc.experimental": 6,
    "asc": 6,
    "asc2": 6,
}


def modules():
    out = {}
    for path in COMPILER.rglob("*.py"):
        name = ".".join(path.relative_to(COMPILER).with_suffix("").parts)
        out[name[: -len(".__init__")] if name.endswith(".__init__") else name] = path
    return out


def import_graph(mods):
    """module -> set of modules it imports (resolved to the longest existing module name)."""
    def target(name):
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges = {m: set() for m in mods}
    for m, path in mods.items():
        pkg = m if path.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = pkg
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                base = (base + "." + node.module if node.module else base) if node.level else node.module
                names = [base + "." + a.name for a in node.names] + [base]
            for n in names:
                t = target(n)
                if t and t != m and not m.startswith(t + "."):
                    edges[m].add(t)
    return edges


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in edges:
        if v not in index:
            visit(v)
    return out


def layer(module):
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def test_no_import_cycle_under_compiler():
    assert cycles(import_graph(modules())) == []


def test_the_cycle_finder_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_flow_from_core_to_runtime_with_the_simulator_beside():
    edges = import_graph(modules())
    upward = sorted(f"{m} -> {t}" for m, ts in edges.items() for t in ts
                    if layer(t) > layer(m) and not (layer(m) == 1.5 and layer(t) == 1.5))
    assert upward == []
    # below the runtime nothing drives the simulator
    into_sim = sorted(f"{m} -> {t}" for m, ts in edges.items() for t in ts
                      if layer(t) == 1.5 and layer(m) < 4 and layer(m) != 1.5)
    assert into_sim == []


def test_the_layer_rule_sees_an_upward_import():
    assert layer("asc.language.tile.binary_ops") < layer("asc.runtime.config")
    assert layer("asc.ir.types") > layer("asc.language.core.dtype")
    assert layer("asc.sim.ops.memory") < layer("asc.language.tile.memory_ops")


def test_the_v1_front_end_sits_in_the_same_layers():
    """pyasc's v1 API is a second front end over the same engine: its language, front end, IR, simulator
    and runtime modules are where the tile API's are, and the rules above cover them."""
    mods = modules()
    v1 = {"asc.ir.pipe_ops": 1, "asc.sim.pipes.engine": 1.5, "asc.sim.pipes.ordering": 1.5,
          "asc.sim.pipes.timing": 1.5, "asc.sim.pipes.compute": 1.5, "asc.language.v1.binary": 2, "asc.language.v1.addressing": 2,
          "asc.language.v1.fwk": 2, "asc.language.v1.tensors": 2, "asc.frontend.v1_kernel": 3,
          "asc.runtime.v1_launch": 4, "asc.adv": 6}
    assert {m: layer(m) for m in v1 if m in mods} == v1
    edges = import_graph(mods)
    # the v1 language builds ops and never runs them; the simulator's v1 part sees only the IR
    assert not any(t.startswith("asc.sim") for m in mods if m.startswith("asc.language.v1") for t in edges[m])
    assert not any(t.startswith(("asc.language", "asc.frontend", "asc.runtime"))
                   for m in mods if m.startswith("asc.sim.pipes") for t in edges[m])
    # one engine: the v1 blocks are scheduled by the tile schedule, their instructions defined (with their
    # costs) in the op registry, their element math and cross-block GM races those of the tile ops
    used = {t for m in mods if m.startswith("asc.sim.pipes") for t in edges[m]}
    assert {"asc.sim.schedule", "asc.ir.registry", "asc.sim.ops.arith", "asc.sim.races", "asc.sim.memory"} <= used
    assert "asc.ir.registry" in edges["asc.language.v1.binary"]

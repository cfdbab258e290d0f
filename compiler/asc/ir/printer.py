"""Textual form of the IR, for users (``kernel.ir(...)``) and for tests."""
from __future__ import annotations

from .core import Block, Function


class _Names:
    def __init__(self):
        self.names = {}

    def __call__(self, v):
        if v.id not in self.names:
            self.names[v.id] = f"%{len(self.names)}"
        return self.names[v.id]


def _fmt_attr(v):
    if isinstance(v, float):
        return repr(v)
    if hasattr(v, "name") and hasattr(v, "value") and not isinstance(v, (str, bytes)):
        return str(getattr(v, "name"))
    return repr(v) if isinstance(v, str) else str(v)


def _print_block(block: Block, names, indent, out, with_locs):
    pad = "  " * indent
    for op in block.ops:
        res = ", ".join(names(r) for r in op.results)
        lhs = f"{res} = " if res else ""
        args = ", ".join(names(o) for o in op.operands)
        attrs = ""
        if op.attrs:
            attrs = " {" + ", ".join(f"{k}={_fmt_attr(v)}" for k, v in op.attrs.items()) + "}"
        types = ""
        if op.results:
            types = " : " + ", ".join(str(r.type) for r in op.results)
        loc = f"  // {op.loc}" if (with_locs and op.loc) else ""
        line = f"{pad}{lhs}{op.name}({args}){attrs}{types}"
        if op.regions:
            out.append(line + " {" + loc)
            for i, region in enumerate(op.regions):
                if i:
                    out.append(f"{pad}}} {{")
                if region.args:
                    out.append(f"{pad}  ^(" + ", ".join(f"{names(a)}: {a.type}" for a in region.args) + "):")
                _print_block(region, names, indent + 1, out, with_locs)
            out.append(f"{pad}}}")
        else:
            out.append(line + loc)


def print_function(fn: Function, with_locs: bool = True) -> str:
    names = _Names()
    params = ", ".join(f"{names(a)}: {a.type}" for a in fn.args)
    out = [f"func @{fn.name}({params}) {{"]
    if fn.constexprs:
        out.append("  // constexpr: " + ", ".join(f"{k}={v!r}" for k, v in fn.constexprs.items()))
    _print_block(fn.body, names, 1, out, with_locs)
    out.append("}")
    return "\n".join(out)

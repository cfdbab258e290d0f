"""What Ascend C pyasc emits for the C310 matmul sweep's kernel under each loop spelling (run with pyasc-dev).

    ~/.cache/asc-embedded/pyasc-dev/bin/python bench/loop_spellings.py [OUT_DIR]

The kernel is ``matmul_sweep_kernel`` of ``ticks_calibration.py`` in pyasc-dev's spelling (``asctile``,
``copy_in`` / ``copy_out``, ``gm_barrier``) at the sweep's two launches (16x16x16 on one core, 32x16x32 on
two cores with two N tiles each). Each spelling of its two tile loops goes through pyasc's real code
generator and pass pipeline (the C++ compiler is replaced by ``true``, the launch stops once the source is
written) with ``PYASC_DUMP_PATH`` set, so OUT_DIR/<spelling>/<launch>/ holds codegen.mlir, ascir.mlir and
ascendc.cpp. The script prints, per launch, the spellings whose ascendc.cpp is byte for byte the same, the
lines that set the other groups apart, and the groups whose pipe instructions, syncs and loops are the same
in the same order (their scalar code aside). Spellings: ``python`` (the builtin ``range``, the sweep's
baseline), ``bare`` (a loop with no loop attribute, what the overlay build made of ``range``), ``static``
(``static_range``: unrolled while tracing, the calibration notes' "compile-time unroll"), ``uf1`` / ``uf2``
(``range(unroll_factor=...)``, no barrier: April's ``parallel=True``) and ``uf1gm`` / ``uf2gm`` (with the
loop-end barrier: April's default ``parallel=False``).
"""
from __future__ import annotations

import difflib
import importlib.util
import os
import re
import sys
import tempfile
from pathlib import Path

LOOPS = {
    "python": "range({n})",
    "bare": "BaseRange({n})",
    "static": "asctile.static_range({n})",
    "uf1": "asctile.range({n}, unroll_factor=1)",
    "uf1gm": "asctile.range({n}, unroll_factor=1, gm_barrier=True)",
    "uf2": "asctile.range({n}, unroll_factor=2)",
    "uf2gm": "asctile.range({n}, unroll_factor=2, gm_barrier=True)",
}
LAUNCHES = ((16, 16, 16, 1, 1, 1), (32, 16, 32, 2, 1, 2))   # m, k, n, cores, m tiles and n tiles per block

# the jit reads a kernel's source, so each spelling is written to a module of its own
KERNEL = '''
from asc.experimental import asctile
from asc.language.core.range import BaseRange


@asctile.jit(always_compile=True)
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
           a_shape: asctile.ConstExpr, b_shape: asctile.ConstExpr, c_shape: asctile.ConstExpr,
           m_tile: asctile.ConstExpr[int], m_tiles: asctile.ConstExpr[int], n_tile: asctile.ConstExpr[int],
           n_tiles: asctile.ConstExpr[int]):
    a_gm = asctile.global_tensor(a_ptr, a_shape)
    b_gm = asctile.global_tensor(b_ptr, b_shape)
    c_gm = asctile.global_tensor(c_ptr, c_shape)
    block_id = asctile.block_idx()
    m_elems = m_tile * m_tiles
    m_base = (m_elems * block_id) % a_shape[0]
    n_base = ((m_elems * block_id) // a_shape[0]) * (n_tile * n_tiles)
    for j in LOOP_J:
        b_j = asctile.copy_in(b_gm, [0, n_base + j * n_tile], [b_shape[0], n_tile], asctile.TensorLocation.L0B)
        for i in LOOP_I:
            a_i = asctile.copy_in(a_gm, [m_base + i * m_tile, 0], [m_tile, a_shape[1]], asctile.TensorLocation.L0A)
            asctile.copy_out(a_i @ b_j, c_gm, [m_base + i * m_tile, n_base + j * n_tile])
'''


# what the pipes and the loop see: DMA / cube instructions, buffer-id and flag syncs, loop headers (names and
# argument expressions are left out: they differ with the scalar code around them)
_PIPE_STREAM = re.compile(r"(get_buf|rls_buf)\([^)]*\)|(SetFlag|WaitFlag|PipeBarrier)<[^>]*>|"
                          r"AscendC::(DataCopy|LoadData|Mmad|Fixpipe)\b|\bfor \(")


class _Written(Exception):
    """The launch stopped once pyasc wrote its source."""


def dump(out_dir: Path, platform: str = "Ascend950PR_9599") -> None:
    import numpy as np
    os.environ.setdefault("PYASC_COMPILER", "true")
    os.environ.setdefault("PYASC_LINKER", "true")
    import asc.runtime.compiler as compiler
    import asc.runtime.config as config

    def stop(self, source, kernel_args=None, **kw):
        raise _Written()
    compiler.Compiler.run_compilation = stop
    config.set_platform(config.Backend.Model, config.Platform(platform), check=False)
    with tempfile.TemporaryDirectory() as tmp:
        for spelling, loop in LOOPS.items():
            path = Path(tmp) / f"spelling_{spelling}.py"
            path.write_text(KERNEL.replace("LOOP_J", loop.format(n="n_tiles")).replace("LOOP_I", loop.format(n="m_tiles")))
            spec = importlib.util.spec_from_file_location(path.stem, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            for m, k, n, cores, m_tiles, n_tiles in LAUNCHES:
                a, b = np.ones((m, k), np.float16), np.ones((k, n), np.float16)
                c = np.zeros((m, n), np.float32)
                os.environ["PYASC_DUMP_PATH"] = str(out_dir / spelling / f"{m}x{k}x{n}")
                try:
                    module.kernel[cores](a, b, c, a.shape, b.shape, c.shape, 16, m_tiles, 16, n_tiles)
                except _Written:
                    pass


def compare(out_dir: Path) -> None:
    for m, k, n, *_ in LAUNCHES:
        launch = f"{m}x{k}x{n}"
        groups: dict[str, list[str]] = {}
        for spelling in LOOPS:
            groups.setdefault((out_dir / spelling / launch / "ascendc.cpp").read_text(), []).append(spelling)
        print(f"{launch}: {len(groups)} distinct ascendc.cpp")
        texts = list(groups)
        for text in texts:
            print(f"  identical: {', '.join(groups[text])} ({len(text.splitlines())} lines)")
        for other in texts[1:]:
            diff = [d for d in difflib.unified_diff(texts[0].splitlines(), other.splitlines(), lineterm="", n=0)
                    if d[:1] in "+-" and not d.startswith(("+++", "---"))]
            print(f"  {groups[texts[0]][0]} -> {groups[other][0]}: {len(diff)} lines differ, e.g.")
            for line in diff[:6]:
                print(f"    {line.strip()}")
        streams: dict[tuple, list[str]] = {}
        for text in texts:
            stream = tuple(found.group(0) for found in _PIPE_STREAM.finditer(text))
            streams.setdefault(stream, []).extend(groups[text])
        print(f"  {len(streams)} distinct streams of pipe instructions, syncs and loops:")
        for stream, spellings in streams.items():
            print(f"    {', '.join(spellings)}: {len(stream)} entries")


def main(argv):
    out_dir = Path(argv[0] if argv else tempfile.mkdtemp(prefix="loop-spellings-")).resolve()
    dump(out_dir)
    print(f"dumps in {out_dir}")
    compare(out_dir)


if __name__ == "__main__":
    main(sys.argv[1:])

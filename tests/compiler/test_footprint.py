"""A launch too large for the memory the process may take fails at the kernel call, before it allocates."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from asc.experimental import asctile
from asc.runtime import footprint


@asctile.jit
def double(x_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num()):
        asctile.copy_out(asctile.copy_in(x_gm, [t * TILE], [TILE]) * 2.0, out_gm, [t * TILE])


def test_the_footprint_is_the_stated_multiple_of_the_gm_bytes_plus_the_fixed_overhead():
    assert footprint.launch_footprint(0) == footprint.FIXED_OVERHEAD
    assert footprint.launch_footprint(1000) - footprint.launch_footprint(0) == 1000 * footprint.FOOTPRINT_MULTIPLE


def test_a_launch_one_byte_over_the_room_fails_naming_footprint_and_limit(monkeypatch):
    n = 1 << 16
    x, out = np.ones(n, np.float32), np.zeros(n, np.float32)
    need = footprint.launch_footprint(x.nbytes + out.nbytes)
    monkeypatch.setattr(footprint, "memory_room", lambda: (need, "MemAvailable in /proc/meminfo"))
    monkeypatch.setattr(footprint, "_LAST", [float("-inf"), None, None])   # no reading of earlier launches
    double[4](x, out, n, asctile.ConstExpr(1024))                 # exactly fits
    np.testing.assert_array_equal(out, 2 * x)
    out[:] = 0
    monkeypatch.setattr(footprint, "memory_room", lambda: (need - 1, "MemAvailable in /proc/meminfo"))
    with pytest.raises(MemoryError) as info:
        double[4](x, out, n, asctile.ConstExpr(1024))
    text = str(info.value)
    assert f"needs about {need >> 20} MB" in text and f"only {(need - 1) >> 20} MB are available" in text
    assert "MemAvailable" in text and "ASC_MEMORY_CHECK=off" in info.value.hint
    assert not out.any()                                          # it stopped before running
    monkeypatch.setenv("ASC_MEMORY_CHECK", "off")
    double[4](x, out, n, asctile.ConstExpr(1024))
    np.testing.assert_array_equal(out, 2 * x)


_SCRIPT = textwrap.dedent('''
    import resource
    import numpy as np
    import asc.runtime.config as config
    from asc.experimental import asctile


    @asctile.jit
    def double(x_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
        x_gm = asctile.global_tensor(x_ptr, [n])
        out_gm = asctile.global_tensor(out_ptr, [n])
        for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num()):
            asctile.copy_out(asctile.copy_in(x_gm, [t * TILE], [TILE]) * 2.0, out_gm, [t * TILE])


    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    used = int(next(l for l in open("/proc/self/status") if l.startswith("VmSize:")).split()[1]) << 10
    resource.setrlimit(resource.RLIMIT_AS, (used + (1 << 30), resource.RLIM_INFINITY))
    n = 48 << 20
    x, out = np.ones(n, np.float32), np.zeros(n, np.float32)     # 384 MB: the launch would need 1.4 GB more
    double[32](x, out, n, asctile.ConstExpr(4096))
    print("ran")
''')


def test_a_launch_past_the_address_space_limit_exits_2_at_the_kernel_call(tmp_path):
    script = tmp_path / "too_big.py"
    script.write_text(_SCRIPT)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path,
                         env=dict(os.environ, PYASC_CACHE_DIR=str(tmp_path / "cache")))
    assert run.returncode == 2, run.stderr
    assert "ran" not in run.stdout
    line = _SCRIPT.splitlines().index("double[32](x, out, n, asctile.ConstExpr(4096))") + 1
    assert f'File "{script}", line {line}' in run.stderr
    assert "LaunchMemoryError" in run.stderr and "RLIMIT_AS" in run.stderr and "needs about 1408 MB" in run.stderr
    assert "hint: launch it on smaller inputs" in run.stderr

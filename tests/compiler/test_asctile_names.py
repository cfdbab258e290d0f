"""``asc.experimental.asctile`` exports no name upstream's asctile lacks (a kernel passing here would fail
there); ``asc2`` keeps them."""
from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError

NOT_UPSTREAM = ("number", "half", "double", "uint8", "uint16", "uint32", "uint64")


@pytest.mark.parametrize("name", NOT_UPSTREAM)
def test_names_upstream_asctile_lacks_are_only_in_asc2(name):
    assert not hasattr(asctile, name) and name not in asctile.__all__
    assert hasattr(asc2, name)


def test_a_kernel_using_asctile_number_fails_at_its_line_as_upstream():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        x = asctile.global_tensor(x_ptr, [8])
        asctile.copy_out(asctile.number(3, asctile.int_), x, [0])
    with pytest.raises(CodegenError, match="has no attribute 'number'") as e:
        k[1](np.zeros(8, np.int32))
    assert "asctile.copy_out(asctile.number(3, asctile.int_), x, [0])" in str(e.value)


@pytest.mark.skipif(not os.environ.get("PYASC_DEV_PYTHON"), reason="PYASC_DEV_PYTHON names no pyasc-dev interpreter")
def test_every_public_asctile_name_exists_upstream():
    out = subprocess.run([os.environ["PYASC_DEV_PYTHON"], "-c", "import asc.experimental.asctile as a; "
                          "print(' '.join(n for n in dir(a) if not n.startswith('_')))"],
                         capture_output=True, text=True, check=True, timeout=120)
    upstream = set(out.stdout.split())
    here = {n for n in dir(asctile) if not n.startswith("_")}
    assert sorted(here - upstream) == []


def test_language_submodules_hand_out_the_asctile_objects_upstream_groups_there():
    from asc.experimental.asctile.language import local_tensor, memory_ops, unary_ops

    assert memory_ops.copy_in is asctile.copy_in and memory_ops.DistribMode is asctile.DistribMode
    assert local_tensor.TensorLocation is asctile.TensorLocation and unary_ops.softmax is asctile.softmax
    assert all(getattr(memory_ops, n) is getattr(asctile, n) for n in memory_ops.__all__)


def test_interpreter_says_this_engine_has_no_separate_interpreter_mode():
    with pytest.raises(AttributeError, match="no separate interpreter mode"):
        asctile.interpreter.interpreter_enabled  # noqa: B018 - the attribute access is what is tested

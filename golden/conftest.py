"""pytest options for running golden kernel files directly, e.g.

    pytest golden/kernels/abs_f16.py
    pytest golden/kernels --backend Model --platform Ascend950PR_9599

``--backend`` takes a ``config.Backend`` member name (default ``Model``) and ``--platform`` a
``config.Platform`` value (default ``Ascend950PR_9599``); the ``backend`` and ``platform`` fixtures
hand them to each file's ``test_<op>_<dtype>(backend, platform)`` as enum members. An unknown value
stops the run with a usage error that lists the accepted values. The kernel files are not named
``test_*.py``, so this file also collects them when a directory is given (``pytest golden/kernels``).

(The repository's own test suite, collected from ``tests/``, runs the goldens through their
interface in ``tests/golden/test_goldens.py``.)
"""
import argparse
from pathlib import Path

import pytest

import asc.runtime.config as config


def _backend(value):
    if isinstance(value, config.Backend):
        return value
    names = list(config.Backend.__members__)
    if value not in names:
        raise argparse.ArgumentTypeError(f"unknown backend {value!r}; supported: {', '.join(names)}")
    return config.Backend[value]


def _platform(value):
    if isinstance(value, config.Platform):
        return value
    values = [p.value for p in config.Platform]
    if value not in values:
        raise argparse.ArgumentTypeError(f"unknown platform {value!r}; supported: {', '.join(values)}")
    return config.Platform(value)


def pytest_addoption(parser):
    group = parser.getgroup("golden kernels")
    group.addoption("--backend", type=_backend, default="Model",
                    help="backend to run the golden kernels on: a config.Backend member (default: Model)")
    group.addoption("--platform", type=_platform, default="Ascend950PR_9599",
                    help="platform to run the golden kernels on: a config.Platform value "
                         "(default: Ascend950PR_9599)")


@pytest.fixture(scope="session")
def backend(request):
    return _backend(request.config.getoption("--backend"))


@pytest.fixture(scope="session")
def platform(request):
    return _platform(request.config.getoption("--platform"))


KERNELS = Path(__file__).resolve().parent / "kernels"


def pytest_collect_file(file_path, parent):
    # Files named on the command line are collected by pytest itself; this picks up the rest when
    # a directory is given.
    if (file_path.suffix == ".py" and file_path.parent == KERNELS and not file_path.name.startswith("_")
            and not parent.session.isinitpath(file_path)):
        return pytest.Module.from_parent(parent, path=file_path)
    return None

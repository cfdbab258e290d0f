"""Fixtures for the nightly / generate / sandbox tests (helpers live in nightly_helpers)."""

from __future__ import annotations

import pytest

from nightly_helpers import build_repo


@pytest.fixture
def make_repo(tmp_path):
    counter = [0]

    def make(cells: dict[str, str], **kw) -> Repo:
        counter[0] += 1
        return build_repo(tmp_path / f"repo{counter[0]}", cells, **kw)

    return make


@pytest.fixture
def run_nightly(capsys):
    """Call nightly.main in-process; returns (exit code, stdout, stderr)."""
    from asc_harness import nightly

    def run(*argv: str):
        code = nightly.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run

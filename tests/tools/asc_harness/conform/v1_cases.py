"""The v1 differential's cases: the corpus (``conformance/v1/**/*.py``, upstream's kernel tests where their
sources are beside the repository) and the Ascend C references (``golden/ascendc/``) on each of their
platforms."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from asc_harness.common.errors import HarnessError
from asc_harness.store.kernelfile import read_kernel_file


@dataclass
class Case:
    name: str
    path: Path
    expect: str | None            # pyasc-dev's verdict when the case was written
    here: str | None              # this engine's verdict (None: not recorded yet)
    differs: str | None = None    # why a disagreement is kept
    tolerance: dict | None = None
    spec: str | None = None       # the driver's argument when it is not the path (ascendc:PLATFORM:PATH)


def upstream_sources(root: Path) -> Path | None:
    """Upstream's pyasc v1 sources beside the repository (../shared/upstream/pyasc-v1; a worktree one level
    deeper), or None."""
    for up in (root.parent, root.parent.parent):
        d = up / "shared" / "upstream" / "pyasc-v1"
        if d.is_dir():
            return d
    return None


def load_corpus(corpus: Path, patterns: Sequence[str] = (), upstream: Path | None = None,
                allow_empty: bool = False) -> list[Case]:
    """The cases under ``corpus``; those running one of upstream's kernel tests (``UPSTREAM_TEST``) only when
    ``upstream`` (the v1 sources) holds it."""
    import fnmatch

    if not corpus.is_dir():
        raise HarnessError(f"v1 corpus directory not found: {corpus}")
    cases = []
    for path in sorted(corpus.rglob("*.py")):
        if path.name.startswith("_"):
            continue
        name = path.relative_to(corpus).with_suffix("").as_posix()
        if patterns and not any(fnmatch.fnmatch(name, p) for p in patterns):
            continue
        kf = read_kernel_file(path)
        if kf.syntax_error:
            raise HarnessError(f"v1 case {name}: {kf.syntax_error}")
        expect = kf.values.get("EXPECT")
        here = kf.values.get("HERE", expect)
        if here not in ("accept", "reject", None) or expect not in ("accept", "reject", None):
            raise HarnessError(f"v1 case {name}: EXPECT / HERE must be 'accept' or 'reject'")
        if "run" not in kf.functions:
            raise HarnessError(f"v1 case {name}: defines no run()")
        test = kf.values.get("UPSTREAM_TEST")
        if test and not (upstream and (upstream / test).is_file()):
            continue
        spec = kf.values.get("SPEC")
        tol = kf.values.get("TOLERANCE")
        if tol is None and isinstance(spec, dict):
            from asc_harness.conform.v1_forms import tolerance
            tol = tolerance(spec)
        cases.append(Case(name, path, expect, here, kf.values.get("DIFFERS"), tol))
    if not cases and not allow_empty:
        raise HarnessError(f"no v1 case in {corpus}")
    return cases


def reference_cases(root: Path, patterns: Sequence[str] = ()) -> list[Case]:
    """The Ascend C reference kernels (golden/ascendc/) on every platform the registry lists each for, as cases
    ``ascendc/<name>@<platform>``: pyasc-dev must accept every launch of each, here its quick cases must pass."""
    import fnmatch

    import yaml

    from asc_harness.conform.v1_ascendc import KNOWN_REFUSALS

    cells = yaml.safe_load((root / "capabilities.yaml").read_text(encoding="utf-8"))["cells"]
    cases = []
    for path, platform in sorted({(c["ascendc"], c["platform"]) for c in cells if c.get("ascendc")}):
        name = f"ascendc/{Path(path).stem}@{platform}"
        if patterns and not any(fnmatch.fnmatch(name, p) for p in patterns):
            continue
        cases.append(Case(name, root / path, "accept", "accept", KNOWN_REFUSALS.get(Path(path).stem),
                          {"atol": 0, "rtol": 0}, f"ascendc:{platform}:{root / path}"))
    return cases

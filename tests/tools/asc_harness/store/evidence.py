"""Evidence records: one append-only JSON file per run (golden run, generative attempt, perf measurement).

Layout (see docs/interfaces.md §4)::

    evidence/<op>/<dtype>/<platform>/<kind>-<YYYYmmddTHHMMSSffffff>Z-<4 hex>.json

Records are validated against ``schema/evidence.schema.json`` before they are written, written to a
temporary file and published under a fresh unique name (a hard link, so an existing record is never
replaced; ``os.replace`` where hard links are unavailable). Two writers at once therefore lose nothing.
All paths stored in a record are relative to the repository root.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import secrets
import tempfile
from pathlib import Path
from typing import Any, Iterable

from asc_harness import SCHEMA_VERSION
from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import to_repo_path
from asc_harness.store.validation import Issue, validate

KINDS = ("golden", "generative", "perf", "ascendc")
RECORD_NAME_RE = re.compile(r"^(?P<kind>golden|generative|perf|ascendc)-(?P<stamp>\d{8}T\d{12})Z-(?P<hex>[0-9a-f]{4})\.json$")
FAILURE_CATEGORIES = ("compile_error", "numeric_mismatch", "runtime_error", "timeout", "memory", "infrastructure")
RUN_STATUSES = ("pass", "fail", "error", "timeout", "skipped")


class EvidenceError(HarnessError):
    """An evidence record that cannot be read or does not validate."""


# --------------------------------------------------------------------------------------------------
# names and provenance


def utc_now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def iso_utc(moment: _dt.datetime | None = None) -> str:
    moment = (moment or utc_now()).astimezone(_dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def record_filename(kind: str, moment: _dt.datetime | None = None) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown evidence kind {kind!r}")
    moment = (moment or utc_now()).astimezone(_dt.timezone.utc)
    return f"{kind}-{moment.strftime('%Y%m%dT%H%M%S%f')}Z-{secrets.token_hex(2)}.json"


def cell_dir(evidence_dir: str | os.PathLike, cell_id: str) -> Path:
    op, dtype, platform = str(cell_id).split("/")
    return Path(evidence_dir) / op / dtype / platform


def file_sha256(path: str | os.PathLike) -> str | None:
    try:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


_IGNORED_FOR_DIRTY = ("evidence/", "capabilities.yaml")


def harness_git_state(root: str | os.PathLike) -> tuple[str | None, bool | None]:
    """(commit sha, dirty flag) of the repository at ``root``; (None, None) outside a git checkout.

    Only tracked files count; changes under ``evidence/`` and to ``capabilities.yaml`` do not make the
    tree dirty: they are the harness's own outputs.
    """
    try:
        import git  # GitPython

        repo = git.Repo(Path(root).resolve(), search_parent_directories=True)
        try:
            commit = repo.head.commit.hexsha
        except (ValueError, git.GitError):
            commit = None
        porcelain = repo.git.status("--porcelain", "--untracked-files=no")
        dirty = False
        for line in porcelain.splitlines():
            path = line[3:].strip().strip('"')
            if " -> " in path:
                path = path.split(" -> ", 1)[1]
            if not path.startswith(_IGNORED_FOR_DIRTY):
                dirty = True
                break
        return commit, dirty
    except Exception:  # not a git checkout, git missing, ...
        return None, None


def perf_block(ticks_runs: Iterable[float]) -> dict:
    """The ``perf`` section of a perf record from repeated measurements: median, runs, relative spread."""
    runs = [float(t) for t in ticks_runs]
    if not runs:
        return {"ticks_median": None, "ticks_runs": [], "spread": None}
    ordered = sorted(runs)
    mid = len(ordered) // 2
    median = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    spread = (ordered[-1] - ordered[0]) / median if median else None
    as_int = [int(t) if t.is_integer() else t for t in runs]
    return {"ticks_median": int(median) if float(median).is_integer() else median, "ticks_runs": as_int,
            "spread": round(spread, 6) if spread is not None else None}


# --------------------------------------------------------------------------------------------------
# building and validating


def _sanitize(value: Any, replacements: list[tuple[str, str]]) -> Any:
    if isinstance(value, str):
        for old, new in replacements:
            if old:
                value = value.replace(old, new)
        return value
    if isinstance(value, dict):
        return {k: _sanitize(v, replacements) for k, v in value.items()}
    if isinstance(value, list):
        return [_sanitize(v, replacements) for v in value]
    return value


def _clean_number(x: Any) -> Any:
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return None
    return x


def build_record(result: dict, *, cell: str, kind: str = "golden", root: str | os.PathLike,
                 kernel: str | os.PathLike | None = None, generative: dict | None = None,
                 perf: dict | None = None, seed: int | None = None) -> dict:
    """Turn a :func:`asc_harness.run.runner.run_file` result into an evidence record (not written).

    ``kernel`` defaults to ``result["file"]``; it is stored relative to ``root`` (the repository root).
    """
    op, dtype, platform = str(cell).split("/")
    root = Path(root).resolve()
    kernel_path = kernel if kernel is not None else result.get("file")
    kernel_rel = None
    sha = result.get("kernel_sha256")
    if kernel_path is not None:
        kernel_rel = to_repo_path(kernel_path, root)
        if kernel_rel is None:
            raise HarnessError(f"kernel {kernel_path} is outside the repository {root}; evidence paths "
                               "must be repository-relative")
        sha = sha or file_sha256(kernel_path)
    commit, dirty = harness_git_state(root)
    cases = []
    for c in result.get("cases", []):
        case = {
            "id": str(c.get("id")),
            "shape": [int(x) for x in c.get("shape") or []],
            "status": c.get("status", "error"),
            "atol": _clean_number(c.get("atol")),
            "rtol": _clean_number(c.get("rtol")),
            "max_abs_err": _clean_number(c.get("max_abs_err")),
            "max_rel_err": _clean_number(c.get("max_rel_err")),
            "mismatches": c.get("mismatches"),
            "elements": c.get("elements"),
            "ticks": c.get("ticks"),
            "wall_s": _clean_number(c.get("wall_s")),
        }
        if c.get("message"):
            case["message"] = str(c["message"])
        if isinstance(c.get("roofline"), (int, float)):
            case["roofline"] = _clean_number(float(c["roofline"]))
        if c.get("warnings"):
            case["warnings"] = [{"kind": str(w["kind"]), "where": w.get("where"), "message": str(w["message"])}
                                for w in c["warnings"]]
        cases.append(case)
    record = {
        "schema_version": SCHEMA_VERSION,
        "kind": kind,
        "cell": str(cell), "op": op, "dtype": dtype, "platform": platform,
        "kernel": kernel_rel,
        "kernel_sha256": sha,
        "status": result.get("status", "error"),
        "runtime_verified": bool(result.get("runtime_verified", False)),
        "failure": result.get("failure"),
        "cases": cases,
        "provenance": {
            "harness_commit": commit,
            "harness_dirty": dirty,
            "engine": result.get("engine", "embedded"),
            "engine_version": result.get("engine_version"),
            "pyasc_revision": result.get("pyasc_revision"),
            "cann_version": result.get("cann_version"),
            "backend": result.get("backend", "Model"),
            "platform": result.get("platform", platform),
            "python": result.get("python"),
            "seed": seed if seed is not None else result.get("seed"),
        },
        "started_at": result.get("started_at") or iso_utc(),
        "wall_time_s": round(float(result.get("wall_time_s") or 0.0), 6),
        "generative": generative,
        "perf": perf,
    }
    if result.get("sandbox"):
        record["provenance"]["sandbox"] = dict(result["sandbox"])
    replacements = [(str(root) + os.sep, ""), (str(root), ".")]
    home = os.path.expanduser("~")
    if home and home != "/":
        replacements.append((home, "~"))
    for sandbox_dir in result.get("sandbox_dirs", []) or []:
        replacements.insert(0, (sandbox_dir, "<workdir>"))
    for key in ("failure", "cases"):
        record[key] = _sanitize(record[key], replacements)
    return record


def validate_record(record: Any) -> list[Issue]:
    """Schema issues plus consistency rules (cell id vs op/dtype/platform, status vs cases)."""
    issues = validate(record, "evidence")
    if issues or not isinstance(record, dict):
        return issues
    expected = f"{record['op']}/{record['dtype']}/{record['platform']}"
    if record["cell"] != expected:
        issues.append(Issue("cell", f"{record['cell']!r} does not match op/dtype/platform ({expected!r})"))
    if record["provenance"]["platform"] != record["platform"]:
        issues.append(Issue("provenance.platform",
                            f"{record['provenance']['platform']!r} differs from platform {record['platform']!r}"))
    if record["status"] == "pass":
        for i, case in enumerate(record["cases"]):
            if case["status"] not in ("pass", "skipped"):
                issues.append(Issue(f"cases[{i}].status", f"case is {case['status']!r} in a passing record"))
    return issues


def _dump(record: dict) -> str:
    """Indented JSON, with every list of numbers or strings (shapes, timeline segments, trace paths)
    and every list of such lists on one line: a case reads as a few lines, not a column of numbers."""
    return _dumps(record, "") + "\n"


def _flat(value: Any) -> bool:
    scalar = (str, int, float, bool, type(None))
    return isinstance(value, list) and all(
        isinstance(v, scalar) or (isinstance(v, list) and all(isinstance(w, scalar) for w in v)) for v in value)


def _dumps(value: Any, pad: str) -> str:
    if _flat(value) or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, allow_nan=False)
    inner = pad + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(str(k))}: {_dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    return "[\n" + ",\n".join(inner + _dumps(v, inner) for v in value) + "\n" + pad + "]"


def write_record(record: dict, evidence_dir: str | os.PathLike) -> Path:
    """Validate and atomically publish ``record``; returns the new file's path.

    The file is first written completely to a temporary file in the target directory, then published
    under a unique name with ``os.link`` (fails instead of replacing if the name exists) or, where
    hard links are unsupported, ``os.replace`` after checking the name is free.
    """
    issues = validate_record(record)
    if issues:
        raise EvidenceError("refusing to write an invalid evidence record: "
                            + "; ".join(str(i) for i in issues[:5]))
    directory = cell_dir(evidence_dir, record["cell"])
    directory.mkdir(parents=True, exist_ok=True)
    data = _dump(record)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        for _ in range(100):
            final = directory / record_filename(record["kind"])
            try:
                os.link(tmp, final)
            except FileExistsError:
                continue
            except OSError:
                if final.exists():
                    continue
                os.replace(tmp, final)
                return final
            return final
        raise EvidenceError(f"could not find a free evidence file name in {directory}")
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass

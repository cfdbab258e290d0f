"""Running kernel files: :func:`run_file` (one file, result dict) and :func:`run_cell` (evidence record).

A file with the golden interface (docs/interfaces.md §1) is run by ``probe.py`` under the engine's
interpreter inside the sandbox: the harness owns the comparison and gets per-case numbers. Any other
file is run as ``python FILE -r BACKEND -v PLATFORM`` and judged by its exit code.

Engines: ``embedded`` runs under this environment's interpreter (``sys.executable``); ``pyasc`` runs
under ``$PYASC_PYTHON`` (a real pyasc + CANN install; the CANN environment variables are passed
through and the camodel's ``Total tick`` lines are read), or a pyasc-dev virtualenv running asctile
kernels in its interpreter when ``ASCTILE_INTERPRET=1`` is set (passed through as well).

Failure categories: compile_error, numeric_mismatch, runtime_error, timeout, memory, infrastructure.
Both entry points are side-effect free apart from the subprocesses they start (no files are written
outside temporary directories, except the embedded engine's missing bytecode beside its sources:
:func:`asc_harness.run.bytecode.warm_bytecode`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

from asc_harness.run import sandbox
from asc_harness.run.bytecode import warm_bytecode
from asc_harness.run.probe_measure import read_launch_report
from asc_harness.run.outcome import blank_case, classify_output, make_failure, output_tail, signal_name, summarize
from asc_harness.run.engines import DEFAULT_PLATFORM, ENGINES, PROBE, engine_env, engine_facts, interpreter_for
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import build_record, file_sha256, iso_utc
from asc_harness.store.kernelfile import read_kernel_file
from asc_harness.common.paths import NotInRepository, find_root

BACKENDS = ("Model", "NPU")
DEFAULT_TIMEOUT_S = 900.0
DEFAULT_MEMORY_MB = 8192
TRACECHECK = Path(__file__).resolve().parent / "tracecheck.py"
SEED = 2026

_TICK_RE = re.compile(r"Total tick\s*[:=]\s*(\d+)")


# --------------------------------------------------------------------------------------------------
# run_file


def run_file(path: str | os.PathLike, *, engine: str = "embedded", backend: str = "Model",
             platform: str = DEFAULT_PLATFORM, timeout_s: float = DEFAULT_TIMEOUT_S,
             memory_mb: int | None = DEFAULT_MEMORY_MB, quick: bool = False,
             repo: str | os.PathLike | None | bool = True, evidence_dir: str | os.PathLike | None = None,
             sys_path: Iterable[str | os.PathLike] = (), env_extra: Mapping[str, str] | None = None,
             trace_dir: str | os.PathLike | None = None, check: Mapping[str, Any] | None = None) -> dict:
    """Run one kernel file and return a result dict (never raises for a failing kernel).

    ``repo``: the repository whose files must not change during the run (True: this repository;
    None/False: no check). ``sys_path``: extra import directories for the probe. Result keys:
    ``file, kernel_sha256, mode (golden|script), engine, backend, platform, python, engine_version,
    pyasc_revision, cann_version, seed, op, dtype, started_at, wall_time_s, status, failure,
    runtime_verified, cases, exit_code, timed_out, memory_exceeded, repo_changes, stdout, stderr``.
    ``trace_dir``: the embedded engine writes one Chrome trace per launch there (``traces``: their paths).
    ``check`` (embedded engine, golden-interface files): first trace the file on the embedded compiler
    (``tracecheck.py``) in the same sandboxed process, and run it only when the check passed
    (``{"require_kernels": True}``: and traced a kernel); the check and the run have ``timeout_s``
    each. ``check`` in the result: the check's JSON (None when it did not finish).
    """
    path = Path(path).resolve()
    if repo is True:
        try:
            repo = find_root()
        except NotInRepository:
            repo = None
    elif repo is False:
        repo = None
    started = time.time()
    result: dict[str, Any] = {
        "file": str(path), "kernel_sha256": file_sha256(path), "mode": "script", "engine": engine,
        "backend": backend, "platform": platform, "python": None, "engine_version": None,
        "pyasc_revision": None, "cann_version": None, "seed": None, "op": None, "dtype": None,
        "started_at": iso_utc(), "wall_time_s": 0.0, "status": "error", "failure": None,
        "runtime_verified": False, "cases": [], "exit_code": None, "timed_out": False,
        "memory_exceeded": False, "repo_changes": [], "stdout": "", "stderr": "", "sandbox_dirs": [],
        "sandbox": None,
    }

    def finish(status: str, failure: dict | None, verified: bool) -> dict:
        result.update(status=status, failure=failure, runtime_verified=verified,
                      wall_time_s=round(time.time() - started, 6))
        return result

    if engine not in ENGINES:
        return finish("error", make_failure("infrastructure", f"unknown engine {engine!r}"), False)
    if backend not in BACKENDS:
        return finish("error", make_failure("infrastructure", f"unknown backend {backend!r}"), False)
    if not path.is_file():
        return finish("error", make_failure("infrastructure", f"kernel file not found: {path}"), False)
    kf = read_kernel_file(path)
    result["mode"] = "golden" if kf.has_golden_interface else "script"
    if check is not None:
        result["check"] = None
        if engine != "embedded" or result["mode"] != "golden":
            raise ValueError("run_file(check=...) needs the embedded engine and a golden-interface file")
    try:
        interpreter = interpreter_for(engine)
    except HarnessError as exc:
        return finish("error", make_failure("infrastructure", str(exc)), False)
    if kf.syntax_error:
        return finish("error", make_failure("compile_error", f"{path.name}: {kf.syntax_error}"), True)
    if engine == "embedded":
        warm_bytecode()
    env = dict(engine_env(engine, backend, platform))
    env.update(env_extra or {})
    run_dir = Path(tempfile.mkdtemp(prefix="asc-run-"))
    result["sandbox_dirs"] = [str(run_dir)]
    report = run_dir / "launch-report.jsonl"
    report.touch()
    env["ASC_LAUNCH_REPORT"] = str(report)
    traces = run_dir / "traces"
    if trace_dir is not None:
        traces.mkdir()
        env["ASC_TRACE_DIR"] = str(traces)
    try:
        if result["mode"] == "golden":
            _run_golden(result, path, interpreter, env, run_dir, engine, backend, platform, timeout_s,
                        memory_mb, quick, repo, evidence_dir, sys_path, check)
        else:
            _run_script(result, path, interpreter, env, engine, backend, platform, timeout_s, memory_mb,
                        repo, evidence_dir, report)
        if trace_dir is not None:
            result["traces"] = _keep_traces(traces, Path(trace_dir))
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    if result["repo_changes"] and result["status"] not in ("timeout",):
        changed = ", ".join(result["repo_changes"][:10])
        result["status"] = "error"
        result["failure"] = make_failure("runtime_error", f"the run changed repository files: {changed}")
    result["wall_time_s"] = round(time.time() - started, 6)
    return result


def _keep_traces(src: Path, dest: Path) -> list[str]:
    """Move the run's per-launch traces into ``dest`` (replacing same-named ones); their new paths."""
    dest.mkdir(parents=True, exist_ok=True)
    kept = []
    for f in sorted(src.glob("*.json")):
        target = dest / f.name
        shutil.move(str(f), str(target))
        kept.append(str(target))
    return kept


def _run_golden(result, path, interpreter, env, run_dir, engine, backend, platform, timeout_s, memory_mb,
                quick, repo, evidence_dir, sys_path, check=None) -> None:
    out = run_dir / "result.json"
    probe_args = ["--kernel", str(path), "--result", str(out), "--backend", backend, "--platform", platform,
                  "--engine", engine]
    if quick:
        probe_args.append("--quick")
    for p in sys_path:
        probe_args += ["--sys-path", str(p)]
    argv = [interpreter, str(PROBE), *probe_args]
    check_out = run_dir / "check.json"
    if check is not None:  # the probe starts when the check passed; its result file starts the run's budget
        argv = [interpreter, str(TRACECHECK), "--kernel", str(path), "--result", str(check_out), "--platform", platform,
                *(["--require-kernels"] if check.get("require_kernels") else []), "--then-probe", *probe_args]
    sb = sandbox.run(argv, timeout_s=timeout_s, memory_mb=memory_mb, env_extra=env, repo=repo,
                     evidence_dir=evidence_dir, writable=[run_dir], readable=list(sys_path), network=False,
                     restart_on=out if check is not None else None)
    if check is not None:
        try:
            result["check"] = json.loads(check_out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            result["check"] = None
    result.update(exit_code=sb.exit_code, timed_out=sb.timed_out, memory_exceeded=sb.memory_exceeded,
                  repo_changes=sb.repo_changes, stdout=output_tail(sb.stdout), stderr=output_tail(sb.stderr), seed=SEED,
                  sandbox=sb.provenance())
    if sb.error:
        result.update(status="error", failure=make_failure("infrastructure", sb.error), runtime_verified=False)
        return
    data = None
    try:
        data = json.loads(out.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
            raise ValueError("not a probe result")
    except FileNotFoundError:
        data = None
        problem = "the probe exited without writing a result"
    except (OSError, ValueError) as exc:
        data = None
        problem = f"the probe's result is unreadable ({type(exc).__name__})"
    if data is None:
        if sb.timed_out:
            result.update(status="timeout", runtime_verified=True,
                          failure=make_failure("timeout", f"timed out after {timeout_s:g} s before the probe started"))
        else:
            stderr_tail = "\n".join(sb.stderr.strip().splitlines()[-5:])
            result.update(status="error", runtime_verified=False,
                          failure=make_failure("infrastructure", f"{problem} ({signal_name(sb.exit_code)})"
                                           + (f":\n{stderr_tail}" if stderr_tail else "")))
        return
    for key in ("python", "engine_version", "pyasc_revision", "cann_version", "op", "dtype"):
        if data.get(key) is not None:
            result[key] = data[key]
    cases = []
    for c in data["cases"]:
        if isinstance(c, dict) and "id" in c and "status" in c:
            cases.append(c)
    done_ids = {c["id"] for c in cases}
    error = data.get("error")
    current = data.get("current_case")
    if not data.get("done"):
        if sb.timed_out:
            msg = f"timed out after {timeout_s:g} s"
            if current:
                cases.append(blank_case(current["id"], current.get("shape"), "timeout", msg,
                                         atol=current.get("atol"), rtol=current.get("rtol")))
                done_ids.add(current["id"])
            else:
                error = make_failure("timeout", msg + " while loading the kernel")
        elif current:
            category = "memory" if sb.memory_exceeded else "runtime_error"
            what = "ran out of memory" if sb.memory_exceeded else "died"
            tail = "\n".join(sb.stderr.strip().splitlines()[-3:])
            msg = f"the process {what} ({signal_name(sb.exit_code)})" + (f": {tail}" if tail else "")
            c = blank_case(current["id"], current.get("shape"), "error", msg,
                            atol=current.get("atol"), rtol=current.get("rtol"))
            c["category"] = category
            cases.append(c)
            done_ids.add(current["id"])
        elif error is None:
            category = "memory" if sb.memory_exceeded else "infrastructure"
            tail = "\n".join(sb.stderr.strip().splitlines()[-5:])
            error = make_failure(category, f"the probe stopped without a complete result ({signal_name(sb.exit_code)})"
                             + (f":\n{tail}" if tail else ""))
        for p in data.get("planned") or []:
            if p.get("id") not in done_ids:
                reason = "not run: the run timed out earlier" if sb.timed_out else "not run: the run stopped earlier"
                cases.append(blank_case(str(p.get("id")), p.get("shape"), "skipped", reason))
    result["cases"] = cases
    status, failure = summarize(cases, error)
    verified = not (failure is not None and failure["category"] == "infrastructure" and error is not None)
    if status == "skipped":
        verified = False
    result.update(status=status, failure=failure, runtime_verified=verified)


def _run_script(result, path, interpreter, env, engine, backend, platform, timeout_s, memory_mb, repo,
                evidence_dir, report) -> None:
    argv = [interpreter, str(path), "-r", backend, "-v", platform]
    sb = sandbox.run(argv, timeout_s=timeout_s, memory_mb=memory_mb, env_extra=env, repo=repo,
                     evidence_dir=evidence_dir, writable=[report.parent], network=False)
    result.update(exit_code=sb.exit_code, timed_out=sb.timed_out, memory_exceeded=sb.memory_exceeded,
                  repo_changes=sb.repo_changes, stdout=output_tail(sb.stdout), stderr=output_tail(sb.stderr),
                  sandbox=sb.provenance())
    if sb.error:
        result.update(status="error", failure=make_failure("infrastructure", sb.error), runtime_verified=False)
        return
    facts = engine_facts(interpreter, engine)
    for key, value in facts.items():
        if value is not None:
            result[key] = value
    warned = []
    ticks, _ = read_launch_report(str(report), 0, warnings=warned)
    if ticks is None:
        found = [int(t) for t in _TICK_RE.findall(sb.stdout + "\n" + sb.stderr)]
        ticks = sum(found) if found else None
    wall = round(sb.wall_s, 6)
    if sb.timed_out:
        case = blank_case("script", [], "timeout", f"timed out after {timeout_s:g} s", wall_s=wall)
        result.update(cases=[case], status="timeout", runtime_verified=True,
                      failure=make_failure("timeout", f"timed out after {timeout_s:g} s"))
        return
    if sb.exit_code == 0:
        case = blank_case("script", [], "pass", ticks=ticks, wall_s=wall)
        if warned:
            case["warnings"] = warned
        result.update(cases=[case], status="pass", failure=None, runtime_verified=True)
        return
    category, line = classify_output(sb.stderr)
    if not sb.stderr.strip():
        last = [ln.strip() for ln in sb.stdout.splitlines() if ln.strip()]
        line = f"no error output; last output line: {last[-1]}" if last else "no output"
    if sb.memory_exceeded and category == "runtime_error":
        category = "memory"
    message = f"{signal_name(sb.exit_code)}: {line}"
    status = "fail" if category == "numeric_mismatch" else "error"
    case = blank_case("script", [], status, message, ticks=ticks, wall_s=wall)
    if warned:
        case["warnings"] = warned
    result.update(cases=[case], status=status, failure=make_failure(category, message),
                  runtime_verified=category != "infrastructure")


# --------------------------------------------------------------------------------------------------
# run_cell


def check_declared(result: dict, cell: Mapping[str, Any]) -> dict:
    """Turn a run whose kernel declares another OP/DTYPE than ``cell`` into an error (in place)."""
    for key in ("op", "dtype"):
        declared, expected = result.get(key), str(cell[key])
        if declared is not None and declared != expected and result["status"] != "error":
            result["status"] = "error"
            result["failure"] = make_failure("runtime_error", f"the kernel declares {key.upper()} {declared!r} but "
                                         f"cell {cell['id']} expects {expected!r}")
    return result


def run_cell(cell: Mapping[str, Any] | str, *, root: str | os.PathLike | None = None,
             kernel: str | os.PathLike | None = None, kind: str = "golden", engine: str = "embedded",
             backend: str = "Model", timeout_s: float = DEFAULT_TIMEOUT_S,
             memory_mb: int | None = DEFAULT_MEMORY_MB, quick: bool = False,
             generative: dict | None = None, capabilities: str | os.PathLike | None = None,
             **run_kwargs: Any) -> dict:
    """Run a cell's kernel (its golden file unless ``kernel`` is given) and return an evidence record.

    ``cell`` is a registry cell mapping or a cell id (looked up in ``capabilities``, default the
    repository's ``capabilities.yaml``). The record is validated but not written; pass it to
    :func:`asc_harness.store.evidence.write_record`.
    """
    from asc_harness.store.registry import load_registry, parse_cell_id

    if isinstance(cell, str):
        parse_cell_id(cell)
        reg = load_registry(capabilities or Path(root or find_root()) / "capabilities.yaml")
        try:
            cell = reg.cell(cell)
        except KeyError:
            raise HarnessError(f"cell {cell} is not in {reg.path}") from None
        root = root or reg.root
    root = Path(root or find_root()).resolve()
    cell_id = str(cell["id"])
    if kernel is None:
        if not cell.get("golden"):
            raise HarnessError(f"cell {cell_id} has no golden kernel")
        kernel = root / str(cell["golden"])
    result = run_file(kernel, engine=engine, backend=backend, platform=str(cell["platform"]),
                      timeout_s=timeout_s, memory_mb=memory_mb, quick=quick,
                      **({"repo": root} | run_kwargs))
    check_declared(result, cell)
    return build_record(result, cell=cell_id, kind=kind, root=root, kernel=kernel, generative=generative)

"""One generative attempt: run the agent in its workspace, then check and run the kernel it wrote.

:func:`attempt_record` is the whole attempt (agent, kernel copy, static check, run, record); it runs
in this process for a local run and on a worker for a cluster run. The record is returned, not
written: the caller writes it (:func:`run_attempt` locally, the coordinator for a cluster run).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from asc_harness.run import sandbox
from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import build_record, cell_dir, file_sha256, iso_utc, record_filename, write_record
from asc_harness.batch.gen_agent import (API_NOTES, NOTES_NAME, PROMPT_NAME, _atomic_write_bytes, agent_argv, agent_output,
                        display_command, find_kernel, new_repo_files, prompt_text, untracked_files)
from asc_harness.store.kernelfile import read_kernel_file
from asc_harness.batch.pipeline import _first_line, infrastructure_record
from asc_harness.common.paths import to_repo_path
from asc_harness.run.bytecode import warm_bytecode
from asc_harness.run.runner import TRACECHECK, check_declared, run_file



def _sandbox_json(argv: list[str], out: Path, *, timeout_s: float, memory_mb: int | None, root: Path,
                  ev_dir: Path) -> tuple[dict | None, sandbox.SandboxResult]:
    warm_bytecode()  # tracecheck.py runs the embedded engine
    sb = sandbox.run(argv, timeout_s=timeout_s, memory_mb=memory_mb, repo=root, evidence_dir=ev_dir,
                     writable=[out.parent], network=False)
    try:
        data = json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    return data, sb


def describe_inputs(golden: Path, platform: str, root: Path, ev_dir: Path) -> dict | None:
    """The golden kernel's input contract (types, dtypes, shapes of its first case), or None."""
    with tempfile.TemporaryDirectory(prefix="asc-gen-describe-") as tmp:
        out = Path(tmp) / "inputs.json"
        data, _sb = _sandbox_json([sys.executable, str(TRACECHECK), "--kernel", str(golden), "--result", str(out),
                                   "--platform", platform, "--describe-inputs"], out, timeout_s=120,
                                  memory_mb=None, root=root, ev_dir=ev_dir)
    return data if data and data.get("ok") else None



def wrapper_source(golden: Path, kernel: Path, cell: dict) -> str:
    tol = cell.get("tolerance") or {}
    return f'''\
"""Evaluation of a generated kernel: the cell's inputs, reference and cases with the kernel's launch."""
import importlib.util as _util
import sys as _sys


def _load(name, path):
    spec = _util.spec_from_file_location(name, path)
    module = _util.module_from_spec(spec)
    _sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_sys.path.insert(0, {str(kernel.parent)!r})
_reference = _load("asc_cell_reference", {str(golden)!r})
_kernel = _load("asc_generated_kernel", {str(kernel)!r})
OP = {cell["op"]!r}
DTYPE = {cell["dtype"]!r}
TOLERANCE = {{"atol": {float(tol.get("atol", 0.0))!r}, "rtol": {float(tol.get("rtol", 0.0))!r}}}
CASES = _reference.CASES
make_inputs = _reference.make_inputs
reference = _reference.reference
launch = _kernel.launch
'''


# --------------------------------------------------------------------------------------------------
# one attempt


OPTION_NAMES = ("variant", "timeout", "kernel_timeout", "memory_mb", "agent_memory_mb", "engine", "backend",
                "quick", "allow_host_only", "no_agent_network", "keep_workspaces")


class Context:
    """What an attempt needs: the options, where the repository (or a worker's stand-in) is, the agent."""

    def __init__(self, args, root: Path, ev_dir: Path, tokens: list[str], golden_hashes: dict[str, str],
                 agent_env: dict[str, str] | None = None, display: str | None = None):
        self.args = args
        self.root = root
        self.ev_dir = ev_dir
        self.tokens = tokens
        self.golden_hashes = golden_hashes
        self.opts = {"engine": args.engine, "backend": args.backend}
        self.kernel_memory = args.memory_mb or None
        if agent_env is None:
            agent_env = {name: os.environ[name] for name in args.agent_env if name in os.environ}
        self.agent_env = agent_env
        self.display = display or display_command(tokens, root)

    @classmethod
    def from_options(cls, options: dict, root: Path, ev_dir: Path, agent: dict, golden_hashes: dict[str, str]):
        return cls(SimpleNamespace(**options, agent_env=sorted(agent["env"])), root, ev_dir, agent["tokens"],
                   golden_hashes, agent_env=agent["env"], display=agent["display"])

    def options(self) -> dict:
        return {name: getattr(self.args, name) for name in OPTION_NAMES}


def _simple_record(ctx: Context, cell: dict, gen: dict, *, status: str, category: str, message: str,
                   verified: bool, kernel: Path | None) -> dict:
    result = {"status": status, "failure": {"category": category, "message": message},
              "runtime_verified": verified, "cases": [], "engine": ctx.args.engine, "backend": ctx.args.backend,
              "platform": cell["platform"], "started_at": iso_utc(), "wall_time_s": 0.0}
    if kernel is not None:
        result["file"] = str(kernel)
    return build_record(result, cell=cell["id"], kind="generative", root=ctx.root, kernel=kernel, generative=gen)


def run_attempt(ctx: Context, cell: dict, attempt: int, contract: dict | None, console) -> dict:
    """Run the agent once for ``cell`` and write the attempt's generative record; returns an outcome dict."""
    started = time.monotonic()
    record, extra = attempt_record(ctx, cell, attempt, contract)
    written = write_record(record, ctx.ev_dir)
    return attempt_outcome(ctx, cell, attempt, record, written, extra, round(time.monotonic() - started, 3))


def attempt_outcome(ctx: Context, cell: dict, attempt: int, record: dict, written: Path, extra: dict,
                    wall_s: float) -> dict:
    failure = record.get("failure") or {}
    gen = record.get("generative") or {}
    artifacts = Path(extra["artifacts"]) if extra.get("artifacts") else None
    return {"cell": cell["id"], "attempt": attempt, "workspace": extra.get("workspace"), "status": record["status"],
            "category": failure.get("category"), "message": _first_line(failure.get("message")),
            "runtime_verified": record["runtime_verified"], "evidence": to_repo_path(written, ctx.root),
            "kernel": record.get("kernel"), "agent_exit": gen.get("agent_exit"),
            "agent_wall_s": gen.get("agent_wall_s"), "wall_s": wall_s,
            "artifacts": [to_repo_path(p, ctx.root) for p in sorted(artifacts.glob("*")) if p.is_file()]
            if artifacts is not None and artifacts.is_dir() else []}


def attempt_record(ctx: Context, cell: dict, attempt: int, contract: dict | None) -> tuple[dict, dict]:
    """Run the agent once and evaluate its kernel: (the generative record, not yet written; extras).

    Kernel copies go under ``ctx.ev_dir``'s artifacts folder; extras: ``artifacts`` (that folder),
    ``workspace`` (kept workspace or None).
    """
    args = ctx.args
    variant = args.variant
    base = Path(tempfile.mkdtemp(prefix="asc-gen-"))
    workspace = base / "workspace"
    workspace.mkdir()
    prompt_file = workspace / PROMPT_NAME
    prompt_file.write_text(prompt_text(cell, variant, contract), encoding="utf-8")
    if variant == "guided":
        (workspace / NOTES_NAME).write_text(API_NOTES, encoding="utf-8")
    before = {str(p.relative_to(workspace)): p.stat().st_mtime_ns for p in workspace.rglob("*") if p.is_file()}
    stamp = base / "started"
    stamp.touch()
    start_ns = stamp.stat().st_mtime_ns

    attempt_id = record_filename("generative")[: -len(".json")]
    artifacts = cell_dir(ctx.ev_dir, cell["id"]) / "artifacts" / attempt_id
    gen = {"attempt": attempt, "variant": variant, "agent_command": ctx.display,
           "agent_exit": None, "agent_wall_s": None, "agent_output": None, "kernel_file": None}
    env = {"ASC_PROMPT_FILE": str(prompt_file), "ASC_WORKSPACE": str(workspace), "ASC_CELL": cell["id"],
           "ASC_VARIANT": variant, "ASC_ATTEMPT": str(attempt)}
    env.update(ctx.agent_env)
    extra = {"artifacts": str(artifacts), "workspace": str(workspace) if args.keep_workspaces else None}
    try:
        argv = agent_argv(ctx.tokens, prompt_file, workspace)
        untracked = untracked_files(ctx.root)
        sb = sandbox.run(argv, timeout_s=args.timeout, memory_mb=args.agent_memory_mb or None, cwd=workspace,
                         env_extra=env, repo=ctx.root, evidence_dir=ctx.ev_dir, network=not args.no_agent_network)
        sb.repo_changes = list(sb.repo_changes) + new_repo_files(untracked, ctx.root, ctx.ev_dir)
        gen["agent_exit"] = 124 if sb.timed_out else sb.exit_code
        gen["agent_wall_s"] = round(sb.wall_s, 3)
        gen["agent_output"] = agent_output(sb, gen["agent_exit"], workspace, ctx.root)

        kernel_src = find_kernel(workspace, before, start_ns)
        copy = None
        if kernel_src is not None:
            gen["kernel_file"] = kernel_src.relative_to(workspace).as_posix()
            artifacts.mkdir(parents=True, exist_ok=True)
            copy = artifacts / re.sub(r"[^A-Za-z0-9_.-]", "_", kernel_src.name)
            _atomic_write_bytes(copy, kernel_src.read_bytes())

        if sb.error:
            record = _simple_record(ctx, cell, gen, status="error", category="infrastructure",
                                    message=f"the agent could not be started: {sb.error}", verified=False, kernel=copy)
        elif copy is None:
            if sb.timed_out:
                record = _simple_record(ctx, cell, gen, status="timeout", category="timeout",
                                        message=f"the agent timed out after {args.timeout:g} s without writing a "
                                                "kernel", verified=True, kernel=None)
            else:
                record = _simple_record(ctx, cell, gen, status="error", category="runtime_error",
                                        message=f"the agent wrote no kernel (*.py) into its workspace "
                                                f"(exit {gen['agent_exit']})", verified=True, kernel=None)
        else:
            sha = file_sha256(copy)
            golden_copy = ctx.golden_hashes.get(sha or "")
            if golden_copy:
                record = _simple_record(ctx, cell, gen, status="error", category="runtime_error",
                                        message=f"the kernel is a copy of the golden kernel {golden_copy}",
                                        verified=True, kernel=copy)
            else:
                record = evaluate_kernel(ctx, cell, copy, gen, base)
        # what the agent tried against the repository costs nothing (the kernel is still evaluated) but is kept
        prov = record["provenance"].setdefault("sandbox", {**sb.provenance(), "network": False})
        prov["agent_network"] = sb.network
        prov["tampering"] = [f"agent: {c}" for c in sb.repo_changes] + list(prov["tampering"])
    except HarnessError:
        raise
    except Exception as exc:  # noqa: BLE001 - a harness problem costs only this attempt
        message = f"the harness could not evaluate this attempt: {type(exc).__name__}: {exc}"
        record = infrastructure_record(cell, ctx.root, ctx.opts, message, kind="generative", generative=gen)
    finally:
        if not args.keep_workspaces:
            shutil.rmtree(base, ignore_errors=True)
    return record, extra


def evaluate_kernel(ctx: Context, cell: dict, kernel: Path, gen: dict, base: Path) -> dict:
    """Static check (trace on the embedded compiler), then the run with the harness's comparison.

    On the embedded engine a kernel judged against its cell's golden is checked and run by one
    sandboxed process (the check, then the run only when the check passed; each with its own
    ``--kernel-timeout``): the run's interpreter is the check's, so a second start-up of Python,
    numpy and the engine would buy nothing. Otherwise (pyasc engine, no golden) the check and the
    run are two sandboxed processes.
    """
    args = ctx.args
    root = ctx.root
    golden = root / cell["golden"] if cell.get("golden") else None
    kf = read_kernel_file(kernel)
    if kf.syntax_error:
        return _simple_record(ctx, cell, gen, status="error", category="compile_error",
                              message=f"{kernel.name}: {kf.syntax_error}", verified=True, kernel=kernel)
    golden_ok = golden is not None and golden.is_file() and read_kernel_file(golden).has_golden_interface
    eval_dir = base / "eval"
    eval_dir.mkdir(exist_ok=True)
    if golden_ok:
        if "launch" not in kf.functions and "launch" not in kf.defined:
            return _simple_record(ctx, cell, gen, status="error", category="runtime_error",
                                  message=f"{kernel.name} defines no launch(*inputs) function (the delivery "
                                          "contract in the prompt)", verified=True, kernel=kernel)
        target = eval_dir / "evaluate_generated.py"
        target.write_text(wrapper_source(golden, kernel, cell), encoding="utf-8")
    else:
        target = kernel  # no golden to compare with: the kernel's own interface or exit code decides

    untracked = untracked_files(root)
    run_opts = dict(engine=args.engine, backend=args.backend, platform=cell["platform"], timeout_s=args.kernel_timeout,
                    memory_mb=ctx.kernel_memory, quick=args.quick, repo=root, evidence_dir=ctx.ev_dir)
    if golden_ok and args.engine == "embedded":
        result = run_file(target, **run_opts, check={"require_kernels": not args.allow_host_only})
        check = result.get("check")
        if not _check_passed(check, args.allow_host_only):
            changes = list(result.get("repo_changes") or []) + new_repo_files(untracked, root, ctx.ev_dir)
            return _check_failure(ctx, cell, gen, kernel, eval_dir, check, changes,
                                  SimpleNamespace(timed_out=result["timed_out"], exit_code=result["exit_code"],
                                                  memory_exceeded=result["memory_exceeded"],
                                                  stderr=result["stderr"]))
    else:
        out = eval_dir / "trace.json"
        check, sb = _sandbox_json([sys.executable, str(TRACECHECK), "--kernel", str(target), "--result", str(out),
                                   "--platform", cell["platform"]], out, timeout_s=args.kernel_timeout,
                                  memory_mb=ctx.kernel_memory, root=root, ev_dir=ctx.ev_dir)
        changes = list(sb.repo_changes) + new_repo_files(untracked, root, ctx.ev_dir)
        if changes or not _check_passed(check, args.allow_host_only):
            return _check_failure(ctx, cell, gen, kernel, eval_dir, check, changes, sb)
        untracked = untracked_files(root)
        result = run_file(target, **run_opts)
    added = new_repo_files(untracked, root, ctx.ev_dir)
    if added and result["status"] != "timeout":
        result["repo_changes"] = list(result.get("repo_changes") or []) + added
        result["status"] = "error"
        result["failure"] = {"category": "runtime_error",
                             "message": "the run changed repository files: " + ", ".join(result["repo_changes"][:10])}
    result.pop("check", None)
    result["file"] = str(kernel)
    result["kernel_sha256"] = file_sha256(kernel)
    result["sandbox_dirs"] = list(result.get("sandbox_dirs") or []) + [str(eval_dir)]
    check_declared(result, cell)
    return build_record(result, cell=cell["id"], kind="generative", root=root, kernel=kernel, generative=gen)


def _check_passed(check: dict | None, allow_host_only: bool) -> bool:
    return bool(check and check.get("ok") and (check.get("kernels_traced") or allow_host_only))


def _check_failure(ctx: Context, cell: dict, gen: dict, kernel: Path, eval_dir: Path, check: dict | None,
                   changes: list[str], sb) -> dict:
    """The record of an attempt whose static check did not pass (``sb``: the check's process outcome)."""
    args = ctx.args

    def clean(text: str) -> str:
        return text.replace(str(eval_dir), "<workdir>")

    if changes:
        return _simple_record(ctx, cell, gen, status="error", category="runtime_error",
                              message="the kernel changed repository files during the static check: "
                                      + ", ".join(changes[:10]), verified=True, kernel=kernel)
    if sb.timed_out:
        return _simple_record(ctx, cell, gen, status="timeout", category="timeout",
                              message=f"the static check (tracing) timed out after {args.kernel_timeout:g} s",
                              verified=True, kernel=kernel)
    if check is None or (not check.get("ok") and check.get("message") == "the check did not finish"):
        memory = sb.memory_exceeded or (check is None and "MemoryError" in sb.stderr)
        tail = _first_line("\n".join(sb.stderr.strip().splitlines()[-3:]))
        return _simple_record(ctx, cell, gen, status="error", category="memory" if memory else "runtime_error",
                              message=clean(f"the static check died (exit {sb.exit_code})" + (f": {tail}" if tail else "")),
                              verified=True, kernel=kernel)
    if not check.get("ok"):
        category = check.get("category") or "runtime_error"
        return _simple_record(ctx, cell, gen, status="error", category=category,
                              message=clean(f"static check: {check.get('message')}"),
                              verified=category != "infrastructure", kernel=kernel)
    return _simple_record(ctx, cell, gen, status="error", category="runtime_error",
                          message="static check: the file launches no @asc2.jit kernel", verified=True,
                          kernel=kernel)

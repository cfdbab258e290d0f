"""generate: evaluate an external code-generating agent on the cells that have prompts.

For every selected cell and every attempt (``--attempts N``) the agent gets a fresh workspace that
holds only what the variant allows: ``PROMPT.md`` (the cell's ``minimal`` or ``guided`` prompt plus
the harness's delivery contract) and, for ``guided``, ``ASC2_NOTES.md`` (short asc2 API notes). No
golden kernel is ever placed there. The agent is the command line given by ``--agent-command`` (or
``$ASC_AGENT_COMMAND``), a template with ``{prompt_file}`` and ``{workspace}`` placeholders that is
split with shlex into an argument vector (no shell is involved; the prompt travels only in the
file). It runs in the sandbox with ``--timeout`` seconds, a scrubbed environment (add variables with
``--agent-env NAME``) and a check that it changed nothing in the repository (tracked files, the
evidence directory, and new untracked files).

The kernel is the newest ``*.py`` file written in the workspace after the agent started (never a
file that was there before, a symlink, or a copy of a golden kernel). It is copied next to the
evidence (``evidence/<cell>/artifacts/<attempt>/``; the agent's output, truncated, goes into the
record), statically checked by tracing it on the embedded compiler in a sandboxed subprocess (a compile error
is a result, not a crash), then run against the cell's cases with the harness's own comparison: the
cell's golden ``make_inputs`` / ``reference`` / ``CASES`` with the generated ``launch``. Each attempt
writes one generative evidence record; sync_capabilities then applies the K-of-M rule.

The run's state (``.generate/state.json`` next to capabilities.yaml, written after every attempt)
lets ``--resume`` continue an interrupted run with the attempts not yet recorded. ``--scheduler
ADDRESS`` (or ``$ASC_SCHEDULER``; ``local:N`` for N local worker processes) runs each attempt as a
task on a Dask cluster: the worker runs the agent and the evaluation, this process writes the
artifacts and records (docs/cluster.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Sequence

from . import cluster as cluster_mod
from . import remote, sandbox
from .cli import add_cells_option, add_path_options, cell_patterns, make_parser, resolve_paths, run_main
from .errors import HarnessError
from .evidence import (build_record, cell_dir, file_sha256, iso_utc, record_filename, require_valid_evidence,
                       write_record)
from .kernelfile import read_kernel_file
from .pipeline import (_first_line, commit_message, commit_paths, commit_preflight, finish_pipeline,
                       infrastructure_record)
from .paths import to_repo_path
from .registry import load_valid_registry
from .runner import BACKENDS, DEFAULT_MEMORY_MB, ENGINES, check_declared, run_file
from .validation import to_plain

PROG = "generate"
VARIANTS = ("minimal", "guided")
DEFAULT_ATTEMPTS = 3
DEFAULT_AGENT_TIMEOUT_S = 1200.0
DEFAULT_KERNEL_TIMEOUT_S = 300.0
OUTPUT_LIMIT = 8000
TRACECHECK = Path(__file__).resolve().parent / "tracecheck.py"
PROMPT_NAME = "PROMPT.md"
NOTES_NAME = "ASC2_NOTES.md"
EXIT_CODES = """\
  0  every attempt was evaluated (whatever the agent's results) and sync succeeded
  1  an attempt could not be evaluated (infrastructure: the agent did not start, the harness failed),
     or sync / dashboard / commit failed
  2  cannot run: no agent command, bad option, invalid capabilities file, a corrupt evidence record, a
     missing golden kernel file, sandbox not available, --commit preconditions (checked before any run)"""

API_NOTES = """\
# asc2 notes

Kernels are Python functions decorated with `@asc2.jit` (`import asc`, `import asc2`,
`import asc.runtime.config as config`). Launch them from host code as `kernel[core_num](args...)`
with `core_num >= 1` (e.g. 16 vector cores). Arguments: numpy arrays / torch CPU tensors become global
memory pointers (`asc.GlobalAddress`), Python ints / floats become int32 / float32 scalars;
parameters annotated `asc.ConstExpr[int]` are compile-time values.

Inside a kernel:
- `asc2.tensor(ptr, [n])` or `asc2.tensor(ptr, [rows, cols])` views global memory (rank 1 or 2).
- `asc2.load(t, [TILE], offsets=[i])` loads a tile (element offsets; the tail past the end is padded);
  `asc2.store(tile, t, offsets=[i])` stores it (the part past the end of the tensor is not written).
  `tile_id=[k]` instead of `offsets` means offset `k * TILE`.
- `asc2.block_idx()` / `asc2.block_num()`: this core's index and the number of cores.
- `range(n)` is a runtime loop; `asc.static_range(n)` unrolls at trace time.
- Elementwise: `+ - * /` with the tile on the left (`x * 2.0`, not `2.0 * x`), `asc2.abs`, `exp`, `log`,
  `sqrt`, `rsqrt`, `tanh`, `erf`, `relu`, `maximum`, `minimum`, `where(cond, a, b)`; `tile.to(dtype)`.
- Reductions: `asc2.reduce_sum(tile, dims)`, `reduce_max`, `reduce_min`; `asc2.softmax`, `asc2.rms_norm`.
- Matrix multiply: `a @ b` on tiles loaded with `location=asc2.TileLocation.L0A` / `L0B`; the result is
  float32.
- Tile shapes are Python ints; the last tile dimension times the element size must be a multiple of
  32 bytes for tiles of rank 2. Binary operations need identical tile shapes (no broadcasting).

Host side: select the simulator with
`config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)` (the harness does this
before calling `launch`).
"""


def _parser():
    p = make_parser(PROG, __doc__, EXIT_CODES)
    add_path_options(p)
    add_cells_option(p)
    p.add_argument("--agent-command", metavar="TEMPLATE", default=None,
                   help="agent command line with {prompt_file} and {workspace} placeholders "
                        "(default: $ASC_AGENT_COMMAND)")
    p.add_argument("--attempts", type=int, default=DEFAULT_ATTEMPTS, metavar="N",
                   help=f"attempts per cell (default {DEFAULT_ATTEMPTS})")
    p.add_argument("--variant", choices=VARIANTS, default="minimal", help="prompt variant (default minimal)")
    p.add_argument("--timeout", type=float, default=DEFAULT_AGENT_TIMEOUT_S, metavar="S",
                   help=f"time budget of one agent run in seconds (default {DEFAULT_AGENT_TIMEOUT_S:g})")
    p.add_argument("--kernel-timeout", type=float, default=DEFAULT_KERNEL_TIMEOUT_S, metavar="S",
                   help="time budget of the static check and of the kernel run, each "
                        f"(default {DEFAULT_KERNEL_TIMEOUT_S:g})")
    p.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="N",
                   help=f"address-space limit of the check and the kernel run in MiB, 0 for none "
                        f"(default {DEFAULT_MEMORY_MB})")
    p.add_argument("--agent-memory-mb", type=int, default=0, metavar="N",
                   help="address-space limit of the agent in MiB (default 0: none)")
    p.add_argument("--agent-env", action="append", default=[], metavar="NAME",
                   help="pass this environment variable to the agent (repeatable)")
    p.add_argument("--engine", choices=ENGINES, default="embedded", help="engine for the kernel run (default embedded)")
    p.add_argument("-r", "--backend", choices=BACKENDS, default="Model", help="backend (default Model)")
    p.add_argument("-v", "--platform", default=None, metavar="PLATFORM", help="only cells on this platform")
    p.add_argument("--quick", action="store_true", help="skip cases marked full_only")
    p.add_argument("--allow-host-only", action="store_true",
                   help="accept kernels that launch no @asc2.jit kernel (for checking the harness itself)")
    p.add_argument("--no-agent-network", action="store_true",
                   help="run the agent without network access (by default it keeps the network to reach its "
                        "model's API; kernels never have it)")
    p.add_argument("--keep-workspaces", action="store_true", help="keep the agents' workspaces (paths printed)")
    p.add_argument("--list", action="store_true", help="print the cells that would be evaluated")
    p.add_argument("--no-dashboard", action="store_true", help="do not render the dashboard")
    p.add_argument("--site", type=Path, default=None, metavar="DIR",
                   help="dashboard output folder (default: site/ next to capabilities.yaml)")
    p.add_argument("--commit", action="store_true",
                   help="commit the new records, their artifacts and capabilities.yaml (nothing else)")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted run (its own cells, attempts and options) with the attempts "
                        "not yet recorded")
    cluster_mod.add_options(p)
    return p


# --------------------------------------------------------------------------------------------------
# helpers


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


_SECRET = re.compile(r"(?i)^(--?[\w-]*(?:key|token|secret|password)[\w-]*=).+$")


def display_command(tokens: list[str], root: Path) -> str:
    """The agent template for the record: secrets masked, machine paths made relative."""
    shown = []
    for i, tok in enumerate(tokens):
        m = _SECRET.match(tok)
        if m:
            tok = m.group(1) + "***"
        elif i > 0 and re.match(r"(?i)^--?[\w-]*(?:key|token|secret|password)[\w-]*$", tokens[i - 1]):
            tok = "***"
        tok = tok.replace(str(root) + os.sep, "").replace(os.path.expanduser("~"), "~")
        shown.append(tok)
    return " ".join(t if re.fullmatch(r"[\w@%+=:,./{}~-]+", t) else shlex.quote(t) for t in shown)


def parse_template(template: str | None) -> list[str]:
    if not template or not template.strip():
        raise HarnessError("no agent command: pass --agent-command TEMPLATE or set ASC_AGENT_COMMAND "
                           "(placeholders {prompt_file} and {workspace})")
    try:
        tokens = shlex.split(template)
    except ValueError as exc:
        raise HarnessError(f"cannot split the agent command {template!r}: {exc}") from None
    if not tokens:
        raise HarnessError("the agent command is empty")
    return tokens


def agent_argv(tokens: list[str], prompt_file: Path, workspace: Path) -> list[str]:
    argv = [t.replace("{prompt_file}", str(prompt_file)).replace("{workspace}", str(workspace)) for t in tokens]
    if os.sep in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = os.path.abspath(argv[0])
    return argv


def _sandbox_json(argv: list[str], out: Path, *, timeout_s: float, memory_mb: int | None, root: Path,
                  ev_dir: Path) -> tuple[dict | None, sandbox.SandboxResult]:
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


def prompt_text(cell: dict, variant: str, contract: dict | None) -> str:
    tol = cell.get("tolerance") or {}
    lines = [str(cell["prompts"][variant]).strip(), "", "## Deliverable", "",
             "Write the kernel as one Python file with a `.py` suffix in the current working directory (your "
             "workspace). The harness takes the newest `.py` file written there, imports it and calls its "
             "module-level function `launch(*inputs)` once per shape."]
    if contract and contract.get("inputs"):
        lines += ["", "`launch` receives these host inputs (the shapes vary per case; shown for the first one):"]
        for i, inp in enumerate(contract["inputs"], 1):
            if "shape" in inp:
                lines.append(f"- input {i}: {inp['kind']}, dtype {inp['dtype']}, shape {inp['shape']}")
            else:
                lines.append(f"- input {i}: {inp['kind']} (e.g. {inp.get('value')})")
        shapes = [s for s in contract.get("shapes") or [] if s is not None]
        if shapes:
            lines.append(f"- cases: shapes {', '.join(str(s) for s in shapes)}")
    lines += ["", "It must launch your `@asc2.jit` kernel(s) and return the output (an array, or a tuple of arrays "
              "when there are several outputs). The platform (backend Model, "
              f"{cell['platform']}) is already selected when `launch` is called. The harness compares the result "
              f"with its own reference at atol={tol.get('atol')}, rtol={tol.get('rtol')}.",
              "You may add a `__main__` block (taking -r BACKEND and -v PLATFORM) for your own checks. "
              "Write only inside the workspace."]
    return "\n".join(lines) + "\n"


def agent_output(sb: sandbox.SandboxResult, exit_code, workspace: Path, root: Path) -> str:
    """The agent's stdout and stderr for the record: truncated, machine paths replaced."""
    text = (f"agent exit: {exit_code}{' (timed out)' if sb.timed_out else ''}\n"
            f"--- stdout ---\n{sb.stdout.rstrip()}\n--- stderr ---\n{sb.stderr.rstrip()}\n")
    text = text.replace(str(workspace), "<workspace>").replace(str(root) + os.sep, "")
    home = os.path.expanduser("~")
    if home and home != "/":
        text = text.replace(home, "~")
    if len(text) > OUTPUT_LIMIT:
        half = OUTPUT_LIMIT // 2
        text = text[:half] + f"\n[... {len(text) - OUTPUT_LIMIT} characters cut ...]\n" + text[-half:]
    return text


def untracked_files(root: Path) -> set[str] | None:
    """Untracked, not ignored files of the repository at ``root`` (None when git cannot tell)."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--others", "--exclude-standard"],
                             capture_output=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return {p for p in out.decode("utf-8", errors="surrogateescape").split("\0") if p}


def new_repo_files(before: set[str] | None, root: Path, ev_dir: Path) -> list[str]:
    """Files that appeared in the repository (outside the evidence directory) since ``before``."""
    after = untracked_files(root)
    if before is None or after is None:
        return []
    ev_rel = to_repo_path(ev_dir, root)
    fresh = sorted(after - before)
    return [f"{p} (added)" for p in fresh if not (ev_rel and (p + "/").startswith(ev_rel.rstrip("/") + "/"))]


def find_kernel(workspace: Path, before: dict[str, int], start_ns: int) -> Path | None:
    """The newest regular *.py file written in ``workspace`` after ``start_ns`` (never a pre-existing one)."""
    best: tuple[int, str] | None = None
    for p in workspace.rglob("*.py"):
        rel = p.relative_to(workspace)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts[:-1]):
            continue
        try:
            if p.is_symlink() or not p.is_file():
                continue
            mtime = p.stat().st_mtime_ns
        except OSError:
            continue
        if str(rel) in before and before[str(rel)] == mtime:
            continue
        if mtime < start_ns:
            continue
        if best is None or (mtime, str(rel)) > best:
            best = (mtime, str(rel))
    return workspace / best[1] if best else None


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
    """Static check (trace on the embedded compiler), then the run with the harness's comparison."""
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

    out = eval_dir / "trace.json"
    untracked = untracked_files(root)
    check, sb = _sandbox_json([sys.executable, str(TRACECHECK), "--kernel", str(target), "--result", str(out),
                               "--platform", cell["platform"]], out, timeout_s=args.kernel_timeout,
                              memory_mb=ctx.kernel_memory, root=root, ev_dir=ctx.ev_dir)

    def clean(text: str) -> str:
        return text.replace(str(eval_dir), "<workdir>")

    changes = list(sb.repo_changes) + new_repo_files(untracked, root, ctx.ev_dir)
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
    if not check.get("kernels_traced") and not args.allow_host_only:
        return _simple_record(ctx, cell, gen, status="error", category="runtime_error",
                              message="static check: the file launches no @asc2.jit kernel", verified=True,
                              kernel=kernel)

    untracked = untracked_files(root)
    result = run_file(target, engine=args.engine, backend=args.backend, platform=cell["platform"],
                      timeout_s=args.kernel_timeout, memory_mb=ctx.kernel_memory, quick=args.quick, repo=root,
                      evidence_dir=ctx.ev_dir)
    added = new_repo_files(untracked, root, ctx.ev_dir)
    if added and result["status"] != "timeout":
        result["repo_changes"] = list(result.get("repo_changes") or []) + added
        result["status"] = "error"
        result["failure"] = {"category": "runtime_error",
                             "message": "the run changed repository files: " + ", ".join(result["repo_changes"][:10])}
    result["file"] = str(kernel)
    result["kernel_sha256"] = file_sha256(kernel)
    result["sandbox_dirs"] = list(result.get("sandbox_dirs") or []) + [str(eval_dir)]
    check_declared(result, cell)
    return build_record(result, cell=cell["id"], kind="generative", root=root, kernel=kernel, generative=gen)


# --------------------------------------------------------------------------------------------------
# attempts on a Dask cluster: workers run the agent and evaluate, this process writes


def attempt_task(task: dict, worker: dict) -> dict:
    """On a worker: one attempt in a stand-in repository holding only the cell's golden kernel.

    Returns the record (not written) and the artifacts it refers to (repository-relative path:
    base64 content), for the coordinator to write.
    """
    refused = remote.check_versions(task, worker)
    if refused:
        return refused
    root = Path(tempfile.mkdtemp(prefix="asc-task-"))
    try:
        remote.materialise(task["files"], root)
        ev_dir = root / task["evidence_dir"]
        ev_dir.mkdir(parents=True, exist_ok=True)
        ctx = Context.from_options(task["options"], root, ev_dir, task["agent"], task["golden_hashes"])
        record, _extra = attempt_record(ctx, task["cell"], task["attempt"], task["contract"])
        artifacts = remote.collect(root, ev_dir)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"id": task["id"], "worker": worker, "record": remote.stamp(record, worker, task["id"]),
            "artifacts": artifacts}


def attempt_tasks(ctx: Context, cells: list[dict], attempts: int, run_id: str, versions: dict) -> list[dict]:
    """One task per cell and attempt, carrying everything the worker needs as data."""
    ev_rel = to_repo_path(ctx.ev_dir, ctx.root)
    agent = {"tokens": ctx.tokens, "env": ctx.agent_env, "display": ctx.display}
    tasks = []
    for cell in cells:
        golden = ctx.root / cell["golden"] if cell.get("golden") else None
        have_golden = golden is not None and golden.is_file()
        contract = describe_inputs(golden, cell["platform"], ctx.root, ctx.ev_dir) if have_golden else None
        files = remote.pack_files(ctx.root, [cell["golden"]]) if have_golden else {}
        for attempt in range(1, attempts + 1):
            tasks.append({"id": f"{run_id}/{cell['id']}#{attempt}", "cell": cell, "attempt": attempt,
                          "contract": contract, "files": files, "evidence_dir": ev_rel, "options": ctx.options(),
                          "agent": agent, "golden_hashes": ctx.golden_hashes, "versions": versions})
    return tasks


def run_on_cluster(cl, ctx: Context, tasks: list[dict], console, outcomes: list[dict], state=None) -> None:
    """Run ``tasks`` on the cluster; write each attempt's artifacts and record here, append its outcome."""
    from .evidence import harness_git_state
    from .remote import decode

    commit, dirty = harness_git_state(ctx.root)
    total = len({t["id"] for t in tasks})

    def on_result(task: dict, result: dict) -> None:
        cell, attempt = task["cell"], task["attempt"]
        artifacts = []
        if "lost" in result:
            gen = {"attempt": attempt, "variant": ctx.args.variant, "agent_command": ctx.display, "agent_exit": None,
                   "agent_wall_s": None, "agent_output": None, "kernel_file": None}
            record = infrastructure_record(cell, ctx.root, ctx.opts, f"the cluster lost this attempt: {result['lost']}",
                                           kind="generative", generative=gen)
        else:
            record = result["record"]
            record["provenance"].update(harness_commit=commit, harness_dirty=dirty)
            for rel, data in sorted(result["artifacts"].items()):
                target = ctx.root / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                _atomic_write_bytes(target, decode(data))
                artifacts.append(rel)
        written = write_record(record, ctx.ev_dir)
        o = attempt_outcome(ctx, cell, attempt, record, written, {}, record.get("wall_time_s") or 0.0)
        o["artifacts"] = artifacts
        worker = result.get("worker")
        o["worker"] = f"{worker['name']}@{worker['host']}" if worker else None
        outcomes.append(o)
        if state is not None:
            state.record(task["id"], o)
        style = {"pass": "green"}.get(o["status"], "red")
        detail = f" ({o['category']}: {o['message']})" if o.get("category") else ""
        console.print(f"[{len(outcomes)}/{total}] {cell['id']} attempt {attempt}: [{style}]{o['status']}[/{style}]"
                      f"{' on ' + o['worker'] if worker else ''}, agent exit {o['agent_exit']}{detail}",
                      markup=True, highlight=False, soft_wrap=True)

    cl.run(attempt_task, tasks, on_result, label=lambda t: f"{t['cell']['id']} attempt {t['attempt']}",
           noun="attempts")


# --------------------------------------------------------------------------------------------------
# run state: .generate/state.json, for --resume

STATE_VERSION = 1
RUN_DIR_NAME = ".generate"
# options a resumed run may set afresh; every other option is the interrupted run's
RESUME_OPTIONS = ("root", "capabilities", "evidence_dir", "scheduler", "retries", "connect_timeout", "no_dashboard", "site",
                  "commit", "resume")


class RunState:
    """The attempts of one run and those already recorded, saved atomically after every attempt."""

    def __init__(self, root: Path):
        self.dir = root / RUN_DIR_NAME
        self.path = self.dir / "state.json"
        self.data: dict = {}

    def start(self, argv: list[str]) -> None:
        run_id = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"-{os.getpid()}"
        self.data = {"version": STATE_VERSION, "run_id": run_id, "argv": argv, "phase": "attempts", "done": {}}
        self.save()

    def load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise HarnessError(f"nothing to resume: no generate state in {self.dir}") from None
        except (OSError, ValueError) as exc:
            raise HarnessError(f"{self.path} is unreadable ({exc}); delete it to start afresh") from None
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise HarnessError(f"nothing to resume: {self.path} is not a generate state")
        if data.get("phase") == "done":
            raise HarnessError(f"nothing to resume: the run {data.get('run_id')} finished; run generate without "
                               "--resume")
        self.data = data

    def save(self) -> None:
        from .registry import atomic_write_text

        self.dir.mkdir(parents=True, exist_ok=True)
        ignore = self.dir / ".gitignore"
        if not ignore.exists():  # the state never shows up as a change in the repository
            ignore.write_text("*\n", encoding="utf-8")
        atomic_write_text(self.path, json.dumps(self.data, indent=2) + "\n")

    def task_id(self, cell_id: str, attempt: int) -> str:
        return f"{self.data['run_id']}/{cell_id}#{attempt}"

    def record(self, task_id: str, outcome: dict) -> None:
        self.data["done"][task_id] = outcome
        self.save()

    def finish(self) -> None:
        self.data["phase"] = "done"
        self.save()


def resumed_args(parser, args, state: RunState):
    """The interrupted run's options, with only RESUME_OPTIONS taken from this command line."""
    for action in parser._actions:
        if action.dest in RESUME_OPTIONS or action.dest == "help":
            continue
        if getattr(args, action.dest) != action.default:
            raise HarnessError(f"--resume continues the interrupted run with its own options; drop "
                               f"{'/'.join(action.option_strings)}")
    old = parser.parse_args(state.data["argv"])
    for name in RESUME_OPTIONS:
        setattr(old, name, getattr(args, name))
    return old


def adopt_recorded(ev_dir: Path, root: Path, cell_id: str, task_ids: set[str]) -> dict[str, tuple[dict, Path]]:
    """Records of these tasks already written (by a coordinator killed before it saved its state)."""
    from .evidence import records_for_cell

    found = {}
    for rec in records_for_cell(ev_dir, cell_id, root=root):
        worker = rec.data["provenance"].get("worker") if rec.valid and rec.kind == "generative" else None
        if worker and worker.get("task") in task_ids:
            found[worker["task"]] = (rec.data, rec.path)
    return found


# --------------------------------------------------------------------------------------------------
# main


def select_cells(reg, patterns: list[str], platform: str | None, variant: str) -> tuple[list[dict], dict[str, str]]:
    run, skipped = [], {}
    matched = 0
    for c in reg.iter_cells(patterns):
        cell = to_plain(c)
        if platform and cell["platform"] != platform:
            continue
        matched += 1
        if cell["generative_status"] == "blocked":
            skipped[cell["id"]] = "generative_status is blocked (excluded by hand)"
        elif not str((cell.get("prompts") or {}).get(variant) or "").strip():
            skipped[cell["id"]] = f"no {variant} prompt"
        else:
            run.append(cell)
    if not matched:
        what = ", ".join(patterns) if patterns else "the registry"
        raise HarnessError(f"no cell in {what}" + (f" on platform {platform}" if platform else ""))
    return run, skipped


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    args = parser.parse_args(argv)
    state = None
    if args.resume:
        state = RunState(resolve_paths(args)[2])
        state.load()
        args = resumed_args(parser, args, state)
    if args.attempts < 1:
        raise HarnessError("--attempts must be >= 1")
    for name, value in (("--timeout", args.timeout), ("--kernel-timeout", args.kernel_timeout)):
        if value <= 0:
            raise HarnessError(f"{name} must be positive")
    if args.memory_mb < 0 or args.agent_memory_mb < 0:
        raise HarnessError("memory limits must be >= 0")
    for name in args.agent_env:
        if name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP"):
            raise HarnessError(f"--agent-env {name}: this variable may not be passed into the sandbox")
    scheduler = cluster_mod.scheduler_from(args)
    if scheduler and args.keep_workspaces:
        raise HarnessError("--keep-workspaces applies to local runs (a cluster run's workspaces are on its workers)")
    cap, ev_dir, root = resolve_paths(args)
    patterns = cell_patterns(args)
    reg = load_valid_registry(cap)
    cells, skipped = select_cells(reg, patterns, args.platform, args.variant)
    require_valid_evidence(ev_dir, root=root)
    for c in cells:
        if c.get("golden") and not (root / c["golden"]).is_file():
            raise HarnessError(f"the golden kernel of {c['id']} is missing: {c['golden']} (its cases and reference "
                               "judge the generated kernels)")

    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    if args.list:
        for c in cells:
            console.print(f"run      {c['id']}  ({args.variant} prompt, {args.attempts} attempt(s))")
        for cid, reason in skipped.items():
            console.print(f"skip     {cid}  {reason}")
        return 0
    tokens = parse_template(args.agent_command or os.environ.get("ASC_AGENT_COMMAND"))
    if args.engine == "pyasc":
        from .runner import interpreter_for

        interpreter_for("pyasc")
    sandbox.require_confinement()
    repo = commit_preflight(root, cap) if args.commit else None

    golden_hashes = {}
    for c in reg.cells:
        if c.get("golden"):
            sha = file_sha256(root / str(c["golden"]))
            if sha:
                golden_hashes[sha] = str(c["golden"])
    ctx = Context(args, root, ev_dir, tokens, golden_hashes)
    started = time.monotonic()
    total = len(cells) * args.attempts
    with contextlib.ExitStack() as stack:
        cl = stack.enter_context(cluster_mod.Cluster(scheduler, engine=args.engine, console=console,
                                                     retries=args.retries, connect_timeout=args.connect_timeout)) \
            if scheduler else None
        if state is None:
            state = RunState(root)
            kept = [a for a in argv if a not in ("--resume",)]
            state.start(kept if args.agent_command else kept + ["--agent-command", " ".join(map(shlex.quote, tokens))])
        else:
            console.print(f"resuming generate {state.data['run_id']}: {len(state.data['done'])} of {total} attempt(s) "
                          "already recorded", highlight=False)
        outcomes: list[dict] = list(state.data["done"].values())
        interrupted = _attempts(args, ctx, cl, state, cells, outcomes, total, console)
    if not interrupted:
        state.finish()
    return _finish(args, ctx, reg, cap, repo, skipped, outcomes, interrupted, started, console)


def _attempts(args, ctx: Context, cl, state: RunState, cells: list[dict], outcomes: list[dict], total: int,
              console) -> bool:
    """Run the attempts not yet recorded, locally or on the cluster; True when interrupted."""
    root, ev_dir = ctx.root, ctx.ev_dir
    note = sandbox.confinement_note()
    if note:
        console.print(note, highlight=False, soft_wrap=True)
    console.print(f"generate: {len(cells)} cell(s) x {args.attempts} attempt(s), {args.variant} prompts, "
                  f"agent budget {args.timeout:g} s", highlight=False)
    try:
        if cl is not None:
            tasks = [t for t in attempt_tasks(ctx, cells, args.attempts, state.data["run_id"], cl.versions)
                     if t["id"] not in state.data["done"]]
            for cell in cells:  # records a killed coordinator wrote but did not note
                for tid, (record, path) in adopt_recorded(ev_dir, root, cell["id"], {t["id"] for t in tasks}).items():
                    attempt = record["generative"]["attempt"]
                    o = attempt_outcome(ctx, cell, attempt, record, path, {}, record.get("wall_time_s") or 0.0)
                    outcomes.append(o)
                    state.record(tid, o)
            tasks = [t for t in tasks if t["id"] not in state.data["done"]]
            run_on_cluster(cl, ctx, tasks, console, outcomes, state)
            return False
        for cell in cells:
            golden = root / cell["golden"] if cell.get("golden") else None
            contract = None
            for attempt in range(1, args.attempts + 1):
                tid = state.task_id(cell["id"], attempt)
                if tid in state.data["done"]:
                    continue
                if contract is None and golden is not None and golden.is_file():
                    contract = describe_inputs(golden, cell["platform"], root, ev_dir)
                o = run_attempt(ctx, cell, attempt, contract, console)
                outcomes.append(o)
                state.record(tid, o)
                style = {"pass": "green"}.get(o["status"], "red")
                detail = f" ({o['category']}: {o['message']})" if o.get("category") else ""
                console.print(f"[{len(outcomes)}/{total}] {cell['id']} attempt {attempt}: "
                              f"[{style}]{o['status']}[/{style}] agent exit {o['agent_exit']}, "
                              f"{o['wall_s']:.1f} s{detail}", markup=True, highlight=False, soft_wrap=True)
                if o.get("workspace"):
                    console.print(f"    workspace kept: {o['workspace']}", highlight=False)
    except KeyboardInterrupt:
        console.print("interrupted: the attempts recorded so far are kept (continue with generate --resume)",
                      highlight=False)
        return True
    return False


def _finish(args, ctx: Context, reg, cap: Path, repo, skipped: dict, outcomes: list[dict], interrupted: bool,
            started: float, console) -> int:
    root, ev_dir = ctx.root, ctx.ev_dir
    ran = sorted({o["cell"] for o in outcomes})
    fin = finish_pipeline(console, cap=cap, ev_dir=ev_dir, root=root, cell_ids=ran, dashboard=not args.no_dashboard,
                          site=(args.site or root / "site").resolve(), repo=repo if repo is not None and ran else None)
    steps = fin["steps"]
    if repo is not None and ran and "rebase" not in fin["failed"]:
        paths = []
        for o in outcomes:
            paths += [root / p for p in [o.get("evidence")] + list(o.get("artifacts") or []) if p]
        if "sync" not in fin["failed"]:
            paths.append(cap)
        state = {"results": {f"{o['cell']}#{o['attempt']}": o for o in outcomes}, "options":
                 {"engine": args.engine, "backend": args.backend, "quick": args.quick},
                 "plan": [f"{o['cell']}#{o['attempt']}" for o in outcomes], "run_id": iso_utc()}
        message = commit_message(state, "sync" not in fin["failed"]).replace(
            "nightly: golden evidence for", "generate: generative evidence for", 1)
        message = message.replace(" cell(s) on the", f" attempt(s) ({args.variant} prompts) on the", 1)
        try:
            sha = commit_paths(repo, paths, message)
            steps["commit"] = f"committed {sha[:10]}" if sha else "nothing to commit"
        except HarnessError as exc:
            steps["commit"] = f"FAILED: {exc}"
            fin["failed"].append("commit")

    reg = load_valid_registry(cap)
    console.print()
    console.print(f"[bold]generate summary[/bold] ({args.variant} prompts, {len(outcomes)} attempt(s), "
                  f"{time.monotonic() - started:.1f} s)", markup=True, highlight=False)
    for cid in ran:
        mine = [o for o in outcomes if o["cell"] == cid]
        statuses = ", ".join(o["status"] + (f" ({o['category']})" if o.get("category") else "") for o in mine)
        try:
            status = reg.cell(cid)["generative_status"]
        except KeyError:
            status = "?"
        console.print(f"  {cid}: {statuses} -> generative_status {status}", highlight=False, soft_wrap=True)
    for cid, reason in skipped.items():
        console.print(f"  skipped {cid}: {reason}", highlight=False)
    for name, msg in steps.items():
        console.print(f"  {name}: {msg}", highlight=False, soft_wrap=True)
    if interrupted:
        return 130
    infra = [o for o in outcomes if o.get("category") == "infrastructure"]
    return 1 if infra or fin["failed"] else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":
    sys.exit(main())

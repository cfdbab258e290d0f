"""The agent side of a generative attempt: its command line, prompt, workspace and output.

The agent is the command line given to ``generate`` (a template with ``{prompt_file}`` and
``{workspace}`` placeholders, split with shlex, no shell). Its workspace holds only ``PROMPT.md``
(and ``ASC2_NOTES.md`` for the guided variant); the kernel is the newest ``*.py`` file it wrote there
after it started. Its output goes into the record truncated, with machine paths replaced.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import subprocess
import tempfile
from pathlib import Path

from asc_harness.run import sandbox
from asc_harness.common.errors import HarnessError
from asc_harness.common.paths import to_repo_path

OUTPUT_LIMIT = 8000
PROMPT_NAME = "PROMPT.md"
NOTES_NAME = "ASC2_NOTES.md"

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


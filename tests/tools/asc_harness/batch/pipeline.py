"""The pipeline shared by nightly and generate: one cell run as a pure function of data, and the
steps after the runs (rebase, sync, dashboard, matrix, commit).

:func:`evaluate_cell` takes a cell (plain dict), the kernel's source text and the run options (plain
dict) and returns the evidence record as plain JSON-compatible data, writing nothing: it is what a
local run and a remote worker both call, with only the caller writing evidence.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from dataclasses import dataclass
from typing import Callable, Iterable

from asc_harness.common.errors import HarnessError
from asc_harness.store.evidence import build_record, file_sha256, iso_utc
from asc_harness.common.paths import to_repo_path
from asc_harness.store.retention import KEEP_LATEST, prune
from asc_harness.run.runner import check_declared, run_file

_ERROR_LINE = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception):\s+\S")


def _first_line(text: str | None, limit: int = 240) -> str:
    """A one-line headline of a failure message (the exception line of a compile error listing)."""
    if not text:
        return ""
    lines = [ln.strip() for ln in str(text).strip().splitlines() if ln.strip()]
    line = lines[0] if lines else ""
    if line.rstrip().endswith(":") and len(lines) > 1:
        errors = [ln for ln in lines[1:] if _ERROR_LINE.match(ln)]
        if errors:
            line = f"{line} {errors[0]}"
    return line if len(line) <= limit else line[: limit - 3] + "..."



def infrastructure_record(cell: dict, root: Path, opts: dict, message: str, *, kind: str = "golden",
                          kernel: Path | None = None, generative: dict | None = None) -> dict:
    """An evidence record for a run the harness itself could not complete (never changes a status)."""
    result = {"file": str(kernel) if kernel else (str(root / cell["golden"]) if cell.get("golden") else None),
              "status": "error", "failure": {"category": "infrastructure", "message": message},
              "runtime_verified": False, "cases": [], "engine": opts.get("engine", "embedded"),
              "backend": opts.get("backend", "Model"), "platform": cell["platform"], "started_at": iso_utc(),
              "wall_time_s": 0.0}
    if result["file"] is None or not Path(result["file"]).exists():
        result.pop("file")
        kernel = None
    return build_record(result, cell=cell["id"], kind=kind, root=root, kernel=kernel, generative=generative)



# --------------------------------------------------------------------------------------------------
# one cell, as data in and data out


RUN_OPTIONS = ("engine", "backend", "timeout_s", "memory_mb", "quick")


def evaluate_cell(cell: dict, kernel_source: str, options: dict, *, repo: Path | None = None,
                  evidence_dir: Path | None = None, kind: str = "golden") -> dict:
    """Run ``kernel_source`` as the golden kernel of ``cell`` (``kind="ascendc"``: as its Ascend C reference
    kernel, ``cell["ascendc"]``) and return its evidence record (not written).

    ``cell``: a registry cell as plain data (``id``, ``op``, ``dtype``, ``platform``, ``golden``).
    ``options``: ``engine``, ``backend``, ``timeout_s``, ``memory_mb`` (0 or None: no limit),
    ``quick``, and optionally ``provenance`` (``harness_commit``, ``harness_dirty``) naming the
    coordinator's checkout. The kernel runs from a private copy, sandboxed; messages name it by its
    repository path ``cell["golden"]``. ``repo`` / ``evidence_dir``: a local checkout the run must not
    change (guarded by the process-tree confinement; under bubblewrap everything is read-only anyway).
    """
    unknown = set(options) - set(RUN_OPTIONS) - {"provenance", "platform"}
    if unknown:
        raise HarnessError(f"unknown run option(s): {', '.join(sorted(unknown))}")
    golden = str(cell.get(kind) or f"{cell['op']}_{cell['dtype']}.py")
    engine = options.get("engine", "embedded")
    with tempfile.TemporaryDirectory(prefix="asc-cell-") as tmp:
        here = Path(tmp).resolve()
        kernel = here / Path(golden).name
        kernel.write_text(kernel_source, encoding="utf-8")
        trace_dir = here / ".traces" if engine == "embedded" else None
        result = run_file(kernel, engine=engine, backend=options.get("backend", "Model"),
                          platform=str(cell["platform"]), timeout_s=float(options["timeout_s"]),
                          memory_mb=options.get("memory_mb") or None, quick=bool(options.get("quick")), repo=repo,
                          evidence_dir=evidence_dir, trace_dir=trace_dir)
        sha = file_sha256(kernel)
        rel_dir = str(Path(golden).parent.as_posix())
        text = json.dumps({k: v for k, v in result.items() if k not in ("sandbox_dirs", "traces")})
        text = text.replace(json.dumps(str(here))[1:-1], rel_dir if rel_dir != "." else ".")
        result = json.loads(text)
        result["sandbox_dirs"] = []
        check_declared(result, cell)
        result.pop("file", None)
        record = build_record(result, cell=str(cell["id"]), kind=kind, root=here)
        if trace_dir is not None and trace_dir.is_dir():
            from asc_harness.run.traces import attach

            attach(record, trace_dir)  # per-case timelines and the traces themselves (written with the record)
    record["kernel"] = golden if cell.get(kind) else None
    record["kernel_sha256"] = sha
    prov = options.get("provenance") or {}
    record["provenance"]["harness_commit"] = prov.get("harness_commit")
    record["provenance"]["harness_dirty"] = prov.get("harness_dirty")
    return record


# --------------------------------------------------------------------------------------------------
# git


def _git_retry(fn, *args, **kwargs):
    import git

    for attempt in range(40):
        try:
            return fn(*args, **kwargs)
        except git.GitCommandError as exc:
            if "index.lock" in str(exc) and attempt < 39:
                time.sleep(0.25)
                continue
            raise


def _git_message(exc) -> str:
    text = (getattr(exc, "stderr", "") or str(exc)).strip()
    text = text.replace("stderr: ", "").strip().strip("'").strip()
    return _first_line(text, 400) or str(exc)


def open_repo(root: Path):
    import git

    try:
        return git.Repo(root, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise HarnessError(f"--commit needs a git repository; {root} is not in one") from None


def commit_preflight(root: Path, cap: Path):
    """Refuse --commit up front when other changes are staged or capabilities.yaml has local edits."""
    repo = open_repo(root)
    if repo.head.is_detached:
        raise HarnessError("--commit: HEAD is detached; check out a branch first")
    staged = [p for p in repo.git.diff("--cached", "--name-only").splitlines() if p]
    if staged:
        listing = ", ".join(staged[:10]) + (" ..." if len(staged) > 10 else "")
        raise HarnessError(f"--commit: other changes are staged ({listing}); commit or unstage them first "
                           "(--commit commits only evidence records and capabilities.yaml)")
    cap_rel = to_repo_path(cap.resolve(), repo.working_tree_dir)
    if cap_rel and repo.git.status("--porcelain", "--", cap_rel).strip():
        raise HarnessError(f"--commit: {cap_rel} has uncommitted changes; commit or revert them first so that "
                           "the nightly commit holds only the statuses it derives")
    return repo


def rebase_on_upstream(repo, console) -> str | None:
    """``git pull --rebase`` when the branch tracks a remote; returns a note, raises HarnessError on failure."""
    import git

    tracking = repo.active_branch.tracking_branch()
    if tracking is None:
        return None
    try:
        _git_retry(repo.git.pull, "--rebase", "--autostash")
    except git.GitCommandError as exc:
        with contextlib.suppress(git.GitCommandError):
            repo.git.rebase("--abort")
        raise HarnessError(f"git pull --rebase from {tracking.name} failed: {_git_message(exc)}") from None
    return f"rebased onto {tracking.name} ({repo.head.commit.hexsha[:10]})"


def commit_paths(repo, paths: Iterable[Path], message: str) -> str | None:
    """Commit exactly ``paths`` (new, changed or removed); returns the commit sha, None when nothing changed."""
    import git

    top = Path(repo.working_tree_dir).resolve()
    rels = []
    for p in paths:  # new, changed or removed (a removed untracked path shows no status below)
        rel = to_repo_path(Path(p).resolve(), top)
        if rel and rel not in rels:
            rels.append(rel)
    if not rels:
        return None
    changed = [r for r in rels if repo.git.status("--porcelain", "--untracked-files=all", "--", r).strip()]
    if not changed:
        return None
    staged = [p for p in repo.git.diff("--cached", "--name-only").splitlines() if p and p not in changed]
    if staged:
        raise HarnessError("--commit: other changes were staged meanwhile (" + ", ".join(staged[:10]) +
                           "); nothing was committed, the evidence is in the working tree")
    try:
        for i in range(0, len(changed), 200):
            _git_retry(repo.git.add, "--", *changed[i:i + 200])
        _git_retry(repo.git.commit, "-q", "-m", message, "--", *changed)
    except git.GitCommandError as exc:
        raise HarnessError(f"git commit failed: {_git_message(exc)}") from None
    return repo.head.commit.hexsha



# --------------------------------------------------------------------------------------------------
# after the cells: sync, dashboard, matrix


def run_step(console, title: str, fn, argv: list[str]) -> int:
    console.print(f"\n[bold]{title}[/bold]", markup=True, highlight=False)
    sys.stdout.flush()
    try:
        code = fn(argv)
    except SystemExit as exc:  # argparse inside a tool
        code = exc.code if isinstance(exc.code, int) else 2
    sys.stdout.flush()
    sys.stderr.flush()
    return int(code or 0)


@dataclass(frozen=True)
class Reports:
    """The report steps a run ends with, given by the command that composes the run (the batch stage never
    imports the report stage): each is a CLI ``main(argv) -> exit code`` taking the path options."""

    dashboard: Callable[[list[str]], int] | None = None  # also takes ``--out SITE``
    matrix: Callable[[list[str]], int] | None = None


def finish_pipeline(console, *, cap: Path, ev_dir: Path, root: Path, cell_ids: list[str], dashboard: bool,
                    site: Path, repo=None, keep: int = KEEP_LATEST, reports: Reports = Reports()) -> dict:
    """Optional rebase, then sync, evidence retention (``keep`` latest per cell and kind, 0: keep all),
    dashboard and matrix (the ``reports`` given); returns {step: message}, the failed steps and the
    ``pruned`` files."""
    from asc_harness.store import sync_capabilities

    steps: dict[str, str] = {}
    failed: list[str] = []
    pruned: list[Path] = []
    paths = ["--capabilities", str(cap), "--evidence-dir", str(ev_dir)]
    if repo is not None:
        try:
            note = rebase_on_upstream(repo, console)
            steps["rebase"] = note or "no upstream branch: committing on the local branch head"
        except HarnessError as exc:
            steps["rebase"] = f"FAILED: {exc}"
            failed.append("rebase")
    if cell_ids and "rebase" not in failed:
        code = run_step(console, "sync_capabilities", sync_capabilities.main, paths + ["--cells", ",".join(cell_ids)])
        steps["sync"] = "ok" if code == 0 else f"FAILED (exit {code})"
        if code:
            failed.append("sync")
        elif keep:  # the links of these cells are current: older unlinked records can go
            pruned = _prune(cap, ev_dir, root, cell_ids, keep)
            steps["retention"] = (f"removed {len(pruned)} file(s) older than the latest {keep} record(s) per cell "
                                  "and kind (git history keeps them)") if pruned else "nothing to remove"
    elif not cell_ids:
        steps["sync"] = "nothing to sync"
    if dashboard and reports.dashboard is None:
        steps["dashboard"] = "skipped (no dashboard in this command)"
    elif dashboard:
        code = run_step(console, "dashboard", reports.dashboard, paths + ["--out", str(site)])
        steps["dashboard"] = f"{site / 'index.html'}" if code == 0 else f"FAILED (exit {code})"
        if code:
            failed.append("dashboard")
    else:
        steps["dashboard"] = "skipped (--no-dashboard)"
    code = run_step(console, "matrix", reports.matrix, paths) if reports.matrix is not None else 0
    if code:
        steps["matrix"] = f"FAILED (exit {code})"
        failed.append("matrix")
    return {"steps": steps, "failed": failed, "pruned": pruned}


def _prune(cap: Path, ev_dir: Path, root: Path, cell_ids: list[str], keep: int) -> list[Path]:
    from asc_harness.store.registry import load_valid_registry
    from asc_harness.store.validation import to_plain

    wanted = set(cell_ids)
    cells = [to_plain(c) for c in load_valid_registry(cap).cells if str(c["id"]) in wanted]
    return prune(cells, ev_dir, root, keep)



# --------------------------------------------------------------------------------------------------
# summary and commit message


def _counts(results: dict[str, dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results.values():
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def _count_text(counts: dict[str, int]) -> str:
    order = ["pass", "fail", "error", "timeout", "skipped"]
    words = {"pass": "passed", "fail": "failed", "error": "error", "timeout": "timed out", "skipped": "skipped"}
    return ", ".join(f"{counts[s]} {words[s]}" for s in order if counts.get(s)) or "none"



def commit_message(state: dict, sync_ok: bool) -> str:
    results = state["results"]
    opts = state["options"]
    head = f"nightly: golden evidence for {len(results)} cell(s) on the {opts['engine']} engine"
    lines = [head, "", f"{_count_text(_counts(results))}; backend {opts['backend']}, "
             f"{'quick' if opts['quick'] else 'full'} cases, run {state['run_id']}.", ""]
    for cid in state["plan"]:
        r = results.get(cid)
        if r:
            extra = f" ({r['category']})" if r.get("category") else ""
            lines.append(f"  {cid}: {r['status']}{extra}")
    lines.append("")
    lines.append("capabilities.yaml synced from the evidence." if sync_ok else
                 "capabilities.yaml not synced (sync failed).")
    return "\n".join(lines) + "\n"



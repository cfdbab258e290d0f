"""Mutation testing of the modules whose bugs users would see (``make mutation``).

For each module listed in ``modules.toml`` cosmic-ray plants one small bug at a time (a changed
comparison or number, a swapped operator, a skipped loop, ...) and runs the tests listed for that
module; a mutant the tests do not notice "survives". The score of a module is killed / (killed +
survived). Mutants recorded in ``equivalent.toml`` (a change no test can observe, with the reason)
are not run and do not count.

Mutation runs on a scratch copy of the working tree (``.mutation/src``), never on the sources you edit;
the copy is imported through PYTHONPATH, ahead of the editable install. Sessions are kept in
``.mutation/<module>.sqlite``: a run that hits its time budget stops, and the next run resumes where it
stopped unless the module's source changed (then it starts over). The scores go to
``.mutation/report.md`` (and ``report.json``), survivors with their diffs to
``.mutation/<module>.survivors.txt``.

    python tests/mutation/mutation.py [--budget-min N] [--only NAME ...] [--fresh]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WORK = ROOT / ".mutation"
SRC = WORK / "src"
# Replacements no realistic bug looks like (a product turned into a bit shift); they only add run time.
EXCLUDED_OPERATORS = re.compile(
    r"core/ReplaceBinaryOperator_\w+_(Pow|LShift|RShift|BitOr|BitAnd|BitXor|Mod)$"
    r"|core/ReplaceBinaryOperator_(Pow|LShift|RShift|BitOr|BitAnd|BitXor|Mod)_\w+$"
    r"|core/ReplaceComparisonOperator_\w+_(Is|IsNot)$|core/ReplaceComparisonOperator_(Is|IsNot)_(Eq|NotEq|Lt|LtE|Gt|GtE)$")


def _load(path: Path) -> dict:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def _copy_tree():
    """A fresh scratch copy of the working tree (sources and tests, not .git / .venv / caches)."""
    if SRC.exists():
        shutil.rmtree(SRC)
    ignore = shutil.ignore_patterns(".git", ".venv", ".mutation", "__pycache__", "*.pyc", "site", ".pytest_cache",
                                    ".nightly", "*.egg-info", "build", ".asc_cache")
    shutil.copytree(ROOT, SRC, ignore=ignore, symlinks=True)


def _mutant_key(source_lines: list[str], spec) -> tuple[str, str, str]:
    line = source_lines[spec.start_pos[0] - 1]
    if spec.start_pos[0] == spec.end_pos[0]:
        target = line[spec.start_pos[1]:spec.end_pos[1]]
    else:
        target = line[spec.start_pos[1]:]
    return spec.operator_name, line.strip(), target.strip()


def _equivalents(module_path: str) -> list[dict]:
    data = _load(HERE / "equivalent.toml")
    return [e for e in data.get("equivalent", []) if e["module"] == module_path]


def _matches(entry: dict, key: tuple[str, str, str], mutated=None) -> bool:
    """Whether ``entry`` names the mutant ``key``. An entry with ``mutated`` (the mutated line, stripped)
    names only the mutant that writes that line: a line may hold the same number or operator twice, and
    one operator may replace it in more than one way (a number by n + 1 and by n - 1)."""
    op, line, target = key
    if not (entry["operator"] == op and entry["line"].strip() == line and entry.get("target", target) == target):
        return False
    return "mutated" not in entry or (mutated is not None and mutated() == entry["mutated"].strip())


def _mutated_line(source: str, spec) -> str | None:
    """The line ``spec`` mutates, as the mutant writes it (stripped)."""
    from cosmic_ray.mutating import mutate_code
    from cosmic_ray.plugins import get_operator

    code = mutate_code(source, get_operator(spec.operator_name)(**(getattr(spec, "operator_args", None) or {})),
                       spec.occurrence)
    return None if code is None else code.splitlines()[spec.start_pos[0] - 1].strip()


def run_module(name: str, spec: dict, budget_s: float, fresh: bool, python: str, sample: int | None = None) -> dict:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    module_path = spec["path"]
    source = (SRC / module_path).read_text()
    h = hashlib.sha256((source + json.dumps(spec, sort_keys=True) + str(sample)).encode())
    for t in spec["tests"]:                     # changed tests may kill old survivors: start over
        p = SRC / t.split("::")[0]
        for f in sorted(p.rglob("*.py")) if p.is_dir() else [p]:
            h.update(f.read_bytes())
    digest = h.hexdigest()[:16]
    db_path = WORK / f"{name}.sqlite"
    stamp = WORK / f"{name}.digest"
    if fresh or not db_path.exists() or not stamp.exists() or stamp.read_text() != digest:
        if db_path.exists():
            db_path.unlink()
    tests = " ".join(spec["tests"])
    cfg = WORK / f"{name}.toml"
    cfg.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{module_path}"\n'
        f"timeout = {float(spec.get('timeout', 120))}\n"
        "excluded-modules = []\n"
        f'test-command = "{python} {HERE / "mutation.py"} --pytest -- {tests}"\n'
        "[cosmic-ray.distributor]\nname = \"local\"\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC / "compiler"), str(SRC / "tests" / "tools")])
    cr = str(Path(python).with_name("cosmic-ray"))
    missing = [t for t in spec["tests"] if not (SRC / t.split("::")[0]).exists()]
    if missing:
        raise SystemExit(f"mutation: {name}: test path(s) not found: {', '.join(missing)}")
    if not db_path.exists():
        # The unmutated module must pass its tests, or every mutant would count as killed.
        if subprocess.call([python, str(HERE / "mutation.py"), "--pytest", "--", *spec["tests"]], cwd=SRC, env=env):
            raise SystemExit(f"mutation: {name}: the tests fail without any mutation: {tests}")
        subprocess.run([cr, "init", str(cfg), str(db_path)], cwd=SRC, env=env, check=True)
        stamp.write_text(digest)
    lines = source.splitlines()
    equivalents = _equivalents(module_path)
    used = set()
    with use_db(str(db_path), WorkDB.Mode.open) as db:
        pending = sorted(db.pending_work_items, key=lambda w: (w.mutations[0].start_pos, w.mutations[0].operator_name,
                                                               w.mutations[0].occurrence))
        runnable = [w for w in pending if not EXCLUDED_OPERATORS.match(w.mutations[0].operator_name)]
        # A sample is drawn the same way for the same source, so runs before and after a test change compare.
        chosen = {w.job_id for w in (random.Random(2026).sample(runnable, sample) if sample and sample < len(runnable)
                                     else runnable)}
        for item in pending:
            m = item.mutations[0]
            key = _mutant_key(lines, m)
            if EXCLUDED_OPERATORS.match(m.operator_name):
                db.set_result(item.job_id, WorkResult(output="excluded operator", worker_outcome=WorkerOutcome.SKIPPED))
                continue
            if item.job_id not in chosen:
                db.set_result(item.job_id, WorkResult(output="not sampled", worker_outcome=WorkerOutcome.SKIPPED))
                continue
            for i, e in enumerate(equivalents):
                if _matches(e, key, lambda: _mutated_line(source, m)):
                    used.add(i)
                    db.set_result(item.job_id, WorkResult(output="equivalent: " + e["reason"],
                                                          worker_outcome=WorkerOutcome.SKIPPED))
                    break
    start = time.monotonic()
    proc = subprocess.Popen([cr, "exec", str(cfg), str(db_path)], cwd=SRC, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        proc.wait(timeout=budget_s)
        finished = True
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 15)
        proc.wait()
        finished = False
        shutil.copy(ROOT / module_path, SRC / module_path)   # the interrupted mutant may still be in place
    elapsed = time.monotonic() - start
    return _score(name, module_path, db_path, lines, finished, elapsed)


def _score(name, module_path, db_path, lines, finished, elapsed) -> dict:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    killed = survived = equivalent = excluded = unsampled = 0
    survivors = []
    with use_db(str(db_path), WorkDB.Mode.open) as db:
        total = db.num_work_items
        items = {w.job_id: w for w in db.work_items}
        for job_id, result in db.results:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                if (result.output or "").startswith("equivalent"):
                    equivalent += 1
                elif result.output == "not sampled":
                    unsampled += 1
                else:
                    excluded += 1
            elif result.test_outcome == TestOutcome.SURVIVED:
                survived += 1
                m = items[job_id].mutations[0]
                op, line, target = _mutant_key(lines, m)
                survivors.append(f"{module_path}:{m.start_pos[0]} {op} on {target!r}\n    {line}\n{result.diff or ''}")
            else:
                killed += 1
    (WORK / f"{name}.survivors.txt").write_text("\n".join(survivors))
    tested = killed + survived
    return {"module": name, "path": module_path, "mutants": total - excluded, "sampled": total - excluded - unsampled,
            "tested": tested, "killed": killed, "survived": survived, "equivalent": equivalent,
            "untested": total - excluded - unsampled - equivalent - tested, "finished": finished,
            "score": round(100.0 * killed / tested, 1) if tested else None, "seconds": round(elapsed)}


def write_report(rows: list[dict]):
    old = {}
    if (WORK / "report.json").exists():
        old = {r["module"]: r for r in json.loads((WORK / "report.json").read_text())}
    old.update({r["module"]: r for r in rows})
    merged = list(old.values())
    (WORK / "report.json").write_text(json.dumps(merged, indent=1) + "\n")
    out = ["| module | mutants | sampled | tested | killed | survived | equivalent | untested | score % |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in merged:
        out.append(f"| {r['path']} | {r['mutants']} | {r['sampled']} | {r['tested']} | {r['killed']} | {r['survived']} | "
                   f"{r['equivalent']} | {r['untested']} | {r['score'] if r['score'] is not None else '-'} |")
    (WORK / "report.md").write_text("\n".join(out) + "\n")
    print("\n".join(out))


def run_pytest(args: list[str]) -> int:
    """The test command of one mutant: the module's tests, stopping at the first failure, with a private
    kernel cache (a cached compile of the unmutated code must not hide a mutant)."""
    with tempfile.TemporaryDirectory(prefix="asc-mutant-") as tmp:
        env = dict(os.environ, PYASC_CACHE_DIR=tmp, PYTHONDONTWRITEBYTECODE="1")
        return subprocess.call([sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider",
                                *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--pytest":
        return run_pytest(argv[2:] if argv[1:2] == ["--"] else argv[1:])
    p = argparse.ArgumentParser(description="Mutation testing, one module at a time.")
    p.add_argument("--budget-min", type=float, default=20.0, help="time budget per module in minutes")
    p.add_argument("--only", nargs="*", default=None, help="module names from modules.toml")
    p.add_argument("--fresh", action="store_true", help="discard previous sessions")
    p.add_argument("--sample", type=int, default=None, metavar="N",
                   help="test a fixed random sample of N mutants per module (default: all)")
    a = p.parse_args(argv)
    modules = _load(HERE / "modules.toml")["modules"]
    names = a.only or list(modules)
    unknown = [n for n in names if n not in modules]
    if unknown:
        print(f"mutation: unknown module(s): {', '.join(unknown)}; known: {', '.join(modules)}", file=sys.stderr)
        return 2
    if shutil.which("cosmic-ray", path=str(Path(sys.executable).parent)) is None:
        print("mutation: cosmic-ray is not installed in this environment (pip install -e '.[dev]')", file=sys.stderr)
        return 2
    WORK.mkdir(exist_ok=True)
    rows = []
    for name in names:
        _copy_tree()
        row = run_module(name, modules[name], a.budget_min * 60, a.fresh, sys.executable, a.sample)
        print(f"{name}: {row}", flush=True)
        rows.append(row)
        write_report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

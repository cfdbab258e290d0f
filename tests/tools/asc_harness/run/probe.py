"""Kernel probe: executed by the chosen interpreter inside the sandbox, never imported by the harness.

Usage: python probe.py --kernel FILE --result RESULT.json --backend Model --platform P --engine E
       [--quick] [--sys-path DIR]...

Imports the kernel file by path, selects the platform with ``asc.runtime.config.set_platform`` when
the kernel uses ``asc``, then for every case calls ``make_inputs``, ``reference`` and ``launch`` and
compares the results itself (float64, per-case max abs / rel error and mismatch count). Ticks come from
the ``ASC_LAUNCH_REPORT`` file (embedded engine) or ``Total tick: N`` lines in the output (camodel).
The result JSON is rewritten atomically after every step, so a run that is killed part-way still
reports the finished cases and the case that was running.

Standard library and numpy only: this file must work under any interpreter that can run kernels.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform as _platform
import re
import subprocess
import sys
import tempfile
import time
import traceback

# the probe's sibling (this file's directory is on sys.path: the probe runs as a script)
from probe_measure import CaptureFds, shape_of, as_tuple, compare, copy_inputs, read_launch_report  # noqa: E402

REQUIRED = ("OP", "DTYPE", "TOLERANCE", "CASES", "make_inputs", "launch", "reference")
SEED = 2026
COMPILE_MARKERS = ("CodegenError", "CompilationError", "UnsupportedSyntaxError")
MESSAGE_LIMIT = 4000


class Result:
    def __init__(self, path):
        self.path = path
        self.data = {
            "probe_version": 1, "mode": "golden", "done": False, "current_case": None,
            "python": _platform.python_version(), "executable": sys.executable,
            "engine_version": None, "pyasc_revision": None, "cann_version": None,
            "op": None, "dtype": None, "seed": SEED, "error": None, "cases": [],
        }

    def write(self):
        text = json.dumps(_finite(self.data), indent=1, allow_nan=False)
        directory = os.path.dirname(os.path.abspath(self.path))
        fd, tmp = tempfile.mkstemp(prefix=".result-", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, self.path)


def _finite(value):
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------------------
# failure classification


def _chain(exc):
    seen = []
    while exc is not None and exc not in seen:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


def classify(exc):
    names = [type(e).__name__ for e in _chain(exc)]
    for e in _chain(exc):
        names.extend(cls.__name__ for cls in type(e).__mro__)
    if any(isinstance(e, MemoryError) for e in _chain(exc)):
        return "memory"
    text = str(exc)
    if "failed to map segment" in text or "Cannot allocate memory" in text or "std::bad_alloc" in text:
        return "memory"
    if any(m in n for n in names for m in COMPILE_MARKERS) or any(isinstance(e, SyntaxError) for e in _chain(exc)):
        return "compile_error"
    return "runtime_error"


def describe(exc):
    """Exception type and message plus the innermost frames of the traceback (bounded)."""
    text = str(exc).strip()
    head = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    here = os.path.abspath(__file__)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) != here][-4:]
    where = "".join(f"\n  at {f.filename}:{f.lineno} in {f.name}" for f in frames)
    text = head + where
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + " [...]"


# ---------------------------------------------------------------------------------------------------
# environment facts


def engine_facts(engine):
    version = revision = cann = None
    asc = sys.modules.get("asc")
    if asc is not None:
        version = getattr(asc, "__version__", None)
    try:
        from importlib import metadata
    except ImportError:  # pragma: no cover
        metadata = None
    dists = ("asc-embedded",) if engine == "embedded" else ("pyasc", "asc")
    if metadata is not None:
        for name in dists:
            try:
                dist = metadata.distribution(name)
            except Exception:
                continue
            version = version or dist.version
            if engine == "pyasc":
                try:
                    direct = json.loads(dist.read_text("direct_url.json") or "null") or {}
                    revision = (direct.get("vcs_info") or {}).get("commit_id") or revision
                except Exception:
                    pass
            break
    if engine == "pyasc":
        if revision is None and asc is not None and getattr(asc, "__file__", None):
            try:
                out = subprocess.run(["git", "-C", os.path.dirname(asc.__file__), "rev-parse", "HEAD"],
                                     capture_output=True, text=True, timeout=10)
                if out.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", out.stdout.strip()):
                    revision = out.stdout.strip()
            except Exception:
                pass
        cann = cann_version()
    return (str(version) if version is not None else None), revision, cann


def cann_version():
    home = os.environ.get("ASCEND_HOME_PATH") or os.environ.get("ASCEND_TOOLKIT_HOME")
    if not home:
        return None
    candidates = [os.path.join(home, "version.cfg"), os.path.join(home, "compiler", "version.info"),
                  os.path.join(home, "ascend_toolkit_install.info"),
                  os.path.join(os.path.dirname(home.rstrip("/")), "ascend_toolkit_install.info")]
    for path in candidates:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    m = re.match(r"\s*(?:toolkit_)?(?:installed_)?version\s*[=:]\s*\[?([0-9A-Za-z._-]+)", line,
                                 re.IGNORECASE)
                    if m:
                        return m.group(1)
        except OSError:
            continue
    return None


# ---------------------------------------------------------------------------------------------------


def load_module(path):
    spec = importlib.util.spec_from_file_location("asc_kernel_under_test", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def set_platform(backend, platform):
    """Select backend/platform through asc.runtime.config; returns an error (category, message) or None."""
    try:
        from asc.runtime import config
    except Exception as exc:
        return "infrastructure", f"cannot import asc.runtime.config: {describe(exc)}"
    try:
        member = config.Backend[backend]
    except KeyError:
        return "infrastructure", f"unknown backend {backend!r} (config.Backend has {list(config.Backend.__members__)})"
    try:
        plat = config.Platform(platform)
    except ValueError:
        return "infrastructure", f"unknown platform {platform!r}: not a config.Platform value"
    # An asctile kernel selects its platform through asctile.set_platform, which pyasc-dev's interpreter
    # (ASCTILE_INTERPRET=1) makes a no-op: that is what lets such kernels run without CANN.
    asctile = sys.modules.get("asc.experimental.asctile")
    setter = getattr(asctile, "set_platform", None) or config.set_platform
    try:
        setter(member, plat)
    except Exception as exc:
        text = str(exc)
        if "Runtime library is not available" in text or "ASCEND_HOME_PATH" in text:
            return "infrastructure", describe(exc)
        return classify(exc), describe(exc)
    return None


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel")
    ap.add_argument("--facts-only", action="store_true", help="only report interpreter/engine facts")
    ap.add_argument("--result", required=True)
    ap.add_argument("--backend", default="Model")
    ap.add_argument("--platform", default="Ascend950PR_9599")
    ap.add_argument("--engine", default="embedded")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sys-path", action="append", default=[])
    args = ap.parse_args(argv)

    res = Result(args.result)
    if args.facts_only or not args.kernel:
        try:
            import asc  # noqa: F401 - only to read its version
        except BaseException:  # noqa: BLE001
            pass
        res.data["engine_version"], res.data["pyasc_revision"], res.data["cann_version"] = engine_facts(args.engine)
        res.data["mode"] = "facts"
        res.data["done"] = True
        res.write()
        return 0
    res.write()
    kernel = os.path.abspath(args.kernel)
    for extra in reversed(args.sys_path):
        sys.path.insert(0, extra)
    sys.path.insert(0, os.path.dirname(kernel))
    sys.argv = [kernel]

    try:
        import numpy as np
    except Exception as exc:
        res.data["error"] = {"category": "infrastructure", "message": f"numpy is not importable: {exc}"}
        res.data["done"] = True
        res.write()
        return 0

    try:
        module = load_module(kernel)
    except BaseException as exc:  # noqa: BLE001 - anything the kernel raises at import time
        if isinstance(exc, KeyboardInterrupt):
            raise
        category = classify(exc)
        if isinstance(exc, ImportError) and getattr(exc, "name", None) in ("asc", "asc2", "torch", "numpy"):
            category = "infrastructure"
        if isinstance(exc, SystemExit):
            category = "runtime_error"
        res.data["error"] = {"category": category, "message": "importing the kernel failed: " + describe(exc)}
        res.data["engine_version"], res.data["pyasc_revision"], res.data["cann_version"] = engine_facts(args.engine)
        res.data["done"] = True
        res.write()
        return 0

    res.data["engine_version"], res.data["pyasc_revision"], res.data["cann_version"] = engine_facts(args.engine)
    missing = [n for n in REQUIRED if not hasattr(module, n)]
    problems = []
    if missing:
        problems.append("missing " + ", ".join(missing))
    cases = getattr(module, "CASES", None)
    tolerance = getattr(module, "TOLERANCE", None)
    if not missing:
        if not isinstance(cases, (list, tuple)) or not all(isinstance(c, dict) and "id" in c for c in cases):
            problems.append("CASES must be a list of dicts with an 'id'")
        if not isinstance(tolerance, dict) or not {"atol", "rtol"} <= set(tolerance):
            problems.append("TOLERANCE must be a dict with 'atol' and 'rtol'")
        for name in ("make_inputs", "launch", "reference"):
            if not callable(getattr(module, name)):
                problems.append(f"{name} is not callable")
    res.data["op"] = getattr(module, "OP", None) if isinstance(getattr(module, "OP", None), str) else None
    res.data["dtype"] = getattr(module, "DTYPE", None) if isinstance(getattr(module, "DTYPE", None), str) else None
    if problems:
        res.data["error"] = {"category": "runtime_error",
                             "message": "the golden interface is malformed: " + "; ".join(problems)}
        res.data["done"] = True
        res.write()
        return 0

    res.data["planned"] = [{"id": str(c.get("id")), "shape": shape_of(c.get("shape")),
                            "full_only": bool(c.get("full_only"))} for c in cases]
    res.write()
    if "asc" in sys.modules:
        err = set_platform(args.backend, args.platform)
        if err is not None:
            res.data["error"] = {"category": err[0], "message": "set_platform failed: " + err[1]}
            res.data["done"] = True
            res.write()
            return 0

    report = os.environ.get("ASC_LAUNCH_REPORT")
    offset = os.path.getsize(report) if report and os.path.exists(report) else 0
    for case in cases:
        cid = str(case.get("id"))
        shape = shape_of(case.get("shape"))
        atol = float(case.get("atol", tolerance["atol"]))
        rtol = float(case.get("rtol", tolerance["rtol"]))
        entry = {"id": cid, "shape": shape, "status": "skipped", "atol": atol, "rtol": rtol,
                 "max_abs_err": None, "max_rel_err": None, "mismatches": None, "elements": None,
                 "ticks": None, "wall_s": None}
        if args.quick and case.get("full_only"):
            entry["message"] = "full_only case skipped by a quick run"
            res.data["cases"].append(entry)
            res.write()
            continue
        res.data["current_case"] = {"id": cid, "shape": shape, "atol": atol, "rtol": rtol}
        res.write()
        os.environ["ASC_TRACE_PREFIX"] = f"{cid}-"   # per-launch traces (ASC_TRACE_DIR) named by case
        capture = CaptureFds()
        try:
            with capture:
                inputs = as_tuple(module.make_inputs(case))
                expected = module.reference(*copy_inputs(inputs))
                t0 = time.perf_counter()
                outputs = module.launch(*inputs)
                entry["wall_s"] = round(time.perf_counter() - t0, 6)
                max_abs, max_rel, mism, elems, note = compare(outputs, expected, atol, rtol, np)
            entry.update(max_abs_err=max_abs, max_rel_err=max_rel, mismatches=mism, elements=elems,
                         status="pass" if mism == 0 else "fail")
            if note:
                entry["message"] = note
            elif mism:
                entry["message"] = f"{mism} of {elems} element(s) outside atol={atol:g} + rtol={rtol:g}*|ref|"
        except BaseException as exc:  # noqa: BLE001 - the kernel may raise anything
            if isinstance(exc, KeyboardInterrupt):
                raise
            entry["status"] = "error"
            entry["category"] = classify(exc)
            entry["message"] = describe(exc)
        roof, warned = [], []
        ticks, offset = read_launch_report(report, offset, roof, warned)
        if roof:
            entry["roofline"] = roof[0]
        if warned:
            entry["warnings"] = warned
        if ticks is None:
            found = getattr(capture, "ticks", None)
            ticks = sum(found) if found else None
        entry["ticks"] = ticks
        res.data["cases"].append(entry)
        res.data["current_case"] = None
        res.write()
    res.data["done"] = True
    res.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Static capability dashboard.

``dashboard`` reads the capability registry (``capabilities.yaml``) and the evidence records
(``evidence/``) and renders a static site that opens from the file system with no server:

* ``index.html``: the matrix grouped by tier (one row per operation, one column per dtype, per
  platform when the registry has more than one), each cell with its golden, generative and perf
  badges; per-tier progress; filters (platform, tier, status, search) kept in the URL hash;
* ``cells/<slug>.html``: one page per cell with its statuses and the evidence that decided them,
  freshness, provenance, per-shape errors and ticks, the run history as an inline SVG, known
  issues, prompts, the golden kernel source and the generative attempts.

Everything shown is read from the registry and the evidence records; nothing is curated here.
:func:`build_site_data` computes all of it as plain JSON-compatible data; :func:`render_site`
turns that into HTML.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import functools
import hashlib
import html
import http.server
import json
import math
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterable

from .reference import compare as ascend_c_compare

__all__ = [
    "DashboardError",
    "build_site_data",
    "render_site",
    "write_site",
    "cell_slug",
    "render_series_svg",
    "render_timeline_svg",
    "main",
]

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = PACKAGE_DIR / "templates"
STATIC_DIR = PACKAGE_DIR / "static"

SITE_MARKER = ".asc-dashboard-site"
DEFAULT_STALE_DAYS = 14

GOLDEN_STATUSES = ("confirmed", "failing", "pending", "blocked", "not_attempted")
GENERATIVE_STATUSES = ("confirmed", "failing", "pending", "blocked", "not_attempted")
PERF_STATUSES = ("measured", "pending", "not_attempted")
RECORD_KINDS = ("golden", "generative", "perf")
RECORD_STATUSES = ("pass", "fail", "error", "timeout", "skipped")

# Column order for dtypes; unknown dtypes follow, alphabetically.
_DTYPE_ORDER = (
    "float16", "bfloat16", "float32", "float64",
    "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool",
)

_EVIDENCE_NAME_RE = re.compile(
    r"^(?P<kind>golden|generative|perf)-(?P<ts>\d{8}T\d{6}\d{0,6})Z-(?P<hex>[0-9a-fA-F]+)\.json$"
)


class DashboardError(Exception):
    """A problem with the user's input (paths, registry, options): reported as one line."""


# --------------------------------------------------------------------------------------------
# small helpers


def _jsonable(value: Any) -> Any:
    """Convert YAML-loaded values (dates, tuples) to JSON-compatible ones."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    return value


def _to_utc(value: _dt.datetime) -> _dt.datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=_dt.timezone.utc)
    return value.astimezone(_dt.timezone.utc)


def _parse_time(text: Any) -> _dt.datetime | None:
    if isinstance(text, _dt.datetime):
        return _to_utc(text)
    if not isinstance(text, str) or not text.strip():
        return None
    s = text.strip()
    if s.endswith("Z") or s.endswith("z"):
        s = s[:-1] + "+00:00"
    try:
        return _to_utc(_dt.datetime.fromisoformat(s))
    except ValueError:
        return None


def _iso(value: _dt.datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _time_from_name(name: str) -> _dt.datetime | None:
    m = _EVIDENCE_NAME_RE.match(name)
    if not m:
        return None
    ts = m.group("ts")
    try:
        base = _dt.datetime.strptime(ts[:15], "%Y%m%dT%H%M%S")
    except ValueError:
        return None
    frac = ts[15:]
    micro = int(frac.ljust(6, "0")) if frac else 0
    return base.replace(microsecond=micro, tzinfo=_dt.timezone.utc)


def age_label(seconds: float | None) -> str:
    """Compact human label for an age in seconds: ``"5m"``, ``"3h"``, ``"12d"``."""
    if seconds is None:
        return "never"
    if seconds < -300:
        return "in the future"
    if seconds < 60:  # includes a few minutes of clock skew
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)}m"
    if seconds < 48 * 3600:
        return f"{int(seconds // 3600)}h"
    return f"{int(seconds // 86400)}d"


def cell_slug(cell_id: str) -> str:
    """File-name-safe slug for a cell id (``abs/float16/P`` -> ``abs--float16--P``)."""
    parts = [re.sub(r"[^A-Za-z0-9._-]+", "_", p).strip(".") or "_" for p in str(cell_id).split("/")]
    return "--".join(parts)


def _num(value: Any) -> float | int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and math.isfinite(value):
        return value
    return None


def format_ticks(value: Any) -> str:
    v = _num(value)
    if v is None:
        return "—"
    v = float(v)
    if abs(v) >= 1e9:
        return f"{v / 1e9:.3g}G"
    if abs(v) >= 1e6:
        return f"{v / 1e6:.3g}M"
    if abs(v) >= 1e4:
        return f"{v / 1e3:.3g}k"
    return f"{v:,.0f}"


def format_err(value: Any) -> str:
    v = _num(value)
    if v is None:
        return "—"
    if v == 0:
        return "0"
    return f"{v:.3g}"


def _dtype_key(dtype: str) -> tuple[int, str]:
    try:
        return (_DTYPE_ORDER.index(dtype), dtype)
    except ValueError:
        return (len(_DTYPE_ORDER), dtype)


# --------------------------------------------------------------------------------------------
# registry reader (capabilities.yaml, docs/interfaces.md §3)


def _fail(path: Path, msg: str) -> DashboardError:
    return DashboardError(f"{path}: {msg}")


def load_registry(path: Path) -> dict:
    """Read and minimally validate ``capabilities.yaml``; raise :class:`DashboardError`."""
    import yaml

    path = Path(path)
    if not path.exists():
        raise DashboardError(f"capability registry not found: {path}")
    if not path.is_file():
        raise DashboardError(f"capability registry is not a file: {path}")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(path, f"cannot read: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise _fail(path, f"invalid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(raw, dict):
        raise _fail(path, "expected a mapping at the top level")
    raw = _jsonable(raw)
    if raw.get("schema_version") != 1:
        raise _fail(path, f"unsupported schema_version {raw.get('schema_version')!r} (expected 1)")

    platforms = raw.get("platforms") or []
    if not isinstance(platforms, list) or not all(isinstance(p, str) for p in platforms):
        raise _fail(path, "'platforms' must be a list of strings")

    tiers = raw.get("tiers") or []
    if not isinstance(tiers, list):
        raise _fail(path, "'tiers' must be a list")
    for i, t in enumerate(tiers):
        if not isinstance(t, dict) or "id" not in t:
            raise _fail(path, f"tiers[{i}] must be a mapping with an 'id'")

    ops = raw.get("operations") or []
    if not isinstance(ops, list):
        raise _fail(path, "'operations' must be a list")
    for i, o in enumerate(ops):
        if not isinstance(o, dict) or not isinstance(o.get("name"), str):
            raise _fail(path, f"operations[{i}] must be a mapping with a 'name'")

    cells = raw.get("cells") or []
    if not isinstance(cells, list):
        raise _fail(path, "'cells' must be a list")
    seen: set[str] = set()
    for i, c in enumerate(cells):
        if not isinstance(c, dict):
            raise _fail(path, f"cells[{i}] must be a mapping")
        for key in ("id", "op", "dtype", "platform"):
            if not isinstance(c.get(key), str) or not c.get(key):
                raise _fail(path, f"cells[{i}] is missing '{key}'")
        if c["id"] in seen:
            raise _fail(path, f"duplicate cell id {c['id']!r}")
        seen.add(c["id"])
    return {"platforms": platforms, "tiers": tiers, "operations": ops, "cells": cells}


# --------------------------------------------------------------------------------------------
# evidence reader (docs/interfaces.md §4)


def load_evidence(evidence_dir: Path) -> tuple[dict[str, dict], list[str]]:
    """Read every ``*.json`` evidence record below ``evidence_dir``.

    Returns ``(records, warnings)`` where ``records`` maps the record's path relative to
    ``evidence_dir`` (POSIX) to the parsed record (with ``_path`` and ``_time`` added).
    Unreadable or non-evidence files become warnings, not errors.
    """
    records: dict[str, dict] = {}
    warnings: list[str] = []
    evidence_dir = Path(evidence_dir)
    if not evidence_dir.is_dir():
        return records, warnings
    for file in sorted(evidence_dir.rglob("*.json")):
        if not file.is_file():
            continue
        rel = file.relative_to(evidence_dir).as_posix()
        try:
            rec = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            warnings.append(f"evidence {rel}: unreadable ({exc.__class__.__name__}: {exc})")
            continue
        if not isinstance(rec, dict):
            warnings.append(f"evidence {rel}: not a JSON object")
            continue
        if rec.get("kind") not in RECORD_KINDS or not isinstance(rec.get("cell"), str):
            warnings.append(f"evidence {rel}: not an evidence record (no kind/cell)")
            continue
        if rec.get("schema_version") != 1:
            warnings.append(f"evidence {rel}: unsupported schema_version {rec.get('schema_version')!r}")
            continue
        when = _parse_time(rec.get("started_at")) or _time_from_name(file.name)
        rec = dict(rec)
        rec["_path"] = rel
        rec["_time"] = when
        records[rel] = rec
    return records, warnings


def _resolve_pointer(pointer: Any, evidence_dir: Path, repo_root: Path,
                     records: dict[str, dict]) -> str | None:
    """Map a registry evidence pointer (repo-relative path) to a key of ``records``."""
    if not isinstance(pointer, str) or not pointer:
        return None
    p = pointer.replace("\\", "/")
    if p in records:
        return p
    try:
        rel = (repo_root / p).resolve().relative_to(evidence_dir.resolve()).as_posix()
        if rel in records:
            return rel
    except ValueError:
        pass
    head, _, rest = p.partition("/")
    if head == evidence_dir.name and rest in records:
        return rest
    return None


def _record_ticks(rec: dict) -> int | float | None:
    if rec.get("kind") == "perf":
        perf = rec.get("perf") or {}
        return _num(perf.get("ticks_median")) if isinstance(perf, dict) else None
    cases = rec.get("cases") or []
    if not isinstance(cases, list) or not cases:
        return None
    total = 0
    for case in cases:
        t = _num(case.get("ticks")) if isinstance(case, dict) else None
        if t is None:
            return None
        total += t
    return total


def _provenance(rec: dict) -> dict:
    prov = rec.get("provenance")
    return prov if isinstance(prov, dict) else {}


def _record_summary(rec: dict, deciding: set[str]) -> dict:
    failure = rec.get("failure") if isinstance(rec.get("failure"), dict) else None
    prov = _provenance(rec)
    commit = prov.get("harness_commit")
    return {
        "path": rec["_path"],
        "kind": rec.get("kind"),
        "status": rec.get("status") if rec.get("status") in RECORD_STATUSES else "unknown",
        "started_at": _iso(rec.get("_time")),
        "runtime_verified": bool(rec.get("runtime_verified")),
        "failure": {"category": failure.get("category"), "message": failure.get("message")}
        if failure else None,
        "wall_time_s": _num(rec.get("wall_time_s")),
        "ticks": _record_ticks(rec),
        "kernel": rec.get("kernel"),
        "kernel_sha256": rec.get("kernel_sha256"),
        "provenance": prov,
        "commit_short": (commit[:10] if isinstance(commit, str) else None),
        "engine": prov.get("engine"),
        "deciding": rec["_path"] in deciding,
    }


def _case_rows(rec: dict) -> list[dict]:
    rows = []
    for case in rec.get("cases") or []:
        if not isinstance(case, dict):
            continue
        shape = case.get("shape")
        rows.append({
            "id": case.get("id"),
            "shape": "×".join(str(d) for d in shape) if isinstance(shape, list) else None,
            "status": case.get("status"),
            "atol": _num(case.get("atol")),
            "rtol": _num(case.get("rtol")),
            "max_abs_err": _num(case.get("max_abs_err")),
            "max_rel_err": _num(case.get("max_rel_err")),
            "mismatches": _num(case.get("mismatches")),
            "elements": _num(case.get("elements")),
            "ticks": _num(case.get("ticks")),
            "wall_s": _num(case.get("wall_s")),
        })
    return rows


def _attempt(rec: dict) -> dict:
    gen = rec.get("generative") if isinstance(rec.get("generative"), dict) else {}
    failure = rec.get("failure") if isinstance(rec.get("failure"), dict) else None
    output = gen.get("agent_output")
    if isinstance(output, str) and len(output) > 4000:
        output = output[:4000] + f"\n… ({len(gen['agent_output']) - 4000} more characters in the record)"
    status = rec.get("status")
    return {
        "path": rec["_path"],
        "started_at": _iso(rec.get("_time")),
        "attempt": gen.get("attempt"),
        "variant": gen.get("variant"),
        "status": status,
        "outcome": "pass" if status == "pass" and rec.get("runtime_verified") else
                   ("static only" if status == "pass" else (status or "unknown")),
        "runtime_verified": bool(rec.get("runtime_verified")),
        "failure": {"category": failure.get("category"), "message": failure.get("message")}
        if failure else None,
        "agent_command": gen.get("agent_command"),
        "agent_exit": gen.get("agent_exit"),
        "agent_wall_s": _num(gen.get("agent_wall_s")),
        "agent_output": output,
        "kernel_file": gen.get("kernel_file") or rec.get("kernel"),
        "cases_passed": sum(1 for c in rec.get("cases") or [] if isinstance(c, dict) and c.get("status") == "pass"),
        "cases_total": len([c for c in rec.get("cases") or [] if isinstance(c, dict)]),
    }


# --------------------------------------------------------------------------------------------
# build_site_data


def _decider(pointer: Any, key: str | None, records: dict[str, dict], cell_id: str) -> dict | None:
    if pointer in (None, ""):
        return None
    info: dict[str, Any] = {"pointer": pointer, "found": key is not None, "path": key}
    if key is not None:
        rec = records[key]
        info.update({
            "status": rec.get("status"),
            "started_at": _iso(rec.get("_time")),
            "runtime_verified": bool(rec.get("runtime_verified")),
            "matches_cell": rec.get("cell") == cell_id,
        })
    return info


def build_site_data(capabilities_path, evidence_dir, now=None, *, repo_root=None,
                    stale_days: float = DEFAULT_STALE_DAYS) -> dict:
    """Compute everything the dashboard shows, as JSON-compatible data.

    ``capabilities_path``: the registry; ``evidence_dir``: the evidence folder (may be absent:
    no evidence); ``now``: reference time for freshness (default: current UTC time);
    ``repo_root``: base of the repo-relative paths in the registry (default: the registry's
    folder); ``stale_days``: a cell whose newest record is older than this is stale.
    Raises :class:`DashboardError` for an unreadable or invalid registry.
    """
    capabilities_path = Path(capabilities_path)
    evidence_dir = Path(evidence_dir)
    repo_root = Path(repo_root) if repo_root is not None else capabilities_path.resolve().parent
    if now is None:
        now = _dt.datetime.now(_dt.timezone.utc)
    elif isinstance(now, str):
        parsed = _parse_time(now)
        if parsed is None:
            raise DashboardError(f"invalid time {now!r}")
        now = parsed
    else:
        now = _to_utc(now)
    if not (isinstance(stale_days, (int, float)) and stale_days > 0):
        raise DashboardError(f"stale days must be a positive number, got {stale_days!r}")

    reg = load_registry(capabilities_path)
    records, warnings = load_evidence(evidence_dir)

    # Group records by cell.
    by_cell: dict[str, list[dict]] = {}
    for rec in records.values():
        by_cell.setdefault(rec["cell"], []).append(rec)
    cell_ids = {c["id"] for c in reg["cells"]}
    orphans = sorted(k for k in by_cell if k not in cell_ids)
    for k in orphans:
        warnings.append(f"{len(by_cell[k])} evidence record(s) for {k!r}, which is not in the registry")

    # Tiers and operations.
    tiers: list[dict] = []
    tier_by_id: dict[Any, dict] = {}
    for t in reg["tiers"]:
        entry = {"id": t["id"], "name": str(t.get("name") or f"tier {t['id']}"),
                 "description": t.get("description"), "operations": []}
        tiers.append(entry)
        tier_by_id[t["id"]] = entry
    op_info: dict[str, dict] = {}
    for o in reg["operations"]:
        op_info[o["name"]] = {"name": o["name"], "tier": o.get("tier"),
                              "description": o.get("description") or ""}
    for c in reg["cells"]:
        if c["op"] not in op_info:
            op_info[c["op"]] = {"name": c["op"], "tier": None, "description": ""}
            warnings.append(f"cell {c['id']!r}: operation {c['op']!r} is not listed in 'operations'")
    unassigned = None
    for name, info in op_info.items():
        tier = tier_by_id.get(info["tier"])
        if tier is None:
            if unassigned is None:
                unassigned = {"id": "unassigned", "name": "unassigned", "description": None, "operations": []}
            tier = unassigned
            if info["tier"] is not None:
                warnings.append(f"operation {name!r}: unknown tier {info['tier']!r}")
        tier["operations"].append(name)
    if unassigned is not None:
        tiers.append(unassigned)
        tier_by_id["unassigned"] = unassigned
    op_tier = {name: t["id"] for t in tiers for name in t["operations"]}
    tier_name = {t["id"]: t["name"] for t in tiers}

    # Platforms and matrix columns.
    platforms = list(reg["platforms"])
    for c in reg["cells"]:
        if c["platform"] not in platforms:
            platforms.append(c["platform"])
    multi = len(platforms) > 1
    col_keys = sorted({(c["dtype"], c["platform"]) for c in reg["cells"]},
                      key=lambda k: (_dtype_key(k[0]), platforms.index(k[1])))
    columns = [{"key": f"{d}/{p}", "dtype": d, "platform": p,
                "label": d, "sublabel": p if multi else None} for d, p in col_keys]

    # Cells.
    cells: list[dict] = []
    slugs: set[str] = set()
    stale_s = stale_days * 86400.0
    for c in reg["cells"]:
        cid = c["id"]
        slug = cell_slug(cid)
        if slug in slugs:
            slug = f"{slug}-{hashlib.sha1(cid.encode()).hexdigest()[:8]}"
        slugs.add(slug)

        status = {
            "golden": c.get("golden_status") if c.get("golden_status") in GOLDEN_STATUSES else "not_attempted",
            "generative": c.get("generative_status") if c.get("generative_status") in GENERATIVE_STATUSES else "not_attempted",
            "perf": c.get("perf_status") if c.get("perf_status") in PERF_STATUSES else "not_attempted",
        }
        checks: list[dict] = []
        for dim, field in (("golden", "golden_status"), ("generative", "generative_status"), ("perf", "perf_status")):
            if c.get(field) is not None and c.get(field) != status[dim]:
                checks.append({"level": "warn", "text": f"unknown {field} {c.get(field)!r} in the registry"})

        ev = c.get("evidence") if isinstance(c.get("evidence"), dict) else {}
        gen_ptrs = ev.get("generative") or []
        if isinstance(gen_ptrs, str):
            gen_ptrs = [gen_ptrs]
        keys = {
            "golden": _resolve_pointer(ev.get("golden"), evidence_dir, repo_root, records),
            "perf": _resolve_pointer(ev.get("perf"), evidence_dir, repo_root, records),
        }
        gen_keys = [_resolve_pointer(p, evidence_dir, repo_root, records) for p in gen_ptrs]
        decided_by = {
            "golden": _decider(ev.get("golden"), keys["golden"], records, cid),
            "generative": [d for d in (_decider(p, k, records, cid) for p, k in zip(gen_ptrs, gen_keys)) if d],
            "perf": _decider(ev.get("perf"), keys["perf"], records, cid),
        }
        deciding = {k for k in [keys["golden"], keys["perf"], *gen_keys] if k}

        # Trust checks: a status must be backed by the record it points at.
        for dim in ("golden", "perf"):
            d = decided_by[dim]
            if d is None:
                if status[dim] in ("confirmed", "failing", "measured"):
                    checks.append({"level": "warn", "text": f"{dim} status '{status[dim]}' names no evidence record"})
            elif not d["found"]:
                checks.append({"level": "warn", "text": f"{dim} evidence {d['pointer']} is missing from the evidence folder"})
            elif not d["matches_cell"]:
                checks.append({"level": "warn", "text": f"{dim} evidence {d['pointer']} belongs to another cell"})
        if status["generative"] in ("confirmed", "failing") and not decided_by["generative"]:
            checks.append({"level": "warn", "text": f"generative status '{status['generative']}' names no evidence record"})
        for d in decided_by["generative"]:
            if not d["found"]:
                checks.append({"level": "warn", "text": f"generative evidence {d['pointer']} is missing from the evidence folder"})

        recs = sorted(by_cell.get(cid, []),
                      key=lambda r: (r["_time"] or _dt.datetime.min.replace(tzinfo=_dt.timezone.utc), r["_path"]))
        # Newer runs than the deciding one (e.g. registry not re-synced yet).
        for dim in ("golden", "perf"):
            d = decided_by[dim]
            if d and d["found"]:
                dec_time = records[d["path"]]["_time"]
                newer = [r for r in recs if r.get("kind") == dim and r["_time"] and dec_time and r["_time"] > dec_time]
                if newer and newer[-1].get("status") != d["status"]:
                    checks.append({"level": "info", "text":
                                   f"a newer {dim} run ({_iso(newer[-1]['_time'])}) has status "
                                   f"'{newer[-1].get('status')}'; the registry still uses an older record"})

        newest = max((r["_time"] for r in recs if r["_time"]), default=None)
        age_s = (now - newest).total_seconds() if newest else None
        stale = bool(recs) and (age_s is None or age_s > stale_s)
        freshness = {
            "newest": _iso(newest),
            "age_seconds": age_s,
            "age_days": round(age_s / 86400.0, 2) if age_s is not None else None,
            "age_label": age_label(age_s),
            "stale": stale,
            "has_evidence": bool(recs),
        }

        summaries = [_record_summary(r, deciding) for r in recs]
        history = [{"kind": s["kind"], "started_at": s["started_at"], "status": s["status"],
                    "ticks": s["ticks"], "path": s["path"], "runtime_verified": s["runtime_verified"]}
                   for s in summaries]

        golden_recs = [r for r in recs if r.get("kind") == "golden"]
        case_src = records[keys["golden"]] if keys["golden"] else (golden_recs[-1] if golden_recs else None)
        cases = None
        if case_src is not None:
            cases = {"path": case_src["_path"], "started_at": _iso(case_src["_time"]),
                     "status": case_src.get("status"), "deciding": case_src["_path"] in deciding,
                     "rows": _case_rows(case_src)}

        perf_recs = [r for r in recs if r.get("kind") == "perf"]
        perf_src = records[keys["perf"]] if keys["perf"] else (perf_recs[-1] if perf_recs else None)
        perf = None
        if perf_src is not None and isinstance(perf_src.get("perf"), dict):
            pd = perf_src["perf"]
            runs = pd.get("ticks_runs") if isinstance(pd.get("ticks_runs"), list) else []
            perf = {"path": perf_src["_path"], "started_at": _iso(perf_src["_time"]),
                    "deciding": perf_src["_path"] in deciding,
                    "ticks_median": _num(pd.get("ticks_median")),
                    "ticks_runs": [_num(x) for x in runs],
                    "spread": _num(pd.get("spread"))}

        attempts = [_attempt(r) for r in reversed(recs) if r.get("kind") == "generative"]

        # Golden kernel source.
        gpath = c.get("golden")
        golden = {"path": gpath, "exists": False, "source": None, "sha256": None,
                  "matches_evidence": None}
        if isinstance(gpath, str) and gpath:
            file = repo_root / gpath
            if file.is_file():
                data = file.read_bytes()
                golden["exists"] = True
                golden["sha256"] = hashlib.sha256(data).hexdigest()
                golden["source"] = data.decode("utf-8", errors="replace")
                if keys["golden"]:
                    ev_sha = records[keys["golden"]].get("kernel_sha256")
                    if isinstance(ev_sha, str) and ev_sha:
                        golden["matches_evidence"] = ev_sha == golden["sha256"]
                        if not golden["matches_evidence"]:
                            checks.append({"level": "warn", "text":
                                           "the golden kernel changed since the run that decided its status"})
            else:
                checks.append({"level": "warn", "text": f"golden kernel {gpath} not found"})

        prompts = c.get("prompts") if isinstance(c.get("prompts"), dict) else {}
        issues = []
        for it in c.get("known_issues") or []:
            if isinstance(it, dict):
                issues.append({"text": it.get("text"), "link": it.get("link"), "since": it.get("since")})
            elif isinstance(it, str):
                issues.append({"text": it, "link": None, "since": None})

        tid = op_tier[c["op"]]
        shapes = c.get("shapes") if isinstance(c.get("shapes"), list) else []
        cells.append({
            "id": cid,
            "slug": slug,
            "page": f"cells/{slug}.html",
            "op": c["op"],
            "dtype": c["dtype"],
            "platform": c["platform"],
            "column": f"{c['dtype']}/{c['platform']}",
            "tier": tid,
            "tier_name": tier_name[tid],
            "description": op_info[c["op"]]["description"],
            "status": status,
            "decided_by": decided_by,
            "freshness": freshness,
            "records": list(reversed(summaries)),
            "history": history,
            "cases": cases,
            "perf": perf,
            "ascend_c": ascend_c_compare(c, case_src),
            "attempts": attempts,
            "golden": golden,
            "prompts": {str(k): v for k, v in prompts.items()},
            "known_issues": issues,
            "tolerance": c.get("tolerance") if isinstance(c.get("tolerance"), dict) else None,
            "shapes": ["×".join(str(d) for d in s) if isinstance(s, list) else str(s) for s in shapes],
            "checks": checks,
        })

    cell_by_key = {(c["op"], c["column"]): c["id"] for c in cells}
    tier_out = []
    for t in tiers:
        tcells = [c for c in cells if c["tier"] == t["id"]]
        rows = []
        for op in t["operations"]:
            rows.append({"op": op, "description": op_info[op]["description"],
                         "cells": {col["key"]: cell_by_key.get((op, col["key"])) for col in columns}})
        tier_out.append({
            "id": t["id"],
            "name": t["name"],
            "description": t["description"],
            "total": len(tcells),
            "golden_confirmed": sum(c["status"]["golden"] == "confirmed" for c in tcells),
            "generative_confirmed": sum(c["status"]["generative"] == "confirmed" for c in tcells),
            "perf_measured": sum(c["status"]["perf"] == "measured" for c in tcells),
            "confirmed": sum(c["status"]["golden"] == "confirmed" and c["status"]["generative"] == "confirmed"
                             for c in tcells),
            "rows": rows,
        })

    def count(dim: str, value: str) -> int:
        return sum(c["status"][dim] == value for c in cells)

    all_times = [r["_time"] for r in records.values() if r["_time"]]
    summary = {
        "cells": len(cells),
        "operations": len(op_info),
        "golden": {s: count("golden", s) for s in GOLDEN_STATUSES},
        "generative": {s: count("generative", s) for s in GENERATIVE_STATUSES},
        "perf": {s: count("perf", s) for s in PERF_STATUSES},
        "stale": sum(c["freshness"]["stale"] for c in cells),
        "no_evidence": sum(not c["freshness"]["has_evidence"] for c in cells),
        "records": len(records),
        "newest_record": _iso(max(all_times)) if all_times else None,
        "cells_with_warnings": sum(any(ch["level"] == "warn" for ch in c["checks"]) for c in cells),
    }

    return {
        "generated_at": _iso(now),
        "stale_days": stale_days,
        "registry_path": str(capabilities_path),
        "evidence_dir": str(evidence_dir),
        "platforms": platforms,
        "multi_platform": multi,
        "columns": columns,
        "tiers": tier_out,
        "cells": cells,
        "summary": summary,
        "statuses": {"golden": list(GOLDEN_STATUSES), "generative": list(GENERATIVE_STATUSES),
                     "perf": list(PERF_STATUSES)},
        "warnings": warnings,
    }


# --------------------------------------------------------------------------------------------
# SVG charts (made at render time, no scripts, no network)

_STATUS_COLORS = {
    "pass": "#1a7f37", "fail": "#cf222e", "error": "#bc4c00", "timeout": "#8250df",
    "skipped": "#8c959f", "unknown": "#8c959f",
}


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def render_series_svg(points: list[dict], *, title: str, color: str = "#0969da",
                      width: int = 640, height: int = 170) -> str:
    """Line chart of ``points`` (dicts with ``value``, ``label``, ``status``) in run order."""
    pts = [p for p in points if _num(p.get("value")) is not None]
    if not pts:
        return ""
    left, right, top, bottom = 64, 16, 26, 30
    w, h = width - left - right, height - top - bottom
    vals = [float(p["value"]) for p in pts]
    lo, hi = min(vals), max(vals)
    if hi == lo:
        pad = abs(hi) * 0.1 or 1.0
        lo, hi = lo - pad, hi + pad
    else:
        pad = (hi - lo) * 0.12
        lo, hi = max(0.0, lo - pad) if lo >= 0 else lo - pad, hi + pad
    n = len(pts)

    def x(i: int) -> float:
        return left + (w / 2 if n == 1 else w * i / (n - 1))

    def y(v: float) -> float:
        return top + h - (v - lo) / (hi - lo) * h

    parts = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-label="{_esc(title)}">',
             f'<text class="chart-title" x="{left}" y="15">{_esc(title)}</text>']
    for frac in (0.0, 0.5, 1.0):
        v = lo + (hi - lo) * frac
        yy = y(v)
        parts.append(f'<line class="grid" x1="{left}" y1="{yy:.1f}" x2="{left + w}" y2="{yy:.1f}"/>')
        parts.append(f'<text class="axis" x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">{_esc(format_ticks(v))}</text>')
    if n > 1:
        path = " ".join(f"{'M' if i == 0 else 'L'}{x(i):.1f},{y(v):.1f}" for i, v in enumerate(vals))
        parts.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="2" stroke-linejoin="round"/>')
    for i, (p, v) in enumerate(zip(pts, vals)):
        fill = _STATUS_COLORS.get(p.get("status") or "unknown", color)
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{fill}" stroke="#fff" stroke-width="1.5">'
                     f'<title>{_esc(p.get("label"))}: {_esc(format_ticks(v))} ticks ({_esc(p.get("status"))})</title></circle>')
    first, last = pts[0].get("label") or "", pts[-1].get("label") or ""
    parts.append(f'<text class="axis" x="{left}" y="{height - 8}">{_esc(first[:10])}</text>')
    if n > 1:
        parts.append(f'<text class="axis" x="{left + w}" y="{height - 8}" text-anchor="end">{_esc(last[:10])}</text>')
    parts.append(f'<text class="axis" x="{left + w / 2:.1f}" y="{height - 8}" text-anchor="middle">{n} run{"s" if n != 1 else ""}</text>')
    parts.append("</svg>")
    return "".join(parts)


def render_timeline_svg(history: list[dict], *, width: int = 640) -> str:
    """Outcome of every run, one lane per kind, in time order."""
    if not history:
        return ""
    lanes = [k for k in RECORD_KINDS if any(hh["kind"] == k for hh in history)]
    left, right, top, lane_h = 90, 16, 8, 24
    height = top + lane_h * len(lanes) + 24
    w = width - left - right
    n = len(history)
    step = w / max(n, 1)
    size = max(4.0, min(14.0, step - 2))
    parts = [f'<svg class="chart timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-label="run outcomes">']
    for li, lane in enumerate(lanes):
        yy = top + li * lane_h
        parts.append(f'<text class="axis" x="{left - 10}" y="{yy + lane_h / 2 + 4:.1f}" text-anchor="end">{lane}</text>')
        parts.append(f'<line class="grid" x1="{left}" y1="{yy + lane_h / 2:.1f}" x2="{left + w}" y2="{yy + lane_h / 2:.1f}"/>')
    for i, hh in enumerate(history):
        li = lanes.index(hh["kind"])
        cx = left + step * (i + 0.5)
        cy = top + li * lane_h + lane_h / 2
        fill = _STATUS_COLORS.get(hh.get("status") or "unknown", "#8c959f")
        hollow = hh.get("status") == "pass" and not hh.get("runtime_verified")
        style = f'fill="#fff" stroke="{fill}" stroke-width="2"' if hollow else f'fill="{fill}"'
        parts.append(f'<rect x="{cx - size / 2:.1f}" y="{cy - size / 2:.1f}" width="{size:.1f}" height="{size:.1f}" rx="2" {style}>'
                     f'<title>{_esc(hh["kind"])} {_esc(hh.get("started_at"))}: {_esc(hh.get("status"))}'
                     f'{" (static only)" if hollow else ""}</title></rect>')
    first, last = history[0].get("started_at") or "", history[-1].get("started_at") or ""
    yb = height - 6
    parts.append(f'<text class="axis" x="{left}" y="{yb}">{_esc(first[:10])}</text>')
    if n > 1:
        parts.append(f'<text class="axis" x="{left + w}" y="{yb}" text-anchor="end">{_esc(last[:10])}</text>')
    parts.append("</svg>")
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# rendering


@functools.lru_cache(maxsize=1)
def _environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["ticks"] = format_ticks
    env.filters["err"] = format_err
    env.filters["short_time"] = lambda s: (s or "—").replace("T", " ").replace("Z", " UTC")
    env.filters["status_label"] = lambda s: str(s or "—").replace("_", " ")
    env.filters["seconds"] = lambda v: "—" if _num(v) is None else (f"{v:.2f} s" if v < 100 else f"{v:,.0f} s")
    return env


_GLYPH = {"confirmed": "✓", "measured": "✓", "failing": "✗", "pending": "…", "blocked": "⊘",
          "not_attempted": "–", "pass": "✓", "fail": "✗", "error": "!", "timeout": "⌛", "skipped": "–"}


def _highlight(source: str) -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    return highlight(source, PythonLexer(), HtmlFormatter(linenos="table", cssclass="highlight", wrapcode=True))


def _pygments_css() -> str:
    from pygments.formatters import HtmlFormatter

    light = HtmlFormatter(style="default").get_style_defs(".highlight")
    try:
        dark = HtmlFormatter(style="github-dark").get_style_defs(".highlight")
    except Exception:  # older pygments without the style
        dark = HtmlFormatter(style="monokai").get_style_defs(".highlight")
    return (f"/* generated by pygments */\n{light}\n"
            f"@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n")


def render_site(data: dict, out_dir: Path) -> None:
    """Write the site for ``data`` (from :func:`build_site_data`) into ``out_dir`` (must exist)."""
    out_dir = Path(out_dir)
    env = _environment()
    assets = out_dir / "assets"
    cells_dir = out_dir / "cells"
    assets.mkdir(parents=True, exist_ok=True)
    cells_dir.mkdir(parents=True, exist_ok=True)
    for f in STATIC_DIR.iterdir():
        if f.is_file():
            shutil.copyfile(f, assets / f.name)
    (assets / "pygments.css").write_text(_pygments_css(), encoding="utf-8")

    cell_by_id = {c["id"]: c for c in data["cells"]}
    common = {"data": data, "glyph": _GLYPH, "cell_by_id": cell_by_id}

    index = env.get_template("index.html").render(root="", page="index", **common)
    (out_dir / "index.html").write_text(index, encoding="utf-8")

    for cell in data["cells"]:
        history = cell["history"]
        charts = []
        golden_pts = [{"value": hh["ticks"], "label": hh["started_at"], "status": hh["status"]}
                      for hh in history if hh["kind"] == "golden"]
        perf_pts = [{"value": hh["ticks"], "label": hh["started_at"], "status": hh["status"]}
                    for hh in history if hh["kind"] == "perf"]
        svg = render_series_svg(golden_pts, title="Golden runs: total ticks over all cases", color="#0969da")
        if svg:
            charts.append(svg)
        svg = render_series_svg(perf_pts, title="Perf runs: median ticks", color="#bf8700")
        if svg:
            charts.append(svg)
        timeline = render_timeline_svg(history)
        source_html = _highlight(cell["golden"]["source"]) if cell["golden"]["source"] is not None else None
        page = env.get_template("cell.html").render(
            root="../", page="cell", cell=cell, charts=charts, timeline=timeline,
            source_html=source_html, **common)
        (cells_dir / f"{cell['slug']}.html").write_text(page, encoding="utf-8")

    # Copy the records the pages link to, so the site is complete on its own.
    evidence_src = Path(data["evidence_dir"])
    for cell in data["cells"]:
        for rec in cell["records"]:
            src = evidence_src / rec["path"]
            dst = out_dir / "evidence" / rec["path"]
            if src.is_file():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)

    (out_dir / "site-data.json").write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    (out_dir / ".nojekyll").write_text("", encoding="utf-8")
    (out_dir / SITE_MARKER).write_text("generated by the dashboard command; safe to delete\n", encoding="utf-8")


def write_site(data: dict, out_dir: Path) -> Path:
    """Render into a temporary folder next to ``out_dir``, then swap it in place."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise DashboardError(f"output path exists and is not a folder: {out_dir}")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / SITE_MARKER).exists():
        raise DashboardError(f"refusing to replace {out_dir}: it is not empty and was not made by dashboard")
    parent = out_dir.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.tmp-", dir=parent))
    except OSError as exc:
        raise DashboardError(f"cannot create output folder next to {out_dir}: {exc}") from None
    try:
        render_site(data, tmp)
        os.chmod(tmp, 0o755)
        old = None
        if out_dir.exists():
            old = parent / f".{out_dir.name}.old-{os.getpid()}-{tmp.name[-8:]}"
            os.replace(out_dir, old)
        os.replace(tmp, out_dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise DashboardError(f"cannot write the site to {out_dir}: {exc}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out_dir


# --------------------------------------------------------------------------------------------
# serving and CLI


def serve(out_dir: Path, port: int) -> None:
    handler = functools.partial(_QuietHandler, directory=str(out_dir))
    try:
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise DashboardError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    with httpd:
        host, real_port = httpd.server_address[:2]
        print(f"serving {out_dir} at http://{host}:{real_port}/ (Ctrl-C to stop)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            print("stopped")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, exit 2
        self.exit(2, f"dashboard: error: {message}\n")


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (v > 0 and math.isfinite(v)):
        raise argparse.ArgumentTypeError(f"must be a positive number: {text!r}")
    return v


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"port out of range: {v}")
    return v


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="dashboard",
                description="Render the capability dashboard (a static site) from capabilities.yaml and evidence/.")
    p.add_argument("--capabilities", type=Path, default=Path("capabilities.yaml"), metavar="PATH",
                   help="capability registry (default: capabilities.yaml)")
    p.add_argument("--evidence-dir", type=Path, default=None, metavar="PATH",
                   help="evidence folder (default: evidence/ next to the registry)")
    p.add_argument("--out", type=Path, default=Path("site"), metavar="DIR", help="output folder (default: site/)")
    p.add_argument("--stale-days", type=_positive_float, default=DEFAULT_STALE_DAYS, metavar="N",
                   help=f"a cell whose newest record is older than this is stale (default: {DEFAULT_STALE_DAYS})")
    p.add_argument("--serve", action="store_true", help="after rendering, serve the site on 127.0.0.1")
    p.add_argument("--port", type=_port, default=8000, metavar="P", help="port for --serve (default: 8000)")
    return p


def main(argv: Iterable[str] | None = None) -> int:
    args = _parser().parse_args(list(argv) if argv is not None else None)
    try:
        if args.evidence_dir is None:
            evidence_dir = args.capabilities.resolve().parent / "evidence"
        else:
            evidence_dir = args.evidence_dir
            if not evidence_dir.is_dir():
                raise DashboardError(f"evidence folder not found: {evidence_dir}")
        data = build_site_data(args.capabilities, evidence_dir, stale_days=args.stale_days)
        out = write_site(data, args.out)
        s = data["summary"]
        index = out.resolve() / "index.html"
        print(f"dashboard: {s['cells']} cells, {s['records']} evidence records -> {index.as_uri()}")
        for t in data["tiers"]:
            print(f"  tier {t['id']} {t['name']}: golden {t['golden_confirmed']}/{t['total']}, "
                  f"generative {t['generative_confirmed']}/{t['total']}, perf {t['perf_measured']}/{t['total']}")
        for w in data["warnings"]:
            print(f"  warning: {w}", file=sys.stderr)
        if args.serve:
            serve(out, args.port)
    except DashboardError as exc:
        print(f"dashboard: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""Dashboard rendering: the static site (HTML pages, inline SVG charts) for the data of
:func:`asc_harness.report.dashboard_data.build_site_data`.

Pages are Jinja templates (``templates/``); charts are made here as SVG at render time (no scripts, no
network), so the site opens from the file system. :func:`write_site` renders into a temporary folder
and swaps it in place, and never replaces a folder it did not make.
"""

from __future__ import annotations

import functools
import html
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from asc_harness.report.dashboard_data import RECORD_KINDS, DashboardError
from asc_harness.report.dashboard_format import _num, format_err, format_ticks

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = PACKAGE_DIR / "templates"
STATIC_DIR = PACKAGE_DIR / "static"
SITE_MARKER = ".asc-dashboard-site"

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


_PIPE_COLORS = {"S": "#6e7781", "MTE2": "#0969da", "MTE1": "#54aeff", "V": "#1a7f37", "M": "#8250df",
                "FIX": "#bf8700", "MTE3": "#cf222e"}


def render_pipes_svg(timeline: dict, *, case_id: str, width: int = 640) -> str:
    """One case's per-pipe timeline: a row per busy pipe, a slice per (merged) busy interval, in ticks."""
    pipes = [(p, segs) for p, segs in (timeline.get("pipes") or {}).items() if segs]
    total = float(timeline.get("ticks") or 0)
    if not pipes or total <= 0:
        return ""
    left, right, top, row_h = 56, 16, 22, 18
    w = width - left - right
    height = top + row_h * len(pipes) + 22
    launches = timeline.get("launches")
    title = f"case {case_id}: per-pipe timeline, {format_ticks(total)} ticks" + (
        f" over {launches} launches" if launches and launches > 1 else "")
    parts = [f'<svg class="chart pipes" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-label="{_esc(title)}" data-case="{_esc(case_id)}">',
             f'<text class="chart-title" x="{left}" y="14">{_esc(title)}</text>']
    for i, (pipe, segs) in enumerate(pipes):
        y = top + i * row_h
        busy = sum(d for _, d in segs)
        parts.append(f'<g class="pipe-row" data-pipe="{_esc(pipe)}">'
                     f'<text class="axis" x="{left - 6}" y="{y + row_h / 2 + 4:.1f}" text-anchor="end">{_esc(pipe)}</text>'
                     f'<line class="grid" x1="{left}" y1="{y + row_h / 2:.1f}" x2="{left + w}" y2="{y + row_h / 2:.1f}"/>')
        for start, dur in segs:
            x0 = left + w * max(0.0, start) / total
            x1 = left + w * min(total, start + dur) / total
            parts.append(f'<rect class="slice" x="{x0:.2f}" y="{y + 3}" width="{max(0.75, x1 - x0):.2f}" '
                         f'height="{row_h - 6}" fill="{_PIPE_COLORS.get(pipe, "#6e7781")}">'
                         f'<title>{_esc(pipe)}: ticks {format_ticks(start)}–{format_ticks(start + dur)}</title></rect>')
        parts.append(f'<title>{_esc(pipe)} busy {format_ticks(busy)} of {format_ticks(total)} ticks</title></g>')
    yb = height - 6
    parts.append(f'<text class="axis" x="{left}" y="{yb}">0</text>')
    parts.append(f'<text class="axis" x="{left + w}" y="{yb}" text-anchor="end">{_esc(format_ticks(total))} ticks</text>')
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
        pipe_charts = {r["id"]: render_pipes_svg(r["timeline"], case_id=str(r["id"]))
                       for r in (cell["cases"] or {}).get("rows", []) if r.get("timeline")}
        source_html = _highlight(cell["golden"]["source"]) if cell["golden"]["source"] is not None else None
        page = env.get_template("cell.html").render(
            root="../", page="cell", cell=cell, charts=charts, timeline=timeline, pipe_charts=pipe_charts,
            source_html=source_html, **common)
        (cells_dir / f"{cell['slug']}.html").write_text(page, encoding="utf-8")

    # Copy the records the pages link to, so the site is complete on its own.
    evidence_src = Path(data["evidence_dir"])
    for cell in data["cells"]:
        traces = [t for r in (cell["cases"] or {}).get("rows", []) for t in r.get("traces") or []]
        for rel in [rec["path"] for rec in cell["records"]] + traces:
            src = evidence_src / rel
            dst = out_dir / "evidence" / rel
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



"""dashboard: render the capability dashboard, a static site, from capabilities.yaml and evidence/.

``index.html`` is the matrix grouped by tier (one row per operation, one column per dtype, per
platform when the registry has more than one), each cell with its golden, generative and perf
badges, per-tier progress and filters (platform, tier, status, search; kept in the URL hash).
``cells/<slug>.html`` is one page per cell: its statuses and the evidence that decided them,
freshness, provenance, per-shape errors and ticks, the run history as inline SVG, known issues,
prompts, the golden kernel source and the generative attempts. Everything shown is read from the
registry and the records; nothing is curated here.

The code is split by concern: :mod:`dashboard_data` (what is shown), :mod:`dashboard_render` (HTML
and SVG), this module (command line and ``--serve``).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import math
import sys
from pathlib import Path
from typing import Any, Iterable

from asc_harness.store.cli import add_path_options, make_parser, resolve_paths, run_main
from asc_harness.report.dashboard_data import DEFAULT_STALE_DAYS, DashboardError, build_site_data, cell_slug
from asc_harness.report.dashboard_render import render_pipes_svg, render_series_svg, render_site, render_timeline_svg, write_site

__all__ = ["DashboardError", "build_site_data", "render_site", "write_site", "cell_slug", "render_series_svg", "render_pipes_svg",
           "render_timeline_svg", "main"]

PROG = "dashboard"
EXIT_CODES = """\
  0  the site was written (and, with --serve, served until Ctrl-C)
  2  cannot run: missing or invalid capabilities file, corrupt evidence record, bad option, an output
     folder it may not replace, or a port it cannot bind"""

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
    p = make_parser(PROG, __doc__, EXIT_CODES, statuses=False)
    add_path_options(p)
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="output folder (default: site/ at the repository root)")
    p.add_argument("--stale-days", type=_positive_float, default=DEFAULT_STALE_DAYS, metavar="N",
                   help=f"a cell whose newest record is older than this is stale (default: {DEFAULT_STALE_DAYS})")
    p.add_argument("--serve", action="store_true", help="after rendering, serve the site on 127.0.0.1")
    p.add_argument("--port", type=_port, default=8000, metavar="P", help="port for --serve (default: 8000)")
    return p


def _main(argv: Iterable[str] | None) -> int:
    args = _parser().parse_args(list(argv) if argv is not None else None)
    cap, evidence_dir, root = resolve_paths(args, need_evidence_inside=False)
    if args.evidence_dir is not None and not evidence_dir.is_dir():
        raise DashboardError(f"evidence folder not found: {evidence_dir}")
    out_dir = args.out if args.out is not None else root / "site"
    data = build_site_data(cap, evidence_dir, repo_root=root, stale_days=args.stale_days)
    out = write_site(data, out_dir)
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
    return 0


def main(argv: Iterable[str] | None = None) -> int:
    return run_main(_main, argv, PROG)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

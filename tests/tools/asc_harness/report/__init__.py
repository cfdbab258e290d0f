"""Reports: the static dashboard site (data, records, formatting, rendering, templates, static files) and
the capability matrix. Imports ``common``, ``store`` and ``run``; nothing imports it but the top-level
commands."""

/* Capability dashboard: filters (state kept in the URL hash) and copy buttons. No dependencies. */
(function () {
  "use strict";

  var KEYS = ["q", "platform", "tier", "status", "dim", "stale"];

  function $(id) { return document.getElementById(id); }
  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  function readState() {
    var params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    var st = {};
    KEYS.forEach(function (k) { st[k] = params.get(k) || ""; });
    return st;
  }

  function writeState(st) {
    var params = new URLSearchParams();
    KEYS.forEach(function (k) { if (st[k]) params.set(k, st[k]); });
    var hash = params.toString();
    var url = window.location.href.split("#")[0] + (hash ? "#" + hash : "");
    try { history.replaceState(null, "", url); } catch (e) { window.location.hash = hash; }
  }

  function copyText(text, button) {
    function done(ok) {
      if (!button) return;
      var old = button.textContent;
      button.textContent = ok ? "Copied" : "Copy failed";
      setTimeout(function () { button.textContent = old; }, 1400);
    }
    function fallback() {
      var ta = document.createElement("textarea");
      ta.value = text; ta.setAttribute("readonly", ""); ta.style.position = "fixed"; ta.style.opacity = "0";
      document.body.appendChild(ta); ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      done(ok);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  }

  all("button.copy[data-copy-target]").forEach(function (b) {
    b.addEventListener("click", function () {
      var el = $(b.getAttribute("data-copy-target"));
      if (el) copyText(el.textContent, b);
    });
  });

  var matrix = $("matrix");
  if (!matrix) return;  // cell pages stop here

  var controls = { q: $("f-q"), platform: $("f-platform"), tier: $("f-tier"), status: $("f-status"), dim: $("f-dim"), stale: $("f-stale") };
  var cells = all(".cell[data-cell]", matrix);
  var total = cells.length;

  function setControls(st) {
    controls.q.value = st.q;
    ["platform", "tier", "status", "dim"].forEach(function (k) {
      var sel = controls[k];
      sel.value = st[k];
      if (sel.value !== st[k]) { sel.value = ""; st[k] = ""; }  // unknown value in the URL
    });
    controls.stale.checked = st.stale === "1";
  }

  function getControls() {
    return {
      q: controls.q.value.trim(),
      platform: controls.platform.value,
      tier: controls.tier.value,
      status: controls.status.value,
      dim: controls.dim.value,
      stale: controls.stale.checked ? "1" : ""
    };
  }

  function cellMatches(cell, st, rowText, terms) {
    if (st.platform && cell.getAttribute("data-platform") !== st.platform) return false;
    if (st.stale && cell.getAttribute("data-stale") !== "1") return false;
    if (st.status) {
      var dims = st.dim ? [st.dim] : ["golden", "generative", "perf"];
      var any = dims.some(function (d) { return cell.getAttribute("data-" + d) === st.status; });
      if (!any) return false;
    }
    if (terms.length) {
      var text = rowText + " " + cell.getAttribute("data-search");
      for (var i = 0; i < terms.length; i++) if (text.indexOf(terms[i]) < 0) return false;
    }
    return true;
  }

  function apply(st) {
    var terms = st.q.toLowerCase().split(/\s+/).filter(Boolean);
    var cellFilter = !!(st.platform || st.status || st.stale || terms.length);
    var shown = 0;

    // Columns of other platforms are hidden.
    all("[data-platform]", matrix).forEach(function (el) {
      if (el.classList.contains("cell")) return;
      el.hidden = !!st.platform && el.getAttribute("data-platform") !== st.platform;
    });

    all("table.matrix", matrix).forEach(function (table) {
      var cols = all("col[data-platform]", table).filter(function (c) { return !c.hidden; }).length;
      table.style.minWidth = (240 + 250 * cols) + "px";
    });

    all("section.tier", matrix).forEach(function (sec) {
      var tierOk = !st.tier || sec.getAttribute("data-tier") === st.tier;
      var visibleRows = 0;
      all("tr.op-row", sec).forEach(function (row) {
        var rowText = row.getAttribute("data-search") || "";
        var rowCells = all(".cell[data-cell]", row);
        var matching = 0;
        rowCells.forEach(function (cell) {
          var ok = tierOk && cellMatches(cell, st, rowText, terms);
          cell.classList.toggle("dim", !ok);
          cell.setAttribute("aria-hidden", ok ? "false" : "true");
          if (ok) matching++;
        });
        var rowVisible = tierOk && (cellFilter ? matching > 0 : true);
        row.hidden = !rowVisible;
        if (rowVisible) visibleRows++;
        shown += rowVisible ? matching : 0;
      });
      sec.hidden = !tierOk || visibleRows === 0;
    });

    all(".tier-card").forEach(function (card) {
      card.classList.toggle("active", !!st.tier && card.getAttribute("data-tier-link") === st.tier);
    });
    $("visible-count").textContent = (shown === total ? total : shown + " of " + total) + " cell" + (total === 1 ? "" : "s") + (shown === total ? "" : " shown");
    $("visible-count").setAttribute("data-shown", String(shown));
    $("empty-state").hidden = shown > 0 || total === 0;
  }

  function update() {
    var st = getControls();
    writeState(st);
    apply(st);
  }

  function fromUrl() {
    var st = readState();
    setControls(st);
    apply(getControls());
  }

  controls.q.addEventListener("input", update);
  ["platform", "tier", "status", "dim", "stale"].forEach(function (k) { controls[k].addEventListener("change", update); });
  function reset() {
    setControls({ q: "", platform: "", tier: "", status: "", dim: "", stale: "" });
    update();
  }
  $("f-reset").addEventListener("click", reset);
  $("f-reset-2").addEventListener("click", reset);
  $("f-copy").addEventListener("click", function () { copyText(window.location.href, $("f-copy")); });
  all(".tier-card").forEach(function (card) {
    card.addEventListener("click", function (ev) {
      ev.preventDefault();
      var st = getControls();
      var t = card.getAttribute("data-tier-link");
      st.tier = st.tier === t ? "" : t;
      setControls(st);
      update();
    });
  });
  window.addEventListener("hashchange", fromUrl);
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== controls.q) { ev.preventDefault(); controls.q.focus(); }
  });
  fromUrl();
})();

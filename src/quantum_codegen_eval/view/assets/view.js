/* qce view: the pages of a static site opened from disk.
 * The data (window.QCE_DATA, and QCE.chunk for each problem's samples) came from reports whose
 * strings a completion may have written: everything is put into the page with textContent or
 * as attribute values set through the DOM, never parsed as HTML. */
(function () {
  "use strict";
  var D = window.QCE_DATA;
  var main = document.getElementById("main");
  var chunks = {}, requested = {};
  var SVG = "http://www.w3.org/2000/svg";
  var RUN_COLORS = ["#3366cc", "#dc7633", "#2e9e5b", "#a23fb0", "#c0392b", "#7f8c8d",
                    "#1abc9c", "#8e6c2b"];
  var STATUS_COLORS = { AC: "#2e9e5b", WA: "#d64541", RE: "#e67e22", TLE: "#8e44ad",
    MLE: "#6c3483", DLE: "#c0392b", UGE: "#b9770e", UME: "#a04000", CE: "#ca6f1e",
    FORMAT: "#95a5a6", JE: "#34495e" };

  // ------------------------------------------------------------ DOM helpers (text only)
  function el(tag, cls, children) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    add(n, children);
    return n;
  }
  function add(n, children) {
    if (children === undefined || children === null) return n;
    if (!Array.isArray(children)) children = [children];
    children.forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      n.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
    });
    return n;
  }
  function link(text, hash, cls) {
    var a = el("a", cls, text);
    a.href = "#" + hash;
    return a;
  }
  function svg(tag, attrs, parent) {
    var n = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, String(attrs[k])); });
    if (parent) parent.appendChild(n);
    return n;
  }
  function svgText(parent, x, y, text, attrs) {
    var t = svg("text", Object.assign({ x: x, y: y }, attrs || {}), parent);
    t.textContent = text;
    return t;
  }
  function pct(v) { return v === null || v === undefined ? "–" : (100 * v).toFixed(1) + "%"; }
  function num(v, d) { return v === null || v === undefined ? "–" : Number(v).toFixed(d); }
  function statusColor(st) { return STATUS_COLORS[st] || "#b7950b"; }
  function badge(st, extra) {
    var b = el("span", "badge", st + (extra ? " " + extra : ""));
    b.style.background = statusColor(st);
    return b;
  }
  function runColor(i) { return RUN_COLORS[i % RUN_COLORS.length]; }
  function runTag(i) {
    var t = el("span", "run-tag", D.runs[i].label);
    t.style.borderColor = runColor(i);
    return t;
  }
  function table(header, rows, cls) {
    var t = el("table", cls || "grid");
    var tr = el("tr");
    header.forEach(function (h) { tr.appendChild(el("th", null, h)); });
    t.appendChild(el("thead", null, tr));
    var tb = el("tbody");
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c) { row.appendChild(el("td", null, c)); });
      tb.appendChild(row);
    });
    t.appendChild(tb);
    return t;
  }
  function pre(text, cls) { return el("pre", cls || "msg", text); }

  // ------------------------------------------------------------ state in the address (#...)
  function state() {
    var h = location.hash.replace(/^#/, "");
    var q = new URLSearchParams(h.indexOf("?") >= 0 ? h.slice(h.indexOf("?") + 1) : "");
    return { page: (h.split("?")[0] || "summary"), q: q };
  }
  function go(page, params) {
    var q = new URLSearchParams();
    Object.keys(params || {}).forEach(function (k) {
      if (params[k] !== "" && params[k] !== null && params[k] !== undefined && params[k] !== false)
        q.set(k, params[k]);
    });
    var s = q.toString();
    location.hash = page + (s ? "?" + s : "");
  }

  // ------------------------------------------------------------ charts (inline SVG)
  function chartPassk(k) {
    var groups = [];
    D.runs.forEach(function (r) {
      Object.keys(r.passk).forEach(function (g) { if (groups.indexOf(g) < 0) groups.push(g); });
    });
    groups.sort(function (a, b) { return a === "all" ? 1 : b === "all" ? -1 : a < b ? -1 : 1; });
    var name = "pass@" + k, nr = D.runs.length;
    var bw = Math.max(6, Math.min(26, 160 / nr)), gw = Math.max(84, nr * bw + 24);
    var W = Math.max(300, 60 + groups.length * gw), H = 222, top = 34, base = 180;
    var s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, "class": "chart",
                         role: "img", "aria-label": name + " per " + D.runs[0].group_by });
    svgText(s, 4, 14, name + " per " + D.runs[0].group_by, { "class": "chart-title" });
    svgText(s, 4, 27, "whiskers: 95% bootstrap interval", { "class": "axis" });
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      var y = base - v * (base - top);
      svg("line", { x1: 40, x2: W - 4, y1: y, y2: y, "class": "gridline" }, s);
      svgText(s, 36, y + 4, Math.round(v * 100) + "%", { "text-anchor": "end", "class": "axis" });
    });
    groups.forEach(function (g, gi) {
      var x0 = 50 + gi * gw + (gw - nr * bw) / 2 - 12;
      D.runs.forEach(function (r, ri) {
        var cell = r.passk[g] && r.passk[g][name];
        var x = x0 + ri * bw;
        if (!cell) {
          svgText(s, x + bw / 2, base - 3, "–", { "text-anchor": "middle", "class": "axis" });
          return;
        }
        var y = base - cell[0] * (base - top);
        var bar = svg("rect", { x: x, y: y, width: bw - 2, height: Math.max(0, base - y),
                                fill: runColor(ri) }, s);
        svg("title", {}, bar).textContent = r.label + ", " + g + ": " + pct(cell[0]) +
          (cell[1] !== null ? " [" + pct(cell[1]) + ", " + pct(cell[2]) + "]" : "");
        if (cell[1] !== null) {
          var cx = x + (bw - 2) / 2, y1 = base - cell[1] * (base - top), y2 = base - cell[2] * (base - top);
          svg("line", { x1: cx, x2: cx, y1: y1, y2: y2, "class": "whisker" }, s);
          svg("line", { x1: cx - 3, x2: cx + 3, y1: y1, y2: y1, "class": "whisker" }, s);
          svg("line", { x1: cx - 3, x2: cx + 3, y1: y2, y2: y2, "class": "whisker" }, s);
        }
      });
      var fit = Math.floor(gw / 6.5);
      svgText(s, x0 + nr * bw / 2, base + 16, g.length > fit ? g.slice(0, fit - 1) + "…" : g,
              { "text-anchor": "middle", "class": "axis" });
    });
    return s;
  }

  function chartStacked(title, rows, cats, colorOf, note) {
    // rows: [{label, total, counts: {cat: n}}]; one horizontal bar per row, shares of its total
    var W = 560, rh = 24, left = 130, H = 40 + rows.length * rh + 22;
    var s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, "class": "chart",
                         role: "img", "aria-label": title });
    svgText(s, 4, 14, title, { "class": "chart-title" });
    rows.forEach(function (row, i) {
      var y = 26 + i * rh, x = left;
      svgText(s, left - 6, y + 15, row.label.length > 18 ? row.label.slice(0, 17) + "…" : row.label,
              { "text-anchor": "end", "class": "axis" });
      if (!row.total) { svgText(s, left, y + 15, note || "none", { "class": "axis" }); return; }
      cats.forEach(function (c) {
        var n = row.counts[c] || 0;
        if (!n) return;
        var w = (W - left - 10) * n / row.total;
        var r = svg("rect", { x: x, y: y, width: Math.max(0.5, w), height: rh - 6, fill: colorOf(c) }, s);
        svg("title", {}, r).textContent = row.label + ": " + c + " " + n + " (" + pct(n / row.total) + ")";
        if (w > 34) svgText(s, x + 3, y + 13, c.length * 6 < w - 4 ? c : c.slice(0, 3), { "class": "bar-label" });
        x += w;
      });
    });
    var lx = 4, ly = H - 6;
    cats.forEach(function (c) {
      if (!rows.some(function (r) { return r.counts[c]; })) return;
      svg("rect", { x: lx, y: ly - 9, width: 10, height: 10, fill: colorOf(c) }, s);
      svgText(s, lx + 13, ly, c, { "class": "axis" });
      lx += 20 + c.length * 6.2;
    });
    return s;
  }

  var CLASS_COLORS = ["#d64541", "#e67e22", "#8e44ad", "#b9770e", "#2980b9", "#16a085",
                      "#c0392b", "#7d3c98", "#34495e", "#95a5a6", "#5d6d7e"];
  function classColor(c) {
    var i = D.error_classes.indexOf(c);
    return CLASS_COLORS[(i < 0 ? D.error_classes.length : i) % CLASS_COLORS.length];
  }

  function chartRefinement() {
    var runs = D.runs.filter(function (r) { return r.refinement && r.refinement.success_by_round; });
    if (!runs.length) return null;
    var R = Math.max.apply(null, runs.map(function (r) { return r.refinement.success_by_round.length; }));
    var W = 420, H = 200, left = 44, top = 24, base = 160;
    var s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, "class": "chart",
                         role: "img", "aria-label": "refinement curve" });
    svgText(s, 4, 14, "Refinement: chains solved after each round", { "class": "chart-title" });
    var xs = function (i) { return left + (R > 1 ? i * (W - left - 20) / (R - 1) : 0); };
    [0, 0.5, 1].forEach(function (v) {
      var y = base - v * (base - top);
      svg("line", { x1: left, x2: W - 10, y1: y, y2: y, "class": "gridline" }, s);
      svgText(s, left - 4, y + 4, Math.round(v * 100) + "%", { "text-anchor": "end", "class": "axis" });
    });
    for (var i = 0; i < R; i++) svgText(s, xs(i), base + 16, "round " + i, { "text-anchor": "middle", "class": "axis" });
    runs.forEach(function (r) {
      var ri = D.runs.indexOf(r), pts = [];
      r.refinement.success_by_round.forEach(function (v, i) {
        if (v === null) return;
        var p = [xs(i), base - v * (base - top)];
        pts.push(p.join(","));
        var c = svg("circle", { cx: p[0], cy: p[1], r: 3.5, fill: runColor(ri) }, s);
        svg("title", {}, c).textContent = r.label + ", round " + i + ": " + pct(v);
      });
      svg("polyline", { points: pts.join(" "), fill: "none", stroke: runColor(ri), "stroke-width": 2 }, s);
    });
    return s;
  }

  // ------------------------------------------------------------ Summary
  function passkTable(passk) {
    var ks = [];
    Object.keys(passk).forEach(function (g) {
      Object.keys(passk[g]).forEach(function (n) { if (n.indexOf("pass@") === 0 && ks.indexOf(n) < 0) ks.push(n); });
    });
    var groups = Object.keys(passk).sort(function (a, b) { return a === "all" ? 1 : b === "all" ? -1 : a < b ? -1 : 1; });
    return table(["group", "problems"].concat(ks), groups.map(function (g) {
      return [g, String(passk[g].problems)].concat(ks.map(function (n) {
        var c = passk[g][n];
        if (!c) return "–";
        return pct(c[0]) + (c[1] !== null ? "  [" + pct(c[1]) + ", " + pct(c[2]) + "]" : "");
      }));
    }), "grid num");
  }

  function kv(pairs) {
    var dl = el("dl", "kv");
    pairs.forEach(function (p) {
      if (p[1] === null || p[1] === undefined || p[1] === "") return;
      dl.appendChild(el("dt", null, p[0]));
      dl.appendChild(el("dd", null, p[1]));
    });
    return dl;
  }

  function runCard(r, i) {
    var card = el("section", "card");
    var h = el("h2", null, [runTag(i), " ", r.benchmark + (r.config ? " (" + r.config + ")" : "")]);
    card.appendChild(h);
    card.appendChild(kv([["problems", String(r.problems)], ["predictions", String(r.predictions)],
      ["judged in", r.seconds !== null && r.seconds !== undefined ? r.seconds + " s" : null],
      ["report", r.path],
      ["unknown ids", r.unknown_ids ? String(r.unknown_ids) : null],
      ["unreadable lines", r.unreadable ? String(r.unreadable) : null]]));
    card.appendChild(el("h3", null, "pass@k per " + r.group_by));
    card.appendChild(passkTable(r.passk));
    Object.keys(r.passk_by || {}).forEach(function (name) {
      card.appendChild(el("h3", null, "pass@k per " + name));
      card.appendChild(passkTable(r.passk_by[name]));
    });
    if (r.ci_method) card.appendChild(el("p", "note", "Intervals: " + r.ci_method.method +
      (r.ci_method.n_boot ? " (" + r.ci_method.n_boot + " resamples)" : "") + "."));
    var extra = [];
    if (r.fidelity) extra.push(["mean fidelity", num(r.fidelity.mean, 4) + " over " + r.fidelity.samples + " samples the judge reported it for"]);
    if (r.similarity && r.similarity.codebleu !== null && r.similarity.codebleu !== undefined) extra.push(["CodeBLEU", num(r.similarity.codebleu, 3)]);
    if (r.similarity && r.similarity.rouge_l_f !== null && r.similarity.rouge_l_f !== undefined) extra.push(["ROUGE-L F", num(r.similarity.rouge_l_f, 3)]);
    Object.keys(r.hallucination || {}).forEach(function (k) {
      var v = r.hallucination[k];
      extra.push(["hallucination: " + k, typeof v === "number" && v < 1 && v > 0 ? num(v, 3) : String(v)]);
    });
    if (extra.length) { card.appendChild(el("h3", null, "Scores")); card.appendChild(kv(extra)); }
    card.appendChild(el("h3", null, "Error classes of failed samples (" + r.errors_total + ")"));
    var ecs = Object.keys(r.errors);
    card.appendChild(ecs.length ? table(["class", "samples", "share"], ecs.map(function (c) {
      return [c, String(r.errors[c]), pct(r.errors[c] / r.errors_total)];
    }), "grid num") : el("p", "note", "No failed samples."));
    card.appendChild(el("h3", null, "Provenance"));
    if (r.provenance) {
      var run = r.provenance.run || {};
      card.appendChild(kv([["judge signature", el("code", "sig", r.signature)],
        ["dataset commits", (r.provenance.signature.commits || []).join(", ") || "none"],
        ["judge options", JSON.stringify(r.provenance.signature.judge || {})],
        ["started", run.started], ["workers", run.workers === null ? null : String(run.workers)],
        ["python", run.python], ["platform", run.platform], ["data", run.data]]));
    } else {
      card.appendChild(el("p", "warn", "No provenance: " + r.provenance_problem));
    }
    return card;
  }

  function headline() {
    var box = el("section", "headline");
    D.runs.forEach(function (r, i) {
      var all = r.passk.all || {}, first = all["pass@1"];
      var failed = r.errors_total, total = 0;
      Object.keys(r.statuses).forEach(function (s) { total += r.statuses[s]; });
      var card = el("div", "head-card", [runTag(i), el("div", "head-bench", r.benchmark + (r.config ? " (" + r.config + ")" : ""))]);
      card.style.borderTopColor = runColor(i);
      card.appendChild(el("div", "big", first ? pct(first[0]) : "–"));
      card.appendChild(el("div", "note", "pass@1" + (first && first[1] !== null ? ", 95% interval " + pct(first[1]) + " to " + pct(first[2]) : "")));
      var p = link("", "problems", "head-line");
      p.textContent = r.problems + " problems · " + total + " samples · " + failed + " failed";
      card.appendChild(el("div", null, p));
      box.appendChild(card);
    });
    return box;
  }

  function pageSummary() {
    var page = el("div", "page");
    page.appendChild(headline());
    if (D.comparison && D.comparison.caveats.length) {
      var cv = el("div", "caveats", el("strong", null, "Caveats: these runs are not comparable in every respect."));
      var ul = el("ul");
      D.comparison.caveats.forEach(function (c) { ul.appendChild(el("li", null, c)); });
      cv.appendChild(ul);
      page.appendChild(cv);
    }
    var charts = el("section", "charts");
    var ks = [];
    D.runs.forEach(function (r) {
      Object.keys(r.passk.all || {}).forEach(function (n) {
        if (n.indexOf("pass@") === 0 && ks.indexOf(n.slice(5)) < 0) ks.push(n.slice(5));
      });
    });
    ks.forEach(function (k) { charts.appendChild(chartPassk(k)); });
    charts.appendChild(chartStacked("Error classes of failed samples (share of each run's failures)",
      D.runs.map(function (r) { return { label: r.label, total: r.errors_total, counts: r.errors }; }),
      D.error_classes, classColor, "no failed samples"));
    charts.appendChild(chartStacked("Verdict statuses (share of samples)",
      D.runs.map(function (r) {
        var t = 0; Object.keys(r.statuses).forEach(function (s) { t += r.statuses[s]; });
        return { label: r.label, total: t, counts: r.statuses };
      }), D.statuses.concat(Object.keys(D.runs[0].statuses).filter(function (s) { return D.statuses.indexOf(s) < 0; })),
      statusColor));
    var ref = chartRefinement();
    if (ref) charts.appendChild(ref);
    page.appendChild(charts);
    if (D.comparison && D.comparison.skipped) {
      page.appendChild(el("p", "note", D.comparison.skipped.replace(" (--allow-mismatch compares them anyway, with a caveat)", "")));
    } else if (D.comparison) {
      var cmp = el("section", "card wide");
      cmp.appendChild(el("h2", null, "Comparison (qce compare)"));
      D.comparison.tables.forEach(function (t) {
        cmp.appendChild(el("h3", null, t.title));
        cmp.appendChild(table(t.header, t.rows, "grid num"));
        t.notes.forEach(function (n) { cmp.appendChild(el("p", "note", n)); });
      });
      page.appendChild(cmp);
    }
    var cards = el("div", "cards");
    D.runs.forEach(function (r, i) { cards.appendChild(runCard(r, i)); });
    page.appendChild(cards);
    return page;
  }

  // ------------------------------------------------------------ Problems
  function cellRate(c) { return c ? c.correct / c.n : -1; }

  function filtered(q) {
    var group = q.get("group") || "", status = q.get("status") || "", bench = q.get("benchmark") || "";
    var text = (q.get("q") || "").toLowerCase(), differs = q.get("differs") === "1";
    var rows = [];
    D.problems.forEach(function (p, i) {
      if (group && p.group !== group) return;
      if (bench && p.benchmark.split(", ").indexOf(bench) < 0) return;
      if (differs && !p.differs) return;
      if (text && p.id.toLowerCase().indexOf(text) < 0) return;
      if (status && !p.cells.some(function (c) { return c && c.statuses[status]; })) return;
      rows.push(i);
    });
    var sort = q.get("sort") || "id", dir = q.get("dir") === "desc" ? -1 : 1;
    rows.sort(function (a, b) {
      var pa = D.problems[a], pb = D.problems[b], va, vb;
      if (sort === "group") { va = pa.group; vb = pb.group; }
      else if (sort.indexOf("run") === 0) { var ri = +sort.slice(3); va = cellRate(pa.cells[ri]); vb = cellRate(pb.cells[ri]); }
      else { va = pa.id; vb = pb.id; }
      if (va < vb) return -dir;
      if (va > vb) return dir;
      return pa.id < pb.id ? -1 : pa.id > pb.id ? 1 : 0;
    });
    return rows;
  }

  function params(q) { var o = {}; q.forEach(function (v, k) { o[k] = v; }); return o; }

  function select(label, name, values, q, allText) {
    var s = el("select");
    s.name = name;
    var o = el("option", null, allText); o.value = ""; s.appendChild(o);
    values.forEach(function (v) { var op = el("option", null, v); op.value = v; s.appendChild(op); });
    s.value = q.get(name) || "";
    s.addEventListener("change", function () { var p = params(q); p[name] = s.value; go("problems", p); });
    return el("label", null, [label + " ", s]);
  }

  function problemCell(c, pi, ri) {
    var td = el("td", "cell");
    if (!c) { td.appendChild(el("span", "none", "no samples")); return td; }
    var rate = el("span", "rate", c.correct + "/" + c.n);
    rate.title = c.correct + " of " + c.n + " samples accepted";
    td.appendChild(rate);
    Object.keys(c.statuses).forEach(function (st) { td.appendChild(badge(st, String(c.statuses[st]))); });
    td.title = D.runs[ri].label + ": " + c.correct + " of " + c.n + " accepted";
    return td;
  }

  function pageProblems(q) {
    var page = el("div", "page");
    var groups = [], benches = [];
    D.problems.forEach(function (p) {
      if (groups.indexOf(p.group) < 0) groups.push(p.group);
      p.benchmark.split(", ").forEach(function (b) { if (benches.indexOf(b) < 0) benches.push(b); });
    });
    groups.sort();
    var statuses = [];
    D.problems.forEach(function (p) { p.cells.forEach(function (c) {
      if (c) Object.keys(c.statuses).forEach(function (s) { if (statuses.indexOf(s) < 0) statuses.push(s); });
    }); });
    var bar = el("div", "filters");
    var search = el("input");
    search.type = "search"; search.placeholder = "problem id contains…"; search.value = q.get("q") || "";
    search.addEventListener("change", function () { var p = params(q); p.q = search.value; go("problems", p); });
    bar.appendChild(el("label", null, ["Find ", search]));
    if (benches.length > 1) bar.appendChild(select("Benchmark", "benchmark", benches, q, "all"));
    bar.appendChild(select("Group", "group", groups, q, "all"));
    bar.appendChild(select("Status", "status", statuses, q, "any"));
    if (D.runs.length > 1) {
      var cb = el("input"); cb.type = "checkbox"; cb.name = "differs"; cb.checked = q.get("differs") === "1";
      cb.addEventListener("change", function () { var p = params(q); p.differs = cb.checked ? "1" : ""; go("problems", p); });
      bar.appendChild(el("label", null, [cb, " differs between runs"]));
    }
    var rows = filtered(q);
    bar.appendChild(el("span", "count", "showing " + rows.length + " of " + D.problems.length + " problems"));
    page.appendChild(bar);
    page.appendChild(el("p", "note", "Each cell: accepted samples / samples, then the samples per verdict status. " +
      "Click a row to see its samples; click a column title to sort." +
      (D.runs.length > 1 ? " \"Differs\": the runs' accepted shares or statuses differ." : "")));
    var t = el("table", "grid problems");
    var hr = el("tr");
    var sort = q.get("sort") || "id", dir = q.get("dir") || "asc";
    function th(text, key) {
      var h = el("th", "sortable", text + (sort === key ? (dir === "desc" ? " ▼" : " ▲") : ""));
      h.addEventListener("click", function () {
        var p = params(q); p.sort = key; p.dir = sort === key && dir === "asc" ? "desc" : "asc"; go("problems", p);
      });
      return h;
    }
    hr.appendChild(th("problem", "id"));
    hr.appendChild(th(D.runs[0].group_by, "group"));
    D.runs.forEach(function (r, i) { var h = th("", "run" + i); h.insertBefore(runTag(i), h.firstChild); hr.appendChild(h); });
    t.appendChild(el("thead", null, hr));
    var tb = el("tbody");
    rows.forEach(function (pi) {
      var p = D.problems[pi], tr = el("tr", p.differs ? "differs" : null);
      tr.addEventListener("click", function (ev) { if (ev.target.tagName !== "A") go("problem", { i: pi }); });
      tr.appendChild(el("td", "pid", link(p.id, "problem?i=" + pi)));
      tr.appendChild(el("td", null, p.group));
      p.cells.forEach(function (c, ri) { tr.appendChild(problemCell(c, pi, ri)); });
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    page.appendChild(t);
    return page;
  }

  // ------------------------------------------------------------ one problem's samples
  function load(i) {
    if (chunks[i] || requested[i]) return;
    requested[i] = true;
    var s = document.createElement("script");
    s.src = "data/p" + Number(i) + ".js";
    s.onerror = function () { chunks[i] = { error: "could not load data/p" + i + ".js" }; render(); };
    document.body.appendChild(s);
  }
  window.QCE = { chunk: function (i, data) { chunks[i] = data; render(); } };

  function codeBlock(text, truncated) {
    var p = el("pre", "code");
    var c = el("code");
    window.QCEHighlight.completion(c, text);
    p.appendChild(c);
    var wrap = el("div", null, p);
    if (truncated) wrap.appendChild(el("p", "warn", "The report keeps the first 200,000 characters of this completion."));
    return wrap;
  }

  function sampleView(s, ri) {
    var box = el("div", "sample");
    var head = el("div", "sample-head", [runTag(ri), " sample " + s.sample + " ", badge(s.status)]);
    if (s.error_class) head.appendChild(el("span", "eclass", s.error_class));
    if (s.judge_limitation) head.appendChild(el("span", "warn", "judge limitation: " + s.judge_limitation));
    else if (s.judge_error) head.appendChild(el("span", "warn", "judge error"));
    box.appendChild(head);
    box.appendChild(kv([
      ["tests", s.tests[1] ? s.tests[0] + " of " + s.tests[1] + " passed" : null],
      ["fidelity", s.fidelity === null ? null : num(s.fidelity, 4)],
      ["CodeBLEU", s.codebleu === null ? null : num(s.codebleu, 3)],
      ["ROUGE-L F", s.rouge_l_f === null ? null : num(s.rouge_l_f, 3)],
      ["hallucinated APIs", s.hallucinated && s.hallucinated.length ? s.hallucinated.join(", ") : null],
      ["key", s.key], ["known problem", s.known_problem ? null : "no: this id names no problem of the benchmark"]]));
    if (s.message) { box.appendChild(el("h4", null, "Judge's message")); box.appendChild(pre(s.message)); }
    if (s.failing) {
      box.appendChild(el("h4", null, "First failing test: " + s.failing.name + (s.failing.status ? " (" + s.failing.status + ")" : "")));
      if (s.failing.message && s.failing.message !== s.message) box.appendChild(pre(s.failing.message));
      if (s.failing.expected || s.failing.got) box.appendChild(kv([["expected", s.failing.expected], ["got", s.failing.got]]));
    }
    box.appendChild(el("h4", null, s.rounds.length ? "Final answer (round " + (s.rounds.length - 1) + ")" : "Completion"));
    box.appendChild(s.code === null ? el("p", "note", "This report has no code (written before reports kept completions).")
      : codeBlock(s.code, s.code_truncated));
    if (s.rounds.length) {
      box.appendChild(el("h4", null, "Refinement rounds" + (s.first_ac_round !== null && s.first_ac_round !== undefined
        ? " (first accepted in round " + s.first_ac_round + ")" : " (never accepted)")));
      s.rounds.forEach(function (r, ri2) {
        var d = el("details", "round");
        d.open = ri2 < s.rounds.length - 1;  // the last round's answer is the final one above
        d.appendChild(el("summary", null, ["round " + r.round + " ", badge(r.status), r.error_class ? " " + r.error_class : ""]));
        if (r.message) { d.appendChild(el("h5", null, "Judge's message")); d.appendChild(pre(r.message)); }
        if (r.code !== null && r.code !== undefined) { d.appendChild(el("h5", null, "Code")); d.appendChild(codeBlock(r.code, false)); }
        if (r.feedback) { d.appendChild(el("h5", null, "Feedback given to the next round")); d.appendChild(pre(r.feedback, "msg feedback")); }
        box.appendChild(d);
      });
    }
    return box;
  }

  function pageProblem(q) {
    var page = el("div", "page");
    if (!D.problems.length) return add(page, el("p", null, "These runs hold no samples."));
    var i = Math.max(0, Math.min(D.problems.length - 1, parseInt(q.get("i") || "0", 10) || 0));
    var p = D.problems[i];
    var nav = el("div", "problem-nav");
    nav.appendChild(i > 0 ? link("← previous", "problem?i=" + (i - 1), "btn") : el("span", "btn off", "← previous"));
    nav.appendChild(el("h2", null, [p.id, el("span", "group", " " + D.runs[0].group_by + ": " + p.group)]));
    nav.appendChild(i + 1 < D.problems.length ? link("next →", "problem?i=" + (i + 1), "btn") : el("span", "btn off", "next →"));
    nav.appendChild(link("back to the problems", "problems", "btn"));
    page.appendChild(nav);
    var chunk = chunks[i];
    if (!chunk) { load(i); page.appendChild(el("p", "loading", "Loading the samples…")); return page; }
    if (chunk.error) return add(page, el("p", "warn", chunk.error));
    var numbers = [];
    chunk.runs.forEach(function (ss) { ss.forEach(function (s) { if (numbers.indexOf(s.sample) < 0) numbers.push(s.sample); }); });
    numbers.sort(function (a, b) { return a - b; });
    var pick = q.has("s") ? parseInt(q.get("s"), 10) : null;
    if (pick === null || numbers.indexOf(pick) < 0) {
      // the first sample that some run failed, else the first
      pick = numbers[0];
      for (var n = 0; n < numbers.length; n++) {
        if (chunk.runs.some(function (ss) { return ss.some(function (s) { return s.sample === numbers[n] && s.status !== "AC"; }); })) { pick = numbers[n]; break; }
      }
    }
    var chips = el("div", "chips");
    chips.appendChild(el("p", "note", "Samples by run (colour: status). Click one to see it beside the same sample of the other runs."));
    chunk.runs.forEach(function (ss, ri) {
      var row = el("div", "chip-row", runTag(ri));
      if (!ss.length) row.appendChild(el("span", "none", "no samples of this problem"));
      ss.forEach(function (s) {
        var c = link(String(s.sample), "problem?i=" + i + "&s=" + s.sample, "chip" + (s.sample === pick ? " on" : ""));
        c.style.background = statusColor(s.status);
        c.title = "sample " + s.sample + ": " + s.status;
        row.appendChild(c);
      });
      chips.appendChild(row);
    });
    page.appendChild(chips);
    var cols = el("div", "columns");
    chunk.runs.forEach(function (ss, ri) {
      var s = null;
      ss.forEach(function (x) { if (x.sample === pick && s === null) s = x; });
      cols.appendChild(s ? sampleView(s, ri) : el("div", "sample", [runTag(ri), el("p", "none", " no sample " + pick)]));
    });
    page.appendChild(cols);
    return page;
  }

  // ------------------------------------------------------------ the frame
  function render() {
    var st = state();
    var tabs = document.getElementById("tabs");
    tabs.textContent = "";
    [["summary", "Summary"], ["problems", "Problems"], ["problem", "Samples"]].forEach(function (t) {
      tabs.appendChild(link(t[1], t[0], "tab" + (st.page === t[0] ? " on" : "")));
    });
    var line = document.getElementById("runs-line");
    line.textContent = "";
    D.runs.forEach(function (r, i) { line.appendChild(runTag(i)); });
    var page = st.page === "problems" ? pageProblems(st.q) : st.page === "problem" ? pageProblem(st.q) : pageSummary();
    main.textContent = "";
    main.appendChild(page);
    main.setAttribute("data-page", st.page);
    main.setAttribute("data-rendered-ms", String(Math.round(performance.now())));
    document.title = "qce view: " + (st.page === "problem" && D.problems.length ? D.problems[
      Math.max(0, Math.min(D.problems.length - 1, parseInt(st.q.get("i") || "0", 10) || 0))].id + " – " : "") +
      D.labels.join(", ");
  }

  if (!D) {
    main.textContent = "data/summary.js did not load: open index.html from the folder qce view wrote.";
    return;
  }
  window.addEventListener("hashchange", function () { render(); window.scrollTo(0, 0); });
  render();
})();

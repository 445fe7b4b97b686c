// The assay report: the leaderboard (models ranked by a column), the full table (OpenCompass's layout),
// badges with their sentences, and the sample browser, whose data is read when a dataset is opened.
// Tables are drawn from the compact data in #assay-board; only what is shown is put into the DOM.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("assay-board").textContent);
  var MODELS = D.models, TEXTS = D.texts, EXTRAS = D.extras || {};
  var PAGE = 50, TABLE_ROWS = 100;
  // how long the page took to draw its tables, in milliseconds (read by the benchmarks)
  var timings = window.assayTimings = {};
  function timed(name, fn) {
    return function () {
      var t0 = performance.now();
      fn.apply(this, arguments);
      timings[name] = performance.now() - t0;
    };
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function $(id) { return document.getElementById(id); }
  // a value as the summary .json holds it (Python's repr of a float)
  function exact(v) {
    var a = Math.abs(v);
    if (v !== 0 && (a >= 1e16 || a < 1e-4)) {
      var m = v.toExponential().match(/^(-?[\d.]+)e([+-])(\d+)$/);
      return m[1] + "e" + m[2] + (m[3].length < 2 ? "0" : "") + m[3];
    }
    return Number.isInteger(v) ? v.toFixed(1) : String(v);
  }
  // v with d decimals as Python formats it: a value exactly halfway goes to the even neighbour
  // (toFixed would round it up: 28.125 is "28.12" in the summary's tables, not "28.13")
  function fixed(v, d) {
    var p = Math.pow(10, d), twice = v * p * 2;
    if (Number.isInteger(twice) && Math.abs(twice) % 2 === 1) {
      var low = Math.floor(Math.abs(v) * p), k = low % 2 === 0 ? low : low + 1;
      return (v < 0 ? "-" : "") + (k / p).toFixed(d);
    }
    return v.toFixed(d);
  }
  function two(v) { return fixed(v, 2); }
  function lower(s) { return String(s).toLowerCase(); }

  // ---- cells ---------------------------------------------------------------------------------------
  function intervalText(cell) {
    var t = TEXTS[cell[4]];
    if (cell[1] === null || cell[1] === undefined) return t;
    return t.replace("{lo}", two(cell[1])).replace("{hi}", two(cell[2]))
      .replace("{se}", cell[3] === null || cell[3] === undefined ? "" : ", se " + two(cell[3]));
  }
  // the sentences of a cell beyond its value and interval (as cell_notes in Python says them)
  function notesOf(cell, extra) {
    var lines = [];
    if (cell.length > 5) {
      lines.push(cell[5] ? "unscorable: " + TEXTS[cell[6]] : TEXTS[cell[6]]);
      if (cell.length > 7) lines.push("if all unscorable were wrong / right: " + two(cell[7]) + " / " + two(cell[8]));
    }
    return extra && extra.notes ? lines.concat(extra.notes) : lines;
  }
  function tipOf(cell, model, abbr, metric, extra) {
    if (cell[0] === null) return TEXTS[cell[1]];
    return [model + " · " + abbr + " · " + metric + " = " + exact(cell[0]), intervalText(cell)].concat(notesOf(cell, extra)).join("\n");
  }
  function notesLike(extra, prefix) {
    return (extra.notes || []).filter(function (n) { return n.indexOf(prefix) === 0; }).join("\n");
  }
  function badge(cls, label, title, key) {
    return '<button type="button" class="badge ' + cls + '" data-key="' + key + '" title="' + esc(title) +
      '" aria-label="' + esc(title) + '">' + esc(label) + "</button>";
  }
  function badgesOf(cell, extra, key) {
    var out = [];
    if (cell.length > 5 && cell[5]) {
      var range = cell.length > 7 ? " " + fixed(cell[7], 1) + "–" + fixed(cell[8], 1) : "";
      out.push(badge("unsc", "⚠" + cell[5] + range, notesOf(cell, null).join("\n"), key));
    }
    if (!extra) return out.length ? '<span class="badges">' + out.join("") + "</span>" : "";
    if (extra.audit) out.push(badge("audit", "≠", extra.audit, key));
    if (extra.tool_audit) out.push(badge("tool-audit", "≠ " + extra.tool_audit_name, extra.tool_audit, key));
    if (extra.gold) out.push(badge("gold", "ᵍ", notesLike(extra, "references from"), key));
    if (extra.marks) {
      var kinds = [], count = 0, counted = false;
      extra.marks.forEach(function (m) {
        if (kinds.indexOf(String(m.kind)) < 0) kinds.push(String(m.kind));
        if (typeof m.count === "number") { count += m.count; counted = true; }
      });
      out.push(badge("mark", "*" + kinds.join(", ") + (counted ? " " + count.toLocaleString("en-US") : ""), notesLike(extra, "* "), key));
    }
    if (extra.source) out.push(badge("source", extra.source, notesLike(extra, "from "), key));
    if (extra.judge) out.push(badge("judge", "⚖", "judge: " + extra.judge, key));
    return out.length ? '<span class="badges">' + out.join("") + "</span>" : "";
  }
  // one value's cell: the value, its interval, its badges, its rank interval (given as text)
  function cellHTML(cell, model, abbr, metric, key, rank) {
    var extra = key ? EXTRAS[key] : null;
    var tip = esc(tipOf(cell, model, abbr, metric, extra));
    if (cell[0] === null) return '<td class="miss" title="' + tip + '">-</td>';
    var ci = cell[1] !== null && cell[1] !== undefined ? '<span class="ci">[' + two(cell[1]) + ", " + two(cell[2]) + "]</span>" : "";
    return '<td class="num" title="' + tip + '"' + (key ? ' data-key="' + key + '"' : "") + '><span class="v" data-value="' +
      exact(cell[0]) + '">' + two(cell[0]) + "</span>" + ci + (rank || "") + badgesOf(cell, extra, key || "") + "</td>";
  }

  // ---- columns of the leaderboard ------------------------------------------------------------------
  function cellsOf(entry) { return entry.row !== undefined ? D.rows[entry.row].cells : entry.cells; }
  var COLUMNS = [];
  if (D.groups.length) {
    D.groups.forEach(function (g, i) {
      COLUMNS.push({ id: "g" + i, abbr: g.name, metric: g.metric, row: g.row, cells: cellsOf(g), group: g,
        inputs: g.inputs.map(function (inp, j) {
          return { id: "g" + i + "." + j, abbr: inp.dataset, metric: inp.metric, row: inp.row, cells: cellsOf(inp), sub: true };
        }) });
    });
  } else {
    D.rows.forEach(function (r, i) {
      if (r.placeholder || !r.dataset) return;
      COLUMNS.push({ id: "r" + i, abbr: r.dataset, metric: r.metric, row: i, cells: r.cells });
    });
  }
  var topLevel = {};
  COLUMNS.forEach(function (c) { topLevel[c.abbr] = true; });
  // every column a ranking can be by: the leaderboard's and each group's inputs, once each
  var RANKABLE = [], seen = {};
  COLUMNS.forEach(function (c) { [c].concat(c.inputs || []).forEach(function (x) {
    var k = x.abbr + "\u0001" + x.metric;
    if (!seen[k]) { seen[k] = true; RANKABLE.push(x); }
  }); });
  function findColumn(id) {
    for (var i = 0; i < RANKABLE.length; i++) if (RANKABLE[i].id === id) return RANKABLE[i];
    return null;
  }

  var state = { rankBy: null, sort: { by: "rank", dir: 1 }, open: {}, models: "", columns: "" };
  var select = $("rank-by");
  RANKABLE.forEach(function (c) {
    select.add(new Option(c.abbr + (c.metric ? " · " + c.metric : "") + (c.group ? " (group)" : ""), c.id));
  });
  if (D.rank_by) {
    RANKABLE.forEach(function (c) {
      if (state.rankBy === null && c.abbr === D.rank_by.dataset && c.metric === D.rank_by.metric) state.rankBy = c.id;
    });
  }
  if (state.rankBy === null && RANKABLE.length) state.rankBy = RANKABLE[0].id;
  if (state.rankBy !== null) select.value = state.rankBy;

  // the ranking of the models by one column: value order, equal values one rank (competition ranking)
  function ranking(col) {
    var order = MODELS.map(function (_, m) { return m; });
    var v = function (m) { var c = col.cells[m]; return c[0] === null ? null : c[0]; };
    order.sort(function (a, b) {
      var x = v(a), y = v(b);
      if (x === null && y === null) return a - b;
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x || a - b;
    });
    var rank = {}, tied = {}, prev = null, at = 0;
    order.forEach(function (m, i) {
      var x = v(m);
      if (x === null) { rank[m] = null; return; }
      if (prev === null || x !== prev) at = i + 1;
      else { tied[m] = true; tied[order[i - 1]] = true; }
      rank[m] = at; prev = x;
    });
    return { order: order, rank: rank, tied: tied };
  }
  // the rank intervals of a column, per model in the page's order ([rank, low, high, tier] or null), when computed
  function statRanking(col) {
    var r = D.rankings && D.rankings.rankings && D.rankings.rankings[col.abbr];
    if (!r || (r.metric && r.metric !== col.metric)) return null;
    return r;
  }
  function rankIntervalHTML(col, m) {
    var r = statRanking(col), e = r && r.ranks[m];
    if (!e) return "";
    var text = e[1] === e[2] ? String(e[1]) : e[1] + "–" + e[2];
    var tier = r.ties.filter(function (t) { return t.indexOf(MODELS[m]) >= 0; })[0];
    return '<span class="ri" title="' + Math.round(100 * r.confidence) + "% rank interval" +
      (tier ? "; tied (overlapping rank intervals) with " + esc(tier.filter(function (x) { return x !== MODELS[m]; }).join(", ")) : "") +
      '">rank ' + text + (tier ? " ≈" : "") + "</span>";
  }

  function visibleColumns() {
    var needle = lower(state.columns.trim()), out = [];
    COLUMNS.forEach(function (c) {
      // a group is shown when its name or one of its datasets' matches; its datasets, when it is open
      var matching = (c.inputs || []).filter(function (x) { return !needle || lower(x.abbr).indexOf(needle) >= 0; });
      if (!needle || lower(c.abbr).indexOf(needle) >= 0 || matching.length) out.push(c);
      // its inputs that are columns of their own (the groups of a group of groups) are not shown again
      if (state.open[c.id]) out = out.concat(matching.filter(function (x) { return !topLevel[x.abbr]; }));
    });
    return out;
  }
  function sortButton(by, label, current) {
    var mark = current.by === by ? (current.dir > 0 ? " ▴" : " ▾") : "";
    return '<button type="button" class="sort" data-sort="' + esc(by) + '" aria-label="sort by ' + esc(label) + '">' +
      esc(label) + mark + "</button>";
  }

  var drawBoard = timed("leaderboard", function () {
    var rankCol = findColumn(state.rankBy);
    var table = $("leaderboard");
    if (!rankCol) { table.innerHTML = ""; return; }
    var R = ranking(rankCol), cols = visibleColumns().filter(function (c) { return c !== rankCol; });
    cols.unshift(rankCol);  // the column ranked by comes first
    var by = statRanking(rankCol);
    var needle = lower(state.models.trim());
    var models = R.order.filter(function (m) { return !needle || lower(MODELS[m]).indexOf(needle) >= 0; });
    var s = state.sort;
    if (s.by === "model") {
      models.sort(function (a, b) { return s.dir * (MODELS[a] < MODELS[b] ? -1 : MODELS[a] > MODELS[b] ? 1 : 0); });
    } else if (s.by !== "rank") {
      var col = findColumn(s.by) || rankCol;
      models.sort(function (a, b) {
        var x = col.cells[a][0], y = col.cells[b][0];
        if (x === null && y === null) return R.order.indexOf(a) - R.order.indexOf(b);
        if (x === null) return 1;
        if (y === null) return -1;
        return s.dir * (y - x) || R.order.indexOf(a) - R.order.indexOf(b);
      });
    } else if (s.dir < 0) {
      models.reverse();
    }
    var head = ['<th class="c-rank">' + sortButton("rank", "rank", s) + '</th><th class="c-model">' + sortButton("model", "model", s) + "</th>"];
    cols.forEach(function (c) {
      var open = c.group && c.inputs.length ? '<button type="button" class="open" data-open="' + c.id + '" aria-expanded="' +
        (state.open[c.id] ? "true" : "false") + '" aria-label="' + (state.open[c.id] ? "close " : "open ") + esc(c.abbr) +
        ' into its datasets">' + (state.open[c.id] ? "▾" : "▸") + "</button>" : "";
      var cls = (c.id === state.rankBy ? "ranked " : "") + (c.sub ? "sub" : "grp");
      head.push('<th class="' + cls + '" data-col="' + c.id + '" title="' + esc(c.abbr + " · " + c.metric) + '">' + open +
        sortButton(c.id, c.abbr, s) + '<span class="metric">' + esc(c.metric) + "</span></th>");
    });
    var body = models.map(function (m) {
      var r = R.rank[m];
      var rank = r === null ? "-" : r + (R.tied[m] ? "=" : "");
      var tds = ['<td class="c-rank" data-rank="' + (r === null ? "" : r) + '">' + rank + '</td><th class="c-model" scope="row">' +
        esc(MODELS[m]) + "</th>"];
      cols.forEach(function (c) {
        tds.push(cellHTML(c.cells[m], MODELS[m], c.abbr, c.metric, c.row !== undefined ? c.row + ":" + m : null,
          rankIntervalHTML(c, m)).replace("<td ", '<td data-col="' + c.id + '" '));
      });
      return '<tr data-model="' + esc(MODELS[m]) + '">' + tds.join("") + "</tr>";
    });
    table.innerHTML = "<thead><tr>" + head.join("") + "</tr></thead><tbody>" + body.join("") + "</tbody>";
    $("board-count").textContent = models.length + " of " + MODELS.length + " models · " + cols.length + " columns";
    var note = $("rank-note");
    if (by) {
      note.textContent = "Rank intervals of " + rankCol.abbr + ": " + Math.round(100 * by.confidence) + "% over " + by.rounds +
        " bootstrap rounds (seed " + by.seed + "); ≈ marks models whose rank intervals overlap the tier's leader's" +
        (by.note ? ". " + by.note : "") + ".";
    } else {
      note.textContent = "No rank intervals for " + rankCol.abbr + " (" + (D.rankings ? "not a column they are computed for" :
        "not computed for this report; assay report --ranks computes them") + "): ranks here follow the values alone.";
    }
  });

  // ---- the full table ------------------------------------------------------------------------------
  var tableState = { sort: { by: null, dir: 1 }, datasets: "", models: "", page: 0, drawn: false };
  var TEXT_COLUMNS = ["dataset", "version", "metric", "mode"];
  var drawTable = timed("table", function () {
    tableState.drawn = true;
    var s = tableState.sort, needle = lower(tableState.datasets.trim()), mneedle = lower(tableState.models.trim());
    var models = MODELS.map(function (_, m) { return m; }).filter(function (m) {
      return !mneedle || lower(MODELS[m]).indexOf(mneedle) >= 0;
    });
    var rows = D.rows.map(function (_, i) { return i; }).filter(function (i) {
      var r = D.rows[i];
      return !needle || lower(r.dataset).indexOf(needle) >= 0 || lower(r.metric).indexOf(needle) >= 0;
    });
    if (s.by !== null) {
      if (TEXT_COLUMNS.indexOf(s.by) >= 0) {
        rows.sort(function (a, b) {
          var x = String(D.rows[a][s.by]), y = String(D.rows[b][s.by]);
          return s.dir * (x < y ? -1 : x > y ? 1 : 0) || a - b;
        });
      } else {
        var m = +s.by;
        rows.sort(function (a, b) {
          var x = D.rows[a].cells[m][0], y = D.rows[b].cells[m][0];
          if (x === null && y === null) return a - b;
          if (x === null) return 1;
          if (y === null) return -1;
          return s.dir * (y - x) || a - b;
        });
      }
    }
    // a page of rows at a time: a table of a thousand rows × a hundred models is drawn a hundred rows at a time
    var total = rows.length, pages = Math.max(1, Math.ceil(total / TABLE_ROWS));
    tableState.page = Math.min(tableState.page, pages - 1);
    var first = tableState.page * TABLE_ROWS;
    rows = rows.slice(first, first + TABLE_ROWS);
    var head = TEXT_COLUMNS.map(function (c) { return "<th>" + sortButton(c, c, s) + "</th>"; });
    models.forEach(function (m) { head.push("<th>" + sortButton(String(m), MODELS[m], s) + "</th>"); });
    var body = rows.map(function (i) {
      var r = D.rows[i];
      var tds = ["<td>" + esc(r.dataset) + "</td><td>" + esc(r.version) + "</td><td>" + esc(r.metric) + "</td><td>" + esc(r.mode) + "</td>"];
      models.forEach(function (m) { tds.push(cellHTML(r.cells[m], MODELS[m], r.dataset, r.metric, i + ":" + m)); });
      return '<tr data-row="' + i + '"' + (r.placeholder ? ' class="sep"' : "") + ">" + tds.join("") + "</tr>";
    });
    $("full-table").innerHTML = "<thead><tr>" + head.join("") + "</tr></thead><tbody>" + body.join("") + "</tbody>";
    $("table-count").textContent = total + " of " + D.rows.length + " rows · " + models.length + " of " + MODELS.length + " models";
    $("table-pager").hidden = pages < 2;
    $("table-page").textContent = "rows " + (total ? first + 1 : 0) + "–" + (first + rows.length) + " of " + total;
    $("table-prev").disabled = tableState.page === 0;
    $("table-next").disabled = tableState.page >= pages - 1;
  });
  $("table-prev").addEventListener("click", function () { tableState.page--; drawTable(); });
  $("table-next").addEventListener("click", function () { tableState.page++; drawTable(); });

  function toggleSort(current, by) {
    if (current.by === by) current.dir = -current.dir;
    else { current.by = by; current.dir = 1; }
  }
  $("leaderboard").addEventListener("click", function (ev) {
    var t = ev.target.closest("button");
    if (!t) return;
    if (t.classList.contains("sort")) { toggleSort(state.sort, t.getAttribute("data-sort")); drawBoard(); focusAgain("leaderboard", t); }
    else if (t.classList.contains("open")) {
      var id = t.getAttribute("data-open");
      state.open[id] = !state.open[id];
      drawBoard();
      focusAgain("leaderboard", t);
    }
  });
  $("full-table").addEventListener("click", function (ev) {
    var t = ev.target.closest("button.sort");
    if (!t) return;
    toggleSort(tableState.sort, t.getAttribute("data-sort"));
    drawTable();
    focusAgain("full-table", t);
  });
  // after a table is drawn again, the keyboard stays on the button it used
  function focusAgain(table, old) {
    var attr = old.hasAttribute("data-sort") ? "data-sort" : "data-open";
    var again = $(table).querySelector("button[" + attr + '="' + old.getAttribute(attr).replace(/"/g, '\\"') + '"]');
    if (again) again.focus();
  }
  function debounce(fn) {
    var timer = null;
    return function () { clearTimeout(timer); timer = setTimeout(fn, 120); };
  }
  // the forest plot of the column ranked by, where one is drawn (else the default column's stays)
  function showForest() {
    var col = findColumn(state.rankBy), figures = document.querySelectorAll("figure.forest");
    var match = Array.prototype.some.call(figures, function (f) { return col && f.getAttribute("data-abbr") === col.abbr; });
    if (!match) return;
    Array.prototype.forEach.call(figures, function (f) { f.hidden = f.getAttribute("data-abbr") !== col.abbr; });
  }
  select.addEventListener("change", function () {
    state.rankBy = select.value; state.sort = { by: "rank", dir: 1 }; drawBoard(); showForest();
  });
  $("filter-models").addEventListener("input", debounce(function () { state.models = $("filter-models").value; drawBoard(); }));
  $("filter-columns").addEventListener("input", debounce(function () { state.columns = $("filter-columns").value; drawBoard(); }));
  $("filter-datasets").addEventListener("input", debounce(function () {
    tableState.datasets = $("filter-datasets").value; tableState.page = 0; drawTable();
  }));
  $("filter-table-models").addEventListener("input", debounce(function () { tableState.models = $("filter-table-models").value; drawTable(); }));

  function show(view) {
    Array.prototype.forEach.call(document.querySelectorAll(".view-tab"), function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-view") === view ? "true" : "false");
    });
    $("board-view").hidden = view !== "board";
    $("table-view").hidden = view !== "table";
    if (view === "table" && !tableState.drawn) drawTable();
  }
  Array.prototype.forEach.call(document.querySelectorAll(".view-tab"), function (b) {
    b.addEventListener("click", function () { show(b.getAttribute("data-view")); });
  });
  window.addEventListener("beforeprint", function () { if (!tableState.drawn) drawTable(); });

  // ---- badges: their sentences on click (hover shows the title) --------------------------------------
  var popover = $("popover"), popKey = null;
  function closePopover() { popover.hidden = true; popKey = null; }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.badge");
    if (!b) {
      if (!ev.target.closest("#popover")) closePopover();
      return;
    }
    var key = b.getAttribute("data-key");
    if (popKey === key && !popover.hidden) { closePopover(); return; }
    var extra = EXTRAS[key] || {}, parts = key.split(":"), row = D.rows[+parts[0]], model = MODELS[+parts[1]];
    var html = "<p><b>" + esc(model) + " · " + esc(row.dataset) + " · " + esc(row.metric) + "</b></p><ul>" +
      notesOf(row.cells[+parts[1]], extra).map(function (n) { return "<li>" + esc(n) + "</li>"; }).join("") + "</ul>";
    if (extra.audit_differ) {
      html += '<p><a href="#samples" class="audit-link" data-dataset="' + esc(row.dataset) + '" data-model="' + esc(model) +
        '">show the samples read differently</a></p>';
    }
    if (extra.tool_audit_differ) {
      html += '<p><a href="#samples" class="audit-link" data-rel="tool" data-dataset="' + esc(row.dataset) + '" data-model="' +
        esc(model) + '">show the samples ' + esc(extra.tool_audit_name) + ' reads differently</a></p>';
    }
    popover.innerHTML = html + '<button type="button" class="close">close</button>';
    var box = b.getBoundingClientRect();
    popover.style.left = Math.max(4, Math.min(window.innerWidth - 380, box.left + window.scrollX)) + "px";
    popover.style.top = (box.bottom + window.scrollY + 4) + "px";
    popover.hidden = false;
    popKey = key;
    var link = popover.querySelector("a, button");
    if (link) link.focus();
  });
  popover.addEventListener("click", function (ev) {
    if (ev.target.closest("button.close")) { closePopover(); return; }
    var link = ev.target.closest("a.audit-link");
    if (!link) return;
    ev.preventDefault();
    closePopover();
    openAudit(link.getAttribute("data-dataset"), link.getAttribute("data-model"), link.getAttribute("data-rel") || "audit");
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") closePopover(); });

  // ---- the sample browser ------------------------------------------------------------------------
  function verdict(v) {
    if (v === null || v === undefined) return '<span class="na" title="no correctness recorded">n/a</span>';
    if (v >= 1) return '<span class="ok">right</span>';
    if (v <= 0) return '<span class="bad">wrong</span>';
    return '<span class="part" title="share of runs right">' + (100 * v).toFixed(0) + "%</span>";
  }
  function isRight(v) { return v !== null && v !== undefined && v >= 0.5; }
  function isWrong(v) { return v !== null && v !== undefined && v < 0.5; }
  var RELATIONS = {
    any: function () { return true; },
    a_right_b_wrong: function (a, b) { return isRight(a) && isWrong(b); },
    a_wrong_b_right: function (a, b) { return isWrong(a) && isRight(b); },
    both_right: function (a, b) { return isRight(a) && isRight(b); },
    both_wrong: function (a, b) { return isWrong(a) && isWrong(b); },
    a_better: function (a, b) { return a !== null && b !== null && a > b; },
    b_better: function (a, b) { return a !== null && b !== null && a < b; },
    differ: function (a, b) { return a !== b; }
  };

  // a dataset's data: embedded in the page, else its <script> file beside the page (read once, when opened);
  // a dataset whose models' columns are packed (compressed, base64) is unpacked once, when first opened
  var chunks = {}, waiting = {};
  // a side file hands its dataset over by its name: window.assaySamples(name, data)
  var byFile = {};
  (D.samples || []).forEach(function (s, i) { if (s.file) byFile[s.file] = i; });
  function settle(i, ok, value) {
    var cbs = waiting[i] || [];
    delete waiting[i];
    if (ok) chunks[i] = value;
    cbs.forEach(function (cb) { cb[ok ? 0 : 1](value); });
  }
  window.assaySamples = function (name, data) {
    var i = byFile[name];
    if (i === undefined || chunks[i]) return;
    unpack(data, function (ds) { settle(i, true, ds); }, function (why) { settle(i, false, why); });
  };
  // JSON's false, 0, "", null, [] and {} are what the report takes as no reference
  function blank(r) {
    return !r || (typeof r === "object" && Object.keys(r).length === 0);
  }
  function inflate(b64) {
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var k = 0; k < bin.length; k++) bytes[k] = bin.charCodeAt(k);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text();
  }
  // each model's columns: the number of samples, then the JSON of ids, ref, raw, ext and ok, one a line
  function unpack(ds, done, fail) {
    if (!ds.packed) { done(ds); return; }
    if (typeof DecompressionStream === "undefined") {
      fail("this browser cannot decompress the samples (it lacks DecompressionStream)");
      return;
    }
    Promise.all(ds.packed.map(inflate)).then(function (texts) {
      var cols = texts.map(function (t) { return t.split("\n").map(function (line) { return JSON.parse(line); }); });
      var refs = cols.length ? cols[0][2].slice() : [];
      for (var m = 1; m < cols.length; m++) {
        var left = 0;
        for (var j = 0; j < refs.length; j++) if (blank(refs[j])) { refs[j] = cols[m][2][j]; left++; }
        if (!left) break;
      }
      var out = {};
      Object.keys(ds).forEach(function (k) { if (k !== "packed") out[k] = ds[k]; });
      out.ids = cols.length ? cols[0][1] : [];
      out.ref = refs;
      out.raw = cols.map(function (c) { return c[3]; });
      out.ext = cols.map(function (c) { return c[4]; });
      out.ok = cols.map(function (c) { return c[5]; });
      done(out);
    }, function (e) { fail("could not unpack the samples: " + e); });
  }
  function loadChunk(i, cb, fail) {
    if (chunks[i]) { cb(chunks[i]); return; }
    if (waiting[i]) { waiting[i].push([cb, fail]); return; }
    waiting[i] = [[cb, fail]];
    var el = $("samples-" + i);
    if (el) {
      unpack(JSON.parse(el.textContent), function (ds) { settle(i, true, ds); }, function (why) { settle(i, false, why); });
      return;
    }
    var file = D.side + "/" + D.samples[i].file + ".js";
    var s = document.createElement("script");
    s.src = encodeURIComponent(D.side) + "/" + encodeURIComponent(D.samples[i].file) + ".js";
    s.onerror = function () { settle(i, false, "could not read " + file + ": keep this page's folder beside it"); };
    document.head.appendChild(s);
  }

  function Browser(root, ds) {
    this.root = root;
    this.ds = ds;
    this.page = 0;
    this.matches = [];
    this.lower = null; // lower-cased search text per sample, built on first search
    var self = this;
    var q = function (sel) { return root.querySelector(sel); };
    this.selA = q(".sel-a");
    this.selB = q(".sel-b");
    this.rel = q(".sel-rel");
    this.search = q(".search");
    this.count = q(".count");
    this.body = q("tbody");
    this.pageInfo = q(".page-info");
    var head = q("thead tr");
    ds.models.forEach(function (m, i) {
      self.selA.add(new Option(m, String(i)));
      self.selB.add(new Option(m, String(i)));
      var th = document.createElement("th");
      th.textContent = m;
      head.appendChild(th);
    });
    if (!ds.audit) this.rel.querySelector("option[value=audit]").remove();
    if (!ds.tool) this.rel.querySelector("option[value=tool]").remove();
    if (ds.models.length > 1) this.selB.value = "1";
    var timer = null;
    var update = function () { self.page = 0; self.filter(); };
    this.selA.addEventListener("change", update);
    this.selB.addEventListener("change", update);
    this.rel.addEventListener("change", update);
    this.search.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(update, 150);
    });
    q(".prev").addEventListener("click", function () { if (self.page > 0) { self.page--; self.render(); } });
    q(".next").addEventListener("click", function () {
      if ((self.page + 1) * PAGE < self.matches.length) { self.page++; self.render(); }
    });
    this.filter();
  }
  Browser.prototype.text = function (i) {
    if (this.lower === null) {
      var ds = this.ds, out = new Array(ds.n);
      for (var j = 0; j < ds.n; j++) {
        var parts = [ds.ids[j], ds.ref[j]];
        for (var m = 0; m < ds.models.length; m++) parts.push(ds.raw[m][j], ds.ext[m][j]);
        out[j] = parts.join("\u0001").toLowerCase();
      }
      this.lower = out;
    }
    return this.lower[i];
  };
  // the samples whose reply model m's corrected extractor reads differently: index -> position in its audit
  // (with key "tool": the samples the other tool's own extraction reads differently from the postprocessors)
  function auditIndex(ds, m, key) {
    var audit = ds[key || "audit"] && ds[key || "audit"][m], out = {};
    if (!audit) return out;
    for (var k = 0; k < audit.samples.length; k++) out[audit.samples[k]] = k;
    return out;
  }
  Browser.prototype.filter = function () {
    var ds = this.ds, a = +this.selA.value, b = +this.selB.value;
    var fn = RELATIONS[this.rel.value] || RELATIONS.any;
    if (this.rel.value === "audit" || this.rel.value === "tool") {
      var differs = auditIndex(ds, a, this.rel.value);
      fn = function (x, y, i) { return Object.prototype.hasOwnProperty.call(differs, i); };
    }
    var needle = this.search.value.trim().toLowerCase();
    var okA = ds.ok[a], okB = ds.ok[b], out = [];
    for (var i = 0; i < ds.n; i++) {
      if (!fn(okA[i], okB[i], i)) continue;
      if (needle && this.text(i).indexOf(needle) < 0) continue;
      out.push(i);
    }
    this.matches = out;
    this.count.textContent = String(out.length);
    this.render();
  };
  Browser.prototype.render = function () {
    var ds = this.ds, start = this.page * PAGE, rows = [];
    var end = Math.min(this.matches.length, start + PAGE);
    if (!this.audits) {
      this.audits = [];
      this.tools = [];
      for (var k = 0; k < ds.models.length; k++) {
        this.audits.push(auditIndex(ds, k));
        this.tools.push(auditIndex(ds, k, "tool"));
      }
    }
    for (var r = start; r < end; r++) {
      var i = this.matches[r];
      var cells = ["<td>" + esc(ds.ids[i]) + "</td>", "<td><pre>" + esc(ds.ref[i]) + "</pre></td>"];
      for (var m = 0; m < ds.models.length; m++) {
        var fix = "", at = this.audits[m][i];
        if (at !== undefined) {
          fix = '<div class="fix" title="the corrected extractor\'s reading (not the official one)">corrected: ' +
            verdict(ds.audit[m].ok[at]) + ' <span class="ext">' + esc(ds.audit[m].ext[at]) + "</span></div>";
        }
        var other = this.tools[m][i];
        if (other !== undefined) {
          var tool = ds.tool[m];
          fix += '<div class="tool-reading" title="' + esc(tool.name) + '\'s own reading (assay\'s is the one above)">' + esc(tool.name) +
            ": " + verdict(tool.ok[other]) + ' <span class="ext">' + esc(tool.ext[other]) + "</span></div>";
        }
        cells.push("<td>" + verdict(ds.ok[m][i]) + ' <span class="ext" title="extracted answer">' +
          esc(ds.ext[m][i]) + "</span>" + fix + "<pre>" + esc(ds.raw[m][i]) + "</pre></td>");
      }
      rows.push('<tr data-index="' + i + '">' + cells.join("") + "</tr>");
    }
    this.body.innerHTML = rows.join("");
    var pages = Math.max(1, Math.ceil(this.matches.length / PAGE));
    this.pageInfo.textContent = "page " + (this.page + 1) + " of " + pages;
  };

  var browsers = {};
  function open(el, then) {
    var key = el.getAttribute("data-index");
    if (browsers[key]) { if (then) then(browsers[key]); return; }
    el.classList.add("loading");
    loadChunk(+key, function (ds) {
      el.classList.remove("loading");
      if (!browsers[key]) browsers[key] = new Browser(el, ds);
      el.setAttribute("data-loaded", "true");
      if (then) then(browsers[key]);
    }, function (why) {
      el.classList.remove("loading");
      el.querySelector("tbody").innerHTML = '<tr><td colspan="2" class="note">' + esc(why) + "</td></tr>";
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("details.ds"), function (el) {
    if (el.open) open(el);
    el.addEventListener("toggle", function () { if (el.open) open(el); });
  });
  var sampleFilter = $("filter-samples");
  if (sampleFilter) {
    sampleFilter.addEventListener("input", debounce(function () {
      var needle = lower(sampleFilter.value.trim());
      Array.prototype.forEach.call(document.querySelectorAll("details.ds"), function (d) {
        d.hidden = !!needle && lower(d.getAttribute("data-dataset")).indexOf(needle) < 0;
      });
    }));
  }
  // the audit's samples: the dataset's browser, filtered to model's replies read differently
  function openAudit(name, model, rel) {
    var el = null;
    Array.prototype.forEach.call(document.querySelectorAll("details.ds"), function (d) {
      if (d.getAttribute("data-dataset") === name) el = d;
    });
    if (!el) return;
    el.hidden = false;
    el.open = true;
    open(el, function (b) {
      var m = b.ds.models.indexOf(model);
      if (m >= 0) b.selA.value = String(m);
      b.rel.value = rel || "audit";
      b.search.value = "";
      b.page = 0;
      b.filter();
      el.scrollIntoView();
    });
  }

  drawBoard();
})();

// Sample browser of the assay report: filters run over compact column arrays,
// only the current page of rows is ever put into the DOM.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("assay-data").textContent);
  var PAGE = 50;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
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
    ds.models.forEach(function (m, i) {
      self.selA.add(new Option(m, String(i)));
      self.selB.add(new Option(m, String(i)));
    });
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
  function auditIndex(ds, m) {
    var audit = ds.audit && ds.audit[m], out = {};
    if (!audit) return out;
    for (var k = 0; k < audit.samples.length; k++) out[audit.samples[k]] = k;
    return out;
  }
  Browser.prototype.filter = function () {
    var ds = this.ds, a = +this.selA.value, b = +this.selB.value;
    var fn = RELATIONS[this.rel.value] || RELATIONS.any;
    if (this.rel.value === "audit") {
      var differs = auditIndex(ds, a);
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
      for (var k = 0; k < ds.models.length; k++) this.audits.push(auditIndex(ds, k));
    }
    for (var r = start; r < end; r++) {
      var i = this.matches[r];
      var cells = ['<td>' + esc(ds.ids[i]) + "</td>", "<td><pre>" + esc(ds.ref[i]) + "</pre></td>"];
      for (var m = 0; m < ds.models.length; m++) {
        var fix = "", at = this.audits[m][i];
        if (at !== undefined) {
          fix = '<div class="fix" title="the corrected extractor\'s reading (not the official one)">corrected: ' +
            verdict(ds.audit[m].ok[at]) + ' <span class="ext">' + esc(ds.audit[m].ext[at]) + "</span></div>";
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
  var open = function (el) {
    var key = el.getAttribute("data-index");
    if (!browsers[key]) browsers[key] = new Browser(el, DATA.datasets[+key]);
    return browsers[key];
  };
  Array.prototype.forEach.call(document.querySelectorAll("details.ds"), function (el) {
    if (el.open) open(el);
    el.addEventListener("toggle", function () { if (el.open) open(el); });
  });
  // a leaderboard note of the extraction audit: its dataset's browser, filtered to the samples read differently
  Array.prototype.forEach.call(document.querySelectorAll("a.audit-link"), function (link) {
    link.addEventListener("click", function (ev) {
      var name = link.getAttribute("data-dataset"), model = link.getAttribute("data-model");
      var el = null;
      Array.prototype.forEach.call(document.querySelectorAll("details.ds"), function (d) {
        if (d.getAttribute("data-dataset") === name) el = d;
      });
      if (!el) return;
      ev.preventDefault();
      el.open = true;
      var b = open(el), m = b.ds.models.indexOf(model);
      if (m >= 0) b.selA.value = String(m);
      b.rel.value = "audit";
      b.search.value = "";
      b.page = 0;
      b.filter();
      el.scrollIntoView();
    });
  });
})();

"""The HTML viewer's script: constant, and the only code the page runs.

It reads the index (``referee-index``), draws the evals or one run (``#run=N``),
and loads a run's data when it is opened: from the page itself
(``referee-run-N``) or from its file beside the page, which calls
``referee.load(N, data)``. Text reaches the page through ``textContent`` only.
"""

SCRIPT = r"""
(function () {
  "use strict";
  var index = JSON.parse(document.getElementById("referee-index").textContent);
  var view = document.getElementById("view");
  var PAGE = 25, MARKS = 12;
  var MARK = {p: "\u2713", v: "~", f: "\u2717", e: "!", n: "\u2013", "-": "\u00b7"};
  var WORD = {p: "pass", v: "pass (vacuous)", f: "fail", e: "error", n: "not graded", "-": "absent"};
  var LABEL = {pass: "PASS", fail: "FAIL", error: "ERROR", not_graded: "NOT GRADED"};
  var state = {evalText: "", config: "", status: "", text: "", shown: PAGE};
  var loaded = {}, waiting = {}, current = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function link(href, cls, text) { var a = el("a", cls, text); a.href = href; return a; }
  function lower(text) { return String(text || "").toLowerCase(); }

  window.referee = {
    load: function (number, data) {
      loaded[number] = data;
      var callbacks = waiting[number] || [];
      delete waiting[number];
      callbacks.forEach(function (callback) { callback(data); });
    }
  };

  function fetchRun(number, callback) {
    if (loaded[number]) { callback(loaded[number]); return; }
    var inline = document.getElementById("referee-run-" + number);
    if (inline) { loaded[number] = JSON.parse(inline.textContent); callback(loaded[number]); return; }
    (waiting[number] = waiting[number] || []).push(callback);
    if (waiting[number].length > 1 || !index.files) { return; }
    var script = document.createElement("script");
    // The folder's name is the page's (the user's -o): encoded, so that a "#" or "?" in
    // it is part of the path, not a fragment or a query.
    script.src = encodeURIComponent(index.files) + "/data-" + number + ".js";
    script.onerror = function () {
      view.textContent = "";
      add(view, el("p", "problem", "The data of this run (" + script.src + ") could not be read: keep the " +
                   "folder " + index.files + " beside the page."));
    };
    document.body.appendChild(script);
  }

  // ------------------------------------------------------------------ filters

  function runShown(run) {
    if (state.config && run.c !== state.config) { return false; }
    if (state.status === "failing" && run.s === "PASS") { return false; }
    if (state.status === "passing" && run.s !== "PASS") { return false; }
    return true;
  }
  function evalShown(ev) {
    var wanted = lower(state.evalText);
    if (wanted && lower(ev.id).indexOf(wanted) < 0 && lower(ev.name).indexOf(wanted) < 0 &&
        lower("eval-" + ev.id).indexOf(wanted) < 0) { return false; }
    return !state.text || assertionsShown(ev).length > 0;
  }
  function assertionsShown(ev) {
    var wanted = lower(state.text);
    return ev.assertions.map(function (pair, at) { return at; }).filter(function (at) {
      var pair = ev.assertions[at];
      return !wanted || lower(pair[0] + " " + pair[1]).indexOf(wanted) >= 0;
    });
  }
  function counted(run) { return run.r === "" || run.r === "primary"; }
  function configsOf(runs) {
    var order = [];
    runs.forEach(function (n) { var c = index.runs[n].c; if (order.indexOf(c) < 0) { order.push(c); } });
    var rank = function (c) { return c === index.primary ? 0 : c === index.baseline ? 1 : 2; };
    return order.sort(function (a, b) { return rank(a) - rank(b) || order.indexOf(a) - order.indexOf(b); });
  }
  function failingFirst(a, b) {
    var ra = index.runs[a], rb = index.runs[b];
    return (ra.s === "PASS") - (rb.s === "PASS") || a - b;
  }

  // ------------------------------------------------------------------ the evals

  function renderList() {
    current = null;
    document.body.classList.remove("viewing-run");
    view.textContent = "";
    var groups = index.evals.map(function () { return []; });
    index.runs.forEach(function (run, n) { if (runShown(run)) { groups[run.e].push(n); } });
    var order = index.evals.map(function (ev, at) { return at; }).filter(function (at) {
      return groups[at].length > 0 && evalShown(index.evals[at]);
    });
    var weight = function (at) {
      var runs = groups[at].map(function (n) { return index.runs[n]; });
      if (runs.some(function (r) { return counted(r) && r.s !== "PASS"; })) { return 0; }
      return runs.some(function (r) { return r.s !== "PASS"; }) ? 1 : 2;
    };
    order.sort(function (a, b) { return weight(a) - weight(b) || a - b; });
    var runs = order.reduce(function (sum, at) { return sum + groups[at].length; }, 0);
    document.getElementById("f-count").textContent = order.length + " eval" + (order.length === 1 ? "" : "s") +
      ", " + runs + " run" + (runs === 1 ? "" : "s");
    order.slice(0, state.shown).forEach(function (at) { add(view, evalCard(index.evals[at], groups[at])); });
    if (order.length > state.shown) {
      var more = add(view, el("button", "more", "show " + Math.min(PAGE, order.length - state.shown) +
                              " more evals (" + (order.length - state.shown) + " not shown)"));
      more.addEventListener("click", function () { state.shown += PAGE; renderList(); });
    }
    if (!order.length) { add(view, el("p", "empty", "No run matches the filters.")); }
  }

  function evalCard(ev, runs) {
    var card = el("section", "eval");
    var failing = runs.some(function (n) { return index.runs[n].s !== "PASS"; });
    if (failing) { card.className += " has-failure"; }
    add(card, el("h2", null, "eval " + ev.id + (ev.name ? " \u00b7 " + ev.name : "")));
    if (ev.hints.length) {
      var hints = add(card, el("ul", "hints"));
      ev.hints.forEach(function (hint) { add(hints, el("li", null, "hint: " + (hint[0] ? hint[0] + ": " : "") + hint[1])); });
    }
    var configs = configsOf(runs);
    add(card, sideBySide(ev, runs, configs));
    var columns = add(card, el("div", "columns"));
    configs.forEach(function (config) {
      var column = add(columns, el("div", "column"));
      var mine = runs.filter(function (n) { return index.runs[n].c === config; }).sort(failingFirst);
      var passed = mine.filter(function (n) { return index.runs[n].s === "PASS"; }).length;
      add(column, el("h3", null, config + roleWord(index.runs[mine[0]].r) + ": " + passed + " of " + mine.length +
                     " passed"));
      var list = add(column, el("ul", "runs"));
      var item = function (n) {
        var run = index.runs[n];
        var entry = add(list, el("li"));
        add(entry, el("span", "badge " + run.s.toLowerCase(), run.s));
        add(entry, document.createTextNode(" "));
        add(entry, link("#run=" + n, "run-link", "run " + run.n + " \u00b7 gate " + run.g[0] + "/" + run.g[1]));
      };
      // The first runs (failures first) are drawn; the rest on request, so that opening
      // the page draws a few hundred runs however many the evals hold.
      mine.slice(0, PAGE).forEach(item);
      if (mine.length > PAGE) {
        var rest = add(column, el("button", "more", "show the other " + (mine.length - PAGE) + " runs"));
        rest.addEventListener("click", function () { mine.slice(PAGE).forEach(item); column.removeChild(rest); });
      }
    });
    return card;
  }

  function roleWord(role) {
    return role === "primary" ? " (primary)" : role === "baseline" ? " (baseline: context)" :
      role === "context" ? " (context)" : "";
  }

  function sideBySide(ev, runs, configs) {
    var table = el("table", "side-by-side");
    var head = add(add(table, el("thead")), el("tr"));
    add(head, el("th", null, "assertion"));
    configs.forEach(function (config) { add(head, el("th", null, config)); });
    var body = add(table, el("tbody"));
    assertionsShown(ev).forEach(function (at) {
      var row = add(body, el("tr"));
      add(row, el("td", "assertion-text", ev.assertions[at][0] + " " + ev.assertions[at][1]));
      configs.forEach(function (config) {
        var cell = add(row, el("td", "marks"));
        var mine = runs.filter(function (n) { return index.runs[n].c === config; });
        var good = mine.filter(function (n) { return "pv".indexOf(index.runs[n].o.charAt(at)) >= 0; }).length;
        add(cell, el("span", "tally", good + "/" + mine.length + " "));
        mine.slice(0, MARKS).forEach(function (n) {
          var letter = index.runs[n].o.charAt(at) || "-";
          var mark = add(cell, link("#run=" + n, "mark o-" + letter, MARK[letter]));
          mark.title = "run " + index.runs[n].n + ": " + WORD[letter];
        });
        if (mine.length > MARKS) { add(cell, el("span", "tally", " +" + (mine.length - MARKS))); }
      });
    });
    return table;
  }

  // ------------------------------------------------------------------ one run

  function renderRun(number, target) {
    var run = index.runs[number];
    if (!run) { view.textContent = ""; add(view, el("p", "problem", "There is no run " + number + ".")); return; }
    if (current === number) { jump(target); return; }
    current = number;
    document.body.classList.add("viewing-run");
    view.textContent = "";
    var page = add(view, el("article", "run-view " + run.s.toLowerCase()));
    add(page, link("#", "back", "\u2190 all runs"));
    var title = add(page, el("h2"));
    add(title, el("span", "badge " + run.s.toLowerCase(), run.s));
    add(title, document.createTextNode(" " + run.p));
    var ev = index.evals[run.e];
    add(page, el("p", "meta", "eval " + ev.id + (ev.name ? " \u00b7 " + ev.name : "") + " \u00b7 " + run.c +
                 roleWord(run.r) + " \u00b7 run " + run.n + " \u00b7 gate " + run.g[0] + "/" + run.g[1]));
    var body = add(page, el("div", "loading", "loading the run\u2026"));
    fetchRun(number, function (data) {
      if (current !== number) { return; }
      body.className = "run-body";
      body.textContent = "";
      fillRun(body, number, data);
      jump(target);
    });
  }

  function fillRun(body, number, data) {
    var cited = citedLines(data);
    if (data.prompt) {
      var prompt = add(body, el("section", "prompt"));
      add(prompt, el("h3", null, "Prompt"));
      add(prompt, el("pre", "text", data.prompt));
    }
    if (data.response !== null) {
      var response = add(body, el("section", "response"));
      add(response, el("h3", null, "Response \u00b7 " + data.files[data.response].name));
      add(response, fileTable(data, data.response, cited, number));
    }
    if (data.timing.length) {
      var timing = add(body, el("section", "timing"));
      add(timing, el("h3", null, "Timing and tokens"));
      var table = add(timing, el("table", "timing"));
      var names = add(add(table, el("thead")), el("tr")), values = add(add(table, el("tbody")), el("tr"));
      data.timing.forEach(function (pair) {
        add(names, el("th", null, pair[0]));
        add(values, el("td", null, pair[1]));
      });
    }
    var heading = add(body, el("h3", null, "Assertions (failures first)"));
    heading.className = "assertions-head";
    var list = add(add(body, el("section", "assertions")), el("ol", "assertions"));
    data.assertions.forEach(function (item) { add(list, assertion(item, number)); });
    data.files.forEach(function (file, at) {
      if (at === data.response) { return; }
      var section = add(body, el("section", "file"));
      add(section, el("h3", null, file.name + (file.from ? " (each line with its place in " + data.sources.join(", ") + ")" : "")));
      add(section, fileTable(data, at, cited, number));
    });
    if (data.claims.length) {
      var claims = add(add(body, el("section", "claims")), el("ul", "claims"));
      data.claims.forEach(function (c) {
        add(claims, el("li", c[0] ? "verified" : "unverified", (c[0] ? "\u2713 " : "\u2717 ") + c[1] + " \u00b7 " + c[2]));
      });
    }
    if (data.problems.length) {
      var problems = add(add(body, el("section", "problems")), el("ul"));
      data.problems.forEach(function (p) { add(problems, el("li", null, "warning: " + p)); });
    }
  }

  function assertion(item, number) {
    var node = el("li", "assertion " + item.outcome + (item.vacuous ? " vacuous" : ""));
    node.id = "a-" + item.key;
    var head = add(node, el("div", "head"));
    add(head, el("span", "badge " + item.outcome, LABEL[item.outcome] + (item.vacuous ? " ~" : "")));
    add(head, el("span", "key", " " + item.key + " "));
    add(head, el("span", "text", item.text));
    add(node, el("div", "meta", "precision " + item.precision + " \u00b7 method " + item.method +
                 " \u00b7 evidence from " + item.source));
    item.notes.forEach(function (note) { add(node, el("div", "note", note)); });
    add(node, el("pre", "evidence", item.evidence));
    if (item.check) {
      var check = add(node, el("div", "check"));
      add(check, el("code", null, item.check));
      add(check, el("span", "loc", " " + item.rules));
    }
    if (item.places.length) {
      var places = add(node, el("div", "places", "evidence at: "));
      item.places.forEach(function (place) {
        if (place.at) { add(places, link("#run=" + number + "&line=" + place.at[0] + ":" + place.at[1], "place", place.label)); }
        else { add(places, el("span", "place unshown", place.label)); }
        add(places, document.createTextNode(" "));
      });
    }
    return node;
  }

  function citedLines(data) {
    var found = {};
    data.assertions.forEach(function (item) {
      item.places.forEach(function (place) {
        if (!place.at) { return; }
        var key = place.at[0] + ":" + place.at[1];
        (found[key] = found[key] || []).push(item);
      });
    });
    return found;
  }

  function fileTable(data, at, cited, number) {
    var file = data.files[at];
    var table = el("table", "lines");
    var body = add(table, el("tbody"));
    function lineRow(line, text, from) {
      var row = add(body, el("tr"));
      row.id = "l-" + at + "-" + line;
      var by = cited[at + ":" + line];
      if (file.from) {
        add(row, el("td", "source", from ? data.sources[from[0]] + ":" + from[1] : ""));
      }
      add(row, el("td", "number", line));
      add(row, el("td", "code", text));
      var tags = add(row, el("td", "cited-by"));
      if (by) {
        row.className = "cited" + (by.some(function (i) { return i.outcome === "fail" || i.outcome === "error"; }) ? " cited-failure" : "");
        by.forEach(function (item) { add(tags, link("#run=" + number + "&assertion=" + encodeURIComponent(item.key), "tag " + item.outcome, item.key)); });
      }
    }
    file.lines.forEach(function (text, i) { lineRow(i + 1, text, file.from ? file.from[i] : null); });
    if (file.more) { add(add(body, el("tr")), el("td", "more", "\u2026 and " + file.more + " more lines")); }
    // The lines cited among those not shown, each at its own number, so evidence lands on it.
    (file.past || []).forEach(function (row) { lineRow(row[0], row[1], row[2]); });
    return table;
  }

  function jump(target) {
    if (!target) { window.scrollTo(0, 0); return; }
    var node = document.getElementById(target);
    if (!node) { return; }
    Array.prototype.forEach.call(document.querySelectorAll(".target"), function (old) { old.classList.remove("target"); });
    node.classList.add("target");
    node.scrollIntoView({block: "center"});
  }

  // ------------------------------------------------------------------ routing

  function route() {
    var hash = location.hash.replace(/^#/, "");
    var params = {};
    hash.split("&").forEach(function (part) {
      var pair = part.split("=");
      if (pair[0]) { params[pair[0]] = decodeURIComponent(pair.slice(1).join("=")); }
    });
    if (params.run === undefined) { renderList(); return; }
    var target = params.line ? "l-" + params.line.replace(":", "-") : params.assertion ? "a-" + params.assertion : null;
    renderRun(parseInt(params.run, 10), target);
  }

  function bind(id, key) {
    document.getElementById(id).addEventListener("input", function (event) {
      state[key] = event.target.value;
      state.shown = PAGE;
      if (location.hash && location.hash !== "#") { location.hash = ""; } else { renderList(); }
    });
  }
  bind("f-eval", "evalText");
  bind("f-config", "config");
  bind("f-status", "status");
  bind("f-text", "text");
  window.addEventListener("hashchange", route);
  route();
})();
"""

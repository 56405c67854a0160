(function () {
  "use strict";
  var root = document.documentElement;
  var errors = [];
  function fail(message) {
    errors.push(String(message));
    root.setAttribute("data-lf-errors", errors.join(" | "));
  }
  window.addEventListener("error", function (e) { fail(e.message || e); });
  try { init(); } catch (e) { fail(e && e.stack ? e.stack : e); }

  function init() {
    var data = JSON.parse(document.querySelector('script[type="application/json"]').textContent);
    var P = data.prefix, tasks = data.tasks, ax = data.axis, NS = "http://www.w3.org/2000/svg";
    var names = data.strategies.map(function (s) { return s.name; });
    var index = new Map(tasks.map(function (t, i) { return [t.id, i]; }));
    // Element ids hold what XML can: other control characters became U+FFFD (GraphvizText).
    var xmlIndex = new Map();
    tasks.forEach(function (t, i) {
      var safe = t.id.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd");
      if (!xmlIndex.has(safe)) xmlIndex.set(safe, i);
    });
    function taskNamed(id) { var i = index.get(id); return i !== undefined ? i : xmlIndex.get(id); }
    var elems = tasks.map(function () { return []; });
    var owner = new WeakMap();
    function own(el, i) { elems[i].push(el); owner.set(el, i); }

    // The task graph: nodes by task id, edges by "<P>dep-<d>-<i>" / "<P>violation-<d>-<i>".
    var dagFrame = document.querySelector("." + P + "dag-frame");
    var dagSvg = dagFrame.querySelector("svg");
    var dagNode = tasks.map(function () { return null; });
    dagSvg.querySelectorAll("g.node").forEach(function (g) {
      var i = taskNamed(g.id);
      if (i !== undefined) { dagNode[i] = g; own(g, i); }
    });
    var edgesOf = tasks.map(function () { return []; });
    var edgeId = /^(?:dep|violation)-(\d+)-(\d+)$/;
    dagSvg.querySelectorAll("g.edge").forEach(function (g) {
      var m = g.id.indexOf(P) === 0 ? edgeId.exec(g.id.slice(P.length)) : null;
      if (m) { edgesOf[+m[1]].push(g); edgesOf[+m[2]].push(g); }
    });

    // The Gantt panels: bars "<P><strategy>-task-<id>"; the other panels (the baseline, the plan:
    // data-panel="<key>", data.panels) "<P><key>-task-<id>".
    var panels = Array.prototype.slice.call(document.querySelectorAll("." + P + "panel"));
    var extras = (data.panels || []).map(function (e) { return e.key; });
    function keyOf(panel) { return panel.getAttribute("data-strategy") || panel.getAttribute("data-panel"); }
    var bars = names.concat(extras).map(function () { return tasks.map(function () { return null; }); });
    panels.forEach(function (panel) {
      var s = panel.hasAttribute("data-strategy") ? names.indexOf(keyOf(panel))
        : names.length + extras.indexOf(keyOf(panel));
      var head = P + keyOf(panel) + "-task-";
      panel.querySelectorAll("g.node").forEach(function (g) {
        if (g.id.indexOf(head) !== 0) return;
        var i = taskNamed(g.id.slice(head.length));
        if (i !== undefined) { bars[s][i] = g; own(g, i); }
      });
    });
    // A strategy's panel is shown when its box is checked; the other panels always are.
    function isShown(panel) {
      return !panel.hasAttribute("data-strategy") || shown[names.indexOf(panel.getAttribute("data-strategy"))];
    }
    document.querySelectorAll("[data-task]").forEach(function (el) { own(el, +el.getAttribute("data-task")); });

    var violated = names.map(function () { return new Map(); });
    data.strategies.forEach(function (s, k) {
      s.violations.forEach(function (v) {
        if (!violated[k].has(v[0])) violated[k].set(v[0], []);
        violated[k].get(v[0]).push(v[1]);
      });
    });

    // MARK: text
    function ms(us) {
      var sign = us < 0 ? "−" : "", a = Math.abs(us), whole = Math.floor(a / 1000), frac = a % 1000;
      var s = String(whole);
      if (frac) s += "." + String(frac).padStart(3, "0").replace(/0+$/, "");
      return sign + s;
    }
    function signed(us) { return (us > 0 ? "+" : us < 0 ? "" : "±") + ms(us); }
    var shortEscapes = { "\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f" };
    function visible(s) {
      return String(s).replace(/[\u0000-\u001f\u007f-\u009f]/g, function (c) {
        return shortEscapes[c] || "\\u{" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0") + "}";
      });
    }
    var entities = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
    function h(s) { return visible(s).replace(/[&<>"']/g, function (c) { return entities[c]; }); }
    function thread(t) { return t === 0 ? "main" : "worker-" + t; }

    // MARK: the strategy toggle
    var shown = names.map(function () { return true; });
    document.querySelectorAll("input." + P + "toggle").forEach(function (box) {
      box.addEventListener("change", function () {
        var k = names.indexOf(box.value);
        shown[k] = box.checked;
        document.querySelectorAll('[data-strategy="' + box.value + '"]').forEach(function (el) {
          if (el.classList.contains(P + "strategy-card")) el.classList.toggle(P + "off", !box.checked);
          else el.classList.toggle(P + "hidden", !box.checked);
        });
        if (selected >= 0) showCard(selected);
        applyView();
      });
    });

    // MARK: the card
    var card = document.getElementById(P + "card");
    function chips(list) {
      if (!list.length) return "<span class=\"" + P + "note\">none</span>";
      return list.map(function (j) {
        return "<span class=\"" + P + "chip\" data-go=\"" + j + "\">" + h(tasks[j].id) + "</span>";
      }).join("");
    }
    function showCard(i) {
      var t = tasks[i];
      var facts = ["cost " + ms(t.cost) + " ms", "tier " + t.tier + " (priority " + t.priority + ")"];
      if (t.added) facts.push("added: not in the baseline");
      if (t.removed) facts.push("removed: only in the baseline");
      if (t.main) facts.push("main thread only");
      if (t.firstFrame) facts.push("needed by the first frame");
      if (t.critical) facts.push("on the critical path");
      var out = "<button type=\"button\" class=\"" + P + "close\" title=\"close\">×</button>";
      out += "<h3>" + (t.firstFrame ? "★ " : "") + h(t.id) + "</h3><div>" + facts.join(" · ") + "</div>";
      out += "<table class=\"" + P + "table\"><thead><tr><th>strategy</th><th>thread</th><th>ready</th>"
        + "<th>start</th><th>end</th><th>wait</th></tr></thead><tbody>";
      names.forEach(function (name, k) {
        if (!shown[k] || !t.runs[k]) return;
        var r = t.runs[k];
        out += "<tr><td>" + name + "</td><td>" + thread(r[0]) + "</td><td>" + ms(r[1]) + "</td><td>"
          + ms(r[2]) + "</td><td>" + ms(r[3]) + "</td><td>" + ms(r[2] - r[1]) + "</td></tr>";
        (violated[k].get(i) || []).forEach(function (d) {
          out += "<tr><td colspan=\"6\" class=\"" + P + "viol\">" + name + " breaks a dependency: starts at "
            + ms(r[2]) + " ms, before " + h(tasks[d].id) + " ends (" + ms(tasks[d].runs[k][3]) + " ms)</td></tr>";
        });
      });
      (data.panels || []).forEach(function (e, k) {
        var r = t.more && t.more[k];
        if (!r) return;
        out += "<tr><td>" + h(e.label) + "</td><td>" + thread(r[0]) + "</td><td>" + ms(r[1]) + "</td><td>"
          + ms(r[2]) + "</td><td>" + ms(r[3]) + "</td><td>" + ms(r[2] - r[1]) + "</td></tr>";
      });
      out += "</tbody></table>";
      out += "<div>depends on (" + t.deps.length + "):</div><div class=\"" + P + "chips\">" + chips(t.deps) + "</div>";
      out += "<div>needed by (" + t.dependents.length + "):</div><div class=\"" + P + "chips\">"
        + chips(t.dependents) + "</div>";
      if (t.slack !== undefined) {
        out += "<div>slack under " + h(data.whatIf) + ": " + (t.slackCapped ? "≥ " : "") + ms(t.slack)
          + " ms — the cost can grow this much before the first frame moves. Half the cost: first frame "
          + signed(-t.gain[0]) + " ms, launch complete " + signed(-t.gain[1]) + " ms.</div>";
      }
      card.innerHTML = out;
      card.hidden = false;
    }

    // MARK: selection and hover
    var selected = -1, hovered = -1;
    function mark(i, cls, on) { if (i >= 0) elems[i].forEach(function (el) { el.classList.toggle(cls, on); }); }
    function relate(i, on) {
      var t = tasks[i];
      t.deps.concat(t.dependents).forEach(function (j) { if (dagNode[j]) dagNode[j].classList.toggle(P + "rel", on); });
      edgesOf[i].forEach(function (e) { e.classList.toggle(P + "rel", on); });
      dagSvg.classList.toggle(P + "focus", on);
    }
    function reveal(i) {
      var node = dagNode[i];
      if (!node) return;
      var r = node.getBoundingClientRect(), f = dagFrame.getBoundingClientRect();
      dagFrame.scrollLeft += r.left - f.left - f.width / 2 + r.width / 2;
      dagFrame.scrollTop += r.top - f.top - f.height / 2 + r.height / 2;
    }
    function select(i, fromHash) {
      if (selected >= 0) { mark(selected, P + "sel", false); relate(selected, false); }
      selected = i;
      if (i < 0) {
        card.hidden = true;
        root.removeAttribute("data-lf-selected");
        if (location.hash) history.replaceState(null, "", location.pathname + location.search);
        return;
      }
      mark(i, P + "sel", true);
      relate(i, true);
      showCard(i);
      reveal(i);
      root.setAttribute("data-lf-selected", tasks[i].id);
      var hash = "#task=" + encodeURIComponent(tasks[i].id);
      if (!fromHash && location.hash !== hash) history.replaceState(null, "", hash);
    }
    function taskOf(target) {
      var el = target && target.closest ? target.closest("g.node, [data-task]") : null;
      return el && owner.has(el) ? owner.get(el) : -1;
    }
    document.addEventListener("mouseover", function (e) {
      var i = taskOf(e.target);
      if (i === hovered) return;
      mark(hovered, P + "hover", false);
      hovered = i;
      mark(i, P + "hover", true);
      if (i >= 0) showCard(i);
      else if (!card.contains(e.target)) { if (selected >= 0) showCard(selected); else card.hidden = true; }
    });
    var dragged = false;  // the click that ends a drag (a pan or a span) selects nothing and clears nothing
    window.addEventListener("pointerdown", function () { dragged = false; }, true);
    document.addEventListener("click", function (e) {
      if (e.target.closest("." + P + "close")) { select(-1); return; }
      var chip = e.target.closest("[data-go]");
      if (chip) { select(+chip.getAttribute("data-go")); return; }
      if (dragged) return;
      var i = taskOf(e.target);
      if (i >= 0) select(i);
    });
    var find = document.getElementById(P + "find");
    find.addEventListener("change", function () {
      var i = index.get(find.value);
      if (i !== undefined) select(i);
    });
    // MARK: search: a substring (any case) or /regex/ highlights the matching tasks in every panel
    var search = document.getElementById(P + "search"), found = document.getElementById(P + "found");
    var matches = [];
    function matcher(text) {
      var m = /^\/(.*)\/([a-z]*)$/.exec(text);
      if (m) {
        try { var re = new RegExp(m[1], m[2].indexOf("i") >= 0 ? m[2] : m[2] + "i"); }
        catch (e) { return null; }
        return function (id) { return re.test(id); };
      }
      var needle = text.toLowerCase();
      return function (id) { return id.toLowerCase().indexOf(needle) >= 0; };
    }
    function runSearch() {
      matches.forEach(function (i) { mark(i, P + "match", false); });
      matches = [];
      var text = search.value;
      var test = text ? matcher(text) : null;
      search.classList.toggle(P + "invalid", text !== "" && !test);
      if (test) tasks.forEach(function (t, i) { if (test(t.id)) matches.push(i); });
      matches.forEach(function (i) { mark(i, P + "match", true); });
      document.querySelectorAll("svg").forEach(function (svg) {
        svg.classList.toggle(P + "searching", matches.length > 0);
      });
      found.textContent = !text ? "" : !test ? "invalid regex" : matches.length + " of " + tasks.length + " tasks";
      root.setAttribute("data-lf-matches", String(matches.length));
    }
    search.addEventListener("input", runSearch);

    function fromHash() {
      var m = /^#task=(.*)$/.exec(location.hash);
      if (!m) return;
      var id;
      try { id = decodeURIComponent(m[1]); } catch (e) { id = m[1]; }
      var i = index.get(id);
      if (i !== undefined && i !== selected) select(i, true);
    }
    window.addEventListener("hashchange", fromHash);

    // MARK: zoom and pan of the time axis
    var view = [0, ax.end], minSpan = Math.max(ax.end / 2000, 20);
    var items = [];
    panels.forEach(function (panel) {
      var svg = panel.querySelector("svg"), graph = svg.querySelector("g.graph");
      var clipId = P + keyOf(panel) + "-clip";
      var defs = document.createElementNS(NS, "defs"), clip = document.createElementNS(NS, "clipPath");
      var rect = document.createElementNS(NS, "rect");
      clip.setAttribute("id", clipId);
      rect.setAttribute("x", ax.originX - 4);
      rect.setAttribute("y", -1e6);
      rect.setAttribute("width", ax.width + 8);
      rect.setAttribute("height", 2e6);
      clip.appendChild(rect);
      defs.appendChild(clip);
      svg.insertBefore(defs, svg.firstChild);
      Array.prototype.forEach.call(graph.children, function (g) {
        if (g.tagName !== "g" || !g.classList.contains("node")) return;
        var box = g.getBBox();
        // The idle workers' name and a panel's heading stay wherever the view is.
        if (!owner.has(g) && /-(lane-idle-label|heading|summary)$/.test(g.id)) return;
        var shapes = Array.prototype.slice.call(g.querySelectorAll("polygon, polyline, path, ellipse"));
        var texts = Array.prototype.map.call(g.querySelectorAll("text"), function (t) {
          return { el: t, x: +t.getAttribute("x") };
        });
        // A label alone (the first frame's, launch complete's) is placed by its anchor, at its time,
        // even when it reaches left of the plot; titles and lane labels stay.
        var labelOnly = shapes.length === 0 && texts.length > 0;
        if ((labelOnly ? texts[0].x : box.x) < ax.originX - 6) return;
        var scale = shapes.length > 0 && (box.width >= 12 || owner.has(g));  // bars always stretch
        g.setAttribute("clip-path", "url(#" + clipId + ")");
        if (scale) g.classList.add(P + "z");
        // (A label starts or ends 4 units from its line: the gap stays 4 units at any zoom.)
        var anchor = labelOnly ? texts[0].el.getAttribute("text-anchor") : null;
        var cx = !labelOnly ? box.x + box.width / 2
          : texts[0].x + (anchor === "start" ? -4 : anchor === "end" ? 4 : 0);
        var item = { shapes: shapes, texts: texts, scale: scale, cx: cx };
        // A marker line's label ("<line id>-label": the first frame, full display, launch complete) keeps
        // its gap to the line, and turns to the line's other side rather than leave the plot.
        var line = labelOnly && texts.length === 1 && /-label$/.test(g.id)
          ? document.getElementById(g.id.slice(0, -"-label".length)) : null;
        if (line && line.classList.contains("marker") && anchor !== "middle") {
          var lineBox = line.getBBox();
          item.cx = lineBox.x + lineBox.width / 2;
          item.label = { end: anchor === "end", width: box.width, gap: Math.abs(texts[0].x - item.cx) };
        }
        if (owner.has(g)) {
          // A task's bar: its label is refitted to the bar's width at every zoom.
          var t = tasks[owner.get(g)];
          item.bar = { label: (t.firstFrame ? "★ " : "") + t.id, width: box.width, cy: box.y + box.height / 2,
            text: texts.length ? texts[0].el : null, parent: shapes.length ? shapes[0].parentNode : g };
        }
        items.push(item);
      });
    });
    var axisBox = document.getElementById(P + "axis"), range = document.getElementById(P + "range");
    var axisBoxes = Array.prototype.slice.call(document.querySelectorAll("." + P + "axis"));
    var firstSvg = panels.length ? panels[0].querySelector("svg") : null;
    var viewBox = firstSvg ? firstSvg.viewBox.baseVal : { width: ax.originX + ax.width + 80 };
    var pad = 0;
    if (firstSvg) {
      var m0 = firstSvg.querySelector("g.graph").transform.baseVal.consolidate();
      if (m0) pad = m0.matrix.e;
    }
    function step(span) {
      var magnitude = 1;
      for (;;) {
        var steps = [1, 2, 2.5, 5];
        for (var k = 0; k < steps.length; k++) {
          var s = magnitude * steps[k];
          if (s >= 1 && span / s <= 10) return s;
        }
        magnitude *= 10;
      }
    }
    function drawAxis() {
      var span = view[1] - view[0], s = step(span), y = 4;
      function x(t) { return pad + ax.originX + (t - view[0]) * ax.width / span; }
      var out = "<svg xmlns=\"" + NS + "\" viewBox=\"0 0 " + viewBox.width + " 34\">";
      out += "<line x1=\"" + x(view[0]) + "\" x2=\"" + x(view[1]) + "\" y1=\"" + y + "\" y2=\"" + y
        + "\" stroke=\"#555\"/>";
      for (var t = Math.ceil(view[0] / s) * s; t <= view[1] + 1e-6; t += s) {
        out += "<line x1=\"" + x(t) + "\" x2=\"" + x(t) + "\" y1=\"" + y + "\" y2=\"" + (y + 5)
          + "\" stroke=\"#555\"/><text x=\"" + x(t) + "\" y=\"" + (y + 16)
          + "\" font-size=\"9.5\" text-anchor=\"middle\" fill=\"#555\">" + ms(Math.round(t)) + "</text>";
      }
      out += "<text x=\"" + x(view[1]) + "\" y=\"" + (y + 28) + "\" font-size=\"9.5\" text-anchor=\"end\""
        + " fill=\"#555\">time since process start (ms)</text></svg>";
      axisBoxes.forEach(function (box) { box.innerHTML = out; });
    }
    // The label a bar `width` units wide can carry (as the pictures choose it):
    // whole at 9 or 7 units, else its start and "…" at 7, else nothing.
    function fitted(label, width) {
      var n = Array.from(label).length;
      if (n * 9 * 0.58 + 6 <= width) return [label, 9];
      if (n * 7 * 0.58 + 6 <= width) return [label, 7];
      var room = Math.floor((width - 6) / (7 * 0.58)) - 1;
      return room >= 3 ? [Array.from(label).slice(0, room).join("") + "…", 7] : null;
    }
    function relabel(it, k) {
      var fit = fitted(it.bar.label, it.bar.width * k), text = it.bar.text;
      if (!fit) { if (text) text.setAttribute("visibility", "hidden"); return; }
      if (!text) {
        text = document.createElementNS(NS, "text");
        text.setAttribute("x", it.cx);
        text.setAttribute("text-anchor", "middle");
        text.setAttribute("font-family", "Helvetica,sans-Serif");
        text.setAttribute("fill", "#222222");
        it.bar.parent.appendChild(text);
        it.bar.text = text;
        it.texts.push({ el: text, x: it.cx });
      }
      text.removeAttribute("visibility");
      text.setAttribute("y", it.bar.cy + fit[1] * 0.35);
      text.setAttribute("font-size", fit[1]);
      text.textContent = fit[0];
    }
    function applyView() {
      var k = ax.end / (view[1] - view[0]);
      var tx = ax.originX - k * (ax.originX + view[0] * ax.width / ax.end);
      var matrix = "matrix(" + k + " 0 0 1 " + tx + " 0)";
      var plotRight = ax.originX + ax.width;
      items.forEach(function (it) {
        if (it.label) {
          var x = k * it.cx + tx, end = it.label.end, text = it.texts[0], gap = it.label.gap;
          if (!end && x + gap + it.label.width > plotRight) end = true;
          else if (end && x - gap - it.label.width < ax.originX) end = false;
          text.el.setAttribute("text-anchor", end ? "end" : "start");
          text.el.setAttribute("transform", "translate(" + ((end ? x - gap : x + gap) - text.x) + " 0)");
          return;
        }
        if (it.bar && it.scale) relabel(it, k);
        if (it.scale) {
          it.shapes.forEach(function (s) { s.setAttribute("transform", matrix); });
          it.texts.forEach(function (t) { t.el.setAttribute("transform", "translate(" + ((k - 1) * t.x + tx) + " 0)"); });
        } else {
          var move = "translate(" + ((k - 1) * it.cx + tx) + " 0)";
          it.shapes.forEach(function (s) { s.setAttribute("transform", move); });
          it.texts.forEach(function (t) { t.el.setAttribute("transform", move); });
        }
      });
      drawAxis();
      if (timeSpan) drawSpan();
      range.textContent = ms(Math.round(view[0])) + " – " + ms(Math.round(view[1])) + " ms";
      root.setAttribute("data-lf-view", Math.round(view[0]) + "," + Math.round(view[1]));
    }
    function setView(a, b) {
      var span = Math.min(Math.max(b - a, minSpan), ax.end);
      a = Math.min(Math.max(a, 0), ax.end - span);
      view = [a, a + span];
      applyView();
    }
    function zoom(factor, at) {
      var span = (view[1] - view[0]) / factor;
      if (at === undefined) at = (view[0] + view[1]) / 2;
      var share = (at - view[0]) / (view[1] - view[0]);
      setView(at - share * span, at - share * span + span);
    }
    function timeAt(clientX, svg) {
      var r = svg.getBoundingClientRect(), x = (clientX - r.left) * viewBox.width / r.width - pad;
      return view[0] + (x - ax.originX) * (view[1] - view[0]) / ax.width;
    }
    document.querySelectorAll("button[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () {
        var what = b.getAttribute("data-zoom");
        if (what === "in") zoom(2);
        else if (what === "out") zoom(0.5);
        else if (what === "t0") setView(data.t0, ax.end);
        else if (what === "launch") setView(data.view[0], data.view[1]);
        else setView(0, ax.end);
      });
    });
    // Keyboard, as in Perfetto and speedscope: W/S zoom in and out, A/D pan left and right.
    document.addEventListener("keydown", function (e) {
      var target = e.target;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
      var key = e.key.toLowerCase(), span = view[1] - view[0];
      if (key === "w") zoom(1.5);
      else if (key === "s") zoom(1 / 1.5);
      else if (key === "a") setView(view[0] - span * 0.2, view[1] - span * 0.2);
      else if (key === "d") setView(view[0] + span * 0.2, view[1] + span * 0.2);
      else return;
      e.preventDefault();
    });
    var drag = null, panelBoxes = Array.prototype.slice.call(document.querySelectorAll("." + P + "panels"));
    panelBoxes.forEach(function (panelBox) {
      panelBox.addEventListener("wheel", function (e) {
        var svg = e.target.closest ? e.target.closest("svg") : null;
        if (!svg) return;
        if (e.ctrlKey || e.metaKey || e.altKey) {
          e.preventDefault();
          zoom(Math.exp(-e.deltaY * 0.002), timeAt(e.clientX, svg));
        } else if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
          e.preventDefault();
          var r = svg.getBoundingClientRect(), dt = e.deltaX * viewBox.width / r.width * (view[1] - view[0]) / ax.width;
          setView(view[0] + dt, view[1] + dt);
        }
      }, { passive: false });
      panelBox.addEventListener("pointerdown", function (e) {
        if (e.button !== 0) return;
        var svg = e.target.closest ? e.target.closest("svg") : null;
        if (!svg) return;
        drag = { x: e.clientX, view: view.slice(), svg: svg, moved: false, span: e.shiftKey, box: panelBox };
        if (drag.span) { drag.from = timeAt(e.clientX, svg); e.preventDefault(); }
        dragged = false;
      });
    });
    window.addEventListener("pointermove", function (e) {
      if (!drag) return;
      var dx = e.clientX - drag.x;
      if (Math.abs(dx) > 3) { drag.moved = true; drag.box.classList.add(P + (drag.span ? "spanning" : "dragging")); }
      if (!drag.moved) return;
      if (drag.span) { setSpan(drag.from, timeAt(e.clientX, drag.svg)); return; }
      var r = drag.svg.getBoundingClientRect();
      var dt = -dx * viewBox.width / r.width * (drag.view[1] - drag.view[0]) / ax.width;
      setView(drag.view[0] + dt, drag.view[1] + dt);
    });
    window.addEventListener("pointerup", function () {
      if (drag) dragged = drag.moved;
      drag = null;
      panelBoxes.forEach(function (box) { box.classList.remove(P + "dragging", P + "spanning"); });
    });

    // MARK: a span of time: Shift + drag selects it (a band over every panel); Escape or a click clears it
    var timeSpan = null, spanShapes = [];
    function fixed(us) { return (us / 1000).toFixed(3); }
    function spanLabel() { return fixed(timeSpan[0]) + " – " + fixed(timeSpan[1]) + " ms (" + fixed(timeSpan[1] - timeSpan[0]) + " ms)"; }
    function setSpan(a, b) {
      a = Math.min(Math.max(a, 0), ax.end);
      b = Math.min(Math.max(b, 0), ax.end);
      timeSpan = a <= b ? [a, b] : [b, a];
      drawSpan();
    }
    function clearSpan() {
      if (!timeSpan) return;
      timeSpan = null;
      drawSpan();
    }
    // The band lives in each panel's <svg> (outside the zoomed graph), redrawn at every view;
    // its label (text, never markup) is in the first panel shown.
    function drawSpan() {
      spanShapes.forEach(function (el) { el.parentNode.removeChild(el); });
      spanShapes = [];
      if (!timeSpan) {
        root.removeAttribute("data-lf-span");
        return;
      }
      var w = view[1] - view[0];
      function x(t) { return pad + ax.originX + (Math.min(Math.max(t, view[0]), view[1]) - view[0]) * ax.width / w; }
      var x0 = x(timeSpan[0]), x1 = x(timeSpan[1]), labelled = false;
      panels.forEach(function (panel) {
        if (!isShown(panel)) return;
        var svg = panel.querySelector("svg"), height = svg.viewBox.baseVal.height;
        var g = document.createElementNS(NS, "g"), band = document.createElementNS(NS, "rect");
        g.setAttribute("class", P + "span");
        g.setAttribute("pointer-events", "none");
        band.setAttribute("class", P + "span-band");
        band.setAttribute("x", x0);
        band.setAttribute("y", 0);
        band.setAttribute("width", x1 - x0);
        band.setAttribute("height", height);
        band.setAttribute("fill", "#1f6feb");
        band.setAttribute("fill-opacity", "0.16");
        band.setAttribute("stroke", "#1f6feb");
        band.setAttribute("stroke-opacity", "0.7");
        band.setAttribute("stroke-width", "1");
        g.appendChild(band);
        if (!labelled) {
          labelled = true;
          var label = document.createElementNS(NS, "text"), right = x1 > pad + ax.originX + ax.width * 0.7;
          label.setAttribute("class", P + "span-label");
          label.setAttribute("x", right ? x0 - 4 : x1 + 4);
          label.setAttribute("y", 12);
          label.setAttribute("text-anchor", right ? "end" : "start");
          label.setAttribute("font-family", "Helvetica,sans-Serif");
          label.setAttribute("font-size", "10");
          label.setAttribute("fill", "#0b3d91");
          label.textContent = spanLabel();
          g.appendChild(label);
        }
        svg.appendChild(g);
        spanShapes.push(g);
      });
      root.setAttribute("data-lf-span", Math.round(timeSpan[0]) + "," + Math.round(timeSpan[1]));
    }
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && timeSpan) { clearSpan(); e.preventDefault(); }
    });
    document.addEventListener("click", function (e) {
      if (dragged || !timeSpan) return;
      if (e.target.closest && e.target.closest("." + P + "controls, #" + P + "card")) return;
      clearSpan();
    });

    // MARK: export of the current view (the panels shown, as zoomed and panned, and the span) as one SVG
    var exportStyle = [];
    Array.prototype.forEach.call(document.styleSheets, function (sheet) {
      var rules;
      try { rules = sheet.cssRules; } catch (e) { return; }
      Array.prototype.forEach.call(rules, function (r) {
        if (r.selectorText && /^svg[ .]/.test(r.selectorText)) exportStyle.push(r.cssText);
      });
    });
    function exportView() {
      var width = viewBox.width, y = 0;
      var out = document.createElementNS(NS, "svg");
      out.setAttribute("version", "1.1");
      var title = document.createElementNS(NS, "title");
      title.textContent = (data.name || data.scenario || "launchflow") + " — " + ms(Math.round(view[0])) + " – "
        + ms(Math.round(view[1])) + " ms";
      out.appendChild(title);
      var style = document.createElementNS(NS, "style");
      style.textContent = exportStyle.join("\n");
      out.appendChild(style);
      var background = document.createElementNS(NS, "rect");
      background.setAttribute("width", "100%");
      background.setAttribute("height", "100%");
      background.setAttribute("fill", "#ffffff");
      out.appendChild(background);
      function place(svg, height) {
        var copy = svg.cloneNode(true);
        copy.removeAttribute("style");
        copy.setAttribute("x", 0);
        copy.setAttribute("y", y);
        copy.setAttribute("width", width);
        copy.setAttribute("height", height);
        out.appendChild(copy);
        y += height;
        return copy;
      }
      panels.forEach(function (panel) {
        if (!isShown(panel)) return;
        var svg = panel.querySelector("svg"), box = svg.viewBox.baseVal;
        var copy = place(svg, box.height * width / box.width);
        var kind = panel.hasAttribute("data-strategy") ? "data-strategy" : "data-panel";
        copy.setAttribute(kind, panel.getAttribute(kind));
        copy.querySelectorAll("." + P + "hover").forEach(function (el) { el.classList.remove(P + "hover"); });
      });
      var axisSvg = axisBox.querySelector("svg");
      if (axisSvg) place(axisSvg, 34);
      out.setAttribute("width", width);
      out.setAttribute("height", y);
      out.setAttribute("viewBox", "0 0 " + width + " " + y);
      // Bar labels come from the task ids as they are: what XML cannot hold becomes U+FFFD.
      var text = new XMLSerializer().serializeToString(out)
        .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd");
      // XMLSerializer writes the namespace of an element made with createElementNS; make sure of it.
      if (!/^<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(text)) text = text.replace(/^<svg/, "<svg xmlns=\"" + NS + "\"");
      return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + text + "\n";
    }
    function exportName() {
      var stem = String(data.scenario || "launchflow").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
      return (stem || "launchflow") + "-view.svg";
    }
    window.launchflowExportView = exportView;
    window.launchflowExportName = exportName;
    var exportButton = document.getElementById(P + "export");
    if (exportButton) {
      exportButton.addEventListener("click", function () {
        var url = URL.createObjectURL(new Blob([exportView()], { type: "image/svg+xml" }));
        var a = document.createElement("a");
        a.href = url;
        a.download = exportName();
        a.style.display = "none";
        document.body.appendChild(a);
        a.click();
        document.body.removeChild(a);
        setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
        root.setAttribute("data-lf-exported", a.download);
      });
    }

    // Open on the launch: from t0 (pre-main folded) to the later of full display
    // and the last task not deferred ("all" shows everything).
    setView(data.view[0], data.view[1]);
    fromHash();
    var counts = { graph: dagNode.filter(Boolean).length };
    names.concat(extras).forEach(function (name, k) { counts[name] = bars[k].filter(Boolean).length; });
    root.setAttribute("data-lf-tasks", String(tasks.length));
    root.setAttribute("data-lf-counts", JSON.stringify(counts));
    root.setAttribute("data-lf-ready", "true");
  }
})();

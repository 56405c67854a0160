#!/usr/bin/env python3
"""Writes Xcode Instruments exports (`xctrace export --xpath ...` XML) for
launchflow's import tests, with the values each one should import to.

An independent writer: built from the documented structure of the export
(../../../shared/INSTRUMENTS-NOTES.md, checked against the exports that
jonhoo/inferno's tests carry and the readers of google/perfetto and others),
not from launchflow's reader. What it reproduces:

- `<?xml version="1.0"?>`, `<trace-query-result>`, one `<node xpath=...>` per
  table, `<schema name=...>` with `<col>` (`mnemonic`, `name`,
  `engineering-type`), then `<row>`s whose k-th child is the k-th column;
  `<sentinel/>` for an empty cell;
- id/ref de-duplication: a value's first appearance carries `id="N"` and its
  content, later ones `<tag ref="N"/>`; ids are minted at any depth (the
  `<process>` inside a `<thread>`, later referenced as a cell of its own);
- times and durations as integer nanoseconds from the start of the
  recording; `fmt` display strings that no reader should parse numbers from
  (here deliberately in a German-looking locale: "1.234,5 ms");
- a table written as two nodes, the schema on the first only.

Usage: write_exports.py OUT_DIR [--shuffle-seed N]
Writes the fixtures and expected.json (every task's thread, start, duration,
cost to the microsecond, running/runnable/blocked time; the pre-main phases;
the measured first frame). With --shuffle-seed the rows of each table are
shuffled across threads (the ids then follow the new order).
"""

import json
import os
import random
import sys
from xml.sax.saxutils import escape, quoteattr

APP = ("com.example.shop", 581)
OTHER = ("SpringBoard", 60)
DAEMON = ("analyticsd", 77)

# Threads: (pid, tid, display name as Instruments writes it).
MAIN = (581, 4778, "Main Thread")
WORKER1 = (581, 4790, "com.example.shop.launch-1")
WORKER2 = (581, 4791, None)  # unnamed: Instruments shows "Thread"
OTHER_MAIN = (60, 610, "Main Thread")
DAEMON_T = (77, 771, None)

PROCESSES = {581: APP[0], 60: OTHER[0], 77: DAEMON[0]}

MS = 1_000_000

# Intervals: (thread, name, message, start ns, duration ns, identifier).
INTERVALS = [
    (MAIN, "crash-reporter", "", 211 * MS, 5_640_500, 1),
    (WORKER1, "network-config", "", 212 * MS, 9_375_500, 2),
    (WORKER2, "image-cache", "", 213_100_000, 10_880_000, 3),
    (WORKER1, "analytics", "events", 222 * MS, 6_250_000, 4),
    (WORKER2, "analytics", "session", 224_500_000, 3_500_000, 5),
    (WORKER1, "prefetch", "feed", 229 * MS, 1_000_250, 6),
    (WORKER1, "prefetch", "feed", 231 * MS, 2_000_250, 7),
    (MAIN, "zero-marker", "", 238 * MS, 0, 8),
    (MAIN, "root-vc", "", 240 * MS, 28_125_750, 9),
    # Another process's signposts, with a name the app uses too: not imported.
    (OTHER_MAIN, "crash-reporter", "", 205 * MS, 3 * MS, 1),
    (DAEMON_T, "upload", "", 215 * MS, 4 * MS, 1),
]

# Begin/End rows in the os-signpost table that have no partner (app process).
# LaunchflowRuntime's SignpostTraceSink (docs/runtime.md, "On Apple platforms"): one
# OSSignposter interval per task, every one named "launchflow-task", category "launchflow",
# with the task's id as its (public) message. (thread, message, start ns, duration ns, identifier)
SINK_NAME = "launchflow-task"
SINK_INTERVALS = [
    (WORKER1, "config", 100 * MS, 4_250_000, 0x51),
    (WORKER2, "crash-reporter", 100_200_000, 2_000_500, 0x52),
    (WORKER1, "database", 104_500_000, 7_000_000, 0x53),
    (MAIN, "root-view", 112 * MS, 15_500_250, 0x54),
    (WORKER2, "analytics", 128 * MS, 3_000_000, 0x55),
]
# An app signpost beside them keeps its own name.
SINK_OTHER = (MAIN, "image-decode", "", 130 * MS, 1_000_000, 0x56)

UNMATCHED_BEGIN = (WORKER2, "late-task", 300 * MS, 40)
UNMATCHED_END = (WORKER1, "early-task", 150 * MS, 41)

# life-cycle-period of the app: (phase, start, duration).
LIFECYCLE = [
    ("Initializing - Process Creation", 120 * MS, 5_412_300),
    ("Initializing - System Interface Initialization", 125_412_300, 54_837_700),
    ("Initializing - Static Runtime Initialization", 180_250_000, 11_750_500),
    ("Launching - UIKit Initialization", 192_000_500, 8_099_500),
    ("Launching - UIKit Scene Creation", 200_100_000, 4_900_000),
    ("Launching - willFinishLaunchingWithOptions()", 205 * MS, 5 * MS),
    ("Launching - didFinishLaunchingWithOptions()", 210 * MS, 55_500_000),
    ("Launching - sceneWillConnectTo()", 265_500_000, 2_500_000),
    ("Launching - sceneWillEnterForeground()", 268 * MS, 400_000),
    ("Launching - Initial Frame Rendering", 268_400_000, 52_350_250),
    ("Foreground - Active", 320_750_250, 900 * MS),
]

# thread-state: per thread, (state, start, duration); contiguous.
THREAD_STATES = {
    MAIN: [("Running", 208 * MS, 3 * MS), ("Running", 211 * MS, 4 * MS), ("Blocked", 215 * MS, 1_000_000),
           ("Runnable", 216 * MS, 640_500), ("Running", 216_640_500, 60 * MS)],
    WORKER1: [("Running", 212 * MS, 3 * MS), ("Blocked", 215 * MS, 4 * MS), ("Runnable", 219 * MS, 500_000),
              ("Preempted", 219_500_000, 250_000), ("Running", 219_750_000, 20 * MS)],
    OTHER_MAIN: [("Running", 200 * MS, 10 * MS)],
}
BLOCKED_STATES = {"Blocked", "Idle", "Waiting", "Suspended"}
RUNNABLE_STATES = {"Runnable", "Preempted"}


def fmt_ms(ns):
    """A locale-dependent display string (never to be parsed)."""
    whole, frac = divmod(ns, MS)
    return f"{whole:,}".replace(",", ".") + "," + f"{frac:06d}"[:3] + " ms"


class Export:
    """One document: the id counter and the values already given an id."""

    def __init__(self):
        self.out = ['<?xml version="1.0"?>\n<trace-query-result>\n']
        self.next_id = 1
        self.defined = {}

    def mint(self):
        n = self.next_id
        self.next_id += 1
        return n

    def value(self, tag, text, fmt=None, key=None, inner=None):
        """`<tag id=N fmt=..>text</tag>` the first time `key` is written, `<tag ref=N/>` after."""
        key = key if key is not None else (tag, text, fmt)
        if key in self.defined:
            return f'<{tag} ref="{self.defined[key]}"/>'
        n = self.mint()
        self.defined[key] = n
        attr = f' fmt={quoteattr(fmt)}' if fmt is not None else ""
        body = inner() if inner else escape(str(text))
        return f'<{tag} id="{n}"{attr}>{body}</{tag}>'

    def process(self, pid):
        name = PROCESSES[pid]
        return self.value(
            "process", None, fmt=f"{name} ({pid})", key=("process", pid),
            inner=lambda: self.value("pid", pid, fmt=str(pid))
            + self.value("device-session", "TODO", fmt="TODO"))

    def thread(self, t):
        pid, tid, name = t
        shown = f"{name or 'Thread'} 0x{tid:x} ({PROCESSES[pid]}, pid: {pid})"
        return self.value(
            "thread", None, fmt=shown, key=("thread", pid, tid),
            inner=lambda: self.value("tid", tid, fmt=f"0x{tid:x}") + self.process(pid))

    def time(self, tag, ns):
        return self.value(tag, ns, fmt=fmt_ms(ns))

    def string(self, text, tag="string"):
        return self.value(tag, text, fmt=text)

    def table(self, index, schema, cols, rows, split=None):
        """A table as one node, or two (`split` rows in the first; the second without a schema)."""
        parts = [rows] if split is None else [rows[:split], rows[split:]]
        for k, part in enumerate(parts):
            self.out.append(f"<node xpath='//trace-toc[1]/run[1]/data[1]/table[{index}]'>")
            if k == 0:
                self.out.append(f'<schema name="{schema}">')
                for mnemonic, name, etype in cols:
                    self.out.append(
                        f"<col><mnemonic>{mnemonic}</mnemonic><name>{escape(name)}</name>"
                        f"<engineering-type>{etype}</engineering-type></col>")
                self.out.append("</schema>\n")
            for row in part:
                self.out.append("<row>" + "".join(cell() for cell in row) + "</row>\n")
            self.out.append("</node>\n")

    def text(self):
        return "".join(self.out) + "</trace-query-result>\n"


INTERVAL_COLS = [
    ("start", "Start", "start-time"), ("duration", "Duration", "duration"),
    ("layout-qualifier", "Layout Qualifier", "layout-id"), ("name", "Name", "string"),
    ("category", "Category", "string"), ("subsystem", "Subsystem", "string"),
    ("identifier", "Identifier", "os-signpost-identifier"), ("process", "Process", "process"),
    ("end-process", "End Process", "process"), ("start-thread", "Start Thread", "thread"),
    ("end-thread", "End Thread", "thread"), ("start-message", "Start Message", "os-log-metadata"),
    ("end-message", "End Message", "os-log-metadata"),
]
# Xcode 27's signpost intervals (issue 37): the schema is named OSSignpostIntervals,
# the columns keep their mnemonics with engineering types of their own, and the
# name, category and subsystem cells are typed elements rather than <string>s.
XCODE27_INTERVAL_COLS = [
    ("start", "Start", "start-time"), ("duration", "Duration", "duration"),
    ("name", "Name", "signpost-name"), ("category", "Category", "category"),
    ("subsystem", "Subsystem", "subsystem"), ("identifier", "Identifier", "os-signpost-identifier"),
    ("process", "Process", "process"), ("start-thread", "Start Thread", "thread"),
    ("start-message", "Start Message", "os-log-metadata"), ("backtrace", "Backtrace", "text-backtrace"),
    ("return-location", "Return Location", "return-location"),
]
SIGNPOST_COLS = [
    ("time", "Time", "event-time"), ("thread", "Thread", "thread"), ("process", "Process", "process"),
    ("event-type", "Event Type", "event-type"), ("scope", "Scope", "event-concept"),
    ("identifier", "Identifier", "os-signpost-identifier"), ("name", "Name", "string"),
    ("format-string", "Format String", "string"), ("backtrace", "Backtrace", "backtrace"),
    ("subsystem", "Subsystem", "string"), ("category", "Category", "string"),
    ("message", "Message", "os-log-metadata"), ("emit-location", "Emit Location", "string"),
]
LIFECYCLE_COLS = [
    ("start", "Start", "start-time"), ("group", "Group", "string"), ("layout-id", "Layout ID", "uint32"),
    ("duration", "Duration", "duration"), ("process", "Process", "process"), ("period", "Period", "app-period"),
    ("narrative", "Narrative", "narrative"),
]
STATE_COLS = [
    ("start", "Start", "start-time"), ("thread", "Thread", "thread"), ("state", "State", "thread-state"),
    ("duration", "Duration", "duration"), ("process", "Process", "process"), ("core", "Core", "core"),
    ("cputime", "CPU Time", "duration-on-core"), ("waittime", "Wait Time", "duration-waiting"),
    ("priority", "Priority", "sched-priority"),
]


def subsystem(t):
    return "com.example.shop" if t[0] == 581 else "com.apple.other"


def message(x, text):
    if not text:
        return "<sentinel/>"
    return x.value("os-log-metadata", None, fmt=text, key=("message", text),
                   inner=lambda: x.string(text))


def interval_rows(x, intervals):
    """The os-signpost-interval table's rows of `intervals` ((thread, name, message, start, duration,
    identifier[, category]); the category defaults to PointsOfInterest)."""
    rows = []
    for t, name, msg, start, dur, ident, *rest in intervals:
        category = rest[0] if rest else "PointsOfInterest"
        rows.append([
            lambda s=start: x.time("start-time", s),
            lambda d=dur: x.value("duration", d, fmt=fmt_ms(d)),
            lambda: x.value("layout-id", 0, fmt="0"),
            lambda n=name: x.string(n),
            lambda c=category: x.string(c),
            lambda t=t: x.string(subsystem(t)),
            lambda i=ident: x.value("os-signpost-identifier", i, fmt=f"0x{i:x}"),
            lambda t=t: x.process(t[0]),
            lambda t=t: x.process(t[0]),
            lambda t=t: x.thread(t),
            lambda t=t: x.thread(t),
            lambda m=msg: message(x, m),
            lambda: "<sentinel/>",
        ])
    return rows


def sink_interval_rows(x):
    """The runtime sink's intervals, with the app's own one, in the os-signpost-interval table."""
    intervals = [(t, SINK_NAME, msg, start, dur, ident, "launchflow") for t, msg, start, dur, ident in SINK_INTERVALS]
    return interval_rows(x, intervals + [SINK_OTHER])


def sink_expected():
    """The tasks the sink's export imports to: each named by its message (the task's id)."""
    tasks = [{"id": msg, "onMain": t == MAIN, "tid": t[1], "startNs": start, "durationNs": dur,
              "costMicros": round_half_away(dur, 1000)} for t, msg, start, dur, _ in SINK_INTERVALS]
    t, name, _, start, dur, _ = SINK_OTHER
    tasks.append({"id": name, "onMain": t == MAIN, "tid": t[1], "startNs": start, "durationNs": dur,
                  "costMicros": round_half_away(dur, 1000)})
    return {"tasks": sorted(tasks, key=lambda task: (task["startNs"], task["tid"]))}


def xcode27_interval_rows(x, intervals):
    rows = []
    for t, name, msg, start, dur, ident in intervals:
        rows.append([
            lambda s=start: x.time("start-time", s),
            lambda d=dur: x.value("duration", d, fmt=fmt_ms(d)),
            lambda n=name: x.string(n, tag="signpost-name"),
            lambda: x.string("PointsOfInterest", tag="category"),
            lambda t=t: x.string(subsystem(t), tag="subsystem"),
            lambda i=ident: x.value("os-signpost-identifier", i, fmt=f"0x{i:x}"),
            lambda t=t: x.process(t[0]),
            lambda t=t: x.thread(t),
            lambda m=msg: message(x, m),
            lambda: x.value("text-backtrace", "main + 12", fmt="main + 12"),
            lambda: "<sentinel/>",
        ])
    return rows


def signpost_events(intervals):
    """Begin/End (and one Event) rows: (time, thread, type, name, message, identifier)."""
    events = []
    for t, name, msg, start, dur, ident in intervals:
        events.append((start, t, "Begin", name, msg, ident))
        events.append((start + dur, t, "End", name, "", ident))
    t, name, start, ident = UNMATCHED_BEGIN
    events.append((start, t, "Begin", name, "", ident))
    t, name, end, ident = UNMATCHED_END
    events.append((end, t, "End", name, "", ident))
    events.append((230 * MS, MAIN, "Event", "config-loaded", "", 42))
    return events


def signpost_rows(x, events):
    rows = []
    for time, t, kind, name, msg, ident in events:
        rows.append([
            lambda s=time: x.time("event-time", s),
            lambda t=t: x.thread(t),
            lambda t=t: x.process(t[0]),
            lambda k=kind: x.string(k, tag="event-type"),
            lambda: x.string("Process", tag="event-concept"),
            lambda i=ident: x.value("os-signpost-identifier", i, fmt=f"0x{i:x}"),
            lambda n=name: x.string(n),
            lambda: "<sentinel/>",
            lambda: "<sentinel/>",
            lambda t=t: x.string(subsystem(t)),
            lambda: x.string("PointsOfInterest"),
            lambda m=msg: message(x, m),
            lambda: "<sentinel/>",
        ])
    return rows


def lifecycle_rows(x, phases):
    rows = []
    for phase, start, dur in phases:
        def narrative(phase=phase, start=start, dur=dur):
            # Repeats other cells by ref (the period's string and the process).
            return x.value(
                "narrative", None, fmt=f"{phase} took {fmt_ms(dur)}", key=("narrative", phase),
                inner=lambda: x.string(phase, tag="app-period") + x.process(APP[1])
                + x.value("duration", dur, fmt=fmt_ms(dur)))
        rows.append([
            lambda s=start: x.time("start-time", s),
            lambda: "<sentinel/>",
            lambda: x.value("uint32", 0, fmt="0"),
            lambda d=dur: x.value("duration", d, fmt=fmt_ms(d)),
            lambda: x.process(APP[1]),
            lambda p=phase: x.string(p, tag="app-period"),
            narrative,
        ])
    return rows


def state_rows(x, states):
    rows = []
    for t, state, start, dur in states:
        rows.append([
            lambda s=start: x.time("start-time", s),
            lambda t=t: x.thread(t),
            lambda s=state: x.string(s, tag="thread-state"),
            lambda d=dur: x.value("duration", d, fmt=fmt_ms(d)),
            lambda t=t: x.process(t[0]),
            lambda: x.value("core", 1, fmt="CPU 1 (P Core)"),
            lambda d=dur, s=state: x.value("duration", d if s == "Running" else 0, fmt="…"),
            lambda d=dur, s=state: x.value("duration", 0 if s == "Running" else d, fmt="…"),
            lambda: x.value("sched-priority", 47, fmt="47"),
        ])
    return rows


def flat_states():
    return [(t, s, start, dur) for t, states in THREAD_STATES.items() for s, start, dur in states]


def shuffled(items, rng):
    items = list(items)
    if rng:
        rng.shuffle(items)
    return items


def expected():
    """What the app's import must give: computed here, from the lists above."""
    app = [i for i in INTERVALS if i[0][0] == APP[1]]
    messages = {}
    for t, name, msg, *_ in app:
        messages.setdefault(name, set()).add(msg)
    tasks = {}
    order = []
    for t, name, msg, start, dur, _ in sorted(app, key=lambda i: (i[3], i[0][1])):
        ident = f"{name}: {msg}" if len(messages[name]) > 1 and msg else name
        if ident not in tasks:
            order.append(ident)
            tasks[ident] = {"id": ident, "slices": [], "onMain": True}
        tasks[ident]["slices"].append({"tid": t[1], "startNs": start, "durationNs": dur})
        tasks[ident]["onMain"] &= t == MAIN
    result = []
    for ident in order:
        task = tasks[ident]
        wall = sum(s["durationNs"] for s in task["slices"])
        states = {"running": 0, "runnable": 0, "blocked": 0, "unknown": 0}
        for s in task["slices"]:
            for key, value in breakdown(s["tid"], s["startNs"], s["startNs"] + s["durationNs"]).items():
                states[key] += value
        task.update({
            "wallNs": wall,
            "costMicros": round_half_away(wall, 1000),
            "runningNs": states["running"], "runnableNs": states["runnable"],
            "blockedNs": states["blocked"], "unknownNs": states["unknown"],
            # --cost running: unknown time (no thread-state row) counts as running
            "runningCostMicros": round_half_away(states["running"] + states["unknown"], 1000),
        })
        result.append(task)
    did_finish = next(p for p in LIFECYCLE if p[0].endswith("didFinishLaunchingWithOptions()"))
    frame = next(p for p in LIFECYCLE if p[0].endswith("Initial Frame Rendering"))
    # The app's callbacks of the first run-loop turn (docs/model.md §3.12):
    # "Launching - …()" phases before Initial Frame Rendering, named as
    # scenarios name them, each costing its time less the app's main-thread
    # intervals inside it. The phases before the first are pre-main.
    names = {"willFinishLaunchingWithOptions()": "willFinishLaunching",
             "didFinishLaunchingWithOptions()": "didFinishLaunching",
             "sceneWillConnectTo()": "sceneWillConnect",
             "sceneWillEnterForeground()": "sceneWillEnterForeground",
             "sceneDidBecomeActive()": "sceneDidBecomeActive"}
    main_slices = [(i[3], i[3] + i[4]) for i in app if i[0] == MAIN]
    callbacks = []
    for p, s, d in sorted(LIFECYCLE, key=lambda q: q[1]):
        if p.startswith("Launching - ") and p.endswith("()") and s < frame[1]:
            short = p[len("Launching - "):]
            inside = sum(max(0, min(e, s + d) - max(b, s)) for b, e in main_slices)
            callbacks.append({"name": names.get(short, short[:-2]), "startNs": s, "durationNs": d,
                              "costMicros": round_half_away(d - inside, 1000)})
    first_callback = callbacks[0]["startNs"]
    premain = [
        {"name": p, "startNs": s, "durationNs": d, "costMicros": round_half_away(d, 1000)}
        for p, s, d in LIFECYCLE if s + d <= first_callback
    ]
    return {
        "app": {"name": APP[0], "pid": APP[1], "mainThreadTid": MAIN[1]},
        "tasks": result,
        "preMain": premain,
        "launchPhases": callbacks,
        "didFinishLaunching": {"startNs": did_finish[1], "endNs": did_finish[1] + did_finish[2]},
        "processStartNs": LIFECYCLE[0][1],
        "firstFrameEndNs": frame[1] + frame[2],
        "firstFrameFromProcessStartNs": frame[1] + frame[2] - LIFECYCLE[0][1],
        "unmatched": {"begin": UNMATCHED_BEGIN[1], "end": UNMATCHED_END[1]},
    }


def breakdown(tid, start, end):
    out = {"running": 0, "runnable": 0, "blocked": 0, "unknown": 0}
    spans = []
    for t, states in THREAD_STATES.items():
        if t[1] == tid:
            spans = [(s, b, b + d) for s, b, d in states]
    covered = 0
    for state, a, b in spans:
        lo, hi = max(a, start), min(b, end)
        if hi <= lo:
            continue
        covered += hi - lo
        kind = "running" if state == "Running" else "runnable" if state in RUNNABLE_STATES else "blocked"
        out[kind] += hi - lo
    out["unknown"] = (end - start) - covered
    return out


def round_half_away(n, d):
    q, r = divmod(abs(n), d)
    if 2 * r >= d:
        q += 1
    return q if n >= 0 else -q


def write(out_dir, seed):
    rng = random.Random(seed) if seed is not None else None
    os.makedirs(out_dir, exist_ok=True)
    suffix = f"-shuffled-{seed}" if seed is not None else ""
    files = {}

    # 1. One export of several tables (xpath union): intervals, life cycle, thread states.
    x = Export()
    x.table(12, "os-signpost-interval", INTERVAL_COLS, interval_rows(x, shuffled(INTERVALS, rng)))
    x.table(3, "life-cycle-period", LIFECYCLE_COLS, lifecycle_rows(x, shuffled(LIFECYCLE, rng)))
    x.table(20, "thread-state", STATE_COLS, state_rows(x, shuffled(flat_states(), rng)))
    files[f"launch-intervals{suffix}.xml"] = x.text()

    # 2. os-signpost Begin/End, written as two nodes (the schema on the first only).
    x = Export()
    events = shuffled(signpost_events(INTERVALS), rng)
    x.table(11, "os-signpost", SIGNPOST_COLS, signpost_rows(x, events), split=len(events) // 2)
    files[f"launch-signposts{suffix}.xml"] = x.text()

    if seed is None:
        # 3. The same recording, one export per table (merged into one launch).
        x = Export()
        x.table(3, "life-cycle-period", LIFECYCLE_COLS, lifecycle_rows(x, LIFECYCLE))
        files["split-lifecycle.xml"] = x.text()
        x = Export()
        x.table(20, "thread-state", STATE_COLS, state_rows(x, flat_states()))
        files["split-thread-state.xml"] = x.text()
        # 4. The intervals as Xcode 27 exports them (imports to the same tasks as the intervals of 1).
        x = Export()
        x.table(12, "OSSignpostIntervals", XCODE27_INTERVAL_COLS, xcode27_interval_rows(x, INTERVALS))
        files["xcode27-intervals.xml"] = x.text()
        # 5. LaunchflowRuntime's SignpostTraceSink: intervals named launchflow-task, the task id as message.
        x = Export()
        x.table(12, "os-signpost-interval", INTERVAL_COLS, sink_interval_rows(x))
        files["runtime-sink-intervals.xml"] = x.text()
        with open(os.path.join(out_dir, "expected.json"), "w") as f:
            everything = expected()
            everything["runtimeSink"] = sink_expected()
            json.dump(everything, f, indent=1, sort_keys=True)
            f.write("\n")
    for name, text in files.items():
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(text)
    return sorted(files)


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    seed = None
    if "--shuffle-seed" in argv:
        seed = int(argv[argv.index("--shuffle-seed") + 1])
    for name in write(argv[0], seed):
        print(os.path.join(argv[0], name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

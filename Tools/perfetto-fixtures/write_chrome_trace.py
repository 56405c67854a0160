#!/usr/bin/env python3
"""Writes Perfetto protobuf traces in the shapes real producers write them,
with the official Perfetto protos (PyPI `perfetto`), independently of
launchflow's reader (issue 37):

    write_chrome_trace.py chrome SPEC.json OUT.pftrace
    write_chrome_trace.py android-startup SPEC.json OUT.pftrace

`chrome`: a TrackEvent trace as Chrome on Android (and the Perfetto SDK, and
androidx.tracing.perfetto) writes it: the service's clock snapshot
(boot, monotonic, realtime); per process a track descriptor with
`chrome_process`; per thread one packet sequence that starts with
SEQ_INCREMENTAL_STATE_CLEARED, `trace_packet_defaults` (its track and its
timestamp clock), a thread track descriptor with `chrome_thread`, and a clock
snapshot relating a sequence-scoped clock to the MONOTONIC clock only (no
boot clock): clock 64 incremental in µs, or 65 absolute in µs; events with
interned names, categories and debug-annotation names, no track_uuid of
their own; some slices as legacy 'X' events; async slices on process tracks;
one slice begun before the recording (its END alone) and one never ended.

SPEC (times are integer µs on the monotonic clock):
{
  "monotonicToBootUs": 5000000,
  "processes": [{"pid": 7000, "name": "com.android.chrome", "type": 1,
                 "threads": [{"tid": 7000, "name": "CrBrowserMain", "type": 1, "clock": 64}, ...]}],
  "slices": [{"tid": 7000, "name": "n", "cat": "toplevel", "start": 10, "end": 20,
              "legacy": false, "children": [{"name": "c", "start": 11, "end": 12}]}],
  "cutBefore": [{"tid": 7000, "name": "RunTask", "end": 5}],     # END without BEGIN
  "cutAfter": [{"tid": 7000, "name": "Looper", "start": 900}],   # BEGIN never ended
  "async": [{"pid": 7000, "name": "Startup.LoadTime", "start": 0, "end": 800}]
}
Optional (the shapes of a real Chrome recording, issue 37):
  a thread without "name" (only its chrome_thread type);
  a slice's "postedFrom": ["Function", "path/file.cc"] (its task_execution,
  with an interned source location) and "wrap": ["ThreadController active",
  "RunNormalPriorityTask"] (slices around it, outermost first, 1 µs wider each);
  "threadAsync": [{"tid", "name", "start", "end"}] (a track under the thread's);
  "legacyAsync": [{"tid", "name", "id", "start", "end", "phases": "be"|"SF",
  "local": bool}] (legacy async events on the thread's sequence, track_uuid 0);
  "overrides": [{"tid", "name", "start", "end", "pid", "overrideTid"}]
  (legacy 'X' events with pid_override / tid_override, track_uuid 0).

`android-startup`: a system trace of an app's cold start in the shape
Perfetto's android startup tables read (atrace in ftrace print events):
system_server's async `launchingActivity#N:...`/`launching: PACKAGE` slice
(S/F), the app's `bindApplication`, `activityStart`, `activityResume`,
`Choreographer#doFrame N`, RenderThread's `DrawFrame`, `reportFullyDrawn`,
plus the app's own sections. SPEC: {"package", "pid", "renderTid",
"systemServer": {"pid", "tid"}, "launch": [start, end],
"sections": [{"tid", "name", "start", "end"}], "fullyDrawn": time} (ns); and
"sched": [[time, prev_pid, prev_state, next_pid], ...] written as sched_switch.
"""
import json
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

CLEARED = pb.TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED
NEEDS = pb.TracePacket.SequenceFlags.SEQ_NEEDS_INCREMENTAL_STATE
BEGIN = pb.TrackEvent.Type.TYPE_SLICE_BEGIN
END = pb.TrackEvent.Type.TYPE_SLICE_END
BOOTTIME = pb.BuiltinClock.BUILTIN_CLOCK_BOOTTIME
MONOTONIC = pb.BuiltinClock.BUILTIN_CLOCK_MONOTONIC
REALTIME = pb.BuiltinClock.BUILTIN_CLOCK_REALTIME


def thread_events(spec, tid):
    """(time µs, order, kind, name, cat, legacy duration or None, extra) of thread tid, in time order."""
    out = []
    for c in spec.get("cutBefore", []):
        if c["tid"] == tid:
            out.append((c["end"], 0, "E", c["name"], "toplevel", None, {}))
    for s in spec["slices"]:
        if s["tid"] != tid:
            continue
        if s.get("legacy"):
            out.append((s["start"], 2, "X", s["name"], s.get("cat", "toplevel"), s["end"] - s["start"], {}))
            continue
        wrap = s.get("wrap", [])
        for depth, name in enumerate(wrap):
            margin = len(wrap) - depth
            out.append((s["start"] - margin, 2, "B", name, "toplevel", None, {}))
            out.append((s["end"] + margin, 0, "E", name, "toplevel", None, {}))
        extra = {"postedFrom": s["postedFrom"]} if "postedFrom" in s else {}
        out.append((s["start"], 2, "B", s["name"], s.get("cat", "toplevel"), None, extra))
        for c in s.get("children", []):
            out.append((c["start"], 3, "B", c["name"], "inner", None, {}))
            out.append((c["end"], 1, "E", c["name"], "inner", None, {}))
        out.append((s["end"], 0, "E", s["name"], "toplevel", None, {}))
    for c in spec.get("cutAfter", []):
        if c["tid"] == tid:
            out.append((c["start"], 2, "B", c["name"], "toplevel", None, {}))
    for a in spec.get("legacyAsync", []):
        if a["tid"] == tid:
            begin, end = a.get("phases", "be")
            out.append((a["start"], 2, begin, a["name"], "async", None, {"async": a}))
            out.append((a["end"], 0, end, a["name"], "async", None, {"async": a}))
    for o in spec.get("overrides", []):
        if o["tid"] == tid:
            out.append((o["start"], 2, "X", o["name"], "toplevel", o["end"] - o["start"], {"override": o}))
    out.sort(key=lambda e: (e[0], e[1]))
    return out


def write_chrome(spec, trace):
    offset = spec["monotonicToBootUs"] * 1000
    service = trace.packet.add()
    service.trusted_packet_sequence_id = 1
    service.timestamp = 1000 + offset
    snap = service.clock_snapshot
    for cid, value in [(BOOTTIME, 1000 + offset), (MONOTONIC, 1000), (REALTIME, 1_700_000_000_000_000_000)]:
        c = snap.clocks.add()
        c.clock_id = cid
        c.timestamp = value
    snap.primary_trace_clock = BOOTTIME
    seq = 100
    for pn, proc in enumerate(spec["processes"]):
        puuid = 1_000_000 + pn
        p = trace.packet.add()
        p.trusted_packet_sequence_id = 2
        p.track_descriptor.uuid = puuid
        p.track_descriptor.process.pid = proc["pid"]
        if proc.get("name"):
            p.track_descriptor.process.process_name = proc["name"]
        p.track_descriptor.chrome_process.process_type = proc.get("type", 0)
        for th in proc["threads"]:
            seq += 1
            write_thread(spec, trace, seq, puuid, proc, th)
        for n, a in enumerate(a for a in spec.get("async", []) if a["pid"] == proc["pid"]):
            write_async(trace, seq + 500 + n, puuid, a, offset)


def write_thread(spec, trace, seq, puuid, proc, th):
    tuuid = 2_000_000 + th["tid"]
    clock = th.get("clock", 64)
    events = thread_events(spec, th["tid"])
    first = (events[0][0] if events else 0) - 50
    # The sequence's first packet: state cleared, defaults, the thread's track.
    p = trace.packet.add()
    p.trusted_packet_sequence_id = seq
    p.sequence_flags = CLEARED
    p.first_packet_on_sequence = True
    p.trace_packet_defaults.timestamp_clock_id = clock
    p.trace_packet_defaults.track_event_defaults.track_uuid = tuuid
    d = p.track_descriptor
    d.uuid = tuuid
    d.parent_uuid = puuid
    d.thread.pid = proc["pid"]
    d.thread.tid = th["tid"]
    if "name" in th:
        d.thread.thread_name = th["name"]
    d.chrome_thread.thread_type = th.get("type", 0)
    # The sequence clock, related to the monotonic clock only (µs).
    c = trace.packet.add()
    c.trusted_packet_sequence_id = seq
    c.sequence_flags = NEEDS
    c.timestamp_clock_id = MONOTONIC
    c.timestamp = first * 1000
    mono = c.clock_snapshot.clocks.add()
    mono.clock_id = MONOTONIC
    mono.timestamp = first * 1000
    own = c.clock_snapshot.clocks.add()
    own.clock_id = clock
    own.timestamp = first
    own.unit_multiplier_ns = 1000
    own.is_incremental = clock == 64
    last = first
    names, cats, places = {}, {}, {}
    for time, _, kind, name, cat, duration, extra in events:
        q = trace.packet.add()
        q.trusted_packet_sequence_id = seq
        q.sequence_flags = NEEDS
        q.timestamp = time - last if clock == 64 else time
        last = time
        ev = q.track_event
        if kind == "E":
            ev.type = END
            continue
        if kind in "beSF":
            write_legacy_async(q, ev, kind, name, extra["async"])
            continue
        if name not in names:
            names[name] = len(names) + 1
            e = q.interned_data.event_names.add()
            e.iid, e.name = names[name], name
        if cat not in cats:
            cats[cat] = len(cats) + 1
            e = q.interned_data.event_categories.add()
            e.iid, e.name = cats[cat], cat
        ev.category_iids.append(cats[cat])
        a = ev.debug_annotations.add()
        a.name_iid = 1
        a.int_value = time
        if len(names) == 1 and cat == events[0][4]:
            e = q.interned_data.debug_annotation_names.add()
            e.iid, e.name = 1, "src"
        if kind == "X":
            ev.legacy_event.phase = ord("X")
            ev.legacy_event.duration_us = duration
            ev.legacy_event.name_iid = names[name]
            if "override" in extra:
                o = extra["override"]
                ev.track_uuid = 0  # explicitly: the legacy thread, overridden
                if "pid" in o:
                    ev.legacy_event.pid_override = o["pid"]
                if "overrideTid" in o:
                    ev.legacy_event.tid_override = o["overrideTid"]
        else:
            ev.type = BEGIN
            ev.name_iid = names[name]
        if "postedFrom" in extra:
            place = tuple(extra["postedFrom"])
            if place not in places:
                places[place] = len(places) + 1
                loc = q.interned_data.source_locations.add()
                loc.iid, loc.function_name, loc.file_name = places[place], place[0], place[1]
            ev.task_execution.posted_from_iid = places[place]
    for a in spec.get("threadAsync", []):
        if a["tid"] == th["tid"]:
            write_async(trace, seq + 700, tuuid, a, spec["monotonicToBootUs"] * 1000)


def write_legacy_async(q, ev, kind, name, a):
    """A legacy async event (phase b/e or S/F) on the sequence's thread (track_uuid 0), by id."""
    ev.track_uuid = 0
    ev.legacy_event.phase = ord(kind)
    if a.get("local"):
        ev.legacy_event.local_id = a["id"]
    else:
        ev.legacy_event.global_id = a["id"]
    if kind in "bS" or kind == "F":
        ev.name = name


def write_async(trace, seq, puuid, a, offset):
    """An async slice on a track of its own under the process track, timed on the boot clock."""
    uuid = 3_000_000 + seq
    p = trace.packet.add()
    p.trusted_packet_sequence_id = seq
    p.sequence_flags = CLEARED
    p.track_descriptor.uuid = uuid
    p.track_descriptor.parent_uuid = puuid
    p.track_descriptor.name = a["name"]
    for time, kind in [(a["start"], BEGIN), (a["end"], END)]:
        q = trace.packet.add()
        q.trusted_packet_sequence_id = seq
        q.timestamp = time * 1000 + offset
        q.track_event.track_uuid = uuid
        q.track_event.type = kind
        if kind == BEGIN:
            q.track_event.name = a["name"]


def write_android_startup(spec, trace):
    """Atrace sections as ftrace print events, and the process tree."""
    pkg, pid = spec["package"], spec["pid"]
    ss = spec["systemServer"]
    p = trace.packet.add()
    p.trusted_packet_sequence_id = 1
    for proc_pid, name in [(pid, pkg), (ss["pid"], "system_server")]:
        proc = p.process_tree.processes.add()
        proc.pid = proc_pid
        proc.cmdline.append(name)
    threads = [(pid, pid, pkg[-15:]), (spec["renderTid"], pid, "RenderThread"), (ss["tid"], ss["pid"], "ActivityTaskMan")]
    threads += [(t["tid"], pid, t["name"]) for t in spec.get("threads", [])]
    for tid, tgid, name in threads:
        t = p.process_tree.threads.add()
        t.tid, t.tgid, t.name = tid, tgid, name
    events = []  # (time, tid, buf)
    start, end = spec["launch"]
    cookie = 17
    events.append((start, ss["tid"], f"S|{ss['pid']}|launchingActivity#{cookie}:{pkg}|{cookie}\n"))
    events.append((start, ss["tid"], f"S|{ss['pid']}|launching: {pkg}|0\n"))
    events.append((end, ss["tid"], f"F|{ss['pid']}|launching: {pkg}|0\n"))
    events.append((end, ss["tid"], f"F|{ss['pid']}|launchingActivity#{cookie}:{pkg}|{cookie}\n"))
    for s in spec["sections"]:
        events.append((s["start"], s["tid"], f"B|{s.get('pid', pid)}|{s['name']}\n"))
        events.append((s["end"], s["tid"], f"E|{s.get('pid', pid)}\n"))
    if "fullyDrawn" in spec:
        t = spec["fullyDrawn"]
        events.append((t, pid, f"B|{pid}|reportFullyDrawn() for ComponentInfo{{{pkg}/.MainActivity}}\n"))
        events.append((t + 20_000, pid, f"E|{pid}\n"))
    events.sort(key=lambda e: (e[0], 0 if e[2].startswith("E") else 1))
    bundle = trace.packet.add()
    bundle.trusted_packet_sequence_id = 1
    bundle.ftrace_events.cpu = 0
    for time, tid, buf in events:
        ev = bundle.ftrace_events.event.add()
        ev.timestamp = time
        ev.pid = tid
        ev.print.buf = buf
    # "sched": [[time, prev_pid, prev_state, next_pid], ...]: sched_switch events (state 0: R, 1: S).
    for time, prev, state, nxt in spec.get("sched", []):
        ev = bundle.ftrace_events.event.add()
        ev.timestamp = time
        ev.pid = prev
        ev.sched_switch.prev_pid = prev
        ev.sched_switch.prev_state = state
        ev.sched_switch.next_pid = nxt


def main():
    kind, spec_path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    spec = json.load(open(spec_path))
    trace = pb.Trace()
    if kind == "chrome":
        write_chrome(spec, trace)
    else:
        write_android_startup(spec, trace)
    with open(out, "wb") as f:
        f.write(trace.SerializeToString(deterministic=True))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a Perfetto protobuf trace of a known schedule with the official
Perfetto protos (PyPI `perfetto`: perfetto.protos.perfetto.trace.perfetto_trace_pb2),
an implementation independent of launchflow's own wire reader.

    write_trace.py SPEC.json OUT[.gz]...

SPEC (all times integer nanoseconds):
{
  "form": "trackevent" | "atrace",   # how the app's sections reach the trace
  "interned": true,                  # TrackEvent names/categories interned per sequence
  "incrementalClock": false,         # TrackEvent timestamps as deltas on a sequence clock (id 64)
  "legacyComplete": false,           # TrackEvent: legacy 'X' complete events instead of BEGIN/END
  "compactSched": false,             # sched_switch/waking in FtraceEventBundle.compact_sched
  "app": {"pid": 4100, "name": "com.example.shop"},
  "threads": [{"tid": 4100, "name": "main"}, ...],                  # the app's threads
  "tasks": [{"id": "a", "tid": 4100, "start": 0, "end": 1000,
             "children": [{"name": "x", "start": 10, "end": 20}],
             "dependsOn": ["b"]}, ...],
  "others": [{"pid": 1503, "name": "system_server", "tid": 1530, "thread": "binder",
              "slices": [{"name": "n", "start": 0, "end": 5}]}],   # another process
  "sched": [{"tid": 4100, "cpu": 0, "changes": [[0, "running"], [500, "sleeping"], ...]}],
  "cpuInfo": 8,                      # optional: a CpuInfo packet with that many cpus entries
  "numCpus": 8                       # optional: a SystemInfo packet with num_cpus
}

Dependencies become flows (TrackEvent form only: atrace has none): for the
k-th edge d -> t, a flow id is put in `flow_ids` of d's BEGIN (k % 3 == 0),
its END (1) or its first child's BEGIN (2), and in `terminating_flow_ids` of
t's BEGIN (k % 2 == 0) or of its first child's BEGIN (1). Flows bind to
slices, so wherever they sit inside a task, they are that task's.
"""
import gzip
import json
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

SEQ_CLEARED = pb.TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED
SEQ_NEEDS = pb.TracePacket.SequenceFlags.SEQ_NEEDS_INCREMENTAL_STATE
BEGIN = pb.TrackEvent.Type.TYPE_SLICE_BEGIN
END = pb.TrackEvent.Type.TYPE_SLICE_END
INSTANT = pb.TrackEvent.Type.TYPE_INSTANT
COUNTER = pb.TrackEvent.Type.TYPE_COUNTER
BOOTTIME = pb.BuiltinClock.BUILTIN_CLOCK_BOOTTIME


def flow_placements(spec):
    """{(task id, 'begin'|'end'|'child'): ([flow ids], [terminating ids])} for the TrackEvent form."""
    places = {}
    tasks = {t["id"]: t for t in spec["tasks"]}
    k = 0
    for t in spec["tasks"]:
        for d in t.get("dependsOn", []):
            fid = 0x1000 + k
            src = ["begin", "end", "child"][k % 3]
            if src == "end" and spec.get("legacyComplete"):
                src = "begin"  # a complete event has no END of its own
            if src == "child" and not tasks[d].get("children"):
                src = "begin"
            dst = ["begin", "child"][k % 2]
            if dst == "child" and not t.get("children"):
                dst = "begin"
            places.setdefault((d, src), ([], []))[0].append(fid)
            places.setdefault((t["id"], dst), ([], []))[1].append(fid)
            k += 1
    return places


def slice_events(spec, tid):
    """(time, order, kind, name, flows, terminating) of the app's slices on thread tid, in time order."""
    places = flow_placements(spec) if spec["form"] == "trackevent" else {}
    out = []
    for t in spec["tasks"]:
        if t["tid"] != tid:
            continue
        spans = [(t["id"], t["start"], t["end"], places.get((t["id"], "begin"), ([], [])),
                  places.get((t["id"], "end"), ([], [])))]
        for n, c in enumerate(t.get("children", [])):
            cf = places.get((t["id"], "child"), ([], [])) if n == 0 else ([], [])
            spans.append((c["name"], c["start"], c["end"], cf, ([], [])))
        for name, start, end, (bf, bt), (ef, et) in spans:
            depth = 0 if name == t["id"] else 1
            if start == end:
                # A zero-length slice: its END right after its BEGIN, after the other begins.
                order = len(out)
                out.append(((start, 1, 0, depth, order, 0), "B", name, bf, bt, end))
                out.append(((start, 1, 0, depth, order, 1), "E", name, ef, et, None))
            else:
                out.append(((start, 1, -end, depth, 0, 0), "B", name, bf, bt, end))
                out.append(((end, 0, 0, -depth, 0, 0), "E", name, ef, et, None))
    # At one instant: ends first (inner before outer), then begins (outer before inner).
    out.sort(key=lambda e: e[0])
    return [(key[0], None, kind, name, flows, term, end) for key, kind, name, flows, term, end in out]


def write_trackevent(spec, trace):
    app = spec["app"]
    seq = 1
    # The process track, then one sequence per thread (as the SDK writes them).
    p = trace.packet.add()
    p.trusted_packet_sequence_id = 999
    p.track_descriptor.uuid = 1
    p.track_descriptor.process.pid = app["pid"]
    p.track_descriptor.process.process_name = app["name"]
    for n, th in enumerate(spec["threads"]):
        seq = 10 + n
        uuid = 100 + n
        p = trace.packet.add()
        p.trusted_packet_sequence_id = seq
        p.sequence_flags = SEQ_CLEARED
        p.track_descriptor.uuid = uuid
        p.track_descriptor.parent_uuid = 1
        p.track_descriptor.thread.pid = app["pid"]
        p.track_descriptor.thread.tid = th["tid"]
        p.track_descriptor.thread.thread_name = th["name"]
        p.trace_packet_defaults.track_event_defaults.track_uuid = uuid
        incremental = spec.get("incrementalClock") and n % 2 == 1
        events = slice_events(spec, th["tid"])
        if incremental:
            base = events[0][0] - 1000 if events else 0
            p.trace_packet_defaults.timestamp_clock_id = 64
            c = trace.packet.add()
            c.trusted_packet_sequence_id = seq
            c.timestamp = base
            clock = c.clock_snapshot.clocks.add()
            clock.clock_id = 64
            clock.timestamp = base
            clock.is_incremental = True
            boot = c.clock_snapshot.clocks.add()
            boot.clock_id = BOOTTIME
            boot.timestamp = base
            last = base
        names = {}
        if spec.get("legacyComplete"):
            events = [e for e in events if e[2] == "B"]
        for time, _, kind, name, flows, term, end in events:
            q = trace.packet.add()
            q.trusted_packet_sequence_id = seq
            q.sequence_flags = SEQ_NEEDS
            if incremental:
                q.timestamp = time - last
                last = time
            else:
                q.timestamp = time
            ev = q.track_event
            if spec.get("legacyComplete"):
                ev.legacy_event.phase = ord("X")
                ev.legacy_event.duration_us = (end - time) // 1000
            else:
                ev.type = BEGIN if kind == "B" else END
            if kind == "B":
                if spec.get("interned"):
                    if name not in names:
                        names[name] = len(names) + 1
                        entry = q.interned_data.event_names.add()
                        entry.iid = names[name]
                        entry.name = name
                    ev.name_iid = names[name]
                    if len(names) == 1 and not q.interned_data.event_categories:
                        cat = q.interned_data.event_categories.add()
                        cat.iid = 1
                        cat.name = "launch"
                    ev.category_iids.append(1)
                else:
                    ev.name = name
                    ev.categories.append("launch")
            ev.flow_ids.extend(flows)
            ev.terminating_flow_ids.extend(term)
        # Noise the importer must leave out: an instant and a counter track.
        if events:
            q = trace.packet.add()
            q.trusted_packet_sequence_id = seq
            q.timestamp = events[0][0] if not incremental else 0
            q.track_event.type = INSTANT
            q.track_event.name = "instant marker"
    return seq


def write_print_events(spec, trace):
    """The app's sections as atrace print events, each thread's on its own CPU bundle."""
    app = spec["app"]
    bundles = []
    for n, th in enumerate(spec["threads"]):
        events = slice_events(spec, th["tid"])
        bundle = pb.FtraceEventBundle()
        bundle.cpu = n % 4
        for time, _, kind, name, _, _, _ in events:
            ev = bundle.event.add()
            ev.timestamp = time
            ev.pid = th["tid"]
            ev.print.buf = f"B|{app['pid']}|{name}\n" if kind == "B" else f"E|{app['pid']}\n"
        if events:
            for buf in [f"C|{app['pid']}|heap|42\n", f"S|{app['pid']}|async launch|7\n"]:
                ev = bundle.event.add()
                ev.timestamp = events[0][0]
                ev.pid = th["tid"]
                ev.print.buf = buf
        bundles.append(bundle)
    # Later threads first: the file is not in time order across bundles.
    for bundle in reversed(bundles):
        p = trace.packet.add()
        p.trusted_packet_sequence_id = 1
        p.ftrace_events.CopyFrom(bundle)


def write_sched(spec, trace):
    for entry in spec.get("sched", []):
        tid = entry["tid"]
        p = trace.packet.add()
        p.trusted_packet_sequence_id = 1
        bundle = p.ftrace_events
        bundle.cpu = entry.get("cpu", 0)
        state = None
        compact = spec.get("compactSched")
        cs = bundle.compact_sched
        last_switch = 0
        last_waking = 0
        if compact:
            cs.intern_table.append("")
            cs.intern_table.append("t%d" % tid)
        for time, new in entry["changes"]:
            if new == "running":
                # From idle (0) to the thread. (Compact: the previous thread is implicit.)
                if compact:
                    cs.switch_timestamp.append(time - last_switch)
                    last_switch = time
                    cs.switch_prev_state.append(0)
                    cs.switch_next_pid.append(tid)
                    cs.switch_next_prio.append(120)
                    cs.switch_next_comm_index.append(1)
                else:
                    ev = bundle.event.add()
                    ev.timestamp = time
                    ev.pid = 0
                    ev.sched_switch.prev_pid = 0
                    ev.sched_switch.prev_comm = "swapper/0"
                    ev.sched_switch.prev_state = 0
                    ev.sched_switch.next_pid = tid
                    ev.sched_switch.next_comm = "t%d" % tid
            elif state == "running":
                prev_state = 0 if new == "runnable" else 1  # R (preempted) or S
                if compact:
                    cs.switch_timestamp.append(time - last_switch)
                    last_switch = time
                    cs.switch_prev_state.append(prev_state)
                    cs.switch_next_pid.append(0)
                    cs.switch_next_prio.append(120)
                    cs.switch_next_comm_index.append(0)
                else:
                    ev = bundle.event.add()
                    ev.timestamp = time
                    ev.pid = tid
                    ev.sched_switch.prev_pid = tid
                    ev.sched_switch.prev_state = prev_state
                    ev.sched_switch.next_pid = 0
            else:  # sleeping -> runnable: a wakeup
                if compact:
                    cs.waking_timestamp.append(time - last_waking)
                    last_waking = time
                    cs.waking_pid.append(tid)
                    cs.waking_target_cpu.append(0)
                    cs.waking_prio.append(120)
                    cs.waking_comm_index.append(1)
                    cs.waking_common_flags.append(0)
                else:
                    ev = bundle.event.add()
                    ev.timestamp = time
                    ev.pid = 0
                    ev.sched_waking.pid = tid
                    ev.sched_waking.comm = "t%d" % tid
                    ev.sched_waking.target_cpu = 0
            state = new


def write_others(spec, trace, seq):
    """Other processes with their own slices: the importer must ignore them."""
    for n, other in enumerate(spec.get("others", [])):
        puuid = 5000 + 2 * n
        tuuid = puuid + 1
        p = trace.packet.add()
        p.trusted_packet_sequence_id = 900 + n
        p.sequence_flags = SEQ_CLEARED
        p.track_descriptor.uuid = puuid
        p.track_descriptor.process.pid = other["pid"]
        p.track_descriptor.process.process_name = other["name"]
        p = trace.packet.add()
        p.trusted_packet_sequence_id = 900 + n
        p.track_descriptor.uuid = tuuid
        p.track_descriptor.parent_uuid = puuid
        p.track_descriptor.thread.pid = other["pid"]
        p.track_descriptor.thread.tid = other["tid"]
        p.track_descriptor.thread.thread_name = other["thread"]
        for s in other["slices"]:
            for time, kind in [(s["start"], BEGIN), (s["end"], END)]:
                q = trace.packet.add()
                q.trusted_packet_sequence_id = 900 + n
                q.timestamp = time
                q.track_event.track_uuid = tuuid
                q.track_event.type = kind
                if kind == BEGIN:
                    q.track_event.name = s["name"]


def main():
    spec = json.load(open(sys.argv[1]))
    trace = pb.Trace()
    app = spec["app"]
    # Names of processes and threads, as traced_probes writes them.
    p = trace.packet.add()
    p.trusted_packet_sequence_id = 1
    proc = p.process_tree.processes.add()
    proc.pid = app["pid"]
    proc.ppid = 1
    proc.cmdline.append(app["name"])
    for th in spec["threads"]:
        t = p.process_tree.threads.add()
        t.tid = th["tid"]
        t.tgid = app["pid"]
        t.name = th["name"]
    for other in spec.get("others", []):
        proc = p.process_tree.processes.add()
        proc.pid = other["pid"]
        proc.cmdline.append(other["name"])
        t = p.process_tree.threads.add()
        t.tid = other["tid"]
        t.tgid = other["pid"]
        t.name = other["thread"]
    seq = 1
    if spec["form"] == "trackevent":
        seq = write_trackevent(spec, trace)
    else:
        write_print_events(spec, trace)
    write_others(spec, trace, seq)
    write_sched(spec, trace)
    if "cpuInfo" in spec:
        p = trace.packet.add()
        p.trusted_packet_sequence_id = 1
        for k in range(spec["cpuInfo"]):
            p.cpu_info.cpus.add().processor = "cpu%d" % k
    if "numCpus" in spec:
        p = trace.packet.add()
        p.trusted_packet_sequence_id = 1
        p.system_info.num_cpus = spec["numCpus"]
    data = trace.SerializeToString(deterministic=True)
    for out in sys.argv[2:]:
        with open(out, "wb") as f:
            f.write(gzip.compress(data, mtime=0) if out.endswith(".gz") else data)


if __name__ == "__main__":
    main()

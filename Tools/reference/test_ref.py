#!/usr/bin/env python3
"""Self-tests of launchflow_ref.py (MODEL.md v2.1): the section 6 examples, hand-checked
v1, v2 and v2.1 cases, the hand cases of docs/model.md §3.10 (device.cpus,
mainThreadPriority), §3.11 (mainExecutor), §3.12 (launchPhases, startsIn,
firstDrawMs: the worked examples B1 and B2) and §3.13 (device.clusters, qos: D1-D3),
validation, and schedule invariants over generated scenarios.

Usage: python3 test_ref.py        (exit 0 when all pass)

Every expected number below was worked out by hand from MODEL.md, not taken
from the reference's output.
"""

import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launchflow_ref as ref  # noqa: E402

FAILS = []
COUNT = {"checks": 0}


def us(obj):
    """Ms -> µs int, recursively."""
    if isinstance(obj, ref.Ms):
        return obj.us
    if isinstance(obj, dict):
        return {k: us(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [us(v) for v in obj]
    return obj


def check(label, got, want):
    COUNT["checks"] += 1
    if got != want:
        FAILS.append(f"{label}: got {got!r}, want {want!r}")


def run(sc, strategy, mc=None):
    return us(ref.simulate(sc, strategy, mc))


def tasks_by_id(out):
    return {t["id"]: (t["thread"], t["readyMs"], t["startMs"], t["endMs"]) for t in out["tasks"]}


def commits(out):
    return [(c["startMs"], c["endMs"], c["presentedMs"]) for c in out["commits"]]


EXAMPLE = {
    "name": "Example app",
    "description": "optional free text",
    "device": {"cores": 4, "refreshRate": 60, "commitCost": 0, "renderTime": 0},
    "preMain": [{"name": "dyld", "cost": 80}, {"name": "+load", "cost": 12}],
    "tasks": [
        {"id": "crash-reporter", "cost": 8, "priority": 0},
        {"id": "root-vc", "cost": 30, "mainThreadOnly": True, "firstFrame": True,
         "priority": 0, "dependsOn": ["crash-reporter"]},
    ],
}


def test_rounding():
    r = ref.round_half_away
    check("round 0.5", r(0.5), 1)
    check("round 1.5", r(1.5), 2)
    check("round 2.5", r(2.5), 3)
    check("round 0.49999999999999994", r(0.49999999999999994), 0)
    check("round 2**52+1", r(4503599627370497.0), 4503599627370497)
    check("round -2.5", r(-2.5), -3)
    check("ms 0.0005", ref.ms_to_us(0.0005), 1)        # 0.0005*1000 == 0.5 exactly in doubles
    check("ms 1.2345", ref.ms_to_us(1.2345), 1235)     # 1234.5 (double product) -> 1235
    check("ms 16.667", ref.ms_to_us(16.667), 16667)
    check("F 60", ref.round_half_away(1e6 / 60), 16667)
    check("F 120", ref.round_half_away(1e6 / 120), 8333)
    check("F 59.94", ref.round_half_away(1e6 / 59.94), 16683)
    check("F 7", ref.round_half_away(1e6 / 7), 142857)
    check("text 133336", ref.us_to_ms_text(133336), "133.336")
    check("text 130000", ref.us_to_ms_text(130000), "130")
    check("text 100002", ref.us_to_ms_text(100002), "100.002")
    check("text 1", ref.us_to_ms_text(1), "0.001")
    check("text 1230", ref.us_to_ms_text(1230), "1.23")


def test_example_dag():
    o = run(EXAMPLE, "dag")
    # the section 6 example, v2.1 keys included: firstFrameReadyMs = commit end 130 +
    # renderTime 0; firstFrameBoundMs = vsync at or after 92 + max(8 + 30, 30) + 0 + 0;
    # (v2.2) firstDrawMs = the end of iteration 0's commit, 92 (docs/model.md §8)
    check("dag metrics", o["metrics"], {
        "timeToFirstFrameMs": 133336, "firstFrameReadyMs": 130000, "firstDrawMs": 92000,
        "timeToFullDisplayMs": 133336, "launchCompleteMs": 130000,
        "mainThreadBusyMs": 122000, "mainThreadBlockedMs": 0,
        "cpuUtilization": 0.25, "frames": 2, "maxInputDelayMs": 0, "inputLatencyMaxMs": 0,
        "criticalPathMs": 130000, "lowerBoundMs": 130000, "firstFrameBoundMs": 133336,
        "dependencyViolations": 0})
    check("dag metrics key order", list(o["metrics"]), [
        "timeToFirstFrameMs", "firstFrameReadyMs", "firstDrawMs", "timeToFullDisplayMs",
        "launchCompleteMs", "mainThreadBusyMs", "mainThreadBlockedMs", "cpuUtilization", "frames",
        "maxInputDelayMs", "inputLatencyMaxMs", "criticalPathMs", "lowerBoundMs",
        "firstFrameBoundMs", "dependencyViolations"])
    check("dag key order", list(o), ["scenario", "strategy", "metrics", "preMain", "phases",
                                     "tasks", "inputs", "commits", "violations"])
    check("dag phases", o["phases"], [])
    check("dag preMain", o["preMain"], [{"name": "dyld", "startMs": 0, "endMs": 80000},
                                        {"name": "+load", "startMs": 80000, "endMs": 92000}])
    check("dag tasks", tasks_by_id(o), {"crash-reporter": ("worker-1", 92000, 92000, 100000),
                                        "root-vc": ("main", 100000, 100000, 130000)})
    check("dag commits", commits(o), [(92000, 92000, 100002), (130000, 130000, 133336)])
    check("dag violations", o["violations"], [])
    check("dag header", (o["scenario"], o["strategy"]), ("Example app", "dag"))


def test_example_priority():
    o = run(EXAMPLE, "priority")
    check("prio tasks", tasks_by_id(o), {"crash-reporter": ("worker-1", 92000, 92000, 100000),
                                         "root-vc": ("main", 92000, 92000, 122000)})
    check("prio violations", o["violations"], [{"task": "root-vc", "dependency": "crash-reporter",
                                                "startMs": 92000, "dependencyEndMs": 100000}])
    check("prio commits", commits(o), [(122000, 122000, 133336)])
    m = o["metrics"]
    check("prio dv", m["dependencyViolations"], 1)
    check("prio busy", m["mainThreadBusyMs"], 122000)
    check("prio launch", m["launchCompleteMs"], 122000)


def test_priority_tiers_blocking():
    sc = {"name": "A", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 1},
          "tasks": [
              {"id": "w0", "cost": 5},
              {"id": "m0", "cost": 2, "mainThreadOnly": True},
              {"id": "w1", "cost": 3, "priority": 1},
              {"id": "m1", "cost": 4, "priority": 1, "mainThreadOnly": True, "firstFrame": True},
              {"id": "m2", "cost": 1, "priority": 2, "mainThreadOnly": True}]}
    o = run(sc, "priority")
    check("A tasks", tasks_by_id(o), {
        "w0": ("worker-1", 0, 0, 5000), "m0": ("main", 0, 0, 2000),
        "w1": ("worker-1", 5000, 5000, 8000), "m1": ("main", 5000, 6000, 10000),
        "m2": ("main", 10000, 11000, 12000)})
    check("A commits", commits(o), [(5000, 6000, 6000), (10000, 11000, 11000), (12000, 13000, 13000)])
    m = o["metrics"]
    # v2.1: firstFrameReadyMs = m1's commit end 11; firstFrameBoundMs = 0 + max(4, 4) + 1 + 0 = 5;
    # v2.2: firstDrawMs = iteration 0's commit end, 6
    check("A metrics", {k: m[k] for k in m if k != "cpuUtilization"}, {
        "timeToFirstFrameMs": 11000, "firstFrameReadyMs": 11000, "firstDrawMs": 6000,
        "timeToFullDisplayMs": 11000,
        "launchCompleteMs": 13000, "mainThreadBusyMs": 10000,
        "mainThreadBlockedMs": 3000, "frames": 3, "maxInputDelayMs": 2000, "inputLatencyMaxMs": 0,
        "criticalPathMs": 5000, "lowerBoundMs": 7500, "firstFrameBoundMs": 5000,
        "dependencyViolations": 0})
    check("A cpu", abs(m["cpuUtilization"] - 18 / 26) < 1e-12, True)


def test_dag_zero_cascade():
    sc = {"name": "B", "device": {"cores": 3},
          "tasks": [
              {"id": "a", "cost": 0, "priority": 5},
              {"id": "b", "cost": 0, "mainThreadOnly": True, "dependsOn": ["a"]},
              {"id": "c", "cost": 10, "priority": 1},
              {"id": "d", "cost": 0, "mainThreadOnly": True, "priority": 9},
              {"id": "e", "cost": 0, "dependsOn": ["b"]}]}
    o = run(sc, "dag")
    check("B tasks", tasks_by_id(o), {
        "a": ("worker-2", 0, 0, 0), "b": ("main", 0, 0, 0), "c": ("worker-1", 0, 0, 10000),
        "d": ("main", 0, 0, 0), "e": ("worker-2", 0, 0, 0)})
    check("B commits", commits(o), [(0, 0, 0)] * 3)
    m = o["metrics"]
    check("B some metrics", (m["timeToFirstFrameMs"], m["launchCompleteMs"], m["mainThreadBusyMs"],
                             m["frames"], m["maxInputDelayMs"], m["criticalPathMs"], m["lowerBoundMs"]),
          (0, 10000, 0, 3, 0, 10000, 10000))
    check("B cpu", abs(m["cpuUtilization"] - 1 / 3) < 1e-12, True)


def test_dag_same_instant_rank():
    sc = {"name": "C", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 2},
          "tasks": [
              {"id": "w", "cost": 3},
              {"id": "m5", "cost": 1, "mainThreadOnly": True, "priority": 5, "dependsOn": ["w"]},
              {"id": "m1", "cost": 1, "mainThreadOnly": True, "priority": 1, "dependsOn": ["w"]},
              {"id": "m0", "cost": 1, "mainThreadOnly": True}]}
    o = run(sc, "dag")
    check("C tasks", tasks_by_id(o), {
        "w": ("worker-1", 0, 0, 3000), "m5": ("main", 3000, 6000, 7000),
        "m1": ("main", 3000, 5000, 6000), "m0": ("main", 0, 2000, 3000)})
    check("C commits", commits(o), [(0, 2000, 2000), (3000, 5000, 5000), (7000, 9000, 9000)])
    m = o["metrics"]
    check("C some metrics", (m["timeToFirstFrameMs"], m["launchCompleteMs"], m["mainThreadBusyMs"],
                             m["frames"], m["maxInputDelayMs"], m["criticalPathMs"], m["lowerBoundMs"]),
          (2000, 9000, 9000, 3, 4000, 4000, 4000))


def test_serial_order():
    sc = {"name": "D", "tasks": [
        {"id": "x", "cost": 1, "priority": 2},
        {"id": "y", "cost": 2, "priority": 1, "dependsOn": ["z"]},
        {"id": "z", "cost": 3, "priority": 3},
        {"id": "q", "cost": 4, "priority": 0, "dependsOn": ["x"]}]}
    o = run(sc, "serial")
    check("D tasks", tasks_by_id(o), {
        "x": ("main", 0, 0, 1000), "q": ("main", 0, 1000, 5000),
        "z": ("main", 0, 5000, 8000), "y": ("main", 0, 8000, 10000)})
    check("D commits", commits(o), [(10000, 10000, 16667)])


def test_max_concurrent_blocks_zero_cost():
    sc = {"name": "E", "tasks": [{"id": "a", "cost": 5}, {"id": "b", "cost": 0},
                                 {"id": "c", "cost": 3}]}
    o = run(sc, "dag", 1)
    check("E tasks", tasks_by_id(o), {
        "a": ("worker-1", 0, 0, 5000), "b": ("worker-1", 0, 5000, 5000),
        "c": ("worker-1", 0, 5000, 8000)})
    o = run(sc, "dag")      # default: 3 workers
    check("E tasks default", tasks_by_id(o), {
        "a": ("worker-1", 0, 0, 5000), "b": ("worker-2", 0, 0, 0),
        "c": ("worker-2", 0, 0, 3000)})


def test_priority_zero_cost_t0_block():
    sc = {"name": "F", "tasks": [{"id": "w", "cost": 0},
                                 {"id": "m", "cost": 1, "mainThreadOnly": True, "priority": 1}]}
    o = run(sc, "priority")
    check("F tasks", tasks_by_id(o), {"w": ("worker-1", 0, 0, 0), "m": ("main", 0, 0, 1000)})
    check("F commits", commits(o), [(0, 0, 0), (1000, 1000, 16667)])
    check("F blocked", o["metrics"]["mainThreadBlockedMs"], 0)


def test_all_zero():
    sc = {"name": "G", "device": None, "preMain": None,
          "tasks": [{"id": "only", "cost": 0, "priority": None, "dependsOn": None}]}
    for s in ("serial", "priority", "dag"):
        o = run(sc, s)
        check(f"G {s} cpu", o["metrics"]["cpuUtilization"], 0)
        check(f"G {s} launch", o["metrics"]["launchCompleteMs"], 0)


def invariants(sc_json, strategy, mc=None):
    """v1 schedule properties MODEL.md implies (v1 scenarios); returns the violated ones."""
    sc = ref.Scenario(sc_json)
    o = run(sc_json, strategy, mc)
    bad = []
    T = o["tasks"]
    n = len(T)
    t0 = o["preMain"][-1]["endMs"] if o["preMain"] else 0
    F = sc.frame
    # main-thread activities never overlap and come in time order
    acts = [(p["startMs"], p["endMs"], "pre") for p in o["preMain"]]
    acts += [(t["startMs"], t["endMs"], "task") for t in T if t["thread"] == "main"]
    acts += [(c["startMs"], c["endMs"], "commit") for c in o["commits"]]
    acts.sort(key=lambda a: (a[0], a[1]))
    for a, b in zip(acts, acts[1:]):
        if b[0] < a[1]:
            bad.append(f"main overlap {a} {b}")
    # each worker runs one thing at a time
    per = {}
    for t in T:
        if t["thread"] != "main":
            per.setdefault(t["thread"], []).append((t["startMs"], t["endMs"]))
    for w, iv in per.items():
        iv.sort()
        for a, b in zip(iv, iv[1:]):
            if b[0] < a[1]:
                bad.append(f"{w} overlap {a} {b}")
        if int(w.split("-")[1]) > sc.cores - 1:
            bad.append(f"no such worker {w}")
    for i, t in enumerate(T):
        if t["endMs"] - t["startMs"] != sc.cost[i]:
            bad.append(f"{t['id']} duration")
        if t["startMs"] < t["readyMs"] or t["readyMs"] < t0:
            bad.append(f"{t['id']} ready/start")
        if sc.main_only[i] and t["thread"] != "main":
            bad.append(f"{t['id']} mainThreadOnly off main")
        if strategy == "serial" and t["thread"] != "main":
            bad.append("serial off main")
    for c in o["commits"]:
        if c["endMs"] - c["startMs"] != sc.commit_cost:
            bad.append("commit duration")
        e = c["endMs"] + sc.render_time
        if not (e <= c["presentedMs"] < e + F) or c["presentedMs"] % F:
            bad.append("presentation")
    if strategy == "dag":
        for i, t in enumerate(T):
            want_ready = max([T[d]["endMs"] for d in sc.deps[i]], default=t0)
            if t["readyMs"] != want_ready:
                bad.append(f"{t['id']} dag readyMs {t['readyMs']} want {want_ready}")
        limit = min(mc or sc.cores - 1, sc.cores - 1)
        pts = sorted({t["startMs"] for t in T})
        for x in pts:
            k = sum(1 for t in T if t["thread"] != "main" and t["startMs"] <= x < t["endMs"])
            if k > limit:
                bad.append(f"maxConcurrent exceeded at {x}")
                break
        # work conservation: a ready worker task never waits while a slot is free
        for t in T:
            if t["thread"] == "main" or t["startMs"] == t["readyMs"]:
                continue
            x = t["readyMs"]
            k = sum(1 for u in T if u["thread"] != "main" and u["startMs"] <= x < u["endMs"])
            if k < limit:
                bad.append(f"{t['id']} waited with a free slot at {x}")
    if strategy == "priority":
        tiers = sorted(set(sc.priority))
        ends = {}
        for i, t in enumerate(T):
            ends.setdefault(sc.priority[i], []).append(t["endMs"])
        for k in range(2, len(tiers)):
            opened = max(ends[tiers[k - 1]])
            for i, t in enumerate(T):
                if sc.priority[i] == tiers[k] and t["readyMs"] != opened:
                    bad.append(f"{t['id']} tier {k} readyMs")
        viol = [(v["task"], v["dependency"]) for v in o["violations"]]
        want = [(sc.ids[i], sc.ids[d]) for i in range(n) for d in sc.deps[i]
                if T[i]["startMs"] < T[d]["endMs"]]
        if viol != want:
            bad.append("violations list")
    else:
        if o["violations"]:
            bad.append("violations outside priority")
    m = o["metrics"]
    if m["frames"] != len(o["commits"]):
        bad.append("frames")
    if m["launchCompleteMs"] < m["lowerBoundMs"] and strategy != "priority":
        bad.append("finished before the lower bound")
    if m["mainThreadBlockedMs"] and strategy != "priority":
        bad.append("blocked outside priority")
    return bad


def test_invariants_random_v1():
    import gen_scenarios as gen
    for k in range(120):
        sc = gen.gen_scenario(4242, k, v1=True)
        if len(sc["tasks"]) > 300:
            continue
        for s, mc in (("serial", None), ("priority", None), ("dag", None), ("dag", 1), ("dag", 2)):
            for b in invariants(sc, s, mc)[:3]:
                FAILS.append(f"invariant gen 4242/{k} {s} {mc}: {b}")


def test_notes_cases():
    """The scenarios of NOTES.md, with the expected results worked out there."""
    n1 = {"name": "n1", "device": {"cores": 2}, "tasks": [
        {"id": "z", "cost": 0},
        {"id": "m", "cost": 0, "mainThreadOnly": True, "dependsOn": ["z"]},
        {"id": "w", "cost": 5, "priority": 5, "dependsOn": ["z"]},
        {"id": "w2", "cost": 5, "priority": 1, "dependsOn": ["m"]}]}
    check("n1", tasks_by_id(run(n1, "dag")), {
        "z": ("worker-1", 0, 0, 0), "m": ("main", 0, 0, 0),
        "w": ("worker-1", 0, 0, 5000), "w2": ("worker-1", 0, 5000, 10000)})
    n2 = {"name": "n2", "device": {"cores": 3}, "tasks": [
        {"id": "a", "cost": 4},
        {"id": "z", "cost": 0, "dependsOn": ["a"]},
        {"id": "m9", "cost": 1, "mainThreadOnly": True, "priority": 9, "dependsOn": ["a"]},
        {"id": "m1", "cost": 1, "mainThreadOnly": True, "priority": 1, "dependsOn": ["z"]}]}
    o = run(n2, "dag")
    check("n2", tasks_by_id(o), {
        "a": ("worker-1", 0, 0, 4000), "z": ("worker-1", 4000, 4000, 4000),
        "m9": ("main", 4000, 4000, 5000), "m1": ("main", 4000, 5000, 6000)})
    check("n2 commits", commits(o), [(0, 0, 0), (5000, 5000, 16667), (6000, 6000, 16667)])
    n3 = {"name": "n3", "tasks": [{"id": "d", "cost": 0},
                                  {"id": "x", "cost": 0, "mainThreadOnly": True, "dependsOn": ["d"]}]}
    o = run(n3, "priority")
    check("n3", (tasks_by_id(o), o["violations"]),
          ({"d": ("worker-1", 0, 0, 0), "x": ("main", 0, 0, 0)}, []))
    n5 = {"name": "n5", "device": {"cores": 2, "refreshRate": 1000}, "tasks": [
        {"id": "w", "cost": 3},
        {"id": "f1", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "dependsOn": ["w"]},
        {"id": "f0", "cost": 1, "mainThreadOnly": True, "firstFrame": True}]}
    o = run(n5, "dag")
    check("n5 ttff", o["metrics"]["timeToFirstFrameMs"], 4000)
    check("n5 commits", commits(o), [(0, 0, 0), (1000, 1000, 1000), (4000, 4000, 4000)])
    n6 = {"name": "n6", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 2}, "tasks": [
        {"id": "w", "cost": 2},
        {"id": "m", "cost": 1, "mainThreadOnly": True, "dependsOn": ["w"]},
        {"id": "v", "cost": 2, "mainThreadOnly": True}]}
    o = run(n6, "dag")
    check("n6", tasks_by_id(o), {"w": ("worker-1", 0, 0, 2000), "m": ("main", 2000, 4000, 5000),
                                 "v": ("main", 0, 2000, 4000)})
    check("n6 commits", commits(o), [(0, 2000, 2000), (5000, 7000, 7000)])
    n7 = {"name": "n7", "device": {"cores": 3}, "tasks": [
        {"id": "L", "cost": 10, "mainThreadOnly": True},
        {"id": "a", "cost": 4},
        {"id": "z", "cost": 0, "dependsOn": ["a"]},
        {"id": "m9", "cost": 1, "mainThreadOnly": True, "priority": 9, "dependsOn": ["a"]},
        {"id": "m1", "cost": 1, "mainThreadOnly": True, "priority": 1, "dependsOn": ["z"]}]}
    t = tasks_by_id(run(n7, "dag"))
    check("n7", (t["L"], t["m1"], t["m9"]),
          (("main", 0, 0, 10000), ("main", 4000, 10000, 11000), ("main", 4000, 11000, 12000)))
    n8 = {"name": "n8", "device": {"cores": 2}, "preMain": [{"name": "p", "cost": 0.0005}],
          "tasks": [{"id": f"t{i}", "cost": 0.0005} for i in range(5)]}
    m = run(n8, "dag")["metrics"]
    check("n8", (m["lowerBoundMs"], m["criticalPathMs"]), (1 + 3, 1 + 1))


# ==========================================================================
# v2 hand cases.  Every expected number was worked out by hand from
# MODEL.md v2 (the reasoning is in the comments), not taken from the output.
# Times in µs; device 1000 Hz (F = 1 ms) unless stated, so presentedMs = end.
# ==========================================================================

def t5(out):
    """id -> (thread, readyMs, startMs, endMs, doneMs)."""
    return {t["id"]: (t["thread"], t["readyMs"], t["startMs"], t["endMs"], t["doneMs"])
            for t in out["tasks"]}


def ins(out):
    return [(i["name"], i["atMs"], i["startMs"], i["endMs"]) for i in out["inputs"]]


def mets(out, *keys):
    return tuple(out["metrics"][k] for k in keys)


D2 = {"cores": 2, "refreshRate": 1000}
MS = 1000


def test_v2_latency_done():
    # a runs 0-2 on worker-1 and is done at 2+3 = 5; b depends on a: ready at 5.
    sc = {"name": "L", "device": D2, "tasks": [
        {"id": "a", "cost": 2, "latency": 3},
        {"id": "b", "cost": 1, "dependsOn": ["a"]}]}
    o = run(sc, "dag")
    check("L dag", t5(o), {"a": ("worker-1", 0, 0, 2 * MS, 5 * MS),
                           "b": ("worker-1", 5 * MS, 5 * MS, 6 * MS, 6 * MS)})
    check("L dag commits", commits(o), [(0, 0, 0)])
    # launch = max(last done 6, iteration 0's commit 0); path 0 + (2+3) + 1; cpu 3/(2*6)
    check("L dag metrics", mets(o, "launchCompleteMs", "criticalPathMs", "lowerBoundMs",
                                "cpuUtilization", "mainThreadBlockedMs"),
          (6 * MS, 6 * MS, 6 * MS, 0.25, 0))
    # serial: a 0-2 (done 5); b waits for a's done: blocked 2-5, b 5-6, commit 6
    o = run(sc, "serial")
    check("L serial", t5(o), {"a": ("main", 0, 0, 2 * MS, 5 * MS),
                              "b": ("main", 0, 5 * MS, 6 * MS, 6 * MS)})
    check("L serial commits", commits(o), [(6 * MS, 6 * MS, 6 * MS)])
    check("L serial metrics", mets(o, "mainThreadBlockedMs", "mainThreadBusyMs", "launchCompleteMs"),
          (3 * MS, 3 * MS, 6 * MS))
    # priority: one tier; worker-1 runs a 0-2 then b 2-3 (dependsOn ignored);
    # (3) waits until a is done at 5; the violation compares start(b)=2 < done(a)=5
    o = run(sc, "priority")
    check("L prio", t5(o), {"a": ("worker-1", 0, 0, 2 * MS, 5 * MS),
                            "b": ("worker-1", 0, 2 * MS, 3 * MS, 3 * MS)})
    check("L prio commits", commits(o), [(5 * MS, 5 * MS, 5 * MS)])
    check("L prio viol", o["violations"], [{"task": "b", "dependency": "a", "startMs": 2 * MS,
                                            "dependencyEndMs": 5 * MS}])
    check("L prio metrics", mets(o, "mainThreadBlockedMs", "launchCompleteMs"), (5 * MS, 5 * MS))


def test_v2_delay_release():
    # dag: both ready at 0; a released at 2 (worker 2-3), m released at 3 into the
    # main queue (iteration 1: 3-4).  readyMs is the hand-over instant.
    sc = {"name": "Dl", "device": D2, "tasks": [
        {"id": "a", "cost": 1, "delay": 2},
        {"id": "m", "cost": 1, "mainThreadOnly": True, "delay": 3}]}
    want = {"a": ("worker-1", 2 * MS, 2 * MS, 3 * MS, 3 * MS),
            "m": ("main", 3 * MS, 3 * MS, 4 * MS, 4 * MS)}
    o = run(sc, "dag")
    check("Dl dag", t5(o), want)
    check("Dl dag commits", commits(o), [(0, 0, 0), (4 * MS, 4 * MS, 4 * MS)])
    # priority: m is not inline (delay > 0), a is delayed: (3) waits for nobody
    o = run(sc, "priority")
    check("Dl prio", t5(o), want)
    check("Dl prio commits", commits(o), [(0, 0, 0), (4 * MS, 4 * MS, 4 * MS)])
    # serial ignores delay: a 0-1, m 1-2 on main
    o = run(sc, "serial")
    check("Dl serial", t5(o), {"a": ("main", 0, 0, 1 * MS, 1 * MS),
                               "m": ("main", 0, 1 * MS, 2 * MS, 2 * MS)})


def test_v2_queue_workers_and_main():
    # 2 workers.  w1, w2, m share queue q; x has none.  dFL's step releases all;
    # then q admits w1 (best rank).  w1 0-2 done 3 -> q admits w2 (3-4) -> then m
    # (main queue at 4, iteration 1: 4-5).  x runs at once on worker-2.
    sc = {"name": "Q", "device": {"cores": 3, "refreshRate": 1000}, "tasks": [
        {"id": "w1", "cost": 2, "queue": "q", "latency": 1},
        {"id": "w2", "cost": 1, "queue": "q"},
        {"id": "m", "cost": 1, "queue": "q", "mainThreadOnly": True},
        {"id": "x", "cost": 1}]}
    o = run(sc, "dag")
    check("Q dag", t5(o), {"w1": ("worker-1", 0, 0, 2 * MS, 3 * MS),
                           "w2": ("worker-1", 3 * MS, 3 * MS, 4 * MS, 4 * MS),
                           "m": ("main", 4 * MS, 4 * MS, 5 * MS, 5 * MS),
                           "x": ("worker-2", 0, 0, 1 * MS, 1 * MS)})
    check("Q dag commits", commits(o), [(0, 0, 0), (5 * MS, 5 * MS, 5 * MS)])


def test_v2_queue_admission_after_full_step():
    # 1 worker.  h holds q until 2.  At 2 (step 1): h is done -> y (prio 5) and
    # z (prio 1) become ready and join q's held set, q is free, and r (prio 3,
    # delay 2) is released into q too.  Only then q admits: z, then r, then y.
    sc = {"name": "QA", "device": D2, "tasks": [
        {"id": "h", "cost": 2, "queue": "q", "priority": 9},
        {"id": "y", "cost": 1, "queue": "q", "priority": 5, "dependsOn": ["h"]},
        {"id": "z", "cost": 1, "queue": "q", "priority": 1, "dependsOn": ["h"]},
        {"id": "r", "cost": 1, "queue": "q", "priority": 3, "delay": 2}]}
    check("QA dag", t5(run(sc, "dag")), {
        "h": ("worker-1", 0, 0, 2 * MS, 2 * MS), "y": ("worker-1", 4 * MS, 4 * MS, 5 * MS, 5 * MS),
        "z": ("worker-1", 2 * MS, 2 * MS, 3 * MS, 3 * MS), "r": ("worker-1", 3 * MS, 3 * MS, 4 * MS, 4 * MS)})
    # didFinishLaunching's step releases a and b together: q admits b (prio 1) first
    sc = {"name": "QB", "device": D2, "tasks": [
        {"id": "a", "cost": 1, "queue": "q", "priority": 5},
        {"id": "b", "cost": 1, "queue": "q", "priority": 1}]}
    check("QB dag", t5(run(sc, "dag")), {"a": ("worker-1", 1 * MS, 1 * MS, 2 * MS, 2 * MS),
                                         "b": ("worker-1", 0, 0, 1 * MS, 1 * MS)})


IDLE_SC = {"name": "I", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 1},
           "inputs": [{"name": "tap", "at": 1, "cost": 1}],
           "tasks": [{"id": "i1", "cost": 2, "mainThreadOnly": True, "idle": True},
                     {"id": "i2", "cost": 2, "mainThreadOnly": True, "idle": True}]}


def test_v2_idle_batch_vs_one_by_one():
    # batch: iteration 0's idle step at 0 (the tap arrives only at 1) runs i1 0-2
    # and i2 2-4, uninterrupted; commit 4-5.  Iteration 1 takes the tap: 5-6, commit 6-7.
    o = run(IDLE_SC, "dag")
    check("I batch", t5(o), {"i1": ("main", 0, 0, 2 * MS, 2 * MS),
                             "i2": ("main", 0, 2 * MS, 4 * MS, 4 * MS)})
    check("I batch inputs", ins(o), [("tap", 1 * MS, 5 * MS, 6 * MS)])
    check("I batch commits", commits(o), [(4 * MS, 5 * MS, 5 * MS), (6 * MS, 7 * MS, 7 * MS)])
    # launch: iteration 1 only handled an input, so it does not count: 5.
    # maxInputDelay: iteration 1 (after the first-frame iteration 0): 5-7.  cpu 7/(2*7).
    check("I batch metrics", mets(o, "inputLatencyMaxMs", "launchCompleteMs", "maxInputDelayMs",
                                  "mainThreadBusyMs", "cpuUtilization", "frames"),
          (4 * MS, 5 * MS, 2 * MS, 7 * MS, 0.5, 2))
    # oneByOne: i1 0-2, commit 2-3; iteration 1 at 3: tap 3-4, then the idle step
    # runs i2 4-6, commit 6-7.
    for o in (run(dict(IDLE_SC, idleMode="oneByOne"), "dag"),
              us(ref.simulate(IDLE_SC, "dag", idle_mode="oneByOne"))):
        check("I 1by1", t5(o), {"i1": ("main", 0, 0, 2 * MS, 2 * MS),
                                "i2": ("main", 0, 4 * MS, 6 * MS, 6 * MS)})
        check("I 1by1 inputs", ins(o), [("tap", 1 * MS, 3 * MS, 4 * MS)])
        check("I 1by1 commits", commits(o), [(2 * MS, 3 * MS, 3 * MS), (6 * MS, 7 * MS, 7 * MS)])
        check("I 1by1 metrics", mets(o, "inputLatencyMaxMs", "launchCompleteMs", "maxInputDelayMs"),
              (2 * MS, 7 * MS, 4 * MS))
    # the CLI override wins over the scenario's idleMode
    o = us(ref.simulate(dict(IDLE_SC, idleMode="oneByOne"), "dag", idle_mode="batch"))
    check("I override", commits(o), [(4 * MS, 5 * MS, 5 * MS), (6 * MS, 7 * MS, 7 * MS)])


def test_v2_input_cancels_iteration0_idle():
    # t0 = 2; the tap arrived at 1 (during preMain), or exactly at t0: pending, so
    # iteration 0 (which takes no input) has no idle step; commit at 2.
    # Iteration 1 at 2: tap 2-3, idle step: i 3-4, commit 4.
    for at in (1, 2):
        sc = {"name": "IC", "device": D2, "preMain": [{"name": "dyld", "cost": 2}],
              "inputs": [{"at": at, "cost": 1}],
              "tasks": [{"id": "i", "cost": 1, "mainThreadOnly": True, "idle": True}]}
        o = run(sc, "dag")
        check(f"IC{at}", t5(o), {"i": ("main", 2 * MS, 3 * MS, 4 * MS, 4 * MS)})
        check(f"IC{at} inputs", ins(o), [("input-1", at * MS, 2 * MS, 3 * MS)])
        check(f"IC{at} commits", commits(o), [(2 * MS, 2 * MS, 2 * MS), (4 * MS, 4 * MS, 4 * MS)])
        check(f"IC{at} metrics", mets(o, "inputLatencyMaxMs", "maxInputDelayMs", "timeToFirstFrameMs"),
              ((2 - at) * MS, 2 * MS, 2 * MS))
    # an input arriving exactly as the last item ends cancels that iteration's idle
    # step: m runs 0-2 in iteration 1, the tap arrives at 2, commit at 2;
    # iteration 2: tap 2-3, idle i 3-4, commit 4.
    sc = {"name": "IB", "device": D2, "inputs": [{"at": 2, "cost": 1}],
          "tasks": [{"id": "m", "cost": 2, "mainThreadOnly": True},
                    {"id": "i", "cost": 1, "mainThreadOnly": True, "idle": True}]}
    o = run(sc, "dag")
    check("IB", t5(o), {"m": ("main", 0, 0, 2 * MS, 2 * MS), "i": ("main", 0, 3 * MS, 4 * MS, 4 * MS)})
    check("IB inputs", ins(o), [("input-1", 2 * MS, 2 * MS, 3 * MS)])
    check("IB commits", commits(o), [(0, 0, 0), (2 * MS, 2 * MS, 2 * MS), (4 * MS, 4 * MS, 4 * MS)])


def test_v2_serial_blocked_on_queue():
    # a 0-1 (done 4) keeps q busy; b (same queue) may not start, c may: 1-3;
    # then blocked 3-4 until a is done; b 4-5; returns, commit 5.
    sc = {"name": "SQ", "device": D2, "tasks": [
        {"id": "a", "cost": 1, "queue": "q", "latency": 3},
        {"id": "b", "cost": 1, "queue": "q"},
        {"id": "c", "cost": 2, "priority": 5}]}
    o = run(sc, "serial")
    check("SQ", t5(o), {"a": ("main", 0, 0, 1 * MS, 4 * MS), "b": ("main", 0, 4 * MS, 5 * MS, 5 * MS),
                        "c": ("main", 0, 1 * MS, 3 * MS, 3 * MS)})
    check("SQ commits", commits(o), [(5 * MS, 5 * MS, 5 * MS)])
    check("SQ metrics", mets(o, "mainThreadBlockedMs", "mainThreadBusyMs"), (1 * MS, 4 * MS))


def test_v2_priority_inline_queued():
    # (1) h is released and admitted by q (worker-1 0-2).  (2) didFinishLaunching
    # reaches x (inline, queue q): released, q busy -> blocked 0-2; at 2 q admits x
    # (readyMs 2) and dFL runs it 2-3; then y (inline, readyMs t0) 3-4.  Commit 4.
    sc = {"name": "PI", "device": D2, "tasks": [
        {"id": "h", "cost": 2, "queue": "q"},
        {"id": "x", "cost": 1, "queue": "q", "mainThreadOnly": True},
        {"id": "y", "cost": 1, "mainThreadOnly": True}]}
    o = run(sc, "priority")
    check("PI", t5(o), {"h": ("worker-1", 0, 0, 2 * MS, 2 * MS), "x": ("main", 2 * MS, 2 * MS, 3 * MS, 3 * MS),
                        "y": ("main", 0, 3 * MS, 4 * MS, 4 * MS)})
    check("PI commits", commits(o), [(4 * MS, 4 * MS, 4 * MS)])
    check("PI blocked", o["metrics"]["mainThreadBlockedMs"], 2 * MS)


def test_v2_priority_take_out():
    # I (idle, q) and W (worker, q) are released by step (1); q admits I (better
    # rank) -> idle queue.  (3) waits for W, which waits for q, which I holds: the
    # take-out runs I 0-1 in iteration 0; q admits W (readyMs 1): 1-3; blocked 1-3.
    sc = {"name": "TO", "device": D2, "tasks": [
        {"id": "I", "cost": 1, "mainThreadOnly": True, "idle": True, "queue": "q"},
        {"id": "W", "cost": 2, "queue": "q"}]}
    o = run(sc, "priority")
    check("TO", t5(o), {"I": ("main", 0, 0, 1 * MS, 1 * MS), "W": ("worker-1", 1 * MS, 1 * MS, 3 * MS, 3 * MS)})
    check("TO commits", commits(o), [(3 * MS, 3 * MS, 3 * MS)])
    check("TO blocked", o["metrics"]["mainThreadBlockedMs"], 2 * MS)
    # from the main queue: A holds q 0-1 (done 3); M (delay 1) is released at 1 and
    # held; at 3 q admits M (better rank than W) -> main queue; dFL, blocked since
    # 0, takes M out: 3-4; q admits W (readyMs 4): 4-5; blocked 4-5; return at 5.
    sc = {"name": "TM", "device": D2, "tasks": [
        {"id": "A", "cost": 1, "latency": 2, "queue": "q"},
        {"id": "M", "cost": 1, "mainThreadOnly": True, "delay": 1, "queue": "q"},
        {"id": "W", "cost": 1, "queue": "q"}]}
    o = run(sc, "priority")
    check("TM", t5(o), {"A": ("worker-1", 0, 0, 1 * MS, 3 * MS), "M": ("main", 3 * MS, 3 * MS, 4 * MS, 4 * MS),
                        "W": ("worker-1", 4 * MS, 4 * MS, 5 * MS, 5 * MS)})
    check("TM commits", commits(o), [(5 * MS, 5 * MS, 5 * MS)])
    check("TM blocked", o["metrics"]["mainThreadBlockedMs"], 4 * MS)


def test_v2_priority_tier_waits_for_latency():
    # m (inline T0) 0-1, done 5; dFL returns at 1 (commit at 1); T1 opens at 5.
    sc = {"name": "PT", "device": D2, "tasks": [
        {"id": "m", "cost": 1, "mainThreadOnly": True, "latency": 4},
        {"id": "n", "cost": 1, "mainThreadOnly": True, "priority": 1}]}
    o = run(sc, "priority")
    check("PT", t5(o), {"m": ("main", 0, 0, 1 * MS, 5 * MS), "n": ("main", 5 * MS, 5 * MS, 6 * MS, 6 * MS)})
    check("PT commits", commits(o), [(1 * MS, 1 * MS, 1 * MS), (6 * MS, 6 * MS, 6 * MS)])


def test_v2_anchor_closure_dag():
    # closure = {a (anchor), d (its dependency), s (main, shares q with a)}: c = 0.
    # dFL's step: w, m, d, s ready; s held then admitted by q -> main queue; dFL
    # runs s 0-1 (m, outside the closure, stays for iteration 1).  worker-1 takes
    # d (rank (0,0,2)) before w ((1,0,0)): 0-2.  a ready at 2 (q is free): 2-3.
    # Blocked 1-3; dFL returns at 3, commit 3; iteration 1: m 3-4; w 3-4.
    sc = {"name": "AC", "device": D2, "tasks": [
        {"id": "w", "cost": 1},
        {"id": "m", "cost": 1, "mainThreadOnly": True},
        {"id": "d", "cost": 2},
        {"id": "a", "cost": 1, "anchor": True, "queue": "q", "dependsOn": ["d"]},
        {"id": "s", "cost": 1, "mainThreadOnly": True, "queue": "q"}]}
    want = {"w": ("worker-1", 0, 3 * MS, 4 * MS, 4 * MS), "m": ("main", 0, 3 * MS, 4 * MS, 4 * MS),
            "d": ("worker-1", 0, 0, 2 * MS, 2 * MS), "a": ("worker-1", 2 * MS, 2 * MS, 3 * MS, 3 * MS),
            "s": ("main", 0, 0, 1 * MS, 1 * MS)}
    for st in ("dag", "anchored"):          # no firstFrame task: anchored is dag
        o = run(sc, st)
        check(f"AC {st}", t5(o), want)
        check(f"AC {st} commits", commits(o), [(3 * MS, 3 * MS, 3 * MS), (4 * MS, 4 * MS, 4 * MS)])
        check(f"AC {st} blocked", o["metrics"]["mainThreadBlockedMs"], 2 * MS)
    # an idle task in the closure goes to the main queue; one outside waits for the
    # idle step: I 0-1 (dFL), a 1-2 (blocked 1-2), return, idle step J 2-3, commit 3.
    sc = {"name": "AI", "device": D2, "tasks": [
        {"id": "I", "cost": 1, "mainThreadOnly": True, "idle": True},
        {"id": "a", "cost": 1, "anchor": True, "dependsOn": ["I"]},
        {"id": "J", "cost": 1, "mainThreadOnly": True, "idle": True}]}
    o = run(sc, "dag")
    check("AI", t5(o), {"I": ("main", 0, 0, 1 * MS, 1 * MS), "a": ("worker-1", 1 * MS, 1 * MS, 2 * MS, 2 * MS),
                        "J": ("main", 0, 2 * MS, 3 * MS, 3 * MS)})
    check("AI commits", commits(o), [(3 * MS, 3 * MS, 3 * MS)])


def test_v2_anchored_example():
    # MODEL.md section 6: blocked 92-100, root-vc 100-130, commit at 130 (133.336), one frame.
    o = run(EXAMPLE, "anchored")
    check("anch tasks", t5(o), {"crash-reporter": ("worker-1", 92000, 92000, 100000, 100000),
                                "root-vc": ("main", 100000, 100000, 130000, 130000)})
    check("anch commits", commits(o), [(130000, 130000, 133336)])
    check("anch metrics", o["metrics"], {
        "timeToFirstFrameMs": 133336, "firstFrameReadyMs": 130000, "firstDrawMs": 130000,
        "timeToFullDisplayMs": 133336,
        "launchCompleteMs": 130000, "mainThreadBusyMs": 122000,
        "mainThreadBlockedMs": 8000, "cpuUtilization": 0.25, "frames": 1, "maxInputDelayMs": 0,
        "inputLatencyMaxMs": 0, "criticalPathMs": 130000, "lowerBoundMs": 130000,
        "firstFrameBoundMs": 133336, "dependencyViolations": 0})
    check("anch strategy", o["strategy"], "anchored")


def test_v2_anchored_first_frame_latency():
    # anchored: f (firstFrame) is waited for until it ends, g (firstFrame + anchor)
    # until done.  f 0-1 (done 6), g 1-2 (done 4), blocked 2-4, commit 4.
    sc = {"name": "FF", "device": D2, "tasks": [
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "latency": 5},
        {"id": "g", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "anchor": True, "latency": 2}]}
    o = run(sc, "anchored")
    check("FF anch", t5(o), {"f": ("main", 0, 0, 1 * MS, 6 * MS), "g": ("main", 0, 1 * MS, 2 * MS, 4 * MS)})
    check("FF anch commits", commits(o), [(4 * MS, 4 * MS, 4 * MS)])
    check("FF anch metrics", mets(o, "timeToFirstFrameMs", "launchCompleteMs", "mainThreadBlockedMs"),
          (4 * MS, 6 * MS, 2 * MS))
    # dag: only g is an anchor: g 0-1 (done 3), blocked 1-3, commit 3; f in iteration 1: 3-4.
    o = run(sc, "dag")
    check("FF dag", t5(o), {"f": ("main", 0, 3 * MS, 4 * MS, 9 * MS), "g": ("main", 0, 0, 1 * MS, 3 * MS)})
    check("FF dag commits", commits(o), [(3 * MS, 3 * MS, 3 * MS), (4 * MS, 4 * MS, 4 * MS)])
    check("FF dag metrics", mets(o, "timeToFirstFrameMs", "launchCompleteMs", "criticalPathMs"),
          (4 * MS, 9 * MS, 6 * MS))


def test_v2_max_concurrent_latency():
    # 3 workers.  -mc 2: a (worker-1) and b (worker-2) at 0; at 1 b is done, a is in
    # its latency until 6 and still holds a slot: c 1-2.  -mc 1: b waits for a's done.
    sc = {"name": "MC", "device": {"cores": 4, "refreshRate": 1000}, "tasks": [
        {"id": "a", "cost": 1, "latency": 5}, {"id": "b", "cost": 1}, {"id": "c", "cost": 1}]}
    check("MC 2", t5(run(sc, "dag", 2)), {
        "a": ("worker-1", 0, 0, 1 * MS, 6 * MS), "b": ("worker-2", 0, 0, 1 * MS, 1 * MS),
        "c": ("worker-1", 0, 1 * MS, 2 * MS, 2 * MS)})
    check("MC 1", t5(run(sc, "anchored", 1)), {
        "a": ("worker-1", 0, 0, 1 * MS, 6 * MS), "b": ("worker-1", 0, 6 * MS, 7 * MS, 7 * MS),
        "c": ("worker-1", 0, 7 * MS, 8 * MS, 8 * MS)})
    check("MC none", t5(run(sc, "dag")), {
        "a": ("worker-1", 0, 0, 1 * MS, 6 * MS), "b": ("worker-2", 0, 0, 1 * MS, 1 * MS),
        "c": ("worker-3", 0, 0, 1 * MS, 1 * MS)})
    # a zero-cost task in its latency holds the only slot: e waits until 3
    sc = {"name": "MZ", "device": {"cores": 4, "refreshRate": 1000}, "tasks": [
        {"id": "z", "cost": 0, "latency": 3}, {"id": "e", "cost": 1}]}
    check("MZ 1", t5(run(sc, "dag", 1)), {"z": ("worker-1", 0, 0, 0, 3 * MS),
                                          "e": ("worker-1", 0, 3 * MS, 4 * MS, 4 * MS)})
    # --max-concurrent is ignored by serial and priority
    check("MC prio", t5(run(sc, "priority", 1))["e"], ("worker-1", 0, 0, 1 * MS, 1 * MS))


def test_v2_v1_scenario_new_keys():
    import gen_scenarios as gen
    for k in range(20):
        sc = gen.gen_scenario(77, k, v1=True)
        if len(sc["tasks"]) > 300:
            continue
        for s in ref.STRATEGIES:
            o = run(sc, s)
            check(f"v1 {k} {s} inputs", (o["inputs"], o["metrics"]["inputLatencyMaxMs"]), ([], 0))
            if any(t["doneMs"] != t["endMs"] for t in o["tasks"]):
                FAILS.append(f"v1 {k} {s}: doneMs != endMs")
        if not any(t.get("firstFrame") for t in sc["tasks"]):     # no anchors: anchored is dag
            check(f"v1 {k} anchored = dag", {**run(sc, "anchored"), "strategy": "dag"}, run(sc, "dag"))


BAD_SCENARIOS = [
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "idle": True}]}, "idle task must be mainThreadOnly"),
    ({"name": "x", "idleMode": "batches", "tasks": [{"id": "a", "cost": 1}]}, "did you mean 'batch'"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "queue": ""}]}, "queue: must not be empty"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "group": ""}]}, "group: must not be empty"),
    ({"name": "x", "inputs": [{"name": "", "at": 1, "cost": 1}], "tasks": [{"id": "a", "cost": 1}]},
     "name: must not be empty"),
    ({"name": "x", "inputs": [{"cost": 1}], "tasks": [{"id": "a", "cost": 1}]}, "missing key 'at'"),
    ({"name": "x", "inputs": [{"at": 1}], "tasks": [{"id": "a", "cost": 1}]}, "missing key 'cost'"),
    ({"name": "x", "inputs": [{"at": 1, "cost": 1, "nme": "t"}], "tasks": [{"id": "a", "cost": 1}]},
     "did you mean 'name'"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "latency": 3600000.5}]}, "more than 3600000"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "delay": -1}]}, "negative"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "latency": 2, "latencyP90": 1}]}, "less than latency"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "latencyP90": -0.5}]}, "negative"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "anchor": 1}]}, "expected a boolean"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "anchr": True}]}, "did you mean 'anchor'"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "dependsOn": ["b"]},
                             {"id": "b", "cost": 1, "dependsOn": ["a"]}]}, "a → b → a"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "priority": 4.5}]}, "not an integer"),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1e400}]}, "beyond the double range"),
    ({"name": "x", "device": {"cores": 1}, "tasks": [{"id": "a", "cost": 1}]}, "out of range"),
    ({"name": "x", "tasks": []}, "no tasks"),
]


def test_v2_validation():
    for sc, want in BAD_SCENARIOS:
        probs = ref.validate(sc)
        if not any(want in p for p in probs):
            FAILS.append(f"validation: want {want!r} in {probs!r}")
    # every problem is listed, not only the first
    sc = {"name": "x", "idleMode": "x", "inputs": [{"at": 1}],
          "tasks": [{"id": "a", "cost": 1, "idle": True, "queue": ""}]}
    check("validation all", len(ref.validate(sc)), 4)
    # valid v2 keys, nulls as absent, integers as 4.0
    ok = {"name": "ok", "idleMode": None, "inputs": [{"name": None, "at": 0, "cost": 0}],
          "tasks": [{"id": "a", "cost": 1, "latency": 2, "latencyP90": 2, "delay": None, "queue": "q",
                     "idle": True, "mainThreadOnly": True, "anchor": False, "group": "g",
                     "priority": 4.0}]}
    check("validation ok", ref.validate(ok), [])
    check("input default name", ins(run(ok, "dag"))[0][0], "input-1")


def test_v2_guard():
    # Without the take-out, the TO scenario would wait forever: the guard must say
    # so (SimulationStuck), not loop.
    class NoTakeOut(ref.Simulation):
        def take_out_or_block(self):
            return self.block()
    sc = ref.Scenario({"name": "TO", "device": D2, "tasks": [
        {"id": "I", "cost": 1, "mainThreadOnly": True, "idle": True, "queue": "q"},
        {"id": "W", "cost": 2, "queue": "q"}]})
    try:
        NoTakeOut(sc, "priority").run()
        FAILS.append("guard: no SimulationStuck")
    except ref.SimulationStuck as e:
        check("guard message", "never done" in str(e) and "blocked" in str(e), True)


# ---- v2 invariants over generated scenarios -----------------------------------

def invariants_v2(sc_json, strategy, mc=None, idle_mode=None):
    """Properties MODEL.md v2 and v2.1 imply; returns the violated ones."""
    sc = ref.Scenario(sc_json)
    sim = ref.Simulation(sc, strategy, mc, idle_mode)
    sim.run()                                   # every run ends (raises otherwise)
    o = us(ref.result_object(sim))
    bad = []
    T = o["tasks"]
    t0 = sim.t0
    t1 = sim.t1                   # (§3.12) dFL's start: t0 without launch phases
    # (v2.1) the first-frame commit: the first commit after every firstFrame task ended
    # (in event order: a zero-cost firstFrame task may run in a later iteration at the
    # instant of an earlier commit, so times alone cannot tell; the commit index comes
    # from the simulation and the times are checked against it)
    ff_ends = [T[i]["endMs"] for i in range(sc.n) if sc.first_frame[i]]
    C = o["commits"]
    ffc = C[sim.ff_commit]
    if ff_ends and not (ffc["startMs"] >= max(ff_ends)
                        and (sim.ff_commit == 0 or C[sim.ff_commit - 1]["startMs"] <= max(ff_ends))):
        bad.append("the first-frame commit is not the first after the firstFrame tasks")
    if not ff_ends and sim.ff_commit != 0:
        bad.append("no firstFrame task: the first-frame commit is not iteration 0's")
    P = ffc["presentedMs"]
    m = o["metrics"]
    if m["timeToFirstFrameMs"] != P:
        bad.append(f"timeToFirstFrameMs {m['timeToFirstFrameMs']} != first commit after the "
                   f"firstFrame tasks {P}")
    if m["firstFrameReadyMs"] != ffc["endMs"] + sc.render_time:
        bad.append("firstFrameReadyMs")
    fd = [i for i in range(sc.n) if sc.fully_drawn[i]]
    fdc = C[sim.iter_of[max(fd, key=lambda i: sim.main_seq[i])]] if fd else ffc
    if fd and fdc["startMs"] < max(T[i]["endMs"] for i in fd):
        bad.append("the full-display commit starts before a fullyDrawn task ended")
    if m["timeToFullDisplayMs"] != max(P, fdc["presentedMs"]):
        bad.append("timeToFullDisplayMs")
    if strategy != "priority" and m["timeToFirstFrameMs"] < m["firstFrameBoundMs"]:
        bad.append(f"first frame {m['timeToFirstFrameMs']} before its bound {m['firstFrameBoundMs']}")
    qsum = {}
    for i in range(sc.n):
        if sc.queue[i] is not None:
            qsum[sc.queue[i]] = qsum.get(sc.queue[i], 0) + sc.cost[i] + sc.latency[i]
    if m["launchCompleteMs"] < t1 + max(qsum.values(), default=0):
        bad.append("done before a queue's bound")
    for i, t in enumerate(T):
        if sc.after[i]:
            if strategy == "serial":
                if t["readyMs"] != t1:
                    bad.append(f"{t['id']} serial readyMs of an after task")
            elif t["readyMs"] < P + sc.delay[i]:
                bad.append(f"{t['id']} (after) handed over at {t['readyMs']}, before P + delay")
    # done = end + latency; duration = cost
    for i, t in enumerate(T):
        if t["doneMs"] != t["endMs"] + sc.latency[i]:
            bad.append(f"{t['id']} done != end + latency")
        if sim.contended:
            # (§3.10) stretched, never shortened; the main thread at full speed with
            # mainThreadPriority
            exact = sc.main_thread_priority and sc.clusters is None and t["thread"] == "main"
            if t["endMs"] - t["startMs"] < sc.cost[i] or (exact and t["endMs"] - t["startMs"] != sc.cost[i]):
                bad.append(f"{t['id']} duration {t['endMs'] - t['startMs']} for cost {sc.cost[i]}")
        elif t["endMs"] - t["startMs"] != sc.cost[i]:
            bad.append(f"{t['id']} duration")
        if not (t1 <= t["readyMs"] <= t["startMs"]):
            bad.append(f"{t['id']} ready/start")
        if sc.main_only[i] and t["thread"] != "main":
            bad.append(f"{t['id']} mainThreadOnly off main")
        if strategy == "serial" and t["thread"] != "main":
            bad.append("serial off main")
        if strategy == "dag" or strategy == "anchored":
            if sc.queue[i] is None:
                r = max([T[d]["doneMs"] for d in sc.deps[i]], default=t1)
                if sc.after[i]:
                    r = max(r, P)          # (v2.1) held until P, delay counted from then
                want = r + sc.delay[i]
                if t["readyMs"] != want:
                    bad.append(f"{t['id']} readyMs {t['readyMs']} want {want}")
    # no violation outside priority; the list under priority
    want_v = [(sc.ids[i], sc.ids[d]) for i in range(sc.n) for d in sc.deps[i]
              if T[i]["startMs"] < T[d]["doneMs"]]
    got_v = [(v["task"], v["dependency"]) for v in o["violations"]]
    if got_v != want_v:
        bad.append("violations list")
    if strategy != "priority" and got_v:
        bad.append("violation outside priority")
    # a queue never has two tasks in flight (admission = readyMs, or start under serial)
    byq = {}
    for i, t in enumerate(T):
        if sc.queue[i] is not None:
            s = t["startMs"] if strategy == "serial" else t["readyMs"]
            byq.setdefault(sc.queue[i], []).append((s, t["doneMs"], t["id"]))
    for q, iv in byq.items():
        iv.sort()
        for a, b in zip(iv, iv[1:]):
            if b[0] < a[1]:
                bad.append(f"queue {sc.queue_names[q]!r}: {a[2]} and {b[2]} in flight together")
    # main thread: preMain, launch phases' own work, tasks, inputs and commits never overlap
    acts = [(p["startMs"], p["endMs"]) for p in o["preMain"]]
    acts += list(zip(sim.phase_start, sim.phase_cost_end))
    acts += [(t["startMs"], t["endMs"]) for t in T if t["thread"] == "main"]
    acts += [(x["startMs"], x["endMs"]) for x in o["inputs"]]
    acts += [(c["startMs"], c["endMs"]) for c in o["commits"]]
    acts.sort()
    for a, b in zip(acts, acts[1:]):
        if b[0] < a[1]:
            bad.append(f"main overlap {a} {b}")
    per = {}
    for t in T:
        if t["thread"] != "main":
            per.setdefault(t["thread"], []).append((t["startMs"], t["endMs"]))
    for w, iv in per.items():
        iv.sort()
        for a, b in zip(iv, iv[1:]):
            if b[0] < a[1]:
                bad.append(f"{w} overlap")
    # inputs: handled after they arrive, from iteration 1 on, in (at, position) order
    first_commit_end = o["commits"][0]["endMs"]
    for x in o["inputs"]:
        if x["startMs"] < x["atMs"] or x["startMs"] < first_commit_end:
            bad.append(f"input {x['name']} too early")
    order = sorted(range(len(o["inputs"])), key=lambda k: (o["inputs"][k]["atMs"], k))
    starts = [o["inputs"][k]["startMs"] for k in order]
    if starts != sorted(starts):
        bad.append("inputs out of order")
    # an idle step never runs while the main queue holds a task or an input is pending
    for (s, taken) in sim.idle_steps:
        for x in o["inputs"]:
            if x["atMs"] <= s < x["startMs"]:
                bad.append(f"idle step at {s} with input {x['name']} pending")
        for i, t in enumerate(T):
            # (§3.11) under operationQueue a task reaches the main queue at its admission
            queued = sim.mq_at[i] if sim.op_mode else t["readyMs"]
            if (sc.main_only[i] and not sim.eff_idle[i] and queued is not None and queued < s < t["startMs"]
                    and sim.iter_of[i] != 0):
                bad.append(f"idle step at {s} while {t['id']} waits in the main queue")
        if idle_mode_of(sc, idle_mode) == "oneByOne" and len(taken) != 1:
            bad.append("oneByOne idle step ran several tasks")
    # workers: a ready worker task waits only when every worker is busy or the limit is reached
    limit = mc if (mc is not None and strategy in ("dag", "anchored")) else None
    W = [t for t in T if t["thread"] != "main"]
    for t in W:
        x = t["readyMs"]
        if t["startMs"] == x:
            continue
        busy = sum(1 for u in W if u["startMs"] <= x < u["endMs"])
        flight = sum(1 for u in W if u["startMs"] <= x < u["doneMs"])
        if busy < sc.cores - 1 and (limit is None or flight < limit):
            bad.append(f"{t['id']} waited at {x} with a free worker")
    if limit is not None:
        for x in sorted({t["startMs"] for t in W}):
            if sum(1 for u in W if u["startMs"] <= x < u["doneMs"]) > limit:
                bad.append(f"more than {limit} in flight at {x}")
                break
    if m["frames"] != len(o["commits"]):
        bad.append("frames")
    if strategy != "priority" and m["launchCompleteMs"] < m["lowerBoundMs"]:
        bad.append("done before the lower bound")
    if m["launchCompleteMs"] < max(t["doneMs"] for t in T):
        bad.append("launch before the last done")
    if strategy == "anchored" and any(sc.first_frame) and m["timeToFirstFrameMs"] != o["commits"][0]["presentedMs"]:
        bad.append("anchored: the first frame is not iteration 0's commit")
    bad += invariants_new_keys(sc, sim, o)
    bad += invariants_phases(sc, sim, o)
    return bad


def invariants_phases(sc, sim, o):
    """Properties §3.12 implies (firstDrawMs and phases in every scenario)."""
    bad = []
    T = o["tasks"]
    m = o["metrics"]
    C = o["commits"]
    if m["firstDrawMs"] != C[0]["endMs"]:
        bad.append(f"firstDrawMs {m['firstDrawMs']} != commits[0].endMs {C[0]['endMs']}")
    ph = o["phases"]
    if not sc.launch_phases:
        if ph != [] or sim.t1 != sim.t0:
            bad.append("phases or t1 without launchPhases")
        return bad
    s = sc.starts_in
    if [p["name"] for p in ph] != [nm for (nm, _) in sc.launch_phases]:
        bad.append("phases: names or order")
    # contiguous from t0, the last one ending before iteration 0's commit starts
    at = sim.t0
    for j, p in enumerate(ph):
        if p["startMs"] != at:
            bad.append(f"phase {p['name']} starts at {p['startMs']}, not {at}")
        at = p["endMs"]
    if at > C[0]["startMs"]:
        bad.append("iteration 0 commits before its last phase ended")
    # the phases up to startsIn run alone at full speed: t1 is the sum of their costs
    if sim.t1 != sim.t0 + sum(c for (_, c) in sc.launch_phases[:s + 1]) or sim.t1 != sc.t1:
        bad.append(f"t1 {sim.t1}")
    if sim.phase_cost_end[s] != sim.t1 or ph[s]["endMs"] < sim.t1:
        bad.append("the startsIn phase")
    for j, (nm, c) in enumerate(sc.launch_phases):
        d = sim.phase_cost_end[j] - sim.phase_start[j]
        if d < c or (not sim.contended and d != c) or (j <= s and d != c):
            bad.append(f"phase {nm}: {d} µs for cost {c}")
        if j != s and ph[j]["endMs"] != sim.phase_cost_end[j]:
            bad.append(f"phase {nm} ends after its cost")
    # nothing starts before t1; a main-thread task that runs in iteration 0 runs
    # inside dFL (before the startsIn phase ends) or in the idle step (after the last
    # phase); everything else handed over to the main queue after t1 waits for
    # iteration 1
    dfl_end = ph[s]["endMs"]
    for i, t in enumerate(T):
        if t["startMs"] < sim.t1:
            bad.append(f"{t['id']} starts before t1")
        if t["thread"] == "main" and sim.iter_of[i] == 0:
            in_dfl = t["endMs"] <= dfl_end and t["startMs"] >= sim.t1
            in_idle = sim.eff_idle[i] and t["startMs"] >= ph[-1]["endMs"]
            if not (in_dfl or in_idle):
                bad.append(f"{t['id']} runs in iteration 0 outside dFL and the idle step")
    for x in o["inputs"]:
        if x["startMs"] < C[0]["endMs"]:
            bad.append(f"input {x['name']} handled in iteration 0")
    return bad


def invariants_new_keys(sc, sim, o):
    """Properties §3.10 and §3.11 imply (nothing to check for a scenario without them)."""
    bad = []
    T = o["tasks"]
    m = o["metrics"]
    if sim.contended:
        # (§3.10) the main thread at full speed with mainThreadPriority; (§3.13) with
        # clusters, when no worker task shares its userInteractive class
        mtp = sc.main_thread_priority and sc.clusters is None
        exact_main = mtp or (sc.clusters is not None and not any(
            sc.qos[i] == 0 and not sc.main_only[i] for i in range(sc.n)))
        for c in o["commits"]:
            d = c["endMs"] - c["startMs"]
            if d < sc.commit_cost or (exact_main and d != sc.commit_cost):
                bad.append(f"commit {c} for commitCost {sc.commit_cost}")
        for k, x in enumerate(o["inputs"]):
            d = x["endMs"] - x["startMs"]
            if d < sc.inputs[k][2] or (exact_main and d != sc.inputs[k][2]):
                bad.append(f"input {x['name']} duration")
        if exact_main and sc.clusters is not None:
            for i, t in enumerate(T):
                if t["thread"] == "main" and t["endMs"] - t["startMs"] != sc.cost[i]:
                    bad.append(f"{t['id']}: main-thread task stretched with clusters")
            for j, (nm, c) in enumerate(sc.launch_phases):
                if sim.phase_cost_end[j] - sim.phase_start[j] != c:
                    bad.append(f"phase {nm} stretched with clusters")
        if m["cpuUtilization"] > 1 + 1e-12:
            bad.append(f"cpuUtilization {m['cpuUtilization']} > 1 with capacity {sc.capacity()}")
        if sc.clusters is not None:
            # a background task runs at most at the slowest cluster's speed
            slowest = min(sp for (_, _, sp) in sc.clusters)
            for i, t in enumerate(T):
                if t["thread"] != "main" and sc.qos[i] == 4 and \
                        (t["endMs"] - t["startMs"]) * slowest < sc.cost[i] * 1000:
                    bad.append(f"{t['id']} (background) faster than the slowest cluster")
        if sc.cpus == 1 and not sc.main_thread_priority:
            # one CPU: the work is done one µs at a time, so the launch lasts at least
            # t0 + every cost (tasks, inputs, commits)
            work = (sum(sc.cost) + sum(c for (_, _, c) in sc.inputs)
                    + len(o["commits"]) * sc.commit_cost)
            if max(m["launchCompleteMs"], o["commits"][-1]["endMs"]) < sim.t0 + work:
                bad.append("one cpu: finished before all the work could be done")
    busy = (sim.t0 + sum(e - s for s, e in zip(sim.phase_start, sim.phase_cost_end))
            + sum(t["endMs"] - t["startMs"] for t in T if t["thread"] == "main")
            + sum(x["endMs"] - x["startMs"] for x in o["inputs"])
            + sum(c["endMs"] - c["startMs"] for c in o["commits"]))
    if m["mainThreadBusyMs"] != busy:
        bad.append("mainThreadBusyMs is not the main thread's wall time on its items")
    if sim.op_mode:
        ops = [i for i in range(sc.n) if sim.in_op[i]]
        per_iter = {}
        for i in ops:
            per_iter.setdefault(sim.iter_of[i], []).append(sc.ids[i])
            if sim.op_admitted[i] is None or not (T[i]["readyMs"] <= sim.op_admitted[i] <= T[i]["startMs"]):
                bad.append(f"{sc.ids[i]}: operation queue admission {sim.op_admitted[i]} out of place")
            if sim.iterations[sim.iter_of[i]][0] < sim.op_admitted[i]:
                bad.append(f"{sc.ids[i]} runs in an iteration that started before its admission")
        for it, ids in per_iter.items():
            if len(ids) > 1:
                bad.append(f"iteration {it} runs {len(ids)} operations: {ids}")
        iv = sorted((sim.op_admitted[i], T[i]["doneMs"], sc.ids[i]) for i in ops)
        for a, b in zip(iv, iv[1:]):
            if b[0] < a[1]:
                bad.append(f"operation queue: {a[2]} and {b[2]} in flight together")
    return bad


def idle_mode_of(sc, idle_mode):
    return idle_mode or sc.idle_mode


def test_invariants_random_v2():
    import gen_scenarios as gen
    for k in range(150):
        sc = gen.gen_scenario(4243, k, v2=True)
        if len(sc["tasks"]) > 200:
            continue
        runs = [("serial", None), ("priority", None), ("dag", None), ("anchored", None),
                ("dag", 1), ("anchored", 2)]
        modes = [None, "oneByOne"] if any(t.get("idle") for t in sc["tasks"]) else [None]
        for s, mc in runs:
            for im in modes:
                try:
                    probs = invariants_v2(sc, s, mc, im)
                except Exception as e:      # noqa: BLE001  (SimulationStuck included)
                    probs = [f"raised {e!r}"]
                for b in probs[:3]:
                    FAILS.append(f"invariant v2 gen 4243/{k} {s} mc={mc} idle={im}: {b}")


def test_invariants_random_v21():
    import gen_scenarios as gen
    uses = 0
    for k in range(200):
        sc = gen.gen_scenario(4244, k)
        if len(sc["tasks"]) > 200:
            continue
        uses += any(t.get("after") for t in sc["tasks"])
        runs = [("serial", None), ("priority", None), ("dag", None), ("anchored", None),
                ("dag", 1), ("anchored", 2)]
        modes = [None, "oneByOne"] if any(t.get("idle") for t in sc["tasks"]) else [None]
        for s, mc in runs:
            for im in modes:
                try:
                    probs = invariants_v2(sc, s, mc, im)
                except Exception as e:      # noqa: BLE001  (SimulationStuck included)
                    probs = [f"raised {e!r}"]
                for b in probs[:3]:
                    FAILS.append(f"invariant v2.1 gen 4244/{k} {s} mc={mc} idle={im}: {b}")
    check("v2.1 generator: scenarios with after tasks", uses > 100, True)


def test_invariants_random_new_keys():
    # gen_scenarios --new-keys: v2.1 and v2 scenarios with cpus / mainThreadPriority /
    # mainExecutor, 6 runs each (x 2 idle modes)
    import gen_scenarios as gen
    contended = op = 0
    for k in range(300):
        sc = gen.gen_scenario(4246, k, v2=(k % 3 == 2), new_keys=True)
        if len(sc["tasks"]) > 200:
            continue
        S = ref.Scenario(sc)
        contended += S.contended()
        op += S.main_executor == "operationQueue"
        runs = [("serial", None), ("priority", None), ("dag", None), ("anchored", None),
                ("dag", 1), ("anchored", 2)]
        modes = [None, "oneByOne"] if any(t.get("idle") for t in sc["tasks"]) else [None]
        for s, mc in runs:
            for im in modes:
                try:
                    probs = invariants_v2(sc, s, mc, im)
                except Exception as e:      # noqa: BLE001  (SimulationStuck included)
                    probs = [f"raised {e!r}"]
                for b in probs[:3]:
                    FAILS.append(f"invariant new keys gen 4246/{k} {s} mc={mc} idle={im}: {b}")
    check("new-keys generator: contended scenarios", contended > 100, True)
    check("new-keys generator: operationQueue scenarios", op > 80, True)



def without_phases(o):
    return {k: v for k, v in o.items() if k not in ("phases", "preMain")}


def test_invariants_random_phases():
    # gen_scenarios --phases (half of them with --new-keys too: phases under cpus
    # contention and the operation queue): 200 scenarios x 6 runs (x 2 idle modes),
    # and two metamorphic relations, derived from §3.12, under the four strategies:
    # (1) the phases up to startsIn run alone, before any task: moving them into
    #     preMain (startsIn keeping a zero-cost phase of its name) changes nothing
    #     but preMain and phases;
    # (2) zero-cost phases change nothing but phases.
    import gen_scenarios as gen
    later = idle0 = contended = 0
    for k in range(200):
        sc = gen.gen_scenario(4247, k, new_keys=(k % 2 == 1), phases=True)
        if len(sc["tasks"]) > 200:
            continue
        S = ref.Scenario(sc)
        later += S.after_phases_cost > 0
        contended += S.contended()
        runs = [("serial", None), ("priority", None), ("dag", None), ("anchored", None),
                ("dag", 1), ("anchored", 2)]
        modes = [None, "oneByOne"] if any(t.get("idle") for t in sc["tasks"]) else [None]
        for st, mc in runs:
            for im in modes:
                try:
                    probs = invariants_v2(sc, st, mc, im)
                except Exception as e:      # noqa: BLE001  (SimulationStuck included)
                    probs = [f"raised {e!r}"]
                for b in probs[:3]:
                    FAILS.append(f"invariant phases gen 4247/{k} {st} mc={mc} idle={im}: {b}")
        s_ = S.starts_in
        moved = dict(sc, preMain=(sc.get("preMain") or []) + [dict(p) for p in sc["launchPhases"][:s_ + 1]],
                     launchPhases=[{"name": sc["launchPhases"][s_]["name"], "cost": 0}]
                     + sc["launchPhases"][s_ + 1:],
                     startsIn=sc["launchPhases"][s_]["name"])
        zero = dict(sc, launchPhases=[dict(p, cost=0) for p in sc["launchPhases"]])
        nophase = {x: v for x, v in sc.items() if x not in ("launchPhases", "startsIn")}
        for st in ref.STRATEGIES:
            o = run(sc, st)
            idle0 += any(t["thread"] == "main" and S.idle[i] and t["startMs"] >= o["phases"][-1]["endMs"]
                         and t["endMs"] <= o["commits"][0]["startMs"] and st != "serial"
                         for i, t in enumerate(o["tasks"]))
            if without_phases(run(moved, st)) != without_phases(o):
                FAILS.append(f"phases gen 4247/{k} {st}: moving the phases up to startsIn into "
                             f"preMain changed the schedule")
            oz = run(zero, st)
            if {x: v for x, v in oz.items() if x != "phases"} != \
                    {x: v for x, v in run(nophase, st).items() if x != "phases"}:
                FAILS.append(f"phases gen 4247/{k} {st}: zero-cost phases changed the schedule")
    check("phases generator: scenarios with phases after startsIn", later > 60, True)
    check("phases generator: contended scenarios", contended > 30, True)
    check("phases generator: idle tasks run after the phases in iteration 0", idle0 > 10, True)


def test_invariants_random_clusters():
    # gen_scenarios --clusters (a third with --phases, a third with --new-keys: its
    # cpus removed, mainThreadPriority kept and ignored, mainExecutor kept): 200
    # scenarios x 6 runs (x 2 idle modes), and two metamorphic relations under the
    # four strategies, from §3.13:
    # (1) one speed-1 cluster of `cores` cores (cores given) is no clusters at all:
    #     every thread's item has a speed-1 core of its own, background included
    #     (the slowest cluster is that one);
    # (2) the QoS classes only order the items among themselves: with every task at
    #     "utility" the schedule is that with every task at "default".
    import gen_scenarios as gen
    bg = ui = shared = 0
    for k in range(200):
        sc = gen.gen_scenario(4248, k, new_keys=(k % 3 == 1), phases=(k % 3 == 2), clusters=True)
        if len(sc["tasks"]) > 200:
            continue
        S = ref.Scenario(sc)
        bg += any(q == 4 for q in S.qos)
        ui += any(q == 0 and not S.main_only[i] for i, q in enumerate(S.qos))
        shared += S.cores > sum(c for (_, c, _) in S.clusters)
        runs = [("serial", None), ("priority", None), ("dag", None), ("anchored", None),
                ("dag", 1), ("anchored", 2)]
        modes = [None, "oneByOne"] if any(t.get("idle") for t in sc["tasks"]) else [None]
        for st, mc in runs:
            for im in modes:
                try:
                    probs = invariants_v2(sc, st, mc, im)
                except Exception as e:      # noqa: BLE001  (SimulationStuck included)
                    probs = [f"raised {e!r}"]
                for b in probs[:3]:
                    FAILS.append(f"invariant clusters gen 4248/{k} {st} mc={mc} idle={im}: {b}")
        dev = dict(sc["device"], cores=S.cores)
        plain = dict(sc, device={x: v for x, v in dev.items() if x != "clusters"})
        one = dict(sc, device=dict(dev, clusters=[{"name": "X", "count": S.cores, "speed": 1}]))
        util = dict(sc, tasks=[dict(t, qos="utility") for t in sc["tasks"]])
        dflt = dict(sc, tasks=[dict(t, qos="default") for t in sc["tasks"]])
        for st in ref.STRATEGIES:
            if ref.dumps(ref.simulate(one, st)) != ref.dumps(ref.simulate(plain, st)):
                FAILS.append(f"clusters gen 4248/{k} {st}: one speed-1 cluster of cores cores "
                             f"changed the schedule")
            if ref.dumps(ref.simulate(util, st)) != ref.dumps(ref.simulate(dflt, st)):
                FAILS.append(f"clusters gen 4248/{k} {st}: every task at utility differs from "
                             f"every task at default")
    check("clusters generator: background tasks", bg > 60, True)
    check("clusters generator: userInteractive worker tasks", ui > 40, True)
    check("clusters generator: more threads than cores", shared > 60, True)


# ==========================================================================
# v2.1 hand cases.  Every expected number was worked out by hand from
# MODEL.md v2.1 (the reasoning is in the comments), not taken from the output.
# D2: 2 cores (one worker), 1000 Hz (F = 1 ms), commitCost 0, renderTime 0
# unless stated, so a commit is presented at its end: P = the first-frame
# commit's end, a zero-duration commit in step 2 (the "further step 1" case).
# ==========================================================================

AF = "firstFrame"


def test_v21_hold_release_delay():
    # renderTime 1.5.  dag: dFL makes m ready (main queue), a and b ready, but they
    # have after: held.  Iteration 0 commits at 0 (presented 2, not the first frame:
    # m has not run).  Iteration 1: m 0-2, commit 2 presented ceil(3.5) = 4 = P.
    # At 4 (a "present" event, step 1): b released at once (worker 4-5), a released
    # 1 after P, at 5 (worker 5-6).  The worker idles 0-4 although both were ready at 0.
    sc = {"name": "H1", "device": {"cores": 2, "refreshRate": 1000, "renderTime": 1.5}, "tasks": [
        {"id": "m", "cost": 2, "mainThreadOnly": True, "firstFrame": True},
        {"id": "a", "cost": 1, "after": AF, "delay": 1},
        {"id": "b", "cost": 1, "after": AF}]}
    o = run(sc, "dag")
    check("H1 dag", t5(o), {"m": ("main", 0, 0, 2 * MS, 2 * MS),
                            "a": ("worker-1", 5 * MS, 5 * MS, 6 * MS, 6 * MS),
                            "b": ("worker-1", 4 * MS, 4 * MS, 5 * MS, 5 * MS)})
    check("H1 dag commits", commits(o), [(0, 0, 2 * MS), (2 * MS, 2 * MS, 4 * MS)])
    # firstFrameReadyMs = commit end 2 + renderTime 1.5 = 3.5, below the vsync-rounded 4;
    # firstFrameBoundMs = vsync at or after 0 + max(2, 2) + 0 + 1.5 = 4
    check("H1 dag metrics", mets(o, "timeToFirstFrameMs", "firstFrameReadyMs", "timeToFullDisplayMs",
                                 "launchCompleteMs", "firstFrameBoundMs", "frames"),
          (4 * MS, 3500, 4 * MS, 6 * MS, 4 * MS, 2))
    # priority: m is inline (0-2); a and b (T0, after) are not inline, made ready in (1)
    # and held; (3) waits for nobody; one commit at 2 (presented 4 = P): same releases.
    o = run(sc, "priority")
    check("H1 prio", t5(o), {"m": ("main", 0, 0, 2 * MS, 2 * MS),
                             "a": ("worker-1", 5 * MS, 5 * MS, 6 * MS, 6 * MS),
                             "b": ("worker-1", 4 * MS, 4 * MS, 5 * MS, 5 * MS)})
    check("H1 prio commits", commits(o), [(2 * MS, 2 * MS, 4 * MS)])
    check("H1 prio blocked", mets(o, "mainThreadBlockedMs", "firstFrameReadyMs"), (0, 3500))
    # serial ignores after and delay: m 0-2, a 2-3, b 3-4 on main, readyMs t0,
    # commit 4 presented ceil(5.5) = 6
    o = run(sc, "serial")
    check("H1 serial", t5(o), {"m": ("main", 0, 0, 2 * MS, 2 * MS),
                               "a": ("main", 0, 2 * MS, 3 * MS, 3 * MS),
                               "b": ("main", 0, 3 * MS, 4 * MS, 4 * MS)})
    check("H1 serial commits", commits(o), [(4 * MS, 4 * MS, 6 * MS)])
    check("H1 serial metrics", mets(o, "timeToFirstFrameMs", "firstFrameReadyMs", "mainThreadBlockedMs"),
          (6 * MS, 5500, 0))


def test_v21_ready_after_p():
    # dag: w 0-5.  f (firstFrame) runs in iteration 1 (0-1), its commit at 1 is P.
    # x (after, depends on w) becomes ready at 5 >= P: released as any other, after
    # its delay 2 counted from 5: worker 7-8.
    sc = {"name": "H2", "device": D2, "tasks": [
        {"id": "w", "cost": 5},
        {"id": "x", "cost": 1, "after": AF, "delay": 2, "dependsOn": ["w"]},
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True}]}
    o = run(sc, "dag")
    check("H2 dag", t5(o), {"w": ("worker-1", 0, 0, 5 * MS, 5 * MS),
                            "x": ("worker-1", 7 * MS, 7 * MS, 8 * MS, 8 * MS),
                            "f": ("main", 0, 0, 1 * MS, 1 * MS)})
    check("H2 dag commits", commits(o), [(0, 0, 0), (1 * MS, 1 * MS, 1 * MS)])
    check("H2 dag metrics", mets(o, "timeToFirstFrameMs", "launchCompleteMs"), (1 * MS, 8 * MS))
    # serial: w 0-5, x 5-6 (delay and after ignored), f 6-7 (rank: index)
    o = run(sc, "serial")
    check("H2 serial", t5(o), {"w": ("main", 0, 0, 5 * MS, 5 * MS),
                               "x": ("main", 0, 5 * MS, 6 * MS, 6 * MS),
                               "f": ("main", 0, 6 * MS, 7 * MS, 7 * MS)})


def test_v21_priority_after_t0():
    # priority, all T0 but f (T1).  (1) makes w ready (worker 0-3) and ma, wa ready:
    # both after, held.  ma is not inline (after), so (2) runs nothing; (3) waits for w
    # only (wa is after: not waited for): blocked 0-3, returns at 3.  T1 opens at 3 (w
    # done, the return): f to the main queue, iteration 1: f 3-4, commit at 4 = P (zero
    # commit, step 2).  Further step 1 at 4: ma to the main queue, wa to the worker.
    # Iteration 2: ma 4-5.  wa 4-14.
    sc = {"name": "H4", "device": D2, "tasks": [
        {"id": "w", "cost": 3},
        {"id": "ma", "cost": 1, "mainThreadOnly": True, "after": AF},
        {"id": "wa", "cost": 10, "after": AF},
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "priority": 1}]}
    o = run(sc, "priority")
    check("H4 prio", t5(o), {"w": ("worker-1", 0, 0, 3 * MS, 3 * MS),
                             "ma": ("main", 4 * MS, 4 * MS, 5 * MS, 5 * MS),
                             "wa": ("worker-1", 4 * MS, 4 * MS, 14 * MS, 14 * MS),
                             "f": ("main", 3 * MS, 3 * MS, 4 * MS, 4 * MS)})
    check("H4 prio commits", commits(o), [(3 * MS, 3 * MS, 3 * MS), (4 * MS, 4 * MS, 4 * MS),
                                          (5 * MS, 5 * MS, 5 * MS)])
    check("H4 prio metrics", mets(o, "mainThreadBlockedMs", "timeToFirstFrameMs", "launchCompleteMs",
                                  "dependencyViolations"), (3 * MS, 4 * MS, 14 * MS, 0))


def test_v21_priority_tier_of_after_tasks():
    # priority: T0 = {a}, T1 = {b (after)}, T2 = {c}.  a 0-3... a 0-2 on the worker,
    # dFL blocked 0-2, returns at 2: T1 opens (b ready, held: P is not known), T1 has
    # only after tasks so it is done at once and T2 opens in the same step: c to the
    # main queue at 2.  Iteration 0 commits at 2: no firstFrame task, so this is the
    # first-frame commit, P = 2, zero commit: the next iteration starts at once with
    # c (2-3); the further step 1 then releases b: worker 2-5.
    sc = {"name": "H5", "device": D2, "tasks": [
        {"id": "a", "cost": 2},
        {"id": "b", "cost": 3, "after": AF, "priority": 1},
        {"id": "c", "cost": 1, "mainThreadOnly": True, "priority": 2}]}
    o = run(sc, "priority")
    check("H5 prio", t5(o), {"a": ("worker-1", 0, 0, 2 * MS, 2 * MS),
                             "b": ("worker-1", 2 * MS, 2 * MS, 5 * MS, 5 * MS),
                             "c": ("main", 2 * MS, 2 * MS, 3 * MS, 3 * MS)})
    check("H5 prio commits", commits(o), [(2 * MS, 2 * MS, 2 * MS), (3 * MS, 3 * MS, 3 * MS)])
    check("H5 prio metrics", mets(o, "mainThreadBlockedMs", "timeToFirstFrameMs", "launchCompleteMs"),
          (2 * MS, 2 * MS, 5 * MS))
    # two tiers of after tasks in a row (T1, T2) and a T3: all open at dFL's return
    sc = {"name": "H5b", "device": D2, "tasks": [
        {"id": "a", "cost": 2},
        {"id": "b1", "cost": 1, "after": AF, "priority": 1},
        {"id": "b2", "cost": 1, "after": AF, "priority": 2, "mainThreadOnly": True},
        {"id": "c", "cost": 1, "mainThreadOnly": True, "priority": 3}]}
    o = run(sc, "priority")
    # at 2: T1, T2, T3 open; c to the main queue; commit at 2 = P; iteration 1 at once:
    # c 2-3; further step 1: b1 (worker 2-3), b2 (main queue, iteration 2: 3-4)
    check("H5b prio", t5(o), {"a": ("worker-1", 0, 0, 2 * MS, 2 * MS),
                              "b1": ("worker-1", 2 * MS, 2 * MS, 3 * MS, 3 * MS),
                              "b2": ("main", 2 * MS, 3 * MS, 4 * MS, 4 * MS),
                              "c": ("main", 2 * MS, 2 * MS, 3 * MS, 3 * MS)})
    check("H5b prio commits", commits(o), [(2 * MS, 2 * MS, 2 * MS), (3 * MS, 3 * MS, 3 * MS),
                                           (4 * MS, 4 * MS, 4 * MS)])
    # T0 of after tasks only: T1 opens at dFL's return (0): c in iteration 1
    sc = {"name": "H5c", "device": D2, "tasks": [
        {"id": "b", "cost": 4, "after": AF},
        {"id": "c", "cost": 1, "mainThreadOnly": True, "priority": 1}]}
    o = run(sc, "priority")
    check("H5c prio", t5(o), {"b": ("worker-1", 0, 0, 4 * MS, 4 * MS),
                              "c": ("main", 0, 0, 1 * MS, 1 * MS)})
    check("H5c prio commits", commits(o), [(0, 0, 0), (1 * MS, 1 * MS, 1 * MS)])


def test_v21_anchor_closure_excludes_after():
    # dag.  Closure: the anchor A, no dependencies; the mainThreadOnly queue-mate s of
    # A has after, so it is not added: closure = {A}, s and u rank with c = 1.
    # dFL: A admitted by q -> worker 0-2; s, u held.  dFL blocked 0-2 (A done), returns,
    # commit at 2 = P (no firstFrame task).  Further step 1: s released into q (free:
    # admitted) and u: both to the main queue at 2, ordered by rank (c, priority,
    # index): u (1,0,2) before s (1,1,1).  (Were s in the closure, (0,1,1) would go first.)
    sc = {"name": "H6", "device": D2, "tasks": [
        {"id": "A", "cost": 2, "anchor": True, "queue": "q"},
        {"id": "s", "cost": 1, "mainThreadOnly": True, "queue": "q", "after": AF, "priority": 1},
        {"id": "u", "cost": 1, "mainThreadOnly": True, "after": AF}]}
    o = run(sc, "dag")
    check("H6 dag", t5(o), {"A": ("worker-1", 0, 0, 2 * MS, 2 * MS),
                            "s": ("main", 2 * MS, 3 * MS, 4 * MS, 4 * MS),
                            "u": ("main", 2 * MS, 2 * MS, 3 * MS, 3 * MS)})
    check("H6 dag commits", commits(o), [(2 * MS, 2 * MS, 2 * MS), (4 * MS, 4 * MS, 4 * MS)])
    check("H6 dag blocked", mets(o, "mainThreadBlockedMs"), (2 * MS,))
    sim = ref.Simulation(ref.Scenario(sc), "anchored")
    check("H6 closure", sim.in_closure, [True, False, False])


def test_v21_after_idle_and_queue():
    # dag.  i (idle, after) is held; f runs in iteration 1 (0-1), commit 1 = P; the main
    # thread sleeps (nothing queued); the further step 1 hands i to the idle queue:
    # iteration 2 at 1, empty snapshot, idle step: i 1-2.
    sc = {"name": "HI", "device": D2, "tasks": [
        {"id": "i", "cost": 1, "mainThreadOnly": True, "idle": True, "after": AF},
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True}]}
    o = run(sc, "dag")
    check("HI dag", t5(o), {"i": ("main", 1 * MS, 1 * MS, 2 * MS, 2 * MS),
                            "f": ("main", 0, 0, 1 * MS, 1 * MS)})
    check("HI dag commits", commits(o), [(0, 0, 0), (1 * MS, 1 * MS, 1 * MS), (2 * MS, 2 * MS, 2 * MS)])
    # an after task sharing a queue with a task without after: k takes q at 0 though h
    # has the better rank (h is held, not released); at P = 1 h joins q's held set and
    # waits for k's done at 2: worker 2-3.
    sc = {"name": "HQ", "device": D2, "tasks": [
        {"id": "h", "cost": 1, "queue": "q", "after": AF},
        {"id": "k", "cost": 2, "queue": "q", "priority": 5},
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True}]}
    o = run(sc, "dag")
    check("HQ dag", t5(o), {"h": ("worker-1", 2 * MS, 2 * MS, 3 * MS, 3 * MS),
                            "k": ("worker-1", 0, 0, 2 * MS, 2 * MS),
                            "f": ("main", 0, 0, 1 * MS, 1 * MS)})
    # lowerBoundMs: queue q holds 1 + 2 = 3 > the path 2 and ceil(4 / 2) = 2
    check("HQ lower", mets(o, "lowerBoundMs", "criticalPathMs"), (3 * MS, 2 * MS))


def test_v21_zero_commit_on_vsync():
    # The same-instant case of section 3.  dag.  Iteration 1 runs f 0-1; at 1, z ends
    # on the worker (x to the main queue) and f ends (step 1); in step 2 the zero commit
    # ends at 1 = P (first-frame commit, on a vsync, no render time).  The main thread
    # starts iteration 2 at once with the snapshot [x]; only after that step 2 does the
    # further step 1 release a (to the main queue at 1): it waits for iteration 3,
    # although its rank (index 1) beats x's (index 3).
    sc = {"name": "ZC", "device": D2, "tasks": [
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
        {"id": "a", "cost": 1, "mainThreadOnly": True, "after": AF},
        {"id": "z", "cost": 1},
        {"id": "x", "cost": 1, "mainThreadOnly": True, "dependsOn": ["z"]}]}
    o = run(sc, "dag")
    check("ZC dag", t5(o), {"f": ("main", 0, 0, 1 * MS, 1 * MS),
                            "a": ("main", 1 * MS, 2 * MS, 3 * MS, 3 * MS),
                            "z": ("worker-1", 0, 0, 1 * MS, 1 * MS),
                            "x": ("main", 1 * MS, 1 * MS, 2 * MS, 2 * MS)})
    check("ZC dag commits", commits(o), [(0, 0, 0), (1 * MS, 1 * MS, 1 * MS), (2 * MS, 2 * MS, 2 * MS),
                                         (3 * MS, 3 * MS, 3 * MS)])
    check("ZC dag metrics", mets(o, "timeToFirstFrameMs", "firstFrameReadyMs", "frames", "maxInputDelayMs"),
          (1 * MS, 1 * MS, 4, 1 * MS))
    # Contrast: commitCost 1 and z 3 ms.  Iteration 0 commits 0-1; iteration 1: f 1-2,
    # commit 2-3 = P.  That commit has positive duration: it ends in step 1 at 3, where
    # the release of a is an event like z's end (x to the main queue).  Step 2: iteration
    # 2's snapshot holds both, by rank: a 3-4, x 4-5, commit 5-6.
    sc2 = {"name": "ZC2", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 1},
           "tasks": [dict(t) for t in sc["tasks"]]}
    sc2["tasks"][2]["cost"] = 3
    o = run(sc2, "dag")
    check("ZC2 dag", t5(o), {"f": ("main", 0, 1 * MS, 2 * MS, 2 * MS),
                             "a": ("main", 3 * MS, 3 * MS, 4 * MS, 4 * MS),
                             "z": ("worker-1", 0, 0, 3 * MS, 3 * MS),
                             "x": ("main", 3 * MS, 4 * MS, 5 * MS, 5 * MS)})
    check("ZC2 dag commits", commits(o), [(0, 1 * MS, 1 * MS), (2 * MS, 3 * MS, 3 * MS),
                                          (5 * MS, 6 * MS, 6 * MS)])


def test_v21_ready_at_p_in_step_2():
    # NOTES.md W1.  f's iteration commits at 1 = P in step 2 (2a); then in 2b the worker
    # (free since w ended at 1) runs y (cost 0), which makes A ready at 1, after the
    # commit: P is known and A becomes ready at P, so it is released as any other (at
    # once: main queue at 1, iteration 2 at once: A 1-2).  B, held since 0, comes in
    # the further step 1 at 1 and waits for iteration 3 (2-3).
    sc = {"name": "W1", "device": D2, "tasks": [
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
        {"id": "B", "cost": 1, "mainThreadOnly": True, "after": AF},
        {"id": "w", "cost": 1},
        {"id": "y", "cost": 0},
        {"id": "A", "cost": 1, "mainThreadOnly": True, "after": AF, "dependsOn": ["y"]}]}
    o = run(sc, "dag")
    check("W1 dag", t5(o), {"f": ("main", 0, 0, 1 * MS, 1 * MS),
                            "B": ("main", 1 * MS, 2 * MS, 3 * MS, 3 * MS),
                            "w": ("worker-1", 0, 0, 1 * MS, 1 * MS),
                            "y": ("worker-1", 0, 1 * MS, 1 * MS, 1 * MS),
                            "A": ("main", 1 * MS, 1 * MS, 2 * MS, 2 * MS)})
    check("W1 dag commits", commits(o), [(0, 0, 0), (1 * MS, 1 * MS, 1 * MS), (2 * MS, 2 * MS, 2 * MS),
                                         (3 * MS, 3 * MS, 3 * MS)])
    # NOTES.md W2.  a (after) becomes ready at 1 in step 1 (z ends), before the zero
    # commit ends at 1 = P in step 2: P is not known yet, so a is held and released in the
    # further step 1, after iteration 2 took its snapshot [x]: x 1-2, a 2-3 (iteration 3),
    # although a has the better rank and both were ready at 1.
    sc = {"name": "W2", "device": D2, "tasks": [
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
        {"id": "z", "cost": 1},
        {"id": "a", "cost": 1, "mainThreadOnly": True, "after": AF, "dependsOn": ["z"]},
        {"id": "x", "cost": 1, "mainThreadOnly": True, "dependsOn": ["z"]}]}
    o = run(sc, "dag")
    check("W2 dag", t5(o), {"f": ("main", 0, 0, 1 * MS, 1 * MS),
                            "z": ("worker-1", 0, 0, 1 * MS, 1 * MS),
                            "a": ("main", 1 * MS, 2 * MS, 3 * MS, 3 * MS),
                            "x": ("main", 1 * MS, 1 * MS, 2 * MS, 2 * MS)})


def test_v21_first_frame_commit_in_event_order():
    # NOTES.md E9.  commitCost 1.  Iteration 0 commits 0-1; f (firstFrame, cost 0) runs in
    # iteration 1 at 1, after that commit ended (step 1 at 1), so the first-frame commit
    # is iteration 1's (1-2, P = 2), though f "ended" at 1 = the first commit's end.  a
    # (after) is released at 2: iteration 2, 2-3, commit 3-4.
    sc = {"name": "E9", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 1}, "tasks": [
        {"id": "f", "cost": 0, "mainThreadOnly": True, "firstFrame": True},
        {"id": "a", "cost": 1, "mainThreadOnly": True, "after": AF}]}
    o = run(sc, "dag")
    check("E9 dag", t5(o), {"f": ("main", 0, 1 * MS, 1 * MS, 1 * MS),
                            "a": ("main", 2 * MS, 2 * MS, 3 * MS, 3 * MS)})
    check("E9 dag commits", commits(o), [(0, 1 * MS, 1 * MS), (1 * MS, 2 * MS, 2 * MS), (3 * MS, 4 * MS, 4 * MS)])
    check("E9 dag metrics", mets(o, "timeToFirstFrameMs", "firstFrameReadyMs", "firstFrameBoundMs"),
          (2 * MS, 2 * MS, 1 * MS))


def test_v21_no_first_frame_task():
    # No firstFrame task: iteration 0's commit is the first-frame commit.  dag with
    # renderTime 3: iteration 0 commits at 0, presented 3 = P.  a (after) ready at 0,
    # released at 3: worker 3-4; b (no after) 0-2.  firstFrameReadyMs 0 + 3.
    sc = {"name": "NF", "device": {"cores": 2, "refreshRate": 1000, "renderTime": 3}, "tasks": [
        {"id": "a", "cost": 1, "after": AF},
        {"id": "b", "cost": 2, "priority": 1}]}
    o = run(sc, "dag")
    check("NF dag", t5(o), {"a": ("worker-1", 3 * MS, 3 * MS, 4 * MS, 4 * MS),
                            "b": ("worker-1", 0, 0, 2 * MS, 2 * MS)})
    check("NF dag metrics", mets(o, "timeToFirstFrameMs", "firstFrameReadyMs", "timeToFullDisplayMs",
                                 "firstFrameBoundMs", "launchCompleteMs"),
          (3 * MS, 3 * MS, 3 * MS, 3 * MS, 4 * MS))


def test_v21_full_display():
    # dag.  f (firstFrame) in iteration 1 (0-1), P = 1.  d (fullyDrawn, latency 5)
    # depends on w (0-3): iteration 2, 3-4 (done 9), commit at 4: timeToFullDisplayMs 4
    # (d's latency is not waited for); launch completes at 9.
    sc = {"name": "FD", "device": D2, "tasks": [
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
        {"id": "w", "cost": 3},
        {"id": "d", "cost": 1, "mainThreadOnly": True, "fullyDrawn": True, "latency": 5,
         "dependsOn": ["w"]}]}
    o = run(sc, "dag")
    check("FD dag", t5(o)["d"], ("main", 3 * MS, 3 * MS, 4 * MS, 9 * MS))
    check("FD dag metrics", mets(o, "timeToFirstFrameMs", "timeToFullDisplayMs", "launchCompleteMs"),
          (1 * MS, 4 * MS, 9 * MS))
    # serial: f 0-1, w 1-4, d 4-5 all in dFL: one commit at 5, both metrics 5
    o = run(sc, "serial")
    check("FD serial metrics", mets(o, "timeToFirstFrameMs", "timeToFullDisplayMs"), (5 * MS, 5 * MS))
    # the last fullyDrawn task to run counts (not the last in index order): d1 (index 0)
    # depends on w (0-3) and runs in iteration 2 (3-4); d0 (index 1) in iteration 1 (0-1)
    sc = {"name": "FD2", "device": D2, "tasks": [
        {"id": "d1", "cost": 1, "mainThreadOnly": True, "fullyDrawn": True, "dependsOn": ["w"]},
        {"id": "d0", "cost": 1, "mainThreadOnly": True, "fullyDrawn": True},
        {"id": "w", "cost": 3}]}
    o = run(sc, "dag")
    check("FD2 dag metrics", mets(o, "timeToFirstFrameMs", "timeToFullDisplayMs"), (0, 4 * MS))
    # a fullyDrawn task that runs before the first frame: timeToFirstFrameMs, which is later.
    # e (fullyDrawn) in iteration 1 (0-1, commit 1); g (firstFrame) after w: 3-4, commit 4.
    sc = {"name": "FD3", "device": D2, "tasks": [
        {"id": "e", "cost": 1, "mainThreadOnly": True, "fullyDrawn": True},
        {"id": "w", "cost": 3},
        {"id": "g", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "dependsOn": ["w"]}]}
    o = run(sc, "dag")
    check("FD3 dag metrics", mets(o, "timeToFirstFrameMs", "timeToFullDisplayMs"), (4 * MS, 4 * MS))
    # a fullyDrawn task depending on an after task: h (after, worker) is held until
    # P = 1 (f's commit), runs 1-3; d (fullyDrawn) iteration 2: 3-4, commit 4.
    sc = {"name": "FD4", "device": D2, "tasks": [
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
        {"id": "h", "cost": 2, "after": AF},
        {"id": "d", "cost": 1, "mainThreadOnly": True, "fullyDrawn": True, "dependsOn": ["h"]}]}
    o = run(sc, "dag")
    check("FD4 dag", t5(o), {"f": ("main", 0, 0, 1 * MS, 1 * MS),
                             "h": ("worker-1", 1 * MS, 1 * MS, 3 * MS, 3 * MS),
                             "d": ("main", 3 * MS, 3 * MS, 4 * MS, 4 * MS)})
    check("FD4 dag metrics", mets(o, "timeToFirstFrameMs", "timeToFullDisplayMs"), (1 * MS, 4 * MS))


def test_v21_first_frame_bound():
    # P: the path w -> f1 -> f2 weighs (4 + 1) + (2 + 10) + 1 = 18 (f1 is a firstFrame
    # task with latency, and f2 depends on it: it weighs cost + latency); the path
    # ending at f1 weighs 5 + 2 = 7.  M = 2 + 1 (w is a worker task).  t0 = 1,
    # commitCost 0.5, renderTime 1: 1 + 18 + 0.5 + 1 = 20.5 ms -> 60 Hz vsync
    # ceil(20500 / 16667) * 16667 = 33334.
    sc = {"name": "FB", "device": {"cores": 2, "refreshRate": 60, "commitCost": 0.5, "renderTime": 1},
          "preMain": [{"name": "dyld", "cost": 1}], "tasks": [
              {"id": "w", "cost": 4, "latency": 1},
              {"id": "f1", "cost": 2, "latency": 10, "mainThreadOnly": True, "firstFrame": True,
               "dependsOn": ["w"]},
              {"id": "f2", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "dependsOn": ["f1"]}]}
    for s in ref.STRATEGIES:
        check(f"FB {s}", run(sc, s)["metrics"]["firstFrameBoundMs"], 33334)
    # the last task of the path weighs its cost only: g (latency 100) alone: P = 1,
    # M = 1 (x is not needed by the first frame): bound 1; lowerBoundMs 101 (path)
    sc = {"name": "FB2", "device": D2, "tasks": [
        {"id": "g", "cost": 1, "latency": 100, "mainThreadOnly": True, "firstFrame": True},
        {"id": "x", "cost": 5, "mainThreadOnly": True}]}
    check("FB2", mets(run(sc, "anchored"), "firstFrameBoundMs", "lowerBoundMs"), (1 * MS, 101 * MS))
    # M above P: f needs m1 (3), m2 (3) on main and w (4): P = 4 + 1 = 5, M = 3 + 3 + 1 = 7
    sc = {"name": "FB3", "device": D2, "tasks": [
        {"id": "m1", "cost": 3, "mainThreadOnly": True},
        {"id": "m2", "cost": 3, "mainThreadOnly": True},
        {"id": "w", "cost": 4},
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "dependsOn": ["m1", "m2", "w"]}]}
    check("FB3", run(sc, "dag")["metrics"]["firstFrameBoundMs"], 7 * MS)
    # no firstFrame task: P = M = 0: vsync at or after t0 2 + commitCost 0.5 (1000 Hz: 3)
    sc = {"name": "FB4", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 0.5},
          "preMain": [{"name": "dyld", "cost": 2}], "tasks": [{"id": "a", "cost": 9}]}
    check("FB4", run(sc, "dag")["metrics"]["firstFrameBoundMs"], 3 * MS)
    # priority ignores dependencies and may present the first frame before the bound:
    # f inline 0-1, w in T1; commit at 1; bound 0 + max(5 + 1, 1) = 6
    sc = {"name": "FB5", "device": D2, "tasks": [
        {"id": "w", "cost": 5, "priority": 1},
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "dependsOn": ["w"]}]}
    check("FB5", mets(run(sc, "priority"), "timeToFirstFrameMs", "firstFrameBoundMs"), (1 * MS, 6 * MS))


def test_v21_lower_bound_queue():
    # 4 cores.  Queue "é" (written two ways: canonically equivalent, one queue): a (1 +
    # latency 4) and b (2): 7.  Path max 5, main total 0, ceil(4 / 4) = 1: lowerBound 7
    # (v2: 5).  dag: a 0-1 (done 5), then q admits b: 5-7; c 0-1 on worker-2.
    sc = {"name": "LQ", "device": {"cores": 4, "refreshRate": 1000}, "tasks": [
        {"id": "a", "cost": 1, "latency": 4, "queue": "\u00e9"},
        {"id": "b", "cost": 2, "queue": "e\u0301"},
        {"id": "c", "cost": 1}]}
    o = run(sc, "dag")
    check("LQ dag", t5(o), {"a": ("worker-1", 0, 0, 1 * MS, 5 * MS),
                            "b": ("worker-1", 5 * MS, 5 * MS, 7 * MS, 7 * MS),
                            "c": ("worker-2", 0, 0, 1 * MS, 1 * MS)})
    check("LQ metrics", mets(o, "lowerBoundMs", "criticalPathMs", "launchCompleteMs"),
          (7 * MS, 5 * MS, 7 * MS))
    o2 = us(ref.simulate(sc, "dag", model="v2"))
    check("LQ v2 lowerBound", o2["metrics"]["lowerBoundMs"], 5 * MS)
    check("LQ v2 keys", "firstFrameBoundMs" in o2["metrics"] or "firstFrameReadyMs" in o2["metrics"]
          or "timeToFullDisplayMs" in o2["metrics"], False)


V21_BAD = [
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "after": "firstframe"}]},
     ["task 'a'.after: 'firstframe' is not \"firstFrame\"", "did you mean 'firstFrame'"]),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "after": True}]},
     ["task 'a'.after: expected a string, got a boolean"]),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "fullyDrawn": True}]},
     ["task 'a': a fullyDrawn task must be mainThreadOnly"]),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "mainThreadOnly": True, "fullyDrawn": "yes"}]},
     ["task 'a'.fullyDrawn: expected a boolean"]),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "fullyDrawm": True}]}, ["did you mean 'fullyDrawn'"]),
    ({"name": "x", "tasks": [
        {"id": "root", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "dependsOn": ["cfg"]},
        {"id": "cfg", "cost": 1, "dependsOn": ["net"]},
        {"id": "net", "cost": 1, "after": "firstFrame"}]},
     ["task 'net': has after \"firstFrame\", but the first frame waits for it: root → cfg → net"]),
    ({"name": "x", "tasks": [{"id": "a", "cost": 1, "anchor": True, "after": "firstFrame"}]},
     ["task 'a': has after \"firstFrame\", but the first frame waits for it: a ('a' is an anchor)"]),
    ({"name": "x", "tasks": [{"id": "r", "cost": 1, "mainThreadOnly": True, "firstFrame": True,
                              "after": "firstFrame"}]},
     ["task 'r': has after \"firstFrame\", but the first frame waits for it: r ('r' is a firstFrame task)"]),
    ({"name": "x", "tasks": [{"id": "n", "cost": 1, "after": "firstFrame"},
                             {"id": "k", "cost": 1, "anchor": True, "dependsOn": ["n"]}]},
     ["task 'n': has after \"firstFrame\", but the first frame waits for it: k → n ('k' is an anchor)"]),
]


def test_v21_validation():
    for sc, wants in V21_BAD:
        probs = ref.validate(sc)
        for want in wants:
            if not any(want in p for p in probs):
                FAILS.append(f"v2.1 validation: want {want!r} in {probs!r}")
    # one problem per after task the first frame waits for (both cfg and net), each with its path
    sc = {"name": "x", "tasks": [
        {"id": "root", "cost": 1, "mainThreadOnly": True, "firstFrame": True, "dependsOn": ["cfg"]},
        {"id": "cfg", "cost": 1, "dependsOn": ["net"], "after": "firstFrame"},
        {"id": "net", "cost": 1, "after": "firstFrame"},
        {"id": "later", "cost": 1, "after": "firstFrame", "dependsOn": ["root"]}]}
    probs = ref.validate(sc)
    check("v2.1 validation count", len(probs), 2)
    check("v2.1 validation paths", [p.split(": ", 2)[-1] for p in probs],
          ["root → cfg ('root' is a firstFrame task)", "root → cfg → net ('root' is a firstFrame task)"])
    # valid: after depending on a firstFrame task, fullyDrawn on main, after null,
    # fullyDrawn depending on an after task, after on an idle task
    ok = {"name": "ok", "tasks": [
        {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
        {"id": "a", "cost": 1, "after": "firstFrame", "dependsOn": ["f"], "delay": 2},
        {"id": "d", "cost": 1, "mainThreadOnly": True, "fullyDrawn": True, "dependsOn": ["a"],
         "after": None},
        {"id": "i", "cost": 1, "mainThreadOnly": True, "idle": True, "after": "firstFrame",
         "fullyDrawn": False}]}
    check("v2.1 validation ok", ref.validate(ok), [])
    # the new metric names are budget names
    check("v2.1 budgets", ref.validate({"name": "b", "budgets": {"timeToFullDisplayMs": 1,
                                                                   "firstFrameReadyMs": 2,
                                                                   "firstFrameBoundMs": 3},
                                        "tasks": [{"id": "a", "cost": 1}]}), [])


def test_v21_v2_scenarios_unchanged():
    # a scenario without after / fullyDrawn: the v2 schedule; the new metrics follow
    # from it (timeToFullDisplayMs = timeToFirstFrameMs); without queues lowerBoundMs is v2's
    import gen_scenarios as gen
    for k in range(40):
        sc = gen.gen_scenario(99, k, v2=True)
        if len(sc["tasks"]) > 200:
            continue
        for s in ref.STRATEGIES:
            o = run(sc, s)
            o2 = us(ref.simulate(sc, s, model="v2"))
            m = o["metrics"]
            if m["timeToFullDisplayMs"] != m["timeToFirstFrameMs"]:
                FAILS.append(f"v2 {k} {s}: ttfd != ttff")
            same = {k2: v for k2, v in o.items() if k2 not in ("metrics", "phases")}
            same2 = {k2: v for k2, v in o2.items() if k2 != "metrics"}
            if same != same2:
                FAILS.append(f"v2 {k} {s}: schedules differ between models")
            if not any(t.get("queue") for t in sc["tasks"]) and m["lowerBoundMs"] != o2["metrics"]["lowerBoundMs"]:
                FAILS.append(f"v2 {k} {s}: lowerBound changed without queues")


# ==========================================================================
# docs/model.md §3.10 (device.cpus, mainThreadPriority) and §3.11
# (mainExecutor) hand cases.  Every expected number was worked out by hand
# from the docs' wording (the derivation is in the comments), not taken from
# the output.  Times in µs; 1000 Hz (F = 1 ms) unless stated.  "rate n/d":
# an item loses floor((t - s) n / d) µs of work between visited instants s < t
# and is projected to end at s + ceil(w d / n).
# ==========================================================================

def test_cpus_two_workers_one_cpu():
    # cores 3 (2 workers), cpus 1, dag.  At 0 dFL makes a and b ready (c needs b):
    # worker-1 takes a (4 ms), worker-2 b (2 ms); R = 2 > C = 1: rate 1/2 each.
    # Projected ends: a 0 + ceil(4000 * 2) = 8000, b 4000.  At 4000 b ends (a has
    # lost 2000: 2000 left); c (1 ms) is ready and worker-2 takes it: R = 2 again,
    # rate 1/2: a 4000 + 4000 = 8000, c 4000 + 2000 = 6000.  At 6000 c ends, a has
    # 2000 - 1000 = 1000 left, alone at rate 1: ends 7000.
    # launch 7; busy 0; cpu = (4 + 2 + 1) / (min(3, 1) * 7) = 1;
    # critical path = a alone, 4 (b + c is 3): unchanged by contention;
    # lowerBound = max(4, ceil(7000 / min(3, 1)) = 7000) = 7.
    sc = {"name": "C1", "device": {"cores": 3, "cpus": 1, "refreshRate": 1000}, "tasks": [
        {"id": "a", "cost": 4}, {"id": "b", "cost": 2}, {"id": "c", "cost": 1, "dependsOn": ["b"]}]}
    o = run(sc, "dag")
    check("C1 dag", t5(o), {"a": ("worker-1", 0, 0, 7 * MS, 7 * MS),
                            "b": ("worker-2", 0, 0, 4 * MS, 4 * MS),
                            "c": ("worker-2", 4 * MS, 4 * MS, 6 * MS, 6 * MS)})
    check("C1 metrics", mets(o, "launchCompleteMs", "mainThreadBusyMs", "cpuUtilization",
                             "criticalPathMs", "lowerBoundMs", "frames"),
          (7 * MS, 0, 1.0, 4 * MS, 7 * MS, 1))
    # the docs' example: a 4, b 2: a 0-6, b 0-4 (without cpus: a 0-4)
    sc2 = {"name": "C1b", "device": {"cores": 3, "cpus": 1, "refreshRate": 1000}, "tasks": [
        {"id": "a", "cost": 4}, {"id": "b", "cost": 2}]}
    check("C1b docs example", t5(run(sc2, "dag")), {"a": ("worker-1", 0, 0, 6 * MS, 6 * MS),
                                                   "b": ("worker-2", 0, 0, 4 * MS, 4 * MS)})
    sc2["device"]["cpus"] = None                        # null = absent: no contention
    check("C1b without cpus", t5(run(sc2, "dag"))["a"], ("worker-1", 0, 0, 4 * MS, 4 * MS))


def test_cpus_main_and_workers_priority():
    # cores 3, cpus 2; m (main, 4 ms), a and b (workers, 3 ms each); dag.
    # At 0: iteration 0 (dFL; commit 0, zero length); iteration 1 snapshots [m]
    # and runs it; worker-1 takes a, worker-2 b.
    # Without mainThreadPriority: R = 3 > 2, every item at rate 2/3.  Ends:
    # m 0 + ceil(4000 * 3 / 2) = 6000, a and b ceil(3000 * 3 / 2) = 4500.  At 4500
    # a and b have lost floor(4500 * 2 / 3) = 3000: they end; m has 1000 left,
    # alone (R = 1): ends 5500, commit 5500.
    # busy = 5.5 (wall time of m); cpu = (4 + 3 + 3) / (2 * 5.5) = 10/11;
    # lowerBound = max(4, main 4, ceil(10000 / 2) = 5000) = 5.
    dev = {"cores": 3, "cpus": 2, "refreshRate": 1000}
    sc = {"name": "C2", "device": dev, "tasks": [
        {"id": "m", "cost": 4, "mainThreadOnly": True}, {"id": "a", "cost": 3}, {"id": "b", "cost": 3}]}
    o = run(sc, "dag")
    check("C2 dag", t5(o), {"m": ("main", 0, 0, 5500, 5500),
                            "a": ("worker-1", 0, 0, 4500, 4500),
                            "b": ("worker-2", 0, 0, 4500, 4500)})
    check("C2 commits", commits(o), [(0, 0, 0), (5500, 5500, 6000)])
    check("C2 metrics", mets(o, "launchCompleteMs", "mainThreadBusyMs", "lowerBoundMs"),
          (5500, 5500, 5 * MS))
    check("C2 cpu", abs(o["metrics"]["cpuUtilization"] - 10 / 11) < 1e-12, True)
    # With mainThreadPriority: m at rate 1, a and b share C' = 2 - 1 = 1: rate 1/2.
    # m ends 4000; a, b projected ceil(3000 * 2) = 6000.  At 4000 they have lost
    # 2000 (1000 left); m's iteration commits (zero) and the main thread sleeps:
    # C' = 2, W = 2: rate 1, both end 5000.
    # busy 4; cpu = 10 / (2 * 5) = 1.
    sc["device"] = dict(dev, mainThreadPriority=True)
    o = run(sc, "dag")
    check("C2p dag", t5(o), {"m": ("main", 0, 0, 4 * MS, 4 * MS),
                             "a": ("worker-1", 0, 0, 5 * MS, 5 * MS),
                             "b": ("worker-2", 0, 0, 5 * MS, 5 * MS)})
    check("C2p metrics", mets(o, "launchCompleteMs", "mainThreadBusyMs", "cpuUtilization"),
          (5 * MS, 4 * MS, 1.0))
    # the docs' example: cores 2, cpus 1, main first: m 0-3, w 0-5 (rate 0 while m
    # runs); without mainThreadPriority both at 1/2: w 0-4, m 0-5
    d1 = {"cores": 2, "cpus": 1, "mainThreadPriority": True, "refreshRate": 1000}
    sc1 = {"name": "C2d", "device": d1, "tasks": [
        {"id": "m", "cost": 3, "mainThreadOnly": True}, {"id": "w", "cost": 2}]}
    check("C2d priority", tasks_by_id(run(sc1, "dag")), {"m": ("main", 0, 0, 3 * MS),
                                                        "w": ("worker-1", 0, 0, 5 * MS)})
    sc1["device"] = dict(d1, mainThreadPriority=False)
    check("C2d shared", tasks_by_id(run(sc1, "dag")), {"m": ("main", 0, 0, 5 * MS),
                                                      "w": ("worker-1", 0, 0, 4 * MS)})


def test_cpus_commit_stretched():
    # cores 2, cpus 1, commitCost 2; w (worker, 4 ms), f (main, 1 ms, firstFrame); dag.
    # At 0 iteration 0's commit (2 ms of work) starts and worker-1 takes w: R = 2,
    # rate 1/2: commit projected 0 + 4000, w 8000.  At 4000 the commit ends (on
    # screen at 4, not the first frame: f has not run); w has 2000 left.
    # Iteration 1 snapshots [f]: f at 1/2 ends 4000 + 2000 = 6000, w 4000 + 4000.
    # At 6000 w has 1000 left; the commit starts: projected 6000 + 4000, w 6000 +
    # 2000 = 8000.  At 8000 w ends (0-8), the commit has 1000 left, alone: ends 9000.
    # First frame 9 (ready 9); launch 9; busy = 4 + 2 + 3 = 9 (wall);
    # cpu = (w 4 + f 1 + 2 commits x 2) / (1 x 9) = 1 (the stretched commits count
    # their commitCost, not their 4 and 3 ms); firstFrameBound = 0 + max(1, 1) + 2 = 3;
    # lowerBound = max(4, 1, ceil(5000 / 1)) = 5.
    sc = {"name": "C3", "device": {"cores": 2, "cpus": 1, "refreshRate": 1000, "commitCost": 2},
          "tasks": [{"id": "w", "cost": 4},
                    {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True}]}
    o = run(sc, "dag")
    check("C3 dag", t5(o), {"w": ("worker-1", 0, 0, 8 * MS, 8 * MS),
                            "f": ("main", 0, 4 * MS, 6 * MS, 6 * MS)})
    check("C3 commits", commits(o), [(0, 4 * MS, 4 * MS), (6 * MS, 9 * MS, 9 * MS)])
    check("C3 metrics", mets(o, "timeToFirstFrameMs", "firstFrameReadyMs", "launchCompleteMs",
                             "mainThreadBusyMs", "cpuUtilization", "firstFrameBoundMs",
                             "lowerBoundMs", "maxInputDelayMs"),
          (9 * MS, 9 * MS, 9 * MS, 9 * MS, 1.0, 3 * MS, 5 * MS, 0))


def test_cpus_input_stretched():
    # cores 2, cpus 1; an input at 0 (2 ms), w (worker, 2 ms); dag.  Iteration 0
    # (dFL, commit 0) takes no input; worker-1 takes w at 0; iteration 1 at 0
    # handles the input: R = 2, rate 1/2, both end 4000; commit 4.
    # busy = input's wall time 4; cpu = (2 + 2) / (1 x 4) = 1;
    # maxInputDelay: iteration 1 (after the first-frame iteration 0) lasts 0-4.
    sc = {"name": "C3i", "device": {"cores": 2, "cpus": 1, "refreshRate": 1000},
          "inputs": [{"at": 0, "cost": 2}], "tasks": [{"id": "w", "cost": 2}]}
    o = run(sc, "dag")
    check("C3i input", ins(o), [("input-1", 0, 0, 4 * MS)])
    check("C3i w", t5(o)["w"], ("worker-1", 0, 0, 4 * MS, 4 * MS))
    check("C3i metrics", mets(o, "mainThreadBusyMs", "cpuUtilization", "maxInputDelayMs",
                              "launchCompleteMs", "frames"), (4 * MS, 1.0, 4 * MS, 4 * MS, 2))


def test_cpus_latency_and_delay_hold_no_cpu():
    # cores 3, cpus 1; x (1 ms, latency 3), d (2 ms, delay 1), y (4 ms); dag.
    # At 0 worker-1 takes x, worker-2 y (rate 1/2; d is not released yet and holds
    # no CPU): x projected 2000, y 8000; d's release at 1000 is a visited instant:
    # x, y lose 500 (x 500 left, y 3500).  d is ready but both workers are busy.
    # At 2000 x ends (done at 5000: its latency holds no CPU); y 3000 left;
    # worker-1 takes d: rate 1/2, d projected 2000 + 4000 = 6000, y 8000.  At 5000
    # (x done, a visited instant) d 500 left, y 1500.  At 6000 d ends; y 1000 left,
    # alone: ends 7000.
    sc = {"name": "C4", "device": {"cores": 3, "cpus": 1, "refreshRate": 1000}, "tasks": [
        {"id": "x", "cost": 1, "latency": 3}, {"id": "d", "cost": 2, "delay": 1},
        {"id": "y", "cost": 4}]}
    o = run(sc, "dag")
    check("C4 dag", t5(o), {"x": ("worker-1", 0, 0, 2 * MS, 5 * MS),
                            "d": ("worker-1", 1 * MS, 2 * MS, 6 * MS, 6 * MS),
                            "y": ("worker-2", 0, 0, 7 * MS, 7 * MS)})
    # the docs' example: x 1 ms + latency 5, y 6 ms: x 0-2 (done 7), y 0-7
    sc2 = {"name": "C4b", "device": {"cores": 3, "cpus": 1, "refreshRate": 1000}, "tasks": [
        {"id": "x", "cost": 1, "latency": 5}, {"id": "y", "cost": 6}]}
    check("C4b docs example", t5(run(sc2, "dag")), {"x": ("worker-1", 0, 0, 2 * MS, 7 * MS),
                                                   "y": ("worker-2", 0, 0, 7 * MS, 7 * MS)})


def test_cpus_end_on_a_visited_instant():
    # cores 3, cpus 1; a (2 ms), b (3 ms), c (1 ms, delay 4); dag.  a and b at 1/2:
    # a projected 4000 — exactly the instant c is released (a visited instant of
    # its own).  At 4000, step 1: a ends and c is released; worker-1 takes c.  b has
    # 3000 - 2000 = 1000 left: b and c at 1/2 both end 4000 + 2000 = 6000.
    sc = {"name": "C5", "device": {"cores": 3, "cpus": 1, "refreshRate": 1000}, "tasks": [
        {"id": "a", "cost": 2}, {"id": "b", "cost": 3}, {"id": "c", "cost": 1, "delay": 4}]}
    check("C5 dag", t5(run(sc, "dag")), {"a": ("worker-1", 0, 0, 4 * MS, 4 * MS),
                                         "b": ("worker-2", 0, 0, 6 * MS, 6 * MS),
                                         "c": ("worker-1", 4 * MS, 4 * MS, 6 * MS, 6 * MS)})


def test_cpus_rounding():
    # (a) rate 2/3: cores 4 (3 workers), cpus 2; a (1 µs), b, c (1 ms).  R = 3:
    # a projected ceil(1 * 3 / 2) = 2; b, c ceil(1000 * 3 / 2) = 1500.  At 2 each
    # loses floor(2 * 2 / 3) = 1: a ends (at 2, not 1.5), b and c have 999 left,
    # now R = 2 <= 2: rate 1, they end 2 + 999 = 1001 (exact fractions would give
    # 1000.667: a third of a µs is dropped at the instant 2).
    sc = {"name": "C6", "device": {"cores": 4, "cpus": 2, "refreshRate": 1000}, "tasks": [
        {"id": "a", "cost": 0.001}, {"id": "b", "cost": 1}, {"id": "c", "cost": 1}]}
    check("C6 2/3", tasks_by_id(run(sc, "dag")), {"a": ("worker-1", 0, 0, 2),
                                                  "b": ("worker-2", 0, 0, 1001),
                                                  "c": ("worker-3", 0, 0, 1001)})
    # (b) a visited instant that changes nothing still drops progress: cores 3,
    # cpus 1; a, b (3 ms) at 1/2; z (cost 0, delay 1 µs) released at 1: a visited
    # instant, both workers busy.  a and b lose floor(1 / 2) = 0 (3000 left) and
    # end 1 + 6000 = 6001 (without z: 6000); z runs at 6001 on worker-1.
    sc = {"name": "C7", "device": {"cores": 3, "cpus": 1, "refreshRate": 1000}, "tasks": [
        {"id": "a", "cost": 3}, {"id": "b", "cost": 3}, {"id": "z", "cost": 0, "delay": 0.001}]}
    check("C7 visited", t5(run(sc, "dag")), {"a": ("worker-1", 0, 0, 6001, 6001),
                                             "b": ("worker-2", 0, 0, 6001, 6001),
                                             "z": ("worker-1", 1, 6001, 6001, 6001)})
    sc["tasks"] = sc["tasks"][:2]
    check("C7 not visited", tasks_by_id(run(sc, "dag"))["a"], ("worker-1", 0, 0, 6 * MS))
    # (b2) the main thread's item is floored the same way: cores 3, cpus 2; m (main,
    # 1 ms), a (1 µs), b (1 ms).  Iteration 0 commits at 0, iteration 1 runs m;
    # R = 3: rate 2/3 each; a projected ceil(1 * 3 / 2) = 2.  At 2 a ends; m and b
    # lose floor(2 * 2 / 3) = 1 (999 left), then R = 2: rate 1, both end 1001;
    # m's commit at 1.001 is on screen at 2.  busy = 1.001.
    sc = {"name": "C7m", "device": {"cores": 3, "cpus": 2, "refreshRate": 1000}, "tasks": [
        {"id": "m", "cost": 1, "mainThreadOnly": True}, {"id": "a", "cost": 0.001}, {"id": "b", "cost": 1}]}
    o = run(sc, "dag")
    check("C7m main floored", tasks_by_id(o), {"m": ("main", 0, 0, 1001), "a": ("worker-1", 0, 0, 2),
                                               "b": ("worker-2", 0, 0, 1001)})
    check("C7m commits", commits(o), [(0, 0, 0), (1001, 1001, 2 * MS)])
    check("C7m busy", o["metrics"]["mainThreadBusyMs"], 1001)
    # (c) P is a visited instant only in a scenario with an after task: cores 4,
    # cpus 1, renderTime 0.5; a, b, c (1 ms) at 1/3; u (1 ms).  No firstFrame task:
    # iteration 0's commit (at 0) is the first frame, P = ceil(500 / 1000) x 1000 = 1000.
    # With u "after": P is visited: a, b, c lose floor(1000 / 3) = 333 (667 left)
    # and end 1000 + ceil(667 x 3) = 3001; u, released at 1000 (readyMs 1),
    # waits for a worker: 3001-4001.  Without after: P is not an event; a, b, c end
    # at ceil(1000 x 3) = 3000; u (ready 0) 3000-4000.
    dev = {"cores": 4, "cpus": 1, "refreshRate": 1000, "renderTime": 0.5}
    tasks = [{"id": "a", "cost": 1}, {"id": "b", "cost": 1}, {"id": "c", "cost": 1},
             {"id": "u", "cost": 1, "after": "firstFrame"}]
    o = run({"name": "C8", "device": dev, "tasks": tasks}, "dag")
    check("C8 P visited", tasks_by_id(o), {"a": ("worker-1", 0, 0, 3001), "b": ("worker-2", 0, 0, 3001),
                                           "c": ("worker-3", 0, 0, 3001),
                                           "u": ("worker-1", 1 * MS, 3001, 4001)})
    check("C8 P", o["metrics"]["timeToFirstFrameMs"], 1 * MS)
    tasks[3] = {"id": "u", "cost": 1}
    check("C8 no after", tasks_by_id(run({"name": "C8b", "device": dev, "tasks": tasks}, "dag")),
          {"a": ("worker-1", 0, 0, 3 * MS), "b": ("worker-2", 0, 0, 3 * MS),
           "c": ("worker-3", 0, 0, 3 * MS), "u": ("worker-1", 0, 3 * MS, 4 * MS)})


def test_cpus_no_effect():
    # cpus >= cores, or mainThreadPriority without cpus, or an explicit "dispatch":
    # exactly the schedule without them (§3.10 "opt-in", §3.11 default); serial and
    # priority ignore mainExecutor; serial never runs two items at once (only the
    # main thread works), so cpus 1 changes no schedule under serial either (only
    # the metrics that divide by min(cores, cpus)).
    import gen_scenarios as gen
    for k in range(40):
        base = gen.gen_scenario(4245, k)
        if len(base["tasks"]) > 150:
            continue
        dev = base.get("device") or {}
        cores = int(dev.get("cores") or 4)
        variants = [({"cpus": cores}, None),
                    ({"cpus": min(cores + 3, 1024), "mainThreadPriority": True}, None),
                    ({"mainThreadPriority": True}, None), ({}, "dispatch")]
        for s in ref.STRATEGIES:
            want = ref.dumps(ref.simulate(base, s))
            for dev_extra, mx in variants:
                sc = dict(base, device=dict(dev, **dev_extra))
                if mx:
                    sc["mainExecutor"] = mx
                if ref.dumps(ref.simulate(sc, s)) != want:
                    FAILS.append(f"no-effect 4245/{k} {s} {dev_extra} {mx}: schedule changed")
            if s in ("serial", "priority"):
                if ref.dumps(ref.simulate(dict(base, mainExecutor="operationQueue"), s)) != want:
                    FAILS.append(f"no-effect 4245/{k} {s}: mainExecutor changed the schedule")
            if s == "serial":
                got = us(ref.simulate(dict(base, device=dict(dev, cpus=1)), s))
                w = us(ref.simulate(base, s))
                if (got["tasks"], got["inputs"], got["commits"]) != (w["tasks"], w["inputs"], w["commits"]):
                    FAILS.append(f"no-effect 4245/{k} serial: cpus 1 changed the schedule")


def test_operation_queue_one_per_iteration():
    # The docs' example: cores 2, commitCost 1, operationQueue, dag; m1 (1 ms),
    # m2 (1 ms, priority 1), m0 (1 ms).  At 0 the operation queue admits m1 (rank
    # (1,0,0)), after iteration 0's snapshot; iteration 0 commits 0-1; m1 1-2
    # (commit 2-3), m0 admitted at m1's done (2), runs 3-4 (commit 4-5), m2 5-6
    # (commit 6-7).  readyMs = the hand-over to the main operation queue: 0 for all.
    # Under dispatch: m1 1-2, m0 2-3, m2 3-4, one commit 4-5.
    sc = {"name": "O1", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 1},
          "mainExecutor": "operationQueue", "tasks": [
              {"id": "m1", "cost": 1, "mainThreadOnly": True},
              {"id": "m2", "cost": 1, "mainThreadOnly": True, "priority": 1},
              {"id": "m0", "cost": 1, "mainThreadOnly": True}]}
    o = run(sc, "dag")
    check("O1 op", tasks_by_id(o), {"m1": ("main", 0, 1 * MS, 2 * MS), "m2": ("main", 0, 5 * MS, 6 * MS),
                                    "m0": ("main", 0, 3 * MS, 4 * MS)})
    check("O1 op commits", [c[:2] for c in commits(o)],
          [(0, 1 * MS), (2 * MS, 3 * MS), (4 * MS, 5 * MS), (6 * MS, 7 * MS)])
    check("O1 op frames", mets(o, "frames", "launchCompleteMs", "maxInputDelayMs"), (4, 7 * MS, 2 * MS))
    o = run(dict(sc, mainExecutor="dispatch"), "dag")
    check("O1 dispatch", tasks_by_id(o), {"m1": ("main", 0, 1 * MS, 2 * MS),
                                          "m2": ("main", 0, 3 * MS, 4 * MS),
                                          "m0": ("main", 0, 2 * MS, 3 * MS)})
    check("O1 dispatch frames", o["metrics"]["frames"], 2)
    # The choice is made when the main operation queue is free, among the tasks
    # waiting then (not when the next iteration starts).  cores 2, commitCost 2;
    # a (main, 1), c (main, 1, priority 5), w (worker, 3.5), b (main, 1, priority 1,
    # needs w).  At 0 dFL hands a and c over; the main operation queue admits a
    # (rank (1,0,0) beats c's (1,5,1)): main queue at 0, after iteration 0's snapshot.
    # Iteration 0 commits 0-2; iteration 1 runs a 2-3; a is done at 3 and the queue
    # admits c, the only one waiting (b is handed over only at 3.5, when w ends);
    # commit 3-5; iteration 2: c 5-6, commit 6-8; c done at 6: b admitted;
    # iteration 3: b 8-9, commit 9-11.  b's readyMs is 3.5 (its hand-over), c's 0.
    # Under dispatch: iteration 1 takes [a, c] (a 2-3, c 3-4, commit 4-6), b,
    # enqueued at 3.5, runs in iteration 2: 6-7, commit 7-9.
    sc = {"name": "O2", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 2},
          "mainExecutor": "operationQueue", "tasks": [
              {"id": "a", "cost": 1, "mainThreadOnly": True},
              {"id": "c", "cost": 1, "mainThreadOnly": True, "priority": 5},
              {"id": "w", "cost": 3.5},
              {"id": "b", "cost": 1, "mainThreadOnly": True, "priority": 1, "dependsOn": ["w"]}]}
    o = run(sc, "dag")
    check("O2 op", tasks_by_id(o), {"a": ("main", 0, 2 * MS, 3 * MS), "c": ("main", 0, 5 * MS, 6 * MS),
                                    "w": ("worker-1", 0, 0, 3500),
                                    "b": ("main", 3500, 8 * MS, 9 * MS)})
    check("O2 op commits", [c[:2] for c in commits(o)],
          [(0, 2 * MS), (3 * MS, 5 * MS), (6 * MS, 8 * MS), (9 * MS, 11 * MS)])
    o = run(dict(sc, mainExecutor="dispatch"), "dag")
    check("O2 dispatch", tasks_by_id(o), {"a": ("main", 0, 2 * MS, 3 * MS),
                                          "c": ("main", 0, 3 * MS, 4 * MS),
                                          "w": ("worker-1", 0, 0, 3500),
                                          "b": ("main", 3500, 6 * MS, 7 * MS)})
    check("O2 dispatch commits", [c[:2] for c in commits(o)],
          [(0, 2 * MS), (4 * MS, 6 * MS), (7 * MS, 9 * MS)])
    # Best-ranked among the waiting: cores 2, commitCost 0; c (main 1 ms, priority 5),
    # w (worker 2 ms), b (main 1, needs w), x (main 1, priority 3).  At 0: c and x
    # wait; x (priority 3) is admitted; iteration 1: x 0-1 (commit 1); at 1 x is
    # done, c admitted: c 1-2.  At 2, step 1: c ends (done: the queue is free) and
    # w ends (b handed over); the queue admits b, the only one left.  b 2-3.
    sc = {"name": "O3", "device": {"cores": 2, "refreshRate": 1000},
          "mainExecutor": "operationQueue", "tasks": [
              {"id": "c", "cost": 1, "mainThreadOnly": True, "priority": 5},
              {"id": "w", "cost": 2},
              {"id": "b", "cost": 1, "mainThreadOnly": True, "dependsOn": ["w"]},
              {"id": "x", "cost": 1, "mainThreadOnly": True, "priority": 3}]}
    o = run(sc, "dag")
    check("O3 op", tasks_by_id(o), {"c": ("main", 0, 1 * MS, 2 * MS), "w": ("worker-1", 0, 0, 2 * MS),
                                    "b": ("main", 2 * MS, 2 * MS, 3 * MS),
                                    "x": ("main", 0, 0, 1 * MS)})
    check("O3 op commits", commits(o), [(0, 0, 0), (1 * MS, 1 * MS, 1 * MS), (2 * MS, 2 * MS, 2 * MS),
                                        (3 * MS, 3 * MS, 3 * MS)])


def test_operation_queue_admits_last_and_own_queue():
    # "It admits last": cores 2; z (worker 2 ms, queue q), B (main 1, queue q),
    # A (main 1, priority 5), K (main 2).  At 0: q admits z (rank (1,0,0) beats B);
    # the main operation queue admits K ((1,0,3) beats A's (1,5,2)).  Iteration 1:
    # K 0-2, z 0-2 on worker-1.  At 2, step 1: K done (operation queue free) and z
    # done (q free).  First q admits B, handed over to the operation queue (readyMs
    # 2); then the operation queue admits the best waiting: B beats A.  B 2-3, A 3-4.
    # (Were the operation queue to admit first, A would win alone at 2.)
    sc = {"name": "O4", "device": {"cores": 2, "refreshRate": 1000},
          "mainExecutor": "operationQueue", "tasks": [
              {"id": "z", "cost": 2, "queue": "q"},
              {"id": "B", "cost": 1, "mainThreadOnly": True, "queue": "q"},
              {"id": "A", "cost": 1, "mainThreadOnly": True, "priority": 5},
              {"id": "K", "cost": 2, "mainThreadOnly": True}]}
    check("O4 admits last", tasks_by_id(run(sc, "dag")), {
        "z": ("worker-1", 0, 0, 2 * MS), "B": ("main", 2 * MS, 2 * MS, 3 * MS),
        "A": ("main", 0, 3 * MS, 4 * MS), "K": ("main", 0, 0, 2 * MS)})
    # A task's own queue admits it first, and it keeps that queue while it waits in
    # the main operation queue.  m1 (main 1), m2 (main 1, queue q), w (worker 1,
    # queue q, priority 1).  At 0: q admits m2 (beats w), handed over to the
    # operation queue (readyMs 0, its own admission); the operation queue admits m1.
    # Iteration 1: m1 0-1; at 1 m2 is admitted: iteration 2, m2 1-2; at 2 m2 is
    # done, q admits w: 2-3.  Commits 0, 1, 2 (launch 3).
    sc = {"name": "O5", "device": {"cores": 2, "refreshRate": 1000},
          "mainExecutor": "operationQueue", "tasks": [
              {"id": "m1", "cost": 1, "mainThreadOnly": True},
              {"id": "m2", "cost": 1, "mainThreadOnly": True, "queue": "q"},
              {"id": "w", "cost": 1, "queue": "q", "priority": 1}]}
    o = run(sc, "dag")
    check("O5 own queue", tasks_by_id(o), {"m1": ("main", 0, 0, 1 * MS),
                                           "m2": ("main", 0, 1 * MS, 2 * MS),
                                           "w": ("worker-1", 2 * MS, 2 * MS, 3 * MS)})
    check("O5 commits", [c[1] for c in commits(o)], [0, 1 * MS, 2 * MS])


def test_operation_queue_idle_and_after():
    # cores 2, 1000 Hz, commitCost 0 (every commit on a vsync, presented at its end);
    # f (main 1, firstFrame), g (main 1, latency 3), h (main 1), i (main 1, idle),
    # a (main 1, after); operationQueue, dag, batch.
    # At 0: f, g, h wait for the operation queue; i goes to the idle queue; a is
    # held.  The queue admits f.  Iteration 0: no idle step (f in the main queue),
    # commit 0.  Iteration 1: f 0-1; f done at 1: g admitted (rank (1,0,1) beats
    # h); no idle step (g queued); commit 1 = the first-frame commit, P = 1, zero
    # length on a vsync: iteration 2 starts at once with [g] (g 1-2), then the
    # further step 1 releases a: it waits behind h for the busy operation queue
    # (readyMs 1).  At 2 g ends but is done only at 5: the queue stays busy.  The
    # main queue is empty and no input pending, so the idle step runs i 2-3
    # (tasks waiting in the operation queue are not in the main queue); commit 3.
    # At 5 g is done: h admitted (rank (1,0,2) beats a's (1,0,4)): iteration 3
    # h 5-6, commit 6; then a: iteration 4, 6-7, commit 7.  5 frames, first
    # frame 1, launch 7.
    sc = {"name": "O6", "device": {"cores": 2, "refreshRate": 1000},
          "mainExecutor": "operationQueue", "tasks": [
              {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
              {"id": "g", "cost": 1, "mainThreadOnly": True, "latency": 3},
              {"id": "h", "cost": 1, "mainThreadOnly": True},
              {"id": "i", "cost": 1, "mainThreadOnly": True, "idle": True},
              {"id": "a", "cost": 1, "mainThreadOnly": True, "after": "firstFrame"}]}
    o = run(sc, "dag")
    check("O6 op", t5(o), {"f": ("main", 0, 0, 1 * MS, 1 * MS), "g": ("main", 0, 1 * MS, 2 * MS, 5 * MS),
                           "h": ("main", 0, 5 * MS, 6 * MS, 6 * MS),
                           "i": ("main", 0, 2 * MS, 3 * MS, 3 * MS),
                           "a": ("main", 1 * MS, 6 * MS, 7 * MS, 7 * MS)})
    check("O6 op commits", [c[1] for c in commits(o)], [0, 1 * MS, 3 * MS, 6 * MS, 7 * MS])
    check("O6 op metrics", mets(o, "timeToFirstFrameMs", "launchCompleteMs", "frames"),
          (1 * MS, 7 * MS, 5))
    # Under dispatch: f, g, h queued at 0; iteration 1: f 0-1, g 1-2, h 2-3, then the
    # idle step (main queue empty, a still held): i 3-4, commit 4 = the first frame
    # (P = 4, on a vsync); the main thread sleeps, the further step 1 releases a:
    # iteration 2, a 4-5, commit 5.  3 frames; launch max(g done 5, 5) = 5.
    o = run(dict(sc, mainExecutor="dispatch"), "dag")
    check("O6 dispatch", t5(o), {"f": ("main", 0, 0, 1 * MS, 1 * MS),
                                 "g": ("main", 0, 1 * MS, 2 * MS, 5 * MS),
                                 "h": ("main", 0, 2 * MS, 3 * MS, 3 * MS),
                                 "i": ("main", 0, 3 * MS, 4 * MS, 4 * MS),
                                 "a": ("main", 4 * MS, 4 * MS, 5 * MS, 5 * MS)})
    check("O6 dispatch metrics", mets(o, "timeToFirstFrameMs", "launchCompleteMs", "frames"),
          (4 * MS, 5 * MS, 3))


def test_operation_queue_dag_anchored_serial_priority():
    # cores 2, commitCost 1; d (main 1), k (worker 2, anchor, needs d), home (main 1,
    # firstFrame), t (main 1); operationQueue.
    # dag: the closure is {k, d}: d goes to the main queue (dFL runs it), home and
    # t to the operation queue, which admits home (main queue at 0, not a closure
    # task).  dFL takes d out: 0-1; k 1-3 on worker-1; dFL blocked 1-3, returns at 3;
    # commit 3-4; iteration 1: home 4-5, commit 5-6 (first frame 6); home done at 5:
    # t admitted; iteration 2: t 6-7, commit 7-8.  3 frames.
    sc = {"name": "O7", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 1},
          "mainExecutor": "operationQueue", "tasks": [
              {"id": "d", "cost": 1, "mainThreadOnly": True},
              {"id": "k", "cost": 2, "anchor": True, "dependsOn": ["d"]},
              {"id": "home", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
              {"id": "t", "cost": 1, "mainThreadOnly": True}]}
    o = run(sc, "dag")
    check("O7 dag op", tasks_by_id(o), {"d": ("main", 0, 0, 1 * MS), "k": ("worker-1", 1 * MS, 1 * MS, 3 * MS),
                                        "home": ("main", 0, 4 * MS, 5 * MS),
                                        "t": ("main", 0, 6 * MS, 7 * MS)})
    check("O7 dag op metrics", mets(o, "timeToFirstFrameMs", "mainThreadBlockedMs", "frames",
                                    "launchCompleteMs"), (6 * MS, 2 * MS, 3, 8 * MS))
    # dag, dispatch: home and t both in iteration 1 (4-5, 5-6), commit 6-7: first frame 7.
    o = run(dict(sc, mainExecutor="dispatch"), "dag")
    check("O7 dag dispatch", tasks_by_id(o), {"d": ("main", 0, 0, 1 * MS),
                                              "k": ("worker-1", 1 * MS, 1 * MS, 3 * MS),
                                              "home": ("main", 0, 4 * MS, 5 * MS),
                                              "t": ("main", 0, 5 * MS, 6 * MS)})
    check("O7 dag dispatch metrics", mets(o, "timeToFirstFrameMs", "frames"), (7 * MS, 2))
    # anchored: home joins the closure and goes to the main queue (dFL runs it);
    # only t goes through the operation queue (admitted at 0).  dFL: d 0-1, k 1-3,
    # home 1-2 (a closure task in the main queue), blocked 2-3, returns at 3; commit
    # 3-4 (first frame 4); iteration 1: t 4-5, commit 5-6.  The same as dispatch
    # here: one non-closure main task.
    o = run(sc, "anchored")
    want = {"d": ("main", 0, 0, 1 * MS), "k": ("worker-1", 1 * MS, 1 * MS, 3 * MS),
            "home": ("main", 0, 1 * MS, 2 * MS), "t": ("main", 0, 4 * MS, 5 * MS)}
    check("O7 anchored op", tasks_by_id(o), want)
    check("O7 anchored op metrics", mets(o, "timeToFirstFrameMs", "mainThreadBlockedMs", "frames"),
          (4 * MS, 1 * MS, 2))
    check("O7 anchored dispatch", tasks_by_id(run(dict(sc, mainExecutor="dispatch"), "anchored")), want)
    # serial and priority ignore the key: the same output as under dispatch
    for s in ("serial", "priority"):
        check(f"O7 {s} ignores mainExecutor", ref.dumps(ref.simulate(sc, s)),
              ref.dumps(ref.simulate(dict(sc, mainExecutor="dispatch"), s)))


def test_operation_queue_closure_task_after_dfl():
    # A closure task that becomes ready only after dFL returned still goes to the
    # main queue (closure membership decides, NOTES "Questions from §3.10-3.11", Q6).
    # cores 2, commitCost 0, operationQueue, dag; k (worker 1, anchor, queue q),
    # x (worker 2), X (main 1, queue q, needs x: in the closure as k's queue-mate),
    # m, n, p (main 1 each).  At 0: q admits k; the operation queue admits m; dFL
    # blocked; worker-1 takes k (c = 0) 0-1.  At 1 k is done: dFL returns (blocked
    # 1 ms), commit 1; iteration 1: m 1-2; worker-1: x 1-3.  At 2 n is admitted:
    # iteration 2, n 2-3.  At 3, step 1: n done (the operation queue is free), x
    # done: X ready, q admits X -> the main queue (closure); then the operation
    # queue admits p -> the main queue.  Iteration 3 snapshots [X, p] (same instant,
    # X's rank (0,0,2) first): X 3-4, p 4-5, commit 5.  Commits 1, 2, 3, 5.
    # (Sending X through the operation queue instead would give X 3-4 and p 4-5 in
    # two iterations: 5 frames.)
    sc = {"name": "O8", "device": {"cores": 2, "refreshRate": 1000},
          "mainExecutor": "operationQueue", "tasks": [
              {"id": "k", "cost": 1, "anchor": True, "queue": "q"},
              {"id": "x", "cost": 2},
              {"id": "X", "cost": 1, "mainThreadOnly": True, "queue": "q", "dependsOn": ["x"]},
              {"id": "m", "cost": 1, "mainThreadOnly": True},
              {"id": "n", "cost": 1, "mainThreadOnly": True},
              {"id": "p", "cost": 1, "mainThreadOnly": True}]}
    o = run(sc, "dag")
    check("O8 tasks", tasks_by_id(o), {"k": ("worker-1", 0, 0, 1 * MS), "x": ("worker-1", 0, 1 * MS, 3 * MS),
                                       "X": ("main", 3 * MS, 3 * MS, 4 * MS),
                                       "m": ("main", 0, 1 * MS, 2 * MS), "n": ("main", 0, 2 * MS, 3 * MS),
                                       "p": ("main", 0, 4 * MS, 5 * MS)})
    check("O8 commits", [c[1] for c in commits(o)], [1 * MS, 2 * MS, 3 * MS, 5 * MS])
    check("O8 metrics", mets(o, "mainThreadBlockedMs", "frames", "launchCompleteMs"), (1 * MS, 4, 5 * MS))


def test_new_keys_validation():
    bad = [
        ({"cpus": 0}, "device.cpus"), ({"cpus": 1025}, "device.cpus"), ({"cpus": 2.5}, "not an integer"),
        ({"cpus": "2"}, "device.cpus: expected a integer"),
        ({"mainThreadPriority": "yes"}, "device.mainThreadPriority: expected a boolean"),
        ({"cpu": 2}, "did you mean 'cpus'"),
    ]
    for dev, want in bad:
        probs = ref.validate({"name": "x", "device": dev, "tasks": [{"id": "a", "cost": 1}]})
        if not any(want in p for p in probs):
            FAILS.append(f"new keys validation: want {want!r} in {probs!r}")
    for mx, want in (("operationqueue", "did you mean 'operationQueue'"), (3, "expected a string"),
                     ("main", "neither")):
        probs = ref.validate({"name": "x", "mainExecutor": mx, "tasks": [{"id": "a", "cost": 1}]})
        if not any(want in p and p.startswith("mainExecutor") for p in probs):
            FAILS.append(f"new keys validation: want {want!r} in {probs!r}")
    ok = {"name": "ok", "mainExecutor": None, "device": {"cpus": 1024.0, "mainThreadPriority": None},
          "tasks": [{"id": "a", "cost": 1}]}
    check("new keys ok", ref.validate(ok), [])
    check("new keys ok 2", ref.validate({"name": "ok", "mainExecutor": "operationQueue",
                                         "device": {"cpus": 1, "mainThreadPriority": False},
                                         "tasks": [{"id": "a", "cost": 1}]}), [])


# ==========================================================================
# docs/model.md §3.12 (launchPhases, startsIn, firstDrawMs, phases) hand
# cases.  B1 and B2 are the docs' worked examples (normative); the others are
# derived by hand from §3.12, §5, §6.1 and §7 (the derivation in comments).
# Times in µs; MS = 1000.
# ==========================================================================

B1 = {"name": "B1", "device": {"cores": 2, "refreshRate": 1000, "commitCost": 1},
      "preMain": [{"name": "dyld", "cost": 10}],
      "launchPhases": [{"name": "willFinishLaunching", "cost": 1},
                       {"name": "didFinishLaunching", "cost": 2},
                       {"name": "sceneWillConnect", "cost": 5},
                       {"name": "sceneDidBecomeActive", "cost": 1}],
      "tasks": [{"id": "config", "cost": 4, "anchor": True},
                {"id": "feed", "cost": 6, "mainThreadOnly": True, "firstFrame": True,
                 "dependsOn": ["config"]},
                {"id": "analytics", "cost": 3}]}


def phases_of(o):
    return [(p["name"], p["startMs"], p["endMs"]) for p in o["phases"]]


def se(o):
    """id -> (startMs, endMs)."""
    return {t["id"]: (t["startMs"], t["endMs"]) for t in o["tasks"]}


def test_phases_b1_table():
    # The table of §3.12 (B1): t1 = 10 + 1 + 2 = 13.  Columns: config, feed,
    # analytics, first frame, first draw, launch complete, blocked, frames,
    # violations.  Vsync every ms, so every commit is on screen at its end.
    table = {
        "serial": ((13, 17), (17, 23), (23, 26), 33, 33, 33, 0, 1, 0),
        "priority": ((13, 17), (13, 19), (17, 20), 27, 27, 27, 1, 1, 1),
        "dag": ((13, 17), (24, 30), (17, 20), 31, 24, 31, 4, 2, 0),
        "anchored": ((13, 17), (17, 23), (17, 20), 30, 30, 30, 4, 1, 0),
    }
    for s, row in table.items():
        o = run(B1, s)
        got = se(o)
        check(f"B1 {s} tasks", (got["config"], got["feed"], got["analytics"]),
              tuple((a * MS, b * MS) for a, b in row[:3]))
        check(f"B1 {s} metrics", mets(o, "timeToFirstFrameMs", "firstDrawMs", "launchCompleteMs",
                                      "mainThreadBlockedMs", "frames", "dependencyViolations"),
              (row[3] * MS, row[4] * MS, row[5] * MS, row[6] * MS, row[7], row[8]))
        check(f"B1 {s} first draw = commits[0].end", o["metrics"]["firstDrawMs"], o["commits"][0]["endMs"])
        # the bounds are the scenario's: t1 = 13, A = 5 + 1 = 6, longest path 4 + 6,
        # main-thread total 6, total cost 13 on 2 cores -> 7; critical path 13 + 10 = 23,
        # lower bound 13 + max(10, 6 + 6, 7) = 25, first-frame bound: C = 10, M = 6,
        # vsync(13 + max(10, 6 + 6) + 1 + 0) = 26
        check(f"B1 {s} bounds", mets(o, "criticalPathMs", "lowerBoundMs", "firstFrameBoundMs"),
              (23 * MS, 25 * MS, 26 * MS))
    # the phases: serial's dFL runs the three tasks 13-26; dag's returns at 17 (anchor
    # config done), then sceneWillConnect 17-22, sceneDidBecomeActive 22-23, commit 23-24
    check("B1 serial phases", phases_of(run(B1, "serial")),
          [("willFinishLaunching", 10 * MS, 11 * MS), ("didFinishLaunching", 11 * MS, 26 * MS),
           ("sceneWillConnect", 26 * MS, 31 * MS), ("sceneDidBecomeActive", 31 * MS, 32 * MS)])
    o = run(B1, "dag")
    check("B1 dag phases", phases_of(o),
          [("willFinishLaunching", 10 * MS, 11 * MS), ("didFinishLaunching", 11 * MS, 17 * MS),
           ("sceneWillConnect", 17 * MS, 22 * MS), ("sceneDidBecomeActive", 22 * MS, 23 * MS)])
    check("B1 dag commits", commits(o), [(23 * MS, 24 * MS, 24 * MS), (30 * MS, 31 * MS, 31 * MS)])
    # readyMs: config and analytics at t1 = 13 (dag's tasks without dependencies);
    # feed at 17, config's done
    check("B1 dag ready", {t["id"]: t["readyMs"] for t in o["tasks"]},
          {"config": 13 * MS, "feed": 17 * MS, "analytics": 13 * MS})
    # busy: pre-main 10 + phases 1 + 2 + 5 + 1 + feed 6 + two commits 2 = 27;
    # cpu: (10 + 9 + 13 + 2) / (2 x 31) = 34 / 62
    check("B1 dag busy", o["metrics"]["mainThreadBusyMs"], 27 * MS)
    check("B1 dag cpu", abs(o["metrics"]["cpuUtilization"] - 34 / 62) < 1e-12, True)
    # serial: busy 10 + 9 + 13 + 1 = 33, cpu 33 / (2 x 33) = 0.5; readyMs t1 for all
    o = run(B1, "serial")
    check("B1 serial busy cpu", mets(o, "mainThreadBusyMs", "cpuUtilization"), (33 * MS, 0.5))
    check("B1 serial ready", {t["readyMs"] for t in o["tasks"]}, {13 * MS})
    # priority: feed is inline (readyMs t1 = 13), violation feed on config (13 < 17);
    # dFL blocked 19-20 waiting for analytics; phases 20-25, 25-26, commit 26-27
    o = run(B1, "priority")
    check("B1 priority ready", {t["id"]: t["readyMs"] for t in o["tasks"]},
          {"config": 13 * MS, "feed": 13 * MS, "analytics": 13 * MS})
    check("B1 priority violations", o["violations"], [{"task": "feed", "dependency": "config",
                                                       "startMs": 13 * MS, "dependencyEndMs": 17 * MS}])
    check("B1 priority phases", phases_of(o)[1:],
          [("didFinishLaunching", 11 * MS, 20 * MS), ("sceneWillConnect", 20 * MS, 25 * MS),
           ("sceneDidBecomeActive", 25 * MS, 26 * MS)])
    # anchored: dFL blocked 13-17, runs feed 17-23, returns at 23
    check("B1 anchored phases", phases_of(run(B1, "anchored"))[1:],
          [("didFinishLaunching", 11 * MS, 23 * MS), ("sceneWillConnect", 23 * MS, 28 * MS),
           ("sceneDidBecomeActive", 28 * MS, 29 * MS)])


def test_phases_b2_starts_in():
    # B2: B1 with "startsIn": "sceneWillConnect": t1 = 10 + 1 + 2 + 5 = 18, A = 1.
    sc = dict(B1, name="B2", startsIn="sceneWillConnect")
    o = run(sc, "dag")
    # dag (the docs): config 18-22, analytics 22-25 (one worker), dFL returns at 22,
    # sceneDidBecomeActive 22-23, commit 23-24 (first draw 24), feed 24-30, commit
    # 30-31: first frame 31.  Blocked 18-22.
    check("B2 dag tasks", se(o), {"config": (18 * MS, 22 * MS), "feed": (24 * MS, 30 * MS),
                                  "analytics": (22 * MS, 25 * MS)})
    check("B2 dag metrics", mets(o, "firstDrawMs", "timeToFirstFrameMs", "mainThreadBlockedMs", "frames",
                                 "launchCompleteMs"), (24 * MS, 31 * MS, 4 * MS, 2, 31 * MS))
    check("B2 dag phases", phases_of(o),
          [("willFinishLaunching", 10 * MS, 11 * MS), ("didFinishLaunching", 11 * MS, 13 * MS),
           ("sceneWillConnect", 13 * MS, 22 * MS), ("sceneDidBecomeActive", 22 * MS, 23 * MS)])
    # bounds from t1 = 18 with A = 1: critical path 18 + 10 = 28; lower bound
    # 18 + max(10, 1 + 6, ceil(13 / 2) = 7) = 28; first-frame bound vsync(18 +
    # max(10, 1 + 6) + 1) = 29.  busy 10 + 9 + 6 + 2 = 27.
    check("B2 bounds", mets(o, "criticalPathMs", "lowerBoundMs", "firstFrameBoundMs", "mainThreadBusyMs"),
          (28 * MS, 28 * MS, 29 * MS, 27 * MS))
    # serial: dFL at 18 runs config 18-22, feed 22-28, analytics 28-31; phase 31-32;
    # commit 32-33
    o = run(sc, "serial")
    check("B2 serial", (se(o), mets(o, "firstDrawMs", "timeToFirstFrameMs")),
          ({"config": (18 * MS, 22 * MS), "feed": (22 * MS, 28 * MS), "analytics": (28 * MS, 31 * MS)},
           (33 * MS, 33 * MS)))
    # priority: feed inline 18-24 (config on the worker 18-22, analytics 22-25); dFL
    # blocked 24-25; phase 25-26; commit 26-27
    o = run(sc, "priority")
    check("B2 priority", (se(o), mets(o, "firstDrawMs", "mainThreadBlockedMs", "dependencyViolations")),
          ({"config": (18 * MS, 22 * MS), "feed": (18 * MS, 24 * MS), "analytics": (22 * MS, 25 * MS)},
           (27 * MS, 1 * MS, 1)))
    # anchored: config 18-22 (blocked), feed taken out 22-28, analytics 22-25; dFL
    # returns at 28; phase 28-29; commit 29-30 (the first frame and the first draw)
    o = run(sc, "anchored")
    check("B2 anchored", (se(o), mets(o, "firstDrawMs", "timeToFirstFrameMs", "mainThreadBlockedMs")),
          ({"config": (18 * MS, 22 * MS), "feed": (22 * MS, 28 * MS), "analytics": (22 * MS, 25 * MS)},
           (30 * MS, 30 * MS, 4 * MS)))


def test_phases_starts_in_first_phase_and_inputs():
    # startsIn the first phase: phases init 2 (startsIn), didFinishLaunching 1; no
    # pre-main.  w (worker 2), m (main 1); a tap at 1 (cost 1), during init.
    # dag: t1 = 0 + 2 = 2.  dFL: w ready (worker 2-4), m to the main queue at 2
    # (after iteration 0's snapshot); no closure: returns at 2.  didFinishLaunching
    # 2-3; iteration 0: no idle step, commit 3-3 (first draw 3; no firstFrame task:
    # the first frame too).  The tap, pending since 1, waits: iteration 1 handles it
    # 3-4, then m 4-5, commit 5.  Latency 3 - 1 = 2; launch max(w done 4, 5) = 5;
    # maxInputDelay: iteration 1, 3-5 = 2.  Bounds: t1 = 2, A = 1: critical 2 + 2 = 4;
    # lower 2 + max(2, 1 + 1, ceil(3 / 2) = 2) = 4; first-frame bound (no firstFrame
    # task: C = M = 0) vsync(2 + max(0, 1 + 0)) = 3.
    sc = {"name": "P3", "device": {"cores": 2, "refreshRate": 1000},
          "launchPhases": [{"name": "init", "cost": 2}, {"name": "didFinishLaunching", "cost": 1}],
          "startsIn": "init", "inputs": [{"name": "tap", "at": 1, "cost": 1}],
          "tasks": [{"id": "w", "cost": 2}, {"id": "m", "cost": 1, "mainThreadOnly": True}]}
    o = run(sc, "dag")
    check("P3 tasks", tasks_by_id(o), {"w": ("worker-1", 2 * MS, 2 * MS, 4 * MS),
                                       "m": ("main", 2 * MS, 4 * MS, 5 * MS)})
    check("P3 phases", phases_of(o), [("init", 0, 2 * MS), ("didFinishLaunching", 2 * MS, 3 * MS)])
    check("P3 inputs", ins(o), [("tap", 1 * MS, 3 * MS, 4 * MS)])
    check("P3 metrics", mets(o, "firstDrawMs", "timeToFirstFrameMs", "launchCompleteMs", "frames",
                             "inputLatencyMaxMs", "maxInputDelayMs", "criticalPathMs", "lowerBoundMs",
                             "firstFrameBoundMs"),
          (3 * MS, 3 * MS, 5 * MS, 2, 2 * MS, 2 * MS, 4 * MS, 4 * MS, 3 * MS))
    # the name is compared as ids are: "didFinishLaunching" written decomposed is
    # another string, but "é" and "e\u0301" are one name
    sc2 = dict(sc, launchPhases=[{"name": "\u00e9", "cost": 2}, {"name": "didFinishLaunching", "cost": 1}],
               startsIn="e\u0301")
    check("P3 NFD startsIn", se(run(sc2, "dag")), se(o))


def test_phases_zero_cost():
    # Phases that all cost 0: nothing moves (t1 = t0, A = 0); each phase starts and
    # ends at t0, the startsIn one when dFL returns.  The §2 example under every
    # strategy: the output equals the one without phases but for "phases".
    sc = dict(EXAMPLE, launchPhases=[{"name": "will", "cost": 0}, {"name": "didFinishLaunching", "cost": 0},
                                     {"name": "scene", "cost": 0.0}])
    for s in ref.STRATEGIES:
        o, base = run(sc, s), run(EXAMPLE, s)
        check(f"zero phases {s}", {k: v for k, v in o.items() if k != "phases"},
              {k: v for k, v in base.items() if k != "phases"})
    # dag returns at once (92); anchored waits for root-vc, which it runs 100-130
    check("zero phases dag", phases_of(run(sc, "dag")),
          [("will", 92 * MS, 92 * MS), ("didFinishLaunching", 92 * MS, 92 * MS), ("scene", 92 * MS, 92 * MS)])
    check("zero phases anchored", phases_of(run(sc, "anchored")),
          [("will", 92 * MS, 92 * MS), ("didFinishLaunching", 92 * MS, 130 * MS),
           ("scene", 130 * MS, 130 * MS)])
    # A zero-cost startsIn phase between positive ones: will 1, didFinishLaunching 0,
    # scene 2; w (worker 3), f (main 1, firstFrame).  dag, cores 2, 1000 Hz: t1 = 1;
    # dFL at 1: w 1-4 on the worker, f to the main queue; scene 1-3; commit 3 (first
    # draw 3); f 3-4, commit 4 (first frame 4).
    sc = {"name": "Z2", "device": {"cores": 2, "refreshRate": 1000},
          "launchPhases": [{"name": "will", "cost": 1}, {"name": "didFinishLaunching", "cost": 0},
                           {"name": "scene", "cost": 2}],
          "tasks": [{"id": "w", "cost": 3}, {"id": "f", "cost": 1, "mainThreadOnly": True, "firstFrame": True}]}
    o = run(sc, "dag")
    check("Z2 phases", phases_of(o), [("will", 0, 1 * MS), ("didFinishLaunching", 1 * MS, 1 * MS),
                                      ("scene", 1 * MS, 3 * MS)])
    check("Z2", (se(o), mets(o, "firstDrawMs", "timeToFirstFrameMs", "launchCompleteMs")),
          ({"w": (1 * MS, 4 * MS), "f": (3 * MS, 4 * MS)}, (3 * MS, 4 * MS, 4 * MS)))


def test_phases_idle_task_in_iteration_0():
    # An idle task handed over while a later phase runs joins the idle queue, and
    # iteration 0's idle step (after the last phase) runs it.  cores 2, 1000 Hz;
    # phases didFinishLaunching 0, scene 3; w (worker 1), i (main 1, idle, needs w).
    # dag: t1 = 0; w 0-1; dFL returns at 0; scene 0-3; at 1 w is done: i to the idle
    # queue.  At 3: idle step (main queue empty, nothing pending): i 3-4; commit 4.
    # One frame, first draw 4.
    sc = {"name": "PI", "device": {"cores": 2, "refreshRate": 1000},
          "launchPhases": [{"name": "didFinishLaunching", "cost": 0}, {"name": "scene", "cost": 3}],
          "tasks": [{"id": "w", "cost": 1},
                    {"id": "i", "cost": 1, "mainThreadOnly": True, "idle": True, "dependsOn": ["w"]}]}
    o = run(sc, "dag")
    check("PI idle in iteration 0", (tasks_by_id(o)["i"], commits(o)),
          (("main", 1 * MS, 3 * MS, 4 * MS), [(4 * MS, 4 * MS, 4 * MS)]))
    check("PI metrics", mets(o, "firstDrawMs", "frames", "launchCompleteMs"), (4 * MS, 1, 4 * MS))
    # the same task not idle waits for iteration 1: commit 3, i 3-4, commit 4
    sc2 = dict(sc, tasks=[sc["tasks"][0], dict(sc["tasks"][1], idle=False)])
    o = run(sc2, "dag")
    check("PI not idle", (tasks_by_id(o)["i"], [c[1] for c in commits(o)]),
          (("main", 1 * MS, 3 * MS, 4 * MS), [3 * MS, 4 * MS]))
    check("PI not idle first draw", o["metrics"]["firstDrawMs"], 3 * MS)
    # a tap arriving during the scene phase (at 2, cost 1) is pending at 3: no idle
    # step in iteration 0 (commit 3); iteration 1 handles the tap 3-4, then (after
    # the whole snapshot, V4) the idle step: i 4-5, commit 5
    o = run(dict(sc, inputs=[{"at": 2, "cost": 1}]), "dag")
    check("PI tap", (tasks_by_id(o)["i"], ins(o), [c[1] for c in commits(o)]),
          (("main", 1 * MS, 4 * MS, 5 * MS), [("input-1", 2 * MS, 3 * MS, 4 * MS)], [3 * MS, 5 * MS]))


def test_phases_under_cpus():
    # A phase is a running main-thread item (§3.10, §3.12).  cores 3 (2 workers),
    # cpus 1, 1000 Hz; phases will 1, didFinishLaunching 0, scene 4; a, b (2 ms
    # each).  dag: will 0-1 alone (rate 1); t1 = 1; dFL makes a and b ready and
    # returns; scene starts at 1 (2a), the workers take a and b (2b): R = 3 > 1,
    # rate 1/3 each.  Projected: a, b 1000 + ceil(2000 x 3) = 7000, scene 1000 +
    # 12000.  At 7000 each has lost floor(6000 / 3) = 2000: a and b end; scene has
    # 2000 left, alone at rate 1: ends 9000.  Commit 9 (first draw 9).
    # busy = 0 + (1 + 0 + 8) = 9 (wall time); cpu = (1 + 0 + 4 + 2 + 2) / (1 x 9) = 1.
    sc = {"name": "PC", "device": {"cores": 3, "cpus": 1, "refreshRate": 1000},
          "launchPhases": [{"name": "will", "cost": 1}, {"name": "didFinishLaunching", "cost": 0},
                           {"name": "scene", "cost": 4}],
          "tasks": [{"id": "a", "cost": 2}, {"id": "b", "cost": 2}]}
    o = run(sc, "dag")
    check("PC tasks", tasks_by_id(o), {"a": ("worker-1", 1 * MS, 1 * MS, 7 * MS),
                                       "b": ("worker-2", 1 * MS, 1 * MS, 7 * MS)})
    check("PC phases", phases_of(o), [("will", 0, 1 * MS), ("didFinishLaunching", 1 * MS, 1 * MS),
                                      ("scene", 1 * MS, 9 * MS)])
    check("PC metrics", mets(o, "firstDrawMs", "mainThreadBusyMs", "cpuUtilization", "launchCompleteMs"),
          (9 * MS, 9 * MS, 1.0, 9 * MS))
    # mainThreadPriority: scene at rate 1 (1-5), the workers share C' = 0 while it
    # runs; at 5 the commit (cost 0) ends iteration 0 and the main thread sleeps:
    # a and b share C' = 1 at 1/2, 2000 each left: end 5000 + 4000 = 9000.
    o = run(dict(sc, device=dict(sc["device"], mainThreadPriority=True)), "dag")
    check("PC priority", (se(o), phases_of(o)[2], mets(o, "firstDrawMs", "mainThreadBusyMs",
                                                        "launchCompleteMs")),
          ({"a": (1 * MS, 9 * MS), "b": (1 * MS, 9 * MS)}, ("scene", 1 * MS, 5 * MS),
           (5 * MS, 5 * MS, 9 * MS)))


def test_phases_priority_t0_and_serial():
    # priority's T0 at t1.  cores 2, 1000 Hz; pre-main dyld 1; phases will 1,
    # didFinishLaunching 1, scene 2; w (worker 3), m (main 1, firstFrame), n (main 1,
    # priority 1).  t1 = 3.  dFL: step 1 makes w ready (worker 3-6); step 2 runs m
    # inline 3-4 (readyMs t1 = 3); step 3 waits for w: blocked 4-6; returns at 6,
    # T0 done: T1 opens, n to the main queue at 6 (iteration 1).  scene 6-8; no
    # idle step; commit 8 (first frame and first draw: m ran in iteration 0).
    # Iteration 1: n 8-9, commit 9.  busy = 1 + (1 + 1 + 2) + 1 + 1 = 7.
    # Bounds: t1 3, A 2, longest 3, main 2, total 5: critical 6, lower 3 + max(3, 2 + 2,
    # 3) = 7; first-frame bound vsync(3 + max(1, 2 + 1) + 0) = 6.
    sc = {"name": "PP", "device": {"cores": 2, "refreshRate": 1000},
          "preMain": [{"name": "dyld", "cost": 1}],
          "launchPhases": [{"name": "will", "cost": 1}, {"name": "didFinishLaunching", "cost": 1},
                           {"name": "scene", "cost": 2}],
          "tasks": [{"id": "w", "cost": 3}, {"id": "m", "cost": 1, "mainThreadOnly": True, "firstFrame": True},
                    {"id": "n", "cost": 1, "mainThreadOnly": True, "priority": 1}]}
    o = run(sc, "priority")
    check("PP tasks", tasks_by_id(o), {"w": ("worker-1", 3 * MS, 3 * MS, 6 * MS),
                                       "m": ("main", 3 * MS, 3 * MS, 4 * MS),
                                       "n": ("main", 6 * MS, 8 * MS, 9 * MS)})
    check("PP phases", phases_of(o), [("will", 1 * MS, 2 * MS), ("didFinishLaunching", 2 * MS, 6 * MS),
                                      ("scene", 6 * MS, 8 * MS)])
    check("PP metrics", mets(o, "timeToFirstFrameMs", "firstDrawMs", "mainThreadBlockedMs", "frames",
                             "mainThreadBusyMs", "criticalPathMs", "lowerBoundMs", "firstFrameBoundMs"),
          (8 * MS, 8 * MS, 2 * MS, 2, 7 * MS, 6 * MS, 7 * MS, 6 * MS))
    # A queued inline T0 task shows its admission, not t1: m in queue q, which a
    # worker task k (1 ms, latency 1, index 0) takes first at t1 = 3.  The one
    # worker runs k 3-4 (done 5), then w 4-7.  dFL: blocked 3-5 until q admits m
    # (readyMs 5), m 5-6, blocked 6-7 waiting for w; returns at 7, T1 opens: n to
    # the main queue; scene 7-9, commit 9; iteration 1: n 9-10.
    sc2 = dict(sc, tasks=[{"id": "k", "cost": 1, "latency": 1, "queue": "q"}, sc["tasks"][0],
                          dict(sc["tasks"][1], queue="q"), sc["tasks"][2]])
    o = run(sc2, "priority")
    check("PP queued inline", tasks_by_id(o), {"k": ("worker-1", 3 * MS, 3 * MS, 4 * MS),
                                               "w": ("worker-1", 3 * MS, 4 * MS, 7 * MS),
                                               "m": ("main", 5 * MS, 5 * MS, 6 * MS),
                                               "n": ("main", 7 * MS, 9 * MS, 10 * MS)})
    # serial: every readyMs is t1 = 3; w 3-6, m 6-7, n 7-8 (rank order), scene 8-10,
    # one commit at 10
    o = run(sc, "serial")
    check("PP serial", (tasks_by_id(o), [c[1] for c in commits(o)]),
          ({"w": ("main", 3 * MS, 3 * MS, 6 * MS), "m": ("main", 3 * MS, 6 * MS, 7 * MS),
            "n": ("main", 3 * MS, 7 * MS, 8 * MS)}, [10 * MS]))


def test_phases_validation():
    base = {"name": "x", "tasks": [{"id": "a", "cost": 1}]}
    dfl = {"name": "didFinishLaunching", "cost": 1}
    bad = [
        ({"launchPhases": []}, "launchPhases: must hold at least one phase"),
        ({"launchPhases": {"name": "a"}}, "launchPhases: expected an array"),
        ({"launchPhases": [3]}, "launchPhases[0]: expected an object"),
        ({"launchPhases": [{"cost": 1}], "startsIn": "x"}, "launchPhases[0]: missing key 'name'"),
        ({"launchPhases": [{"name": "didFinishLaunching"}]}, "launchPhases[0]: missing key 'cost'"),
        ({"launchPhases": [dfl, {"name": "", "cost": 1}]}, "launchPhases[1].name: empty phase name"),
        ({"launchPhases": [dfl, {"name": 4, "cost": 1}]}, "launchPhases[1].name: expected a string"),
        ({"launchPhases": [dfl, dict(dfl)]}, "launchPhases[1].name: duplicate phase name"),
        ({"launchPhases": [{"name": "\u00e9", "cost": 1}, {"name": "e\u0301", "cost": 1}], "startsIn": "\u00e9"},
         "duplicate phase name"),
        ({"launchPhases": [dfl, {"name": "s", "cost": -1}]}, "launchPhases[1].cost: negative"),
        ({"launchPhases": [dfl, {"name": "s", "cost": 1, "cots": 2}]}, "did you mean 'cost'"),
        ({"launchPhases": [dfl, {"name": "sceneWillConnect", "cost": 1}], "startsIn": "sceneWillConect"},
         "startsIn: 'sceneWillConect' names no phase of launchPhases (did you mean 'sceneWillConnect'?)"),
        ({"launchPhases": [{"name": "init", "cost": 1}]}, "launchPhases: no phase is named 'didFinishLaunching'"),
        ({"startsIn": "didFinishLaunching"}, "startsIn: 'didFinishLaunching' without launchPhases"),
        ({"launchPhases": [dfl], "startsIn": 2}, "startsIn: expected a string"),
        ({"launchPhase": [dfl]}, "did you mean 'launchPhases'"),
        ({"startIn": "x"}, "did you mean 'startsIn'"),
    ]
    for extra, want in bad:
        probs = ref.validate(dict(base, **extra))
        if not any(want in p for p in probs):
            FAILS.append(f"phases validation: want {want!r} in {probs!r}")
    # [] and a startsIn: only the empty list is reported
    check("phases [] with startsIn", ref.validate(dict(base, launchPhases=[], startsIn="a")),
          ["launchPhases: must hold at least one phase, found []"])
    ok = [{"launchPhases": [dfl]}, {"launchPhases": [dfl], "startsIn": None},
          {"launchPhases": None, "startsIn": None},
          {"launchPhases": [{"name": "init", "cost": 0}], "startsIn": "init"},
          {"launchPhases": [{"name": "init", "cost": 0}, dfl], "startsIn": "init"},
          {"budgets": {"firstDrawMs": 5}}]
    for extra in ok:
        check(f"phases ok {extra}", ref.validate(dict(base, **extra)), [])
    # the v2.1 and v2 objects do not exist for a scenario with phases
    try:
        ref.simulate(dict(base, launchPhases=[dfl]), "dag", model="v2.1")
        FAILS.append("phases: --model v2.1 accepted a scenario with launchPhases")
    except ValueError:
        pass
    o = us(ref.simulate(base, "dag", model="v2.1"))
    check("v2.1 object", ("phases" in o, "firstDrawMs" in o["metrics"]), (False, False))


# ==========================================================================
# docs/model.md §3.13 (device.clusters, tasks[].qos) hand cases.  D1-D3 are
# the docs' worked examples (normative); the others are derived by hand from
# §3.13's assignment rule and §3.10's progress rule (an item at rate n/d loses
# floor((t - s) n / d) µs between visited instants s < t and is projected to end
# at s + ceil(w d / n)).  A speed is written in thousandths: 0.5 -> 500/1000.
# ==========================================================================

PE = [{"name": "P", "count": 1, "speed": 1}, {"name": "E", "count": 1, "speed": 0.5}]


def test_clusters_d1_d2_d3():
    dev = {"cores": 3, "refreshRate": 1000, "clusters": PE}
    # D1: a (userInitiated) takes P, b (utility) E at 1/2; at 4 a ends, b has 2 ms
    # left and takes P: a 0-4, b 0-6
    sc = {"name": "D1", "device": dev, "tasks": [{"id": "a", "cost": 4, "qos": "userInitiated"},
                                                  {"id": "b", "cost": 4, "qos": "utility"}]}
    check("D1", tasks_by_id(run(sc, "dag")), {"a": ("worker-1", 0, 0, 4 * MS), "b": ("worker-2", 0, 0, 6 * MS)})
    # D2: b background may use E only: 1/2 all the way, 0-8
    sc["tasks"][1]["qos"] = "background"
    check("D2", tasks_by_id(run(sc, "dag")), {"a": ("worker-1", 0, 0, 4 * MS), "b": ("worker-2", 0, 0, 8 * MS)})
    # D3: m (main, 4, firstFrame), w1 and w2 (default, 4 each): m on P 0-4, w1 and w2
    # share E at 500 / 2000 = 1/4 (1 ms each by 4); at 4 w1 takes P, w2 E (1/2): w1
    # ends 4 + 3 = 7; w2 has 3000 - floor(3000 x 500 / 1000) = 1500 left at 7, takes
    # P: 8.5.  First frame 4, launch 8.5.  K = min(3, 1 + 0.5) = 1.5: cpu = 12 /
    # (1.5 x 8.5) = 12000 x 1000 / (1500 x 8500); lower bound 0 + max(4, 4,
    # ceil(12000 x 1000 / 1500) = 8000) = 8.
    sc = {"name": "D3", "device": dev, "tasks": [
        {"id": "m", "cost": 4, "mainThreadOnly": True, "firstFrame": True},
        {"id": "w1", "cost": 4, "qos": "default"}, {"id": "w2", "cost": 4, "qos": "default"}]}
    o = run(sc, "dag")
    check("D3 tasks", tasks_by_id(o), {"m": ("main", 0, 0, 4 * MS), "w1": ("worker-1", 0, 0, 7 * MS),
                                       "w2": ("worker-2", 0, 0, 8500)})
    check("D3 metrics", mets(o, "timeToFirstFrameMs", "launchCompleteMs", "lowerBoundMs", "criticalPathMs",
                             "mainThreadBusyMs", "firstDrawMs"),
          (4 * MS, 8500, 8 * MS, 4 * MS, 4 * MS, 0))
    check("D3 cpu", o["metrics"]["cpuUtilization"], 12000 * 1000 / (1500 * 8500))
    # mainThreadPriority is ignored with clusters (§3.13's table)
    sc2 = dict(sc, device=dict(dev, mainThreadPriority=True))
    check("D3 mainThreadPriority ignored", ref.dumps(ref.simulate(sc2, "dag")), ref.dumps(ref.simulate(sc, "dag")))


def test_clusters_cores_default():
    # Without cores: max(2, the total count).  P 2 x 1, E 4 x 0.5: cores 6, five
    # workers.  Five 1 ms tasks (dag): workers 1 and 2 on P (rate 1, end 1), 3, 4, 5
    # on E (1/2).  At 1 P is free again: the cores are given anew, workers 3 and 4
    # (500 µs left) take P and end at 1.5, worker 5 stays on E; at 1.5 it has 250
    # left and takes P: 1.75.  K = min(6, 2 + 2) = 4: lower bound ceil(5000 x 1000 /
    # 4000) = 1250 -> max(1000, 0, 1250) = 1.25.
    sc = {"name": "CD", "device": {"refreshRate": 1000, "clusters": [
        {"name": "P", "count": 2, "speed": 1}, {"name": "E", "count": 4, "speed": 0.5}]},
          "tasks": [{"id": f"t{i}", "cost": 1} for i in range(5)]}
    o = run(sc, "dag")
    check("CD cores 6", ref.Scenario(sc).cores, 6)
    check("CD tasks", [(t["thread"], t["endMs"]) for t in o["tasks"]],
          [("worker-1", 1 * MS), ("worker-2", 1 * MS), ("worker-3", 1500), ("worker-4", 1500),
           ("worker-5", 1750)])
    check("CD lower bound", o["metrics"]["lowerBoundMs"], 1250)
    # one cluster of one core: cores max(2, 1) = 2, one worker: a 0-1, b 1-2
    sc = {"name": "C1", "device": {"refreshRate": 1000, "clusters": [{"name": "P", "count": 1, "speed": 1}]},
          "tasks": [{"id": "a", "cost": 1}, {"id": "b", "cost": 1}]}
    check("C1 cores 2", tasks_by_id(run(sc, "dag")), {"a": ("worker-1", 0, 0, 1 * MS),
                                                      "b": ("worker-1", 0, 1 * MS, 2 * MS)})
    # cores above the total count: cores 4 (3 workers), one core P: a, b, c (3 ms,
    # default) share it at 1/3 each: all end at 9.  K = min(4, 1) = 1: lower bound
    # ceil(9000 / 1) = 9, cpu 9 / (1 x 9) = 1.
    sc = {"name": "C4", "device": {"cores": 4, "refreshRate": 1000,
                                   "clusters": [{"name": "P", "count": 1, "speed": 1}]},
          "tasks": [{"id": x, "cost": 3} for x in "abc"]}
    o = run(sc, "dag")
    check("C4", ([t["endMs"] for t in o["tasks"]], mets(o, "lowerBoundMs", "cpuUtilization")),
          ([9 * MS] * 3, (9 * MS, 1.0)))


def test_clusters_background_and_ties():
    # Background uses only the slowest cluster's cores, even when they are taken:
    # cores 4 (3 workers), P 1 x 1, E 1 x 0.5; a, b (default, 4 ms), g (background,
    # 2 ms).  At 0: default class [w1 a, w2 b]: a on P, b on E (1/2); background [g]:
    # E taken -> rate 0.  At 4 a ends (b has 2 ms left): b takes P (rate 1), g E
    # (1/2).  b ends 6; g, 2 ms at 1/2 from 4, ends 8.
    sc = {"name": "BG", "device": {"cores": 4, "refreshRate": 1000, "clusters": PE},
          "tasks": [{"id": "a", "cost": 4}, {"id": "b", "cost": 4},
                    {"id": "g", "cost": 2, "qos": "background"}]}
    check("BG starved", tasks_by_id(run(sc, "dag")), {"a": ("worker-1", 0, 0, 4 * MS),
                                                      "b": ("worker-2", 0, 0, 6 * MS),
                                                      "g": ("worker-3", 0, 0, 8 * MS)})
    # Two slowest clusters (A and B at 0.5, P at 1 between them): background may use
    # A and B, A first (position).  g1, g2 (background, 1 ms): one each at 1/2: end 2.
    # With g3 too, three items on two cores: (500 + 500) / 3000 = 1/3 each: all end
    # at ceil(1000 x 3000 / 1000) = 3.  P stays free.
    dev = {"cores": 4, "refreshRate": 1000, "clusters": [
        {"name": "A", "count": 1, "speed": 0.5}, {"name": "P", "count": 1, "speed": 1},
        {"name": "B", "count": 1, "speed": 0.5}]}
    sc = {"name": "BG2", "device": dev, "tasks": [{"id": "g1", "cost": 1, "qos": "background"},
                                                  {"id": "g2", "cost": 1, "qos": "background"}]}
    check("BG2 two slowest", [t["endMs"] for t in run(sc, "dag")["tasks"]], [2 * MS, 2 * MS])
    sc["tasks"].append({"id": "g3", "cost": 1, "qos": "background"})
    check("BG2 shared", [t["endMs"] for t in run(sc, "dag")["tasks"]], [3 * MS] * 3)
    # Within a class the workers go by number, whoever started first: P 1 x 1, E 2 x
    # 0.333 (K = min(3, 1.666) = 1.666; cores max(2, 3) = 3, two workers); five 1 ms
    # tasks (default).  At 0 w1 a on P, w2 b on E (333/1000).  At 1: a ends; b has
    # lost 333 (667 left); w1 takes c: c on P (worker-1 first), b stays on E.  At 2:
    # c ends, b 334 left; w1 d on P.  At 3: d ends, b 1 left (loses floor(333) = 333);
    # w1 e on P; b projected 3000 + ceil(1 x 1000 / 333) = 3004.  e ends 4.
    # Lower bound ceil(5000 x 1000 / 1666) = 3002 (3001.2 rounded up); cpu 5000 x
    # 1000 / (1666 x 4000).
    sc = {"name": "K", "device": {"refreshRate": 1000, "clusters": [
        {"name": "P", "count": 1, "speed": 1}, {"name": "E", "count": 2, "speed": 0.333}]},
          "tasks": [{"id": x, "cost": 1} for x in "abcde"]}
    o = run(sc, "dag")
    check("K tasks", tasks_by_id(o), {"a": ("worker-1", 0, 0, 1 * MS), "b": ("worker-2", 0, 0, 3004),
                                      "c": ("worker-1", 0, 1 * MS, 2 * MS), "d": ("worker-1", 0, 2 * MS, 3 * MS),
                                      "e": ("worker-1", 0, 3 * MS, 4 * MS)})
    check("K bound and cpu", mets(o, "lowerBoundMs", "cpuUtilization", "launchCompleteMs"),
          (3002, 5000 * 1000 / (1666 * 4000), 4 * MS))


def test_clusters_speed_0_333_rounding():
    # P 1 x 1, E 1 x 0.333, cores 3.  b (background, 1 ms) on E alone: ends at
    # ceil(1000 x 1000 / 333) = ceil(3003.003) = 3004.
    dev = {"cores": 3, "refreshRate": 1000, "clusters": [{"name": "P", "count": 1, "speed": 1},
                                                         {"name": "E", "count": 1, "speed": 0.333}]}
    sc = {"name": "S3", "device": dev, "tasks": [{"id": "b", "cost": 1, "qos": "background"}]}
    check("S3 alone", tasks_by_id(run(sc, "dag"))["b"], ("worker-1", 0, 0, 3004))
    # With a (default, 1.001 ms) on P: its end at 1001 is a visited instant; b loses
    # floor(1001 x 333 / 1000) = floor(333.333) = 333, 667 left, ends 1001 +
    # ceil(667 x 1000 / 333) = 1001 + 2004 = 3005 (a µs later than without the visit).
    sc["tasks"] = [{"id": "a", "cost": 1.001}, {"id": "b", "cost": 1, "qos": "background"}]
    check("S3 visited", tasks_by_id(run(sc, "dag")), {"a": ("worker-1", 0, 0, 1001),
                                                      "b": ("worker-2", 0, 0, 3005)})
    # ... and b at utility instead takes P once a has ended: 667 left at rate 1: 1668
    sc["tasks"][1]["qos"] = "utility"
    check("S3 utility", tasks_by_id(run(sc, "dag"))["b"], ("worker-2", 0, 0, 1668))
    # two background items sharing E: 333 / 2000 each: ceil(1000 x 2000 / 333) = 6007
    sc["tasks"] = [{"id": "b1", "cost": 1, "qos": "background"}, {"id": "b2", "cost": 1, "qos": "background"}]
    check("S3 shared", [t["endMs"] for t in run(sc, "dag")["tasks"]], [6007, 6007])
    # 0.5000000001 is 500 thousandths (|500.0000001 - 500| <= 1e-6): E at 1/2, 2 ms
    sc = {"name": "S5", "device": {"cores": 3, "refreshRate": 1000, "clusters": [
        {"name": "P", "count": 1, "speed": 1}, {"name": "E", "count": 1, "speed": 0.5000000001}]},
          "tasks": [{"id": "b", "cost": 1, "qos": "background"}]}
    check("S5", tasks_by_id(run(sc, "dag"))["b"], ("worker-1", 0, 0, 2 * MS))


def test_clusters_user_interactive_worker():
    # A userInteractive worker is in the main thread's class and takes the next core
    # after the main thread's.  cores 3, P 1 x 1, E 1 x 0.5; m (main, 4, firstFrame),
    # u (userInteractive, 4), d (default, 4).  Iteration 1: m on P 0-4, u on E (1/2),
    # d: no core left, rate 0.  At 4 m ends (commit, cost 0, first frame 4): u (2 ms
    # left) takes P, ends 6; d takes E (1/2): 1 ms done by 6, then P: ends 9.
    dev = {"cores": 3, "refreshRate": 1000, "clusters": PE}
    sc = {"name": "UI", "device": dev, "tasks": [
        {"id": "m", "cost": 4, "mainThreadOnly": True, "firstFrame": True},
        {"id": "u", "cost": 4, "qos": "userInteractive"}, {"id": "d", "cost": 4}]}
    o = run(sc, "dag")
    check("UI tasks", tasks_by_id(o), {"m": ("main", 0, 0, 4 * MS), "u": ("worker-1", 0, 0, 6 * MS),
                                       "d": ("worker-2", 0, 0, 9 * MS)})
    # With one core only (P 1 x 1), the class has two items for one core: the main
    # thread shares it: m and u at 1/2 each, both end at 8; d waits (rate 0) and runs
    # alone 8-12.  busy = m's wall time 8; K = 1: cpu 12 / 12 = 1, lower bound 12.
    sc1 = dict(sc, device=dict(dev, clusters=[{"name": "P", "count": 1, "speed": 1}]))
    o = run(sc1, "dag")
    check("UI shared", tasks_by_id(o), {"m": ("main", 0, 0, 8 * MS), "u": ("worker-1", 0, 0, 8 * MS),
                                        "d": ("worker-2", 0, 0, 12 * MS)})
    check("UI shared metrics", mets(o, "timeToFirstFrameMs", "mainThreadBusyMs", "cpuUtilization",
                                    "lowerBoundMs"), (8 * MS, 8 * MS, 1.0, 12 * MS))
    # qos on a main-thread task has no effect: the main thread's items are
    # userInteractive
    sc2 = dict(sc, tasks=[dict(sc["tasks"][0], qos="background")] + sc["tasks"][1:])
    check("UI main qos ignored", ref.dumps(ref.simulate(sc2, "dag")), ref.dumps(ref.simulate(sc, "dag")))


def test_clusters_phases():
    # A launch phase is a main-thread item under clusters too.  cores 3, P 1 x 1;
    # phases didFinishLaunching 0, scene 2; u (userInteractive, 2).  dag: t1 = 0; dFL
    # makes u ready and returns; scene starts (2a), the worker takes u (2b): the
    # userInteractive class has two items and one core: 1/2 each; both end at 4.
    # Commit at 4 (first draw 4); scene 0-4; busy 4 (wall time).
    sc = {"name": "CP", "device": {"cores": 3, "refreshRate": 1000,
                                   "clusters": [{"name": "P", "count": 1, "speed": 1}]},
          "launchPhases": [{"name": "didFinishLaunching", "cost": 0}, {"name": "scene", "cost": 2}],
          "tasks": [{"id": "u", "cost": 2, "qos": "userInteractive"}]}
    o = run(sc, "dag")
    check("CP", (tasks_by_id(o)["u"], phases_of(o)[1], mets(o, "firstDrawMs", "mainThreadBusyMs")),
          (("worker-1", 0, 0, 4 * MS), ("scene", 0, 4 * MS), (4 * MS, 4 * MS)))
    # at default QoS the worker waits for the main thread's phase: scene 0-2 on P,
    # u at rate 0 until 2, then 2 ms alone: 2-4... started at 0, ends 4
    sc["tasks"][0]["qos"] = "default"
    o = run(sc, "dag")
    check("CP default", (tasks_by_id(o)["u"], phases_of(o)[1], o["metrics"]["firstDrawMs"]),
          (("worker-1", 0, 0, 4 * MS), ("scene", 0, 2 * MS), 2 * MS))


def test_clusters_validation():
    def probs(dev=None, task=None):
        sc = {"name": "x", "tasks": [dict({"id": "a", "cost": 1}, **(task or {}))]}
        if dev is not None:
            sc["device"] = dev
        return ref.validate(sc)
    P1 = {"name": "P", "count": 1, "speed": 1}
    bad = [
        ({"clusters": []}, "device.clusters: must hold at least one cluster"),
        ({"clusters": {"name": "P"}}, "device.clusters: expected an array"),
        ({"clusters": [P1, 3]}, "device.clusters[1]: expected an object"),
        ({"clusters": [{"count": 1, "speed": 1}]}, "device.clusters[0]: missing key 'name'"),
        ({"clusters": [{"name": "P", "speed": 1}]}, "device.clusters[0]: missing key 'count'"),
        ({"clusters": [{"name": "P", "count": 1}]}, "device.clusters[0]: missing key 'speed'"),
        ({"clusters": [P1, {"name": "", "count": 1, "speed": 1}]}, "device.clusters[1].name: empty cluster name"),
        ({"clusters": [P1, dict(P1)]}, "device.clusters[1].name: duplicate cluster name"),
        ({"clusters": [dict(P1, name="\u00e9"), dict(P1, name="e\u0301")]}, "duplicate cluster name"),
        ({"clusters": [dict(P1, cout=1)]}, "did you mean 'count'"),
        ({"clusters": [dict(P1, count=0)]}, "device.clusters[0].count: 0 is out of range"),
        ({"clusters": [dict(P1, count=1.5)]}, "device.clusters[0].count: 1.5 is not an integer"),
        ({"clusters": [dict(P1, count="2")]}, "device.clusters[0].count: expected a integer"),
        ({"clusters": [P1, dict(P1, name="E", speed=0)]}, "device.clusters[1].speed: 0 is out of range"),
        ({"clusters": [dict(P1, speed=1.5)]}, "device.clusters[0].speed: 1.5 is out of range"),
        ({"clusters": [P1, dict(P1, name="E", speed=0.0005)]}, "device.clusters[1].speed: 0.0005 has more than 3 decimals"),
        ({"clusters": [P1, dict(P1, name="E", speed=0.3333)]}, "has more than 3 decimals"),
        ({"clusters": [P1, dict(P1, name="E", speed=1e-10)]}, "is 0 thousandths"),
        ({"clusters": [P1, dict(P1, name="E", speed="1")]}, "device.clusters[1].speed: expected a number"),
        ({"clusters": [dict(P1, speed=0.5)]}, "device.clusters: no cluster at speed 1"),
        ({"clusters": [P1], "cpus": 2}, "device.clusters: not together with device.cpus"),
        ({"clusters": [dict(P1, count=1000), dict(P1, name="E", count=25)]}, "1025 cores in all"),
        ({"cluster": [P1]}, "did you mean 'clusters'"),
    ]
    for dev, want in bad:
        got = probs(dev)
        if not any(want in p for p in got):
            FAILS.append(f"clusters validation: want {want!r} in {got!r}")
    for task, want in (({"qos": "Background"}, "did you mean 'background'"),
                       ({"qos": "high"}, "is not one of userInteractive"), ({"qos": 3}, "qos: expected a string"),
                       ({"qs": "default"}, "did you mean 'qos'")):
        got = probs(None, task)
        if not any(want in p for p in got):
            FAILS.append(f"qos validation: want {want!r} in {got!r}")
    ok = [({"clusters": [P1, dict(P1, name="E", count=4.0, speed=0.333)], "mainThreadPriority": True}, None),
          ({"clusters": [dict(P1, speed=0.9999999999)]}, None),     # 999.9999999 within 1e-6 of 1000
          ({"clusters": [dict(P1, count=1000), dict(P1, name="E", count=25)], "cores": 8}, None),
          ({"clusters": None, "cpus": 2}, None),
          (None, {"qos": "userInteractive"}), (None, {"qos": None}), ({}, {"qos": "background"})]
    for dev, task in ok:
        check(f"clusters ok {dev} {task}", probs(dev, task), [])
    check("speed 0.9999999999 is 1", ref.Scenario({"name": "x", "device": {"clusters": [dict(P1, speed=0.9999999999)]},
                                                   "tasks": [{"id": "a", "cost": 1}]}).clusters, [("P", 1, 1000)])


def test_crosscheck_compare_phases():
    # crosscheck.py's comparison: firstDrawMs and phases are compared (a missing key
    # is a mismatch) in the default mode, not with --v21
    import json
    from decimal import Decimal
    import crosscheck as cc
    want = cc.ref_plain(ref.simulate(B1, "dag"))
    got = json.loads(ref.dumps(ref.simulate(B1, "dag")), parse_float=Decimal)
    check("compare phases equal", cc.compare(got, want), [])
    g = json.loads(ref.dumps(ref.simulate(B1, "dag")), parse_float=Decimal)
    del g["metrics"]["firstDrawMs"]
    check("compare missing firstDrawMs", cc.compare(g, want), ["$.metrics: missing key 'firstDrawMs'"])
    g = json.loads(ref.dumps(ref.simulate(B1, "dag")), parse_float=Decimal)
    del g["phases"]
    check("compare missing phases", cc.compare(g, want), ["$: missing key 'phases'"])
    g = json.loads(ref.dumps(ref.simulate(B1, "dag")), parse_float=Decimal)
    g["phases"][1]["endMs"] = Decimal("13")
    check("compare phase end", cc.compare(g, want),
          ["$.phases[1] ('didFinishLaunching').endMs: binary 13 ms (13000 µs) vs reference 17 ms (17000 µs)"])
    g["phases"] = g["phases"][:3]
    check("compare phase count", cc.compare(g, want)[0], "$.phases: binary has 3 entries, reference 4")
    base = {"name": "x", "tasks": [{"id": "a", "cost": 1}]}
    w21 = cc.ref_plain(ref.simulate(base, "dag", model="v2.1"))
    g = json.loads(ref.dumps(ref.simulate(base, "dag", model="v2.1")), parse_float=Decimal)
    check("compare --v21", (cc.compare(g, w21, "v2.1"), len(cc.compare(g, cc.ref_plain(ref.simulate(base, "dag"))))),
          ([], 2))
    # crosscheck_advise: a plan that spells startsIn's default or drops it keeps the
    # meaning; one that changes a phase's cost does not
    import crosscheck_advise as ca
    sc = json.loads(json.dumps(B1))
    plan = dict(json.loads(json.dumps(B1)), startsIn="didFinishLaunching")
    check("advise legal startsIn default", ca.legal_problems(sc, plan, ca.DEFAULT_KNOBS), [])
    plan["launchPhases"][2]["cost"] = 4
    check("advise legal phase cost", ca.legal_problems(sc, plan, ca.DEFAULT_KNOBS)[0][:30],
          "top-level: launchPhases change")


# --------------------------------------------------------------------------
# crosscheck_advise.py's own logic: the closure, the simple plan, the legality
# check (a tampered plan must be reported), the changes list, a whole run with
# a stand-in binary.  Expected values worked out by hand from docs/advise.md.
# --------------------------------------------------------------------------

ADVISE_SC = {
    "name": "advise", "device": {"cores": 2, "refreshRate": 1000},
    "tasks": [
        {"id": "late", "cost": 3},                                        # 0: not needed
        {"id": "small", "cost": 1},                                       # 1
        {"id": "big", "cost": 2, "latency": 4},                           # 2
        {"id": "root", "cost": 1, "mainThreadOnly": True, "firstFrame": True,
         "dependsOn": ["small", "big"]},                                  # 3
        {"id": "anch", "cost": 1, "anchor": True, "priority": 7},         # 4: an anchor only
        {"id": "bg", "cost": 1, "mainThreadOnly": True, "priority": 4,
         "dependsOn": ["root"]},                                          # 5: not needed
    ]}


def _advise_copy():
    import json
    return json.loads(json.dumps(ADVISE_SC))


def test_advise_closure_and_simple_plan():
    import crosscheck_advise as ca
    tasks = ADVISE_SC["tasks"]
    need = ca.closure(tasks)
    check("advise closure", sorted(need), [1, 2, 3, 4])
    # longest path to a firstFrame task, cost + latency of every task on it:
    # root 1; small 1 + 1; big 2 + 4 + 1; anch reaches none
    check("advise longest", ca.longest_to_first_frame(tasks, need),
          {3: 1000, 1: 2000, 2: 7000, 4: None})
    sp = ca.simple_plan(ADVISE_SC)
    # order big(2), small(1), root(3), anch(4): levels 0, 1 (1 < 2), 1, 1;
    # the others at max(own, 2), deferred
    check("advise simple plan",
          [(t["id"], t.get("priority"), t.get("after")) for t in sp["tasks"]],
          [("late", 2, "firstFrame"), ("small", 1, None), ("big", 0, None), ("root", 1, None),
           ("anch", 1, None), ("bg", 4, "firstFrame")])
    check("advise simple plan valid", ref.validate(sp), [])
    check("advise simple plan legal", ca.legal_problems(ADVISE_SC, sp, ca.DEFAULT_KNOBS), [])
    check("advise input untouched", ADVISE_SC["tasks"][0].get("after"), None)


def test_advise_legal_catches_tampering():
    import crosscheck_advise as ca
    allow_all = ca.KNOBS

    def problems(edit, allowed=ca.DEFAULT_KNOBS, strict=False):
        plan = _advise_copy()
        edit(plan)
        return ca.legal_problems(ADVISE_SC, plan, allowed, strict)

    def tamper(label, edit, want, allowed=ca.DEFAULT_KNOBS):
        got = problems(edit, allowed)
        if not any(want in p for p in got):
            FAILS.append(f"advise legal, {label}: want {want!r} in {got!r}")

    check("advise legal as written", problems(lambda p: None), [])
    tamper("cost", lambda p: p["tasks"][2].update(cost=2.5), "cost changed (µs): 2000 -> 2500")
    tamper("after on a needed task", lambda p: p["tasks"][1].update(after="firstFrame"),
           "after null -> \"firstFrame\" on a task the first frame waits for")
    tamper("after on a needed task (validate)", lambda p: p["tasks"][1].update(after="firstFrame"),
           "the reference rejects the plan")
    tamper("idle on a worker task", lambda p: p["tasks"][0].update(idle=True),
           "on a task that is not mainThreadOnly")
    tamper("idle on a needed task", lambda p: p["tasks"][3].update(idle=True),
           "on a task the first frame waits for")
    tamper("anchor not allowed", lambda p: p["tasks"][1].update(anchor=True), "anchor is not allowed")
    tamper("anchor outside", lambda p: p["tasks"][0].update(anchor=True),
           "on a task the first frame does not wait for", allow_all)
    tamper("dependency dropped", lambda p: p["tasks"][3].update(dependsOn=["big"]), "dependsOn changed")
    tamper("task order", lambda p: p["tasks"].reverse(), "at this position (task order)")
    tamper("device", lambda p: p["device"].update(cores=3), "device changed")
    tamper("key dropped", lambda p: p["tasks"][3].pop("firstFrame"), "key 'firstFrame' dropped")
    sc = _advise_copy()
    sc["$schema"] = "scenario.schema.json"
    got = ca.legal_problems(sc, _advise_copy(), ca.DEFAULT_KNOBS)
    check("advise legal $schema dropped", got, ["top-level: key '$schema' dropped (was \"scenario.schema.json\")"])
    # allowed changes where the rules allow them
    check("advise legal allowed", problems(lambda p: (p["tasks"][0].update(after="firstFrame", priority=9),
                                                      p["tasks"][5].update(idle=True))), [])
    check("advise legal anchor inside", problems(lambda p: p["tasks"][1].update(anchor=True), allow_all), [])
    # the same meaning written differently: legal, but --strict reports it
    def rewrite(p):
        p["tasks"][0].update(latency=0, cost=3.0, mainThreadOnly=False, group=None)
        p["tasks"][1]["cost"] = 1.0000004                   # the same µs
        p["idleMode"] = "batch"
        p["preMain"] = []
        p["device"]["commitCost"] = 0
    check("advise legal rewritten", problems(rewrite), [])
    check("advise legal rewritten, strict", len(problems(rewrite, strict=True)) >= 5, True)


def test_advise_changes_list():
    import crosscheck_advise as ca
    plan = _advise_copy()
    plan["tasks"][0]["after"] = "firstFrame"
    plan["tasks"][1]["priority"] = 3
    ok = [{"task": "late", "key": "after", "from": None, "to": "firstFrame"},
          {"task": "small", "key": "priority", "from": 0, "to": 3}]
    check("advise changes ok", ca.changes_problems(ADVISE_SC, plan, ok), [])
    check("advise changes missing", len(ca.changes_problems(ADVISE_SC, plan, ok[:1])), 1)
    wrong = [ok[0], dict(ok[1], to=2)]
    check("advise changes wrong to", len(ca.changes_problems(ADVISE_SC, plan, wrong)), 1)
    extra = ok + [{"task": "bg", "key": "idle", "from": False, "to": True}]
    check("advise changes extra", len(ca.changes_problems(ADVISE_SC, plan, extra)), 1)


def test_advise_whole_run_with_a_stand_in():
    """check_run against a stand-in for `launchflow advise` that proposes the simple
    plan with the reference's metrics: it passes; tampered, it fails."""
    import json
    import shutil
    import tempfile
    import crosscheck_advise as ca
    here = os.path.dirname(os.path.abspath(__file__))
    d = tempfile.mkdtemp(prefix="advise-stand-in-")
    try:
        stand_in = os.path.join(d, "advise.py")
        with open(stand_in, "w") as f:
            f.write(f"#!{sys.executable}\n" + r"""
import json, os, sys
sys.path.insert(0, %r)
import crosscheck_advise as ca, launchflow_ref as ref
a = sys.argv
path, strategy, out = a[2], a[a.index("--strategy") + 1], a[a.index("--out") + 1]
inp = json.load(open(path))
plan = ca.simple_plan(inp)
tamper = os.environ.get("STAND_IN_TAMPER")
if tamper == "cost":
    plan["tasks"][0]["cost"] += 1
json.dump(plan, open(out, "w"))
def m(sc):
    r = ref.simulate(sc, strategy)["metrics"]
    return {k: (v.us / 1000 if isinstance(v, ref.Ms) else v) for k, v in r.items()}
pm = m(plan)
if tamper == "metric":
    pm["launchCompleteMs"] += 0.001
changes = []
for t, u in zip(inp["tasks"], plan["tasks"]):
    for k in ca.KNOBS:
        if ca.knob_value(t, k) != ca.knob_value(u, k):
            changes.append({"task": t["id"], "key": k, "from": t.get(k), "to": u.get(k)})
print(json.dumps({"baseline": {"metrics": m(inp)}, "plan": {"metrics": pm},
                  "firstFrameBoundMs": pm["firstFrameBoundMs"],
                  "reachesBound": pm["timeToFirstFrameMs"] <= pm["firstFrameBoundMs"],
                  "dagFloorMs": None, "reachesFloor": True, "changes": changes}))
""" % here)
        os.chmod(stand_in, 0o755)
        scen = os.path.join(d, "s.json")
        with open(scen, "w") as f:
            json.dump(ADVISE_SC, f)
        job = (stand_in, scen, "dag", None, 60, os.path.join(d, "plan.json"), False)
        for tamper, want in ((None, None), ("cost", "illegal: task 0 'late': cost changed"),
                             ("metric", "plan.metrics.launchCompleteMs")):
            if tamper:
                os.environ["STAND_IN_TAMPER"] = tamper
            else:
                os.environ.pop("STAND_IN_TAMPER", None)
            _, _, probs, _ = ca.check_run(job)
            if want is None:
                check("advise stand-in passes", probs, [])
            elif not any(p.startswith(want) for p in probs):
                FAILS.append(f"advise stand-in tampered {tamper}: want {want!r} in {probs!r}")
    finally:
        os.environ.pop("STAND_IN_TAMPER", None)
        shutil.rmtree(d, ignore_errors=True)


def main():
    tests = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            fn()
            tests += 1
    for f in FAILS:
        print("FAIL", f)
    print(f"{tests} tests, {COUNT['checks']} checks (plus the invariants over generated "
          f"scenarios): {len(FAILS)} failure(s)")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())

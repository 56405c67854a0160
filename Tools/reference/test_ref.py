#!/usr/bin/env python3
"""Self-tests of launchflow_ref.py: MODEL.md section 6 example and hand-checked cases.

Usage: python3 test_ref.py        (exit 0 when all pass)

Every expected number below was worked out by hand from MODEL.md, not taken
from the reference's output.
"""

import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launchflow_ref as ref  # noqa: E402

FAILS = []


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
    check("dag metrics", o["metrics"], {
        "timeToFirstFrameMs": 133336, "launchCompleteMs": 130000,
        "mainThreadBusyMs": 122000, "mainThreadBlockedMs": 0,
        "cpuUtilization": 0.25, "frames": 2, "maxInputDelayMs": 0,
        "criticalPathMs": 130000, "lowerBoundMs": 130000, "dependencyViolations": 0})
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
    check("A metrics", {k: m[k] for k in m if k != "cpuUtilization"}, {
        "timeToFirstFrameMs": 11000, "launchCompleteMs": 13000, "mainThreadBusyMs": 10000,
        "mainThreadBlockedMs": 3000, "frames": 3, "maxInputDelayMs": 2000,
        "criticalPathMs": 5000, "lowerBoundMs": 7500, "dependencyViolations": 0})
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
    """Schedule properties MODEL.md implies; returns a list of violated ones."""
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


def test_invariants_random():
    import gen_scenarios as gen
    for k in range(120):
        sc = gen.gen_scenario(4242, k)
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


def main():
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            fn()
    for f in FAILS:
        print("FAIL", f)
    print(f"{len(FAILS)} failure(s)")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())

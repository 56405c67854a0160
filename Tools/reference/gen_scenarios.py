#!/usr/bin/env python3
"""Random VALID launchflow scenarios (MODEL.md section 1, v2.1), deterministic per seed.

Usage:
    python3 gen_scenarios.py --seed N --count K --out DIR [--no-extras] [--v1 | --v2] [--new-keys]

Writes DIR/s<seed>-<k>.json for k = 0..K-1.  Scenario k depends only on
(seed, k) (and --v1 / --v2 / --no-extras), so a failing scenario can be
regenerated alone.

Default (v2.1): about 30 % are the v2 generator's scenario k decorated with
the v2.1 keys (`after` on tasks the first frame does not wait for,
`fullyDrawn` on main-thread tasks, sometimes every `firstFrame` flag
removed), 70 % are small "tricky" v2.1 scenarios: small integer ms values,
often the "vsync-exact" device (1000 Hz, commitCost 0, renderTime 0, so the
first-frame commit is presented at its end, in step 2), `after` on main,
worker and idle tasks, with delay, queues shared with tasks without `after`,
no firstFrame task at all, fullyDrawn with latency or depending on after
tasks, plus planted patterns: after tasks in T0, a priority tier of after
tasks only, an anchor whose main-thread queue-mate has `after`, a main-queue
item that becomes ready at P while an after task is held (the further step
1), an after task made ready at P after the commit (step 2b).  Every
scenario passes the generator's own validator, which checks the v2.1 rule
that no after task is needed by a firstFrame task or an anchor.

--v2 gives exactly the v2 generator's scenarios (only v2 keys), described
below; --v1 the v1 generator's.

--new-keys (off by default, so every seed gives the same scenarios as before
without it) adds the keys of docs/model.md §3.10-3.11 to each scenario, drawn
from a random stream of their own (the rest of scenario k is unchanged):
device.cpus in about 75 % (mostly 1 … cores - 1, so that threads share CPUs,
sometimes cores or more: no contention), device.mainThreadPriority in about
40 % (true, false or null), mainExecutor in about 60 % ("operationQueue"
mostly, "dispatch" or null).

--v1 gives exactly the v1 generator's scenarios (only v1 keys):
1 task .. ~3000 tasks (mostly 1-30), zero-cost tasks (often), zero / positive
commitCost, renderTime, preMain (absent, empty, null, zero costs), one or many
tiers, large priorities, no / sparse / dense dependencies, deep chains, wide
fans and fan-ins, fractional costs (0.0005, 1.2345, 16.667, full-precision
doubles, .5-µs ties), firstFrame on none / one / several main tasks, cores
2..16 mostly and sometimes up to 1024, refreshRate from {60, 120, 90, 59.94,
30, 1000, 7}, optional keys given as null, integers written as 4.0, and
(unless --no-extras) the keys read by other commands ($schema, description,
budgets, jitter, costP90).

Without --v1 (the default), about a third of the scenarios are such a v1
scenario decorated with the v2 keys (latency, delay, queue, idle, anchor,
group, inputs, idleMode, latencyP90), and two thirds are small "tricky"
scenarios made for same-instant coincidences: small integer ms values,
1 ms frames, zero costs / latencies / delays, a few queue names shared by
main, worker and idle tasks, idle tasks, anchors, inputs during and after the
launch, plus planted patterns: a queue whose holder sits in the main or idle
queue while priority's didFinishLaunching waits (the take-out), a queued
inline T0 task, anchors depending on main-thread and idle tasks, a main task
sharing a queue with an anchor, inputs at 0 and at t0.
"""

import argparse
import json
import os
import random
import sys

MAX_MS = 3_600_000
REFRESH_RATES = [60, 120, 90, 59.94, 30, 1000, 7]
NICE_COSTS = [0.0005, 0.0015, 0.0025, 0.001, 0.0004999, 0.0005001, 1.2345, 16.667,
              16.6665, 8.3335, 8.333, 0.5, 2.5, 33.333, 0.1, 0.2, 0.3, 0.7, 1.0005,
              4.1675, 12.3455, 0.0125, 100.0005,
              0.5005, 0.5075, 0.0035]  # 0.5005*1000 == 500.49999999999994 -> 500 µs
METRIC_NAMES = ["timeToFirstFrameMs", "launchCompleteMs", "mainThreadBusyMs",
                "mainThreadBlockedMs", "cpuUtilization", "frames", "maxInputDelayMs",
                "criticalPathMs", "lowerBoundMs", "dependencyViolations"]
METRIC_NAMES_V21 = ["timeToFirstFrameMs", "firstFrameReadyMs", "timeToFullDisplayMs",
                    "firstFrameBoundMs", "launchCompleteMs", "inputLatencyMaxMs"]
ID_POOL_EXOTIC = ["é", "日本", "naïve-init", "with space", "A", "a", "ß", "🚀", "Ω",
                  "x.y", "x/y", "-", "_", "0", "tab\tid", "quote\"id", "back\\slash"]


def pick_size(rng):
    r = rng.random()
    if r < 0.45:
        return rng.randint(1, 8)
    if r < 0.75:
        return rng.randint(9, 30)
    if r < 0.90:
        return rng.randint(31, 200)
    if r < 0.97:
        return rng.randint(201, 1000)
    return rng.randint(1001, 3000)


def make_cost_fn(rng):
    """A per-scenario cost distribution (a mixture)."""
    zero_p = rng.choice([0.0, 0.05, 0.15, 0.3, 0.6, 1.0])
    style = rng.choice(["int", "nice", "dec3", "double", "same", "mixed", "mixed", "big"])
    same_value = rng.choice(NICE_COSTS + [1, 5, 10, 16.667])

    def one_cost(st):
        if st == "int":
            return rng.randint(1, 50)
        if st == "nice":
            return rng.choice(NICE_COSTS)
        if st == "dec3":
            return round(rng.uniform(0.001, 40.0), 3)
        if st == "double":
            return rng.uniform(0.0, 20.0)
        if st == "same":
            return same_value
        if st == "big":
            return rng.choice([rng.uniform(100, 20000), round(rng.uniform(0, 50), 4),
                               float(MAX_MS) if rng.random() < 0.05 else 1.5])
        raise AssertionError(st)

    def cost():
        if rng.random() < zero_p:
            return rng.choice([0, 0.0, 0.0004, 0.0000001])  # all round to 0 µs
        st = style
        if st == "mixed":
            st = rng.choice(["int", "nice", "dec3", "double", "same"])
        c = one_cost(st)
        return min(c, MAX_MS)

    return cost


def make_ids(rng, n):
    style = rng.random()
    if style < 0.6:
        ids = [f"t{i}" for i in range(n)]
    elif style < 0.85:
        words = ["crash", "analytics", "db", "net", "root-vc", "fonts", "cache", "auth",
                 "config", "flags", "log", "push", "ads", "img", "theme", "router"]
        ids = []
        seen = set()
        i = 0
        while len(ids) < n:
            cand = f"{rng.choice(words)}-{i}" if rng.random() < 0.8 else f"{rng.choice(words)}{i}"
            i += 1
            if cand not in seen:
                seen.add(cand)
                ids.append(cand)
    else:
        ids = []
        seen = set()
        pool = list(ID_POOL_EXOTIC)
        rng.shuffle(pool)
        for i in range(n):
            cand = pool[i] if i < len(pool) else f"id-{i}"
            if cand in seen:
                cand = f"id-{i}"
            seen.add(cand)
            ids.append(cand)
    rng.shuffle(ids)
    return ids


def make_deps(rng, n):
    """Returns deps[i] = list of task indices task i depends on (acyclic, no duplicates)."""
    deps = [[] for _ in range(n)]
    if n <= 1:
        return deps
    # a random topological order, so that index order and dependency order differ
    order = list(range(n))
    if rng.random() < 0.8:
        rng.shuffle(order)
    shape = rng.choice(["none", "random", "random", "random", "chain", "fanout",
                        "fanin", "layered", "chain+random", "diamonds"])
    if shape == "none":
        pass
    elif shape == "random":
        density = rng.choice([0.02, 0.1, 0.3, 0.7])
        maxk = rng.choice([1, 2, 3, 6, 20])
        for pos in range(1, n):
            x = order[pos]
            k = 0
            while k < maxk and rng.random() < density * (1 if k == 0 else 0.7):
                k += 1
            k = min(k, pos)
            if k:
                deps[x] = rng.sample(order[:pos], k)
    elif shape == "chain":
        for pos in range(1, n):
            deps[order[pos]] = [order[pos - 1]]
    elif shape == "fanout":
        roots = order[: max(1, min(n - 1, rng.choice([1, 1, 2, 3])))]
        for pos in range(len(roots), n):
            deps[order[pos]] = [rng.choice(roots)] if rng.random() < 0.9 else list(roots)
    elif shape == "fanin":
        sinks = max(1, min(n - 1, rng.choice([1, 1, 2])))
        srcs = order[: n - sinks]
        for x in order[n - sinks:]:
            deps[x] = list(srcs)
            rng.shuffle(deps[x])
    elif shape == "layered":
        width = rng.randint(1, max(1, min(n, 12)))
        layers = [order[i:i + width] for i in range(0, n, width)]
        for li in range(1, len(layers)):
            prev = layers[li - 1]
            for x in layers[li]:
                k = rng.randint(1, len(prev))
                deps[x] = rng.sample(prev, k)
    elif shape == "chain+random":
        for pos in range(1, n):
            x = order[pos]
            ds = {order[pos - 1]}
            if pos > 1 and rng.random() < 0.3:
                ds.add(rng.choice(order[:pos - 1]))
            deps[x] = list(ds)
            rng.shuffle(deps[x])
    elif shape == "diamonds":
        for pos in range(1, n):
            x = order[pos]
            lo = max(0, pos - 3)
            cands = order[lo:pos]
            deps[x] = rng.sample(cands, rng.randint(1, len(cands)))
    return deps


def maybe_int_as_float(rng, v, p=0.1):
    return float(v) if rng.random() < p else v


def gen_scenario_v1(seed, k, extras=True):
    """The v1 generator, unchanged (same random draws)."""
    rng = random.Random(f"launchflow-{seed}-{k}")
    n = pick_size(rng)
    cost = make_cost_fn(rng)
    ids = make_ids(rng, n)
    deps = make_deps(rng, n)

    main_p = rng.choice([0.0, 0.1, 0.3, 0.5, 0.8, 1.0])
    main_only = [rng.random() < main_p for _ in range(n)]

    pstyle = rng.choice(["absent", "zero", "single", "few", "few", "many", "large"])
    if pstyle == "absent":
        prios = [None] * n
    elif pstyle == "zero":
        prios = [0] * n
    elif pstyle == "single":
        v = rng.choice([1, 7, 1_000_000])
        prios = [v] * n
    elif pstyle == "few":
        prios = [rng.randint(0, 3) for _ in range(n)]
    elif pstyle == "many":
        prios = [rng.randint(0, max(1, n)) for _ in range(n)]
    else:
        prios = [rng.choice([0, 1_000_000, rng.randint(0, 1_000_000)]) for _ in range(n)]

    mains = [i for i in range(n) if main_only[i]]
    ffstyle = rng.choice(["none", "one", "several", "all"])
    ff = set()
    if mains:
        if ffstyle == "one":
            ff = {rng.choice(mains)}
        elif ffstyle == "several":
            ff = set(rng.sample(mains, rng.randint(1, len(mains))))
        elif ffstyle == "all":
            ff = set(mains)

    tasks = []
    for i in range(n):
        t = {"id": ids[i], "cost": cost()}
        if main_only[i]:
            t["mainThreadOnly"] = True
        elif rng.random() < 0.1:
            t["mainThreadOnly"] = rng.choice([False, None])
        if prios[i] is not None:
            t["priority"] = maybe_int_as_float(rng, prios[i], 0.05)
        elif rng.random() < 0.05:
            t["priority"] = None
        if deps[i]:
            t["dependsOn"] = [ids[d] for d in deps[i]]
        elif rng.random() < 0.1:
            t["dependsOn"] = rng.choice([[], None])
        if i in ff:
            t["firstFrame"] = True
        elif rng.random() < 0.05:
            t["firstFrame"] = rng.choice([False, None])
        if extras and rng.random() < 0.03:
            t["costP90"] = min(t["cost"] * rng.choice([1, 1.5, 3]), MAX_MS)
        tasks.append(t)

    # device
    device = {}
    r = rng.random()
    if r < 0.7:
        cores = rng.randint(2, 8)
    elif r < 0.9:
        cores = rng.randint(9, 16)
    else:
        cores = rng.choice([17, 32, 64, 128, 1024])
    if rng.random() < 0.9:
        device["cores"] = maybe_int_as_float(rng, cores, 0.05)
    elif rng.random() < 0.5:
        device["cores"] = None
    if rng.random() < 0.85:
        device["refreshRate"] = rng.choice(REFRESH_RATES)
    commit_choices = [0, 0, 0.5, 1, 2, 4, 0.0005, 1.2345, 16.667, 0.0015]
    if rng.random() < 0.8:
        device["commitCost"] = rng.choice(commit_choices + [round(rng.uniform(0, 10), 3)])
    if rng.random() < 0.6:
        device["renderTime"] = rng.choice([0, 0, 1, 4, 8.333, 16.667, 0.0005, 33.4,
                                           round(rng.uniform(0, 30), 4)])

    scenario = {"name": f"gen {seed}/{k}"}
    if extras and rng.random() < 0.05:
        scenario["$schema"] = "../schema/scenario.schema.json"
    dr = rng.random()
    if dr < 0.3:
        scenario["description"] = rng.choice(["", "generated", None])
    if device or rng.random() < 0.5:
        scenario["device"] = device
    elif rng.random() < 0.5:
        scenario["device"] = None

    pr = rng.random()
    if pr < 0.25:
        pass                       # absent
    elif pr < 0.35:
        scenario["preMain"] = []
    elif pr < 0.42:
        scenario["preMain"] = None
    else:
        phases = []
        names = ["dyld", "+load", "static-init", "rebase", "bind", "objc-setup"]
        for j in range(rng.randint(1, 4)):
            c = rng.choice([0, 0.0, 80, 12, 1.2345, 0.0005, 0.0015, round(rng.uniform(0, 100), 3),
                            rng.uniform(0, 5)])
            phases.append({"name": names[j % len(names)] if rng.random() < 0.9 else "dyld",
                           "cost": c})
        scenario["preMain"] = phases

    scenario["tasks"] = tasks

    if extras and rng.random() < 0.05:
        scenario["jitter"] = rng.choice([0, 0.1, 0.5])
    if extras and rng.random() < 0.05:
        scenario["budgets"] = {m: rng.choice([0, 100, 250.5])
                               for m in rng.sample(METRIC_NAMES[:4], rng.randint(1, 3))}

    # shuffle top-level key order sometimes (meaningless in JSON, but cheap to cover)
    if rng.random() < 0.2:
        items = list(scenario.items())
        rng.shuffle(items)
        scenario = dict(items)
    return scenario


# --------------------------------------------------------------------------
# v2
# --------------------------------------------------------------------------

QUEUE_POOL = ["alerts", "db", "net", "q", "Q", "é", "keychain"]
GROUP_POOL = ["core", "analytics", "ui", "ads", "Core"]
INPUT_NAMES = ["tap", "scroll", "tap", "swipe", "é-tap"]


def small_ms(rng, hi=4, zero_p=0.25, frac_p=0.1):
    """Small integer ms values (coincidences), sometimes zero or a .5 ms."""
    if rng.random() < zero_p:
        return rng.choice([0, 0, 0.0, 0.0004])       # all 0 µs
    if rng.random() < frac_p:
        return rng.choice([0.5, 1.5, 0.0005, 2.5, 0.001])
    return rng.randint(1, hi)


def decorate_v2(rng, sc, extras):
    """Adds v2 keys to a v1 scenario, in place."""
    tasks = sc["tasks"]
    n = len(tasks)
    big = n > 200
    lat_p = rng.choice([0, 0, 0.1, 0.3, 0.7])
    delay_p = rng.choice([0, 0, 0.1, 0.3])
    queue_p = rng.choice([0, 0.1, 0.3, 0.6])
    idle_p = rng.choice([0, 0.2, 0.5, 1.0])
    anchor_p = rng.choice([0, 0, 0.02, 0.1, 0.3])
    group_p = rng.choice([0, 0.3, 1.0])
    queues = rng.sample(QUEUE_POOL, rng.randint(1, 4))
    style = rng.choice(["int", "nice", "double"])

    def val(hi=20):
        if rng.random() < 0.15:
            return 0
        if style == "int":
            return rng.randint(1, hi)
        if style == "nice":
            return rng.choice(NICE_COSTS)
        return round(rng.uniform(0, hi), rng.choice([1, 3, 6]))

    total = 0.0
    for t in tasks:
        total += float(t["cost"])
        if rng.random() < lat_p:
            t["latency"] = val()
            if extras and rng.random() < 0.1:
                t["latencyP90"] = min(float(t["latency"]) * rng.choice([1, 2]), MAX_MS)
        elif rng.random() < 0.03:
            t["latency"] = rng.choice([0, None])
        if rng.random() < delay_p:
            t["delay"] = val(10)
        if rng.random() < queue_p:
            t["queue"] = rng.choice(queues)
        if t.get("mainThreadOnly") and rng.random() < idle_p:
            t["idle"] = True
        elif rng.random() < 0.03:
            t["idle"] = rng.choice([False, None])
        if rng.random() < anchor_p * (0.1 if big else 1):
            t["anchor"] = True
        if rng.random() < group_p:
            t["group"] = rng.choice(GROUP_POOL)
    if rng.random() < 0.6:
        horizon = total / 2 + 50
        ins = []
        for j in range(rng.randint(0, 6)):
            at = rng.choice([0, rng.randint(0, 40), round(rng.uniform(0, horizon), 3),
                             rng.randint(0, int(horizon))])
            inp = {"at": min(at, MAX_MS), "cost": rng.choice([0, 1, 2, 0.5, 5, 16.667])}
            if rng.random() < 0.5:
                inp["name"] = rng.choice(INPUT_NAMES)
            ins.append(inp)
        sc["inputs"] = ins
    if rng.random() < 0.5:
        sc["idleMode"] = rng.choice(["batch", "oneByOne", "oneByOne", None])


def gen_tricky(rng, seed, k, extras):
    """A small scenario made for ties (see the module docstring)."""
    n = rng.randint(1, 10)
    ids = [f"t{i}" for i in range(n)]
    deps = make_deps(rng, n)
    main_p = rng.choice([0.2, 0.5, 0.8])
    idle_p = rng.choice([0, 0.3, 0.6])
    ff_p = rng.choice([0, 0.2, 0.5])
    lat_p = rng.choice([0, 0.3, 0.6])
    delay_p = rng.choice([0, 0.2, 0.5])
    queue_p = rng.choice([0, 0.3, 0.6, 0.9])
    anchor_p = rng.choice([0, 0.15, 0.4])
    zero_p = rng.choice([0.1, 0.3, 0.6])
    pstyle = rng.choice(["zero", "two", "three"])
    queues = rng.sample(QUEUE_POOL, rng.randint(1, 2))

    tasks = []
    for i in range(n):
        t = {"id": ids[i], "cost": small_ms(rng, 4, zero_p)}
        main = rng.random() < main_p
        if main:
            t["mainThreadOnly"] = True
            if rng.random() < idle_p:
                t["idle"] = True
            if rng.random() < ff_p:
                t["firstFrame"] = True
        if pstyle != "zero":
            t["priority"] = rng.randint(0, 1 if pstyle == "two" else 2)
        if deps[i]:
            t["dependsOn"] = [ids[d] for d in deps[i]]
        if rng.random() < lat_p:
            t["latency"] = small_ms(rng, 5, 0.2)
        if rng.random() < delay_p:
            t["delay"] = small_ms(rng, 3, 0.2)
        if rng.random() < queue_p:
            t["queue"] = rng.choice(queues)
        if rng.random() < anchor_p:
            t["anchor"] = True
        if rng.random() < 0.1:
            t["group"] = rng.choice(GROUP_POOL)
        tasks.append(t)

    # planted patterns
    def add(t):
        t["id"] = f"p{len(tasks)}-{t['id']}"
        tasks.append(t)
        return t["id"]

    if rng.random() < 0.2:     # priority take-out from the idle queue
        q = rng.choice(QUEUE_POOL)
        add({"id": "idle-holder", "cost": small_ms(rng, 3, 0.3), "mainThreadOnly": True,
             "idle": True, "queue": q, "priority": 0})
        add({"id": "waited", "cost": small_ms(rng, 3, 0.3), "queue": q, "priority": 0})
    if rng.random() < 0.2:     # priority take-out from the main queue
        q = rng.choice(QUEUE_POOL)
        add({"id": "first", "cost": rng.randint(0, 2), "latency": rng.randint(1, 3),
             "queue": q, "priority": 0})
        add({"id": "delayed-main", "cost": small_ms(rng, 3, 0.3), "mainThreadOnly": True,
             "delay": rng.randint(1, 2), "queue": q, "priority": 0})
        add({"id": "waited", "cost": small_ms(rng, 3, 0.3), "queue": q, "priority": 0})
    if rng.random() < 0.15:    # a queued inline T0 task
        q = rng.choice(QUEUE_POOL)
        add({"id": "holder", "cost": rng.randint(0, 3), "queue": q, "priority": 0,
             "latency": rng.choice([0, 1, 2])})
        add({"id": "inline", "cost": small_ms(rng, 2, 0.3), "mainThreadOnly": True,
             "queue": q, "priority": 0})
    if rng.random() < 0.2:     # an anchor depending on main-thread / idle tasks
        m = add({"id": "m", "cost": small_ms(rng, 3, 0.3), "mainThreadOnly": True,
                 "idle": rng.random() < 0.5})
        w = add({"id": "w", "cost": small_ms(rng, 3, 0.3)})
        add({"id": "anchor", "cost": small_ms(rng, 3, 0.3), "anchor": True,
             "mainThreadOnly": rng.random() < 0.3, "dependsOn": rng.sample([m, w], rng.randint(1, 2)),
             "latency": rng.choice([0, 0, 2])})
    if rng.random() < 0.15:    # a main task sharing a queue with an anchor's closure
        q = rng.choice(QUEUE_POOL)
        add({"id": "anchor-q", "cost": small_ms(rng, 3, 0.3), "anchor": True, "queue": q})
        add({"id": "main-q", "cost": small_ms(rng, 3, 0.3), "mainThreadOnly": True, "queue": q,
             "idle": rng.random() < 0.5, "priority": rng.choice([0, 1])})

    if len(tasks) > n and rng.random() < 0.5:     # shuffle so patterns are not last
        order = list(range(len(tasks)))
        rng.shuffle(order)
        tasks = [tasks[j] for j in order]

    scenario = {"name": f"gen {seed}/{k}"}
    device = {"cores": rng.choice([2, 2, 3, 3, 4, 5]),
              "refreshRate": rng.choice([1000, 1000, 500, 250, 60]),
              "commitCost": rng.choice([0, 0, 1, 2, 0.5]),
              "renderTime": rng.choice([0, 0, 1, 3])}
    scenario["device"] = device
    if rng.random() < 0.5:
        scenario["preMain"] = [{"name": "dyld", "cost": rng.randint(0, 3)}]
    scenario["tasks"] = tasks
    t0 = sum(p["cost"] for p in scenario.get("preMain", []))
    if rng.random() < 0.75:
        ins = []
        for j in range(rng.randint(1, 4)):
            at = rng.choice([0, t0, t0 + rng.randint(0, 3), rng.randint(0, t0 + 15)])
            inp = {"at": at, "cost": small_ms(rng, 3, 0.3)}
            if rng.random() < 0.3:
                inp["name"] = rng.choice(INPUT_NAMES)
            elif rng.random() < 0.1:
                inp["name"] = None
            ins.append(inp)
        scenario["inputs"] = ins
    if rng.random() < 0.7:
        scenario["idleMode"] = rng.choice(["batch", "oneByOne"])
    if extras and rng.random() < 0.1:
        for t in tasks:
            if "latency" in t and rng.random() < 0.5:
                t["latencyP90"] = float(t["latency"]) + rng.choice([0, 1])
    return scenario


def gen_scenario_v2(seed, k, extras=True):
    """The v2 generator, unchanged (same random draws)."""
    rng = random.Random(f"launchflow-v2-{seed}-{k}")
    if rng.random() < 0.35:
        sc = gen_scenario_v1(seed, k, extras)
        decorate_v2(rng, sc, extras)
        return sc
    return gen_tricky(rng, seed, k, extras)


# --------------------------------------------------------------------------
# v2.1
# --------------------------------------------------------------------------

AFTER = "firstFrame"


def _nfd(s):
    import unicodedata
    return unicodedata.normalize("NFD", s)


def waited_for(tasks):
    """Indices of the tasks the first frame waits for: firstFrame tasks, anchors and
    everything they depend on (directly or not)."""
    key = {_nfd(t["id"]): i for i, t in enumerate(tasks)}
    deps = [[key[_nfd(d)] for d in (t.get("dependsOn") or []) if _nfd(d) in key] for t in tasks]
    need = {i for i, t in enumerate(tasks) if t.get("firstFrame") is True or t.get("anchor") is True}
    stack = list(need)
    while stack:
        for d in deps[stack.pop()]:
            if d not in need:
                need.add(d)
                stack.append(d)
    return need


def drop_needed_after(tasks):
    """Removes `after` from every task the first frame waits for (keeps the scenario valid)."""
    for i in waited_for(tasks):
        tasks[i].pop("after", None)


def decorate_v21(rng, sc):
    """Adds after / fullyDrawn to a v2 scenario, in place, keeping it valid."""
    tasks = sc["tasks"]
    if rng.random() < 0.15:                     # no firstFrame task at all
        for t in tasks:
            t.pop("firstFrame", None)
    need = waited_for(tasks)
    after_p = rng.choice([0, 0.05, 0.2, 0.4, 0.8])
    fd_p = rng.choice([0, 0, 0.05, 0.3])
    for i, t in enumerate(tasks):
        if i not in need and rng.random() < after_p:
            t["after"] = AFTER
        elif rng.random() < 0.02:
            t["after"] = None
        if t.get("mainThreadOnly") is True and rng.random() < fd_p:
            t["fullyDrawn"] = True
        elif rng.random() < 0.02:
            t["fullyDrawn"] = rng.choice([False, None])


VSYNC_EXACT = {"refreshRate": 1000, "commitCost": 0, "renderTime": 0}


def gen_tricky_v21(rng, seed, k, extras):
    """A small v2.1 scenario made for ties (see the module docstring)."""
    n = rng.randint(1, 9)
    ids = [f"t{i}" for i in range(n)]
    deps = make_deps(rng, n)
    main_p = rng.choice([0.2, 0.5, 0.8])
    idle_p = rng.choice([0, 0, 0.3])
    ff_p = rng.choice([0, 0, 0.2, 0.5])
    fd_p = rng.choice([0, 0.2, 0.5])
    after_p = rng.choice([0.2, 0.4, 0.7, 1.0])
    lat_p = rng.choice([0, 0.2, 0.5])
    delay_p = rng.choice([0, 0.2, 0.5])
    queue_p = rng.choice([0, 0.3, 0.6])
    anchor_p = rng.choice([0, 0, 0.15, 0.3])
    zero_p = rng.choice([0.1, 0.3, 0.5])
    pstyle = rng.choice(["zero", "two", "three"])
    queues = rng.sample(QUEUE_POOL, rng.randint(1, 2))

    tasks = []
    for i in range(n):
        t = {"id": ids[i], "cost": small_ms(rng, 4, zero_p, 0.05)}
        if rng.random() < main_p:
            t["mainThreadOnly"] = True
            if rng.random() < idle_p:
                t["idle"] = True
            if rng.random() < ff_p:
                t["firstFrame"] = True
            if rng.random() < fd_p:
                t["fullyDrawn"] = True
        if pstyle != "zero":
            t["priority"] = rng.randint(0, 1 if pstyle == "two" else 2)
        if deps[i]:
            t["dependsOn"] = [ids[d] for d in deps[i]]
        if rng.random() < lat_p:
            t["latency"] = small_ms(rng, 5, 0.2, 0.05)
        if rng.random() < delay_p:
            t["delay"] = small_ms(rng, 3, 0.2, 0.05)
        if rng.random() < queue_p:
            t["queue"] = rng.choice(queues)
        if rng.random() < anchor_p:
            t["anchor"] = True
        tasks.append(t)
    need = waited_for(tasks)
    for i, t in enumerate(tasks):
        if i not in need and rng.random() < after_p:
            t["after"] = AFTER

    def add(t):
        t["id"] = f"p{len(tasks)}-{t['id']}"
        tasks.append(t)
        return t["id"]

    def c(hi=3, zp=0.25):
        return small_ms(rng, hi, zp, 0.0)

    if rng.random() < 0.25:    # after tasks in T0 (priority: not inline, not waited for)
        add({"id": "t0-w", "cost": c(4, 0.1), "priority": 0})
        add({"id": "t0-after-main", "cost": c(), "mainThreadOnly": True, "after": AFTER, "priority": 0})
        add({"id": "t0-after-worker", "cost": c(6, 0.1), "after": AFTER, "priority": 0,
             "latency": rng.choice([0, 0, 2])})
    if rng.random() < 0.2:     # a priority tier of after tasks only, then another tier
        add({"id": "only-after-1", "cost": c(), "after": AFTER, "priority": 7})
        add({"id": "only-after-2", "cost": c(), "after": AFTER, "priority": 7,
             "mainThreadOnly": rng.random() < 0.5})
        if rng.random() < 0.5:
            add({"id": "only-after-3", "cost": c(), "after": AFTER, "priority": 8,
                 "mainThreadOnly": True, "idle": rng.random() < 0.5})
        add({"id": "next-tier", "cost": c(), "priority": 9, "mainThreadOnly": rng.random() < 0.6,
             "firstFrame": False})
    if rng.random() < 0.2:     # after + delay, on a worker and on main
        add({"id": "after-delay-w", "cost": c(), "after": AFTER, "delay": rng.randint(1, 3)})
        add({"id": "after-delay-m", "cost": c(), "after": AFTER, "delay": rng.choice([0.5, 1, 2]),
             "mainThreadOnly": True})
    if rng.random() < 0.2:     # after + a queue shared with tasks without after
        q = rng.choice(QUEUE_POOL)
        add({"id": "q-after", "cost": c(), "after": AFTER, "queue": q, "priority": 0})
        add({"id": "q-plain", "cost": c(3, 0.1), "queue": q, "priority": rng.choice([0, 3]),
             "latency": rng.choice([0, 1, 3])})
        add({"id": "q-after-main", "cost": c(), "after": AFTER, "queue": q, "mainThreadOnly": True,
             "idle": rng.random() < 0.3})
    if rng.random() < 0.15:    # after + idle
        add({"id": "after-idle", "cost": c(), "after": AFTER, "mainThreadOnly": True, "idle": True})
    if rng.random() < 0.2:     # fullyDrawn with latency, and fullyDrawn depending on after tasks
        h = add({"id": "fd-after-dep", "cost": c(3, 0.1), "after": AFTER})
        add({"id": "fd", "cost": c(), "mainThreadOnly": True, "fullyDrawn": True, "dependsOn": [h],
             "latency": rng.choice([0, 2, 5])})
        add({"id": "fd-lat", "cost": c(), "mainThreadOnly": True, "fullyDrawn": True,
             "latency": rng.randint(1, 5)})
    if rng.random() < 0.15:    # an after task depending on a firstFrame task
        f = add({"id": "ff", "cost": c(), "mainThreadOnly": True, "firstFrame": True})
        add({"id": "after-ff", "cost": c(), "after": AFTER, "dependsOn": [f],
             "mainThreadOnly": rng.random() < 0.5})
    if rng.random() < 0.15:    # an anchor whose main-thread queue-mate has after (not in the closure)
        q = rng.choice(QUEUE_POOL)
        add({"id": "anchor-q", "cost": c(3, 0.1), "anchor": True, "queue": q})
        add({"id": "mate-after", "cost": c(), "mainThreadOnly": True, "queue": q, "after": AFTER,
             "priority": rng.choice([0, 1])})
    if rng.random() < 0.2:     # the further step 1: x enqueued when the zero commit ends at P
        f = add({"id": "zc-f", "cost": 1, "mainThreadOnly": True, "firstFrame": True})
        add({"id": "zc-a", "cost": 1, "mainThreadOnly": True, "after": AFTER})
        z = add({"id": "zc-z", "cost": 1})
        add({"id": "zc-x", "cost": 1, "mainThreadOnly": True, "dependsOn": [z]})
    if rng.random() < 0.15:    # an after task made ready at P in step 2b, after the commit
        add({"id": "w1-f", "cost": 1, "mainThreadOnly": True, "firstFrame": True})
        add({"id": "w1-B", "cost": 1, "mainThreadOnly": True, "after": AFTER})
        add({"id": "w1-w", "cost": 1})
        y = add({"id": "w1-y", "cost": 0})
        add({"id": "w1-A", "cost": 1, "mainThreadOnly": rng.random() < 0.7, "after": AFTER,
             "dependsOn": [y]})

    if rng.random() < 0.2:     # no firstFrame task at all (then: iteration 0's commit)
        for t in tasks:
            t.pop("firstFrame", None)
    drop_needed_after(tasks)
    if len(tasks) > n and rng.random() < 0.5:     # shuffle so patterns are not last
        order = list(range(len(tasks)))
        rng.shuffle(order)
        tasks = [tasks[j] for j in order]

    scenario = {"name": f"gen {seed}/{k}"}
    if rng.random() < 0.45:
        device = {"cores": rng.choice([2, 2, 3, 4]), **VSYNC_EXACT}
    else:
        device = {"cores": rng.choice([2, 2, 3, 3, 4, 5]),
                  "refreshRate": rng.choice([1000, 1000, 500, 250, 60]),
                  "commitCost": rng.choice([0, 0, 1, 2, 0.5]),
                  "renderTime": rng.choice([0, 0, 1, 3, 2.5])}
    scenario["device"] = device
    if rng.random() < 0.4:
        scenario["preMain"] = [{"name": "dyld", "cost": rng.randint(0, 3)}]
    scenario["tasks"] = tasks
    t0 = sum(p["cost"] for p in scenario.get("preMain", []))
    if rng.random() < 0.5:
        ins = []
        for j in range(rng.randint(1, 3)):
            at = rng.choice([0, t0, t0 + rng.randint(0, 3), rng.randint(0, t0 + 15)])
            inp = {"at": at, "cost": small_ms(rng, 3, 0.3)}
            if rng.random() < 0.3:
                inp["name"] = rng.choice(INPUT_NAMES)
            ins.append(inp)
        scenario["inputs"] = ins
    if rng.random() < 0.6:
        scenario["idleMode"] = rng.choice(["batch", "oneByOne"])
    if extras and rng.random() < 0.1:
        scenario["budgets"] = {m: rng.choice([0, 100, 250.5])
                               for m in rng.sample(METRIC_NAMES_V21, rng.randint(1, 3))}
    return scenario


def gen_scenario_v21(seed, k, extras=True):
    rng = random.Random(f"launchflow-v21-{seed}-{k}")
    if rng.random() < 0.3:
        sc = gen_scenario_v2(seed, k, extras)
        decorate_v21(rng, sc)
        return sc
    return gen_tricky_v21(rng, seed, k, extras)


def add_new_keys(sc, seed, k):
    """(docs/model.md §3.10-3.11) Adds device.cpus, device.mainThreadPriority and
    mainExecutor to scenario k, in place, from a random stream of their own."""
    rng = random.Random(f"launchflow-newkeys-{seed}-{k}")
    dev = sc.get("device")
    if not isinstance(dev, dict):
        dev = {}
        sc["device"] = dev
    cores = int(dev.get("cores") or 4)
    if rng.random() < 0.75:
        r = rng.random()
        if r < 0.35:
            cpus = 1
        elif r < 0.8:
            cpus = rng.randint(1, max(1, cores - 1))       # threads share CPUs
        elif r < 0.9:
            cpus = min(cores, 1024)                          # no contention
        else:
            cpus = min(cores + rng.randint(1, 8), 1024)      # no contention either
        dev["cpus"] = maybe_int_as_float(rng, cpus, 0.05)
    if rng.random() < 0.4:
        dev["mainThreadPriority"] = rng.choice([True, True, False, None])
    if rng.random() < 0.6:
        sc["mainExecutor"] = rng.choice(["operationQueue", "operationQueue", "dispatch", None])
    return sc


PHASE_NAMES = ["willFinishLaunching", "sceneWillConnect", "sceneWillEnterForeground",
               "sceneDidBecomeActive", "App.init", "Application.onCreate", "onStart", "onResume",
               "didfinishlaunching", "é-phase", "with space", "init"]
DFL_PHASE = "didFinishLaunching"


def add_phases(sc, seed, k):
    """(docs/model.md §3.12) Adds launchPhases (1-5 phases, costs of small integer
    ms, often 0) and sometimes startsIn to scenario k, in place, from a random
    stream of its own.  About 70 % of the lists name a phase didFinishLaunching;
    the others always give startsIn.  Planted: sometimes a worker task whose end
    hands an idle task (or a main-thread task) over while the later phases run, and
    an input arriving during the phases."""
    rng = random.Random(f"launchflow-phases-{seed}-{k}")
    n = rng.randint(1, 5)
    names = rng.sample(PHASE_NAMES, n)
    has_dfl = rng.random() < 0.7

    def pos():                    # the startsIn phase: more often one with phases after it
        return rng.randrange(n) if rng.random() < 0.4 else rng.randrange(max(1, n - 1))

    if has_dfl:
        names[pos()] = DFL_PHASE
    cost_style = rng.choice(["small", "small", "zero", "mixed"])

    def cost():
        if cost_style == "zero":
            return rng.choice([0, 0, 0.0])
        if cost_style == "mixed" and rng.random() < 0.3:
            return rng.choice([0.5, 0.0005, 1.2345, 16.667, 2.5])
        return rng.choice([0, 0, 1, 1, 2, 3, 5])

    phases = [{"name": nm, "cost": cost()} for nm in names]
    sc["launchPhases"] = phases
    if not has_dfl:
        sc["startsIn"] = names[pos()]
    else:
        r = rng.random()
        if r < 0.35:
            sc["startsIn"] = names[pos()]               # sometimes didFinishLaunching itself
        elif r < 0.45:
            sc["startsIn"] = None
    start = next(j for j, nm in enumerate(names) if nm == sc.get("startsIn", DFL_PHASE)
                 or (sc.get("startsIn") is None and nm == DFL_PHASE))
    later = sum(float(p["cost"]) for p in phases[start + 1:])
    pm = sc.get("preMain") or []
    t0 = sum(float(p["cost"]) for p in pm)
    t1 = t0 + sum(float(p["cost"]) for p in phases[:start + 1])
    tasks = sc["tasks"]
    ids = {t["id"] for t in tasks}
    if rng.random() < 0.5 and later > 0 and len(tasks) < 200:
        # a worker task ending while a later phase runs: it hands over an idle task
        # (iteration 0's idle step runs it) or a main-thread task (iteration 1)
        w, x = "ph-w", "ph-x"
        if w not in ids and x not in ids:
            tasks.append({"id": w, "cost": rng.choice([0, 1, 1, 2]), "priority": 0})
            t = {"id": x, "cost": rng.choice([0, 1, 2]), "mainThreadOnly": True, "dependsOn": [w]}
            if rng.random() < 0.7:
                t["idle"] = True
            tasks.append(t)
    if rng.random() < 0.3:
        # an input arriving during the phases (or at t1)
        at = rng.choice([t0, t1, round(rng.uniform(t0, t1 + later), rng.choice([0, 3]))])
        sc["inputs"] = (sc.get("inputs") or []) + [{"at": at, "cost": rng.choice([0, 1, 2])}]
    if rng.random() < 0.2:        # the key order does not matter
        items = list(sc.items())
        rng.shuffle(items)
        sc.clear()
        sc.update(items)
    return sc


CLUSTER_NAMES = ["P", "E", "M", "perf", "eff", "é", "big", "LITTLE", "p"]
SPEEDS = [1, 1, 0.5, 0.5, 0.333, 0.25, 0.75, 0.6, 0.125, 0.999, 0.001, 1.0, 0.5000000001]
QOS = ["userInteractive", "userInitiated", "default", "utility", "background"]


def add_clusters(sc, seed, k):
    """(docs/model.md §3.13) Adds device.clusters (1-3 clusters of 1-3 cores, sometimes
    more; speeds such as 1, 0.5, 0.333, 0.25, 0.75, one of them 1, ties between
    clusters) and tasks[].qos to scenario k, in place, from a random stream of its
    own.  device.cpus is removed (never with clusters); mainThreadPriority, when
    there, stays (it is ignored).  device.cores is left out in about 30 % (then
    max(2, the total count)), else set to a small number (often more threads than
    cores) or kept."""
    rng = random.Random(f"launchflow-clusters-{seed}-{k}")
    dev = sc.get("device")
    if not isinstance(dev, dict):
        dev = {}
        sc["device"] = dev
    dev.pop("cpus", None)
    n = rng.choice([1, 2, 2, 2, 3, 3])
    names = rng.sample(CLUSTER_NAMES, n)
    speeds = [rng.choice(SPEEDS) for _ in range(n)]
    if n > 1 and rng.random() < 0.2:                 # two clusters at the same speed
        speeds[1] = speeds[0]
    if not any(float(v) == 1 for v in speeds):
        speeds[rng.randrange(n)] = rng.choice([1, 1.0])
    clusters = []
    for nm, sp in zip(names, speeds):
        count = rng.choice([1, 1, 1, 2, 2, 3]) if rng.random() < 0.9 else rng.randint(4, 12)
        clusters.append({"name": nm, "count": float(count) if rng.random() < 0.05 else count,
                         "speed": sp})
    dev["clusters"] = clusters
    r = rng.random()
    if r < 0.3:
        dev.pop("cores", None)                        # max(2, the total count)
    elif r < 0.75:
        dev["cores"] = rng.choice([2, 3, 4, 4, 5, 6])
    qos_p = rng.choice([0, 0.3, 0.6, 0.9, 1.0])
    style = rng.choice(["mixed", "mixed", "background", "interactive"])
    for t in sc["tasks"]:
        if rng.random() < qos_p:
            if style == "background":
                t["qos"] = rng.choice(["background", "background", "default", "utility"])
            elif style == "interactive":
                t["qos"] = rng.choice(["userInteractive", "userInteractive", "userInitiated", "default"])
            else:
                t["qos"] = rng.choice(QOS)
        elif rng.random() < 0.03:
            t["qos"] = None
    return sc


def gen_scenario(seed, k, extras=True, v1=False, v2=False, new_keys=False, phases=False,
                 clusters=False):
    """Scenario k of a seed: v2.1 by default; v1=True: exactly the v1 generator's
    scenario; v2=True: exactly the v2 generator's.  new_keys=True: the same
    scenario with the keys of §3.10-3.11 added (add_new_keys); phases=True: with
    launch phases (§3.12, add_phases); clusters=True: with device.clusters and
    tasks' qos (§3.13, add_clusters; device.cpus removed)."""
    if v1:
        sc = gen_scenario_v1(seed, k, extras)
    elif v2:
        sc = gen_scenario_v2(seed, k, extras)
    else:
        sc = gen_scenario_v21(seed, k, extras)
    if new_keys:
        add_new_keys(sc, seed, k)
    if phases:
        add_phases(sc, seed, k)
    if clusters:
        add_clusters(sc, seed, k)
    return sc


TOP_KEYS = {"name", "description", "device", "preMain", "tasks", "$schema", "budgets", "jitter",
            "idleMode", "inputs", "mainExecutor", "strategy", "platform", "launchPhases", "startsIn"}
DEVICE_KEYS = {"cores", "refreshRate", "commitCost", "renderTime", "cpus", "mainThreadPriority",
               "clusters"}
TASK_KEYS = {"id", "cost", "mainThreadOnly", "priority", "dependsOn", "firstFrame", "costP90",
             "latency", "delay", "queue", "idle", "anchor", "group", "latencyP90",
             "after", "fullyDrawn", "qos"}
INPUT_KEYS = {"name", "at", "cost"}


def validate(sc):
    """Independent check that a generated scenario obeys MODEL.md section 1.
    Returns a list of problems (empty = valid)."""
    import math
    import unicodedata
    bad = []

    def num(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)

    def is_int(v):
        return num(v) and float(v) == int(v)

    def ms_ok(v):
        return num(v) and 0 <= v <= MAX_MS

    bad += [f"unknown key {k}" for k in sc if k not in TOP_KEYS]
    if not isinstance(sc.get("name"), str):
        bad.append("name")
    if sc.get("description") is not None and not isinstance(sc["description"], str):
        bad.append("description")
    dev = sc.get("device") or {}
    bad += [f"unknown device key {k}" for k in dev if k not in DEVICE_KEYS]
    if dev.get("cores") is not None and not (is_int(dev["cores"]) and 2 <= dev["cores"] <= 1024):
        bad.append("cores")
    if dev.get("refreshRate") is not None and not (num(dev["refreshRate"]) and 0 < dev["refreshRate"] <= 1000):
        bad.append("refreshRate")
    for k in ("commitCost", "renderTime"):
        if dev.get(k) is not None and not ms_ok(dev[k]):
            bad.append(k)
    if dev.get("cpus") is not None and not (is_int(dev["cpus"]) and 1 <= dev["cpus"] <= 1024):
        bad.append("cpus")
    if dev.get("mainThreadPriority") is not None and not isinstance(dev["mainThreadPriority"], bool):
        bad.append("mainThreadPriority")
    if sc.get("mainExecutor") is not None and sc["mainExecutor"] not in ("dispatch", "operationQueue"):
        bad.append("mainExecutor")
    cl = dev.get("clusters")                        # (§3.13, §9)
    if cl is not None:
        if not isinstance(cl, list) or not cl:
            bad.append("clusters")
        else:
            cnames = set()
            for c in cl:
                if not isinstance(c, dict) or set(c) != {"name", "count", "speed"}:
                    bad.append(f"cluster {c}")
                    continue
                if not isinstance(c["name"], str) or not c["name"] \
                        or unicodedata.normalize("NFD", c["name"]) in cnames:
                    bad.append(f"cluster name {c['name']!r}")
                cnames.add(unicodedata.normalize("NFD", str(c["name"])))
                if not (is_int(c["count"]) and c["count"] >= 1):
                    bad.append(f"cluster count {c['count']!r}")
                sp = c["speed"]
                if not (num(sp) and 0 < sp <= 1 and abs(sp * 1000 - round(sp * 1000)) <= 1e-6
                        and round(sp * 1000) >= 1):
                    bad.append(f"cluster speed {sp!r}")
            if not any(num(c.get("speed")) and round(c["speed"] * 1000) == 1000 for c in cl
                       if isinstance(c, dict)):
                bad.append("no cluster at speed 1")
            if dev.get("cpus") is not None:
                bad.append("clusters with cpus")
            if dev.get("cores") is None and sum(c.get("count", 0) for c in cl if isinstance(c, dict)) > 1024:
                bad.append("clusters: more than 1024 cores")
    for ph in sc.get("preMain") or []:
        if set(ph) != {"name", "cost"} or not isinstance(ph["name"], str) or not ms_ok(ph["cost"]):
            bad.append(f"preMain {ph}")
    lp = sc.get("launchPhases")                     # (§3.12, §9)
    if lp is not None:
        names = []
        for ph in lp if isinstance(lp, list) else [None]:
            if not isinstance(ph, dict) or set(ph) != {"name", "cost"} or not isinstance(ph["name"], str) \
                    or not ph["name"] or not ms_ok(ph["cost"]):
                bad.append(f"launchPhases {ph}")
                continue
            names.append(unicodedata.normalize("NFD", ph["name"]))
        if not lp or len(set(names)) != len(names):
            bad.append("launchPhases empty or with a duplicate name")
        si = sc.get("startsIn")
        want = "didFinishLaunching" if si is None else si
        if not isinstance(want, str) or unicodedata.normalize("NFD", want) not in names:
            bad.append(f"startsIn {si!r}")
    elif sc.get("startsIn") is not None:
        bad.append("startsIn without launchPhases")
    if sc.get("idleMode") is not None and sc["idleMode"] not in ("batch", "oneByOne"):
        bad.append("idleMode")
    for j, inp in enumerate(sc.get("inputs") or []):
        if not isinstance(inp, dict) or any(k not in INPUT_KEYS for k in inp):
            bad.append(f"input {j} keys")
            continue
        if not (ms_ok(inp.get("at")) and ms_ok(inp.get("cost"))):
            bad.append(f"input {j} at/cost")
        if inp.get("name") is not None and not (isinstance(inp["name"], str) and inp["name"]):
            bad.append(f"input {j} name")
    tasks = sc.get("tasks")
    if not tasks:
        return bad + ["no tasks"]
    keys = {}
    for i, t in enumerate(tasks):
        bad += [f"task {i} unknown key {k}" for k in t if k not in TASK_KEYS]
        if not isinstance(t.get("id"), str) or not t["id"]:
            bad.append(f"task {i} id")
            continue
        k = unicodedata.normalize("NFD", t["id"])
        if k in keys:
            bad.append(f"duplicate id {t['id']!r}")
        keys[k] = i
        if not ms_ok(t.get("cost")):
            bad.append(f"task {i} cost")
        if t.get("costP90") is not None and not (ms_ok(t["costP90"]) and t["costP90"] >= t["cost"]):
            bad.append(f"task {i} costP90")
        p = t.get("priority")
        if p is not None and not (is_int(p) and 0 <= p <= 1_000_000):
            bad.append(f"task {i} priority")
        for b in ("mainThreadOnly", "firstFrame", "idle", "anchor", "fullyDrawn"):
            if t.get(b) is not None and not isinstance(t[b], bool):
                bad.append(f"task {i} {b}")
        if t.get("after") is not None and t["after"] != AFTER:
            bad.append(f"task {i} after")
        if t.get("qos") is not None and t["qos"] not in QOS:
            bad.append(f"task {i} qos")
        if t.get("fullyDrawn") and not t.get("mainThreadOnly"):
            bad.append(f"task {i} fullyDrawn without mainThreadOnly")
        if t.get("firstFrame") and not t.get("mainThreadOnly"):
            bad.append(f"task {i} firstFrame without mainThreadOnly")
        if t.get("idle") and not t.get("mainThreadOnly"):
            bad.append(f"task {i} idle without mainThreadOnly")
        for m in ("latency", "delay"):
            if t.get(m) is not None and not ms_ok(t[m]):
                bad.append(f"task {i} {m}")
        if t.get("latencyP90") is not None and not (
                ms_ok(t["latencyP90"]) and t["latencyP90"] >= (t.get("latency") or 0)):
            bad.append(f"task {i} latencyP90")
        for s in ("queue", "group"):
            if t.get(s) is not None and not (isinstance(t[s], str) and t[s]):
                bad.append(f"task {i} {s}")
    deps = []
    for i, t in enumerate(tasks):
        ds = [unicodedata.normalize("NFD", d) for d in (t.get("dependsOn") or [])]
        if len(set(ds)) != len(ds):
            bad.append(f"task {i} duplicate dependency")
        if any(d not in keys for d in ds):
            bad.append(f"task {i} unknown dependency")
            ds = [d for d in ds if d in keys]
        if unicodedata.normalize("NFD", t["id"]) in ds:
            bad.append(f"task {i} self-dependency")
        deps.append([keys[d] for d in ds])
    state = [0] * len(tasks)           # iterative DFS cycle check
    for s0 in range(len(tasks)):
        if state[s0]:
            continue
        stack = [(s0, iter(deps[s0]))]
        state[s0] = 1
        while stack:
            v, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[v] = 2
                stack.pop()
            elif state[nxt] == 1:
                bad.append("cycle")
                return bad
            elif state[nxt] == 0:
                state[nxt] = 1
                stack.append((nxt, iter(deps[nxt])))
    for i in waited_for(tasks):
        if tasks[i].get("after") is not None:
            bad.append(f"task {i} has after but the first frame waits for it")
    if sc.get("jitter") is not None and not (num(sc["jitter"]) and sc["jitter"] >= 0):
        bad.append("jitter")
    for k, v in (sc.get("budgets") or {}).items():
        if not (num(v) and v >= 0):
            bad.append(f"budget {k}")
    return bad


def write_scenarios(seed, count, out, extras=True, v1=False, v2=False, new_keys=False, phases=False,
                    clusters=False):
    os.makedirs(out, exist_ok=True)
    paths = []
    for k in range(count):
        sc = gen_scenario(seed, k, extras, v1, v2, new_keys, phases, clusters)
        problems = validate(sc)
        if problems:
            raise AssertionError(f"generator bug, scenario {seed}/{k}: {problems[:5]}")
        path = os.path.join(out, f"s{seed}-{k}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(sc, f, indent=1, ensure_ascii=False)
            f.write("\n")
        paths.append(path)
    return paths


def main(argv=None):
    ap = argparse.ArgumentParser(description="generate random valid launchflow scenarios")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-extras", action="store_true",
                    help="omit $schema, budgets, jitter and costP90 (keys the simulation ignores)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--v1", action="store_true",
                      help="only v1 keys: exactly the scenarios of the v1 generator")
    mode.add_argument("--v2", action="store_true",
                      help="only v2 keys: exactly the scenarios of the v2 generator")
    ap.add_argument("--new-keys", action="store_true",
                    help="also generate device.cpus, device.mainThreadPriority and mainExecutor "
                         "(docs/model.md §3.10-3.11); off by default, so seeds are unchanged")
    ap.add_argument("--phases", action="store_true",
                    help="also generate launchPhases and startsIn (docs/model.md §3.12); off by "
                         "default, so seeds are unchanged")
    ap.add_argument("--clusters", action="store_true",
                    help="also generate device.clusters and tasks' qos (docs/model.md §3.13; "
                         "device.cpus removed); off by default, so seeds are unchanged")
    args = ap.parse_args(argv)
    paths = write_scenarios(args.seed, args.count, args.out, not args.no_extras, args.v1, args.v2,
                            args.new_keys, args.phases, args.clusters)
    print(f"wrote {len(paths)} scenarios to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

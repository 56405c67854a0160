#!/usr/bin/env python3
"""Random VALID launchflow scenarios (MODEL.md section 1), deterministic per seed.

Usage:
    python3 gen_scenarios.py --seed N --count K --out DIR [--no-extras]

Writes DIR/s<seed>-<k>.json for k = 0..K-1.  Scenario k depends only on
(seed, k), so a failing scenario can be regenerated alone.

Coverage: 1 task .. ~3000 tasks (mostly 1-30), zero-cost tasks (often),
zero / positive commitCost, renderTime, preMain (absent, empty, null, zero
costs), one or many tiers, large priorities, no / sparse / dense dependencies,
deep chains, wide fans and fan-ins, fractional costs (0.0005, 1.2345, 16.667,
full-precision doubles, .5-µs ties), firstFrame on none / one / several main
tasks, cores 2..16 mostly and sometimes up to 1024, refreshRate from
{60, 120, 90, 59.94, 30, 1000, 7}, optional keys given as null, integers
written as 4.0, and (unless --no-extras) the keys read by other commands
($schema, description, budgets, jitter, costP90).
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


def gen_scenario(seed, k, extras=True):
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


TOP_KEYS = {"name", "description", "device", "preMain", "tasks", "$schema", "budgets", "jitter"}
DEVICE_KEYS = {"cores", "refreshRate", "commitCost", "renderTime"}
TASK_KEYS = {"id", "cost", "mainThreadOnly", "priority", "dependsOn", "firstFrame", "costP90"}


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
    for ph in sc.get("preMain") or []:
        if set(ph) != {"name", "cost"} or not isinstance(ph["name"], str) or not ms_ok(ph["cost"]):
            bad.append(f"preMain {ph}")
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
        for b in ("mainThreadOnly", "firstFrame"):
            if t.get(b) is not None and not isinstance(t[b], bool):
                bad.append(f"task {i} {b}")
        if t.get("firstFrame") and not t.get("mainThreadOnly"):
            bad.append(f"task {i} firstFrame without mainThreadOnly")
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
    if sc.get("jitter") is not None and not (num(sc["jitter"]) and sc["jitter"] >= 0):
        bad.append("jitter")
    for k, v in (sc.get("budgets") or {}).items():
        if not (num(v) and v >= 0):
            bad.append(f"budget {k}")
    return bad


def write_scenarios(seed, count, out, extras=True):
    os.makedirs(out, exist_ok=True)
    paths = []
    for k in range(count):
        sc = gen_scenario(seed, k, extras)
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
    args = ap.parse_args(argv)
    paths = write_scenarios(args.seed, args.count, args.out, not args.no_extras)
    print(f"wrote {len(paths)} scenarios to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

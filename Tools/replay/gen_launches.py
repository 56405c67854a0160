#!/usr/bin/env python3
"""Random launch-shaped scenarios for the fidelity benchmark (fidelity.py --random N).

  python3 Tools/replay/gen_launches.py --seed 7 --count 40 --out DIR

The cross-check's generator (Tools/reference/gen_scenarios.py) is made to
hit the model's same-instant rules: 1 ms tasks, zero costs, a 1000 Hz
display with no commit cost, so that two events meet on the same
microsecond. That checks the contract, but a real run cannot meet a
microsecond tie, so those scenarios measure the runtime's hand-off latency
(0.05-0.3 ms per hop) rather than the model. These are shaped like the
bundled scenarios, i.e. like a launch:

- 8 to 70 tasks, costs log-uniform from 0.5 to 40 ms, about 30% on the main
  thread, each depending on up to 3 earlier tasks, priorities 0 to 3;
- one to three main-thread firstFrame tasks, sometimes one fullyDrawn;
- latencies of 5 to 120 ms on about 15% of the tasks, delays of 20 to 200
  ms on about 5%, `after: "firstFrame"` on about 10% of the tasks no
  firstFrame task or anchor waits for, idle on about 10% of the main-thread
  tasks, one or two serial queues on about 10%, an anchor in about a third;
- pre-main 40 to 200 ms in two or three phases; 4 or 6 cores; 60 or 120 Hz;
  commit 1 to 4 ms; render 4 to 8 ms.

Scenario k depends only on (seed, k).
"""
import argparse, json, math, pathlib, random


def scenario(seed, k):
    rng = random.Random(seed * 1_000_003 + k)
    n = rng.randint(8, 70)
    ms = lambda lo, hi: round(math.exp(rng.uniform(math.log(lo), math.log(hi))), 1)
    tasks = []
    for i in range(n):
        task = {"id": f"t{i}", "cost": ms(0.5, 40)}
        earlier = list(range(i))
        deps = rng.sample(earlier, min(len(earlier), rng.choice([0, 0, 1, 1, 2, 3])))
        if deps:
            task["dependsOn"] = [f"t{d}" for d in sorted(deps)]
        if rng.random() < 0.3:
            task["mainThreadOnly"] = True
        task["priority"] = rng.choice([0, 1, 1, 2, 2, 3])
        if rng.random() < 0.15:
            task["latency"] = ms(5, 120)
        if rng.random() < 0.05:
            task["delay"] = ms(20, 200)
        tasks.append(task)
    main = [t for t in tasks if t.get("mainThreadOnly")]
    if not main:
        tasks[0]["mainThreadOnly"] = True
        main = [tasks[0]]
    for t in rng.sample(main, min(len(main), rng.randint(1, 3))):
        t["firstFrame"] = True
    if rng.random() < 0.5:
        rng.choice(main)["fullyDrawn"] = True
    if rng.random() < 0.35:
        rng.choice(tasks)["anchor"] = True
    queues = ["disk", "db"][: rng.randint(1, 2)]
    for t in tasks:
        if rng.random() < 0.1:
            t["queue"] = rng.choice(queues)
    # What a firstFrame task or an anchor waits for may not be deferred or idle.
    by_id = {t["id"]: t for t in tasks}
    needed = set()
    stack = [t["id"] for t in tasks if t.get("firstFrame") or t.get("anchor")]
    while stack:
        tid = stack.pop()
        if tid in needed:
            continue
        needed.add(tid)
        stack += by_id[tid].get("dependsOn", [])
    for t in tasks:
        if t["id"] in needed:
            continue
        if t.get("mainThreadOnly") and not t.get("fullyDrawn") and rng.random() < 0.1:
            t["idle"] = True
        elif rng.random() < 0.1:
            t["after"] = "firstFrame"
    # A deferred task's dependents that the first frame needs cannot exist (above); an idle task's may not
    # be anchors either, which `needed` already excludes.
    phases = ["dyld", "static initialisers", "+load methods"][: rng.randint(2, 3)]
    total = rng.uniform(40, 200)
    cut = sorted(rng.uniform(0, total) for _ in phases[1:])
    bounds = [0] + cut + [total]
    return {
        "name": f"random launch {seed}-{k}",
        "device": {"cores": rng.choice([4, 6]), "refreshRate": rng.choice([60, 120]),
                   "commitCost": round(rng.uniform(1, 4), 1), "renderTime": round(rng.uniform(4, 8), 1)},
        "preMain": [{"name": p, "cost": round(bounds[i + 1] - bounds[i], 1)} for i, p in enumerate(phases)],
        "tasks": tasks,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for k in range(args.count):
        (out / f"launch-{args.seed}-{k:02d}.json").write_text(json.dumps(scenario(args.seed, k), indent=1) + "\n")


if __name__ == "__main__":
    main()

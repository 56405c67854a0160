#!/usr/bin/env python3
"""Independent reference implementation of the launchflow model (MODEL.md v1).

Usage:
    python3 launchflow_ref.py SCENARIO.json --strategy serial|priority|dag [--max-concurrent N]

Prints the JSON object of MODEL.md section 6 on stdout.

Written from MODEL.md alone, as a plain discrete-event simulation in integer
microseconds.  Clarity over speed.  Input is assumed to be valid (minimal
checks only); defaults and null-as-absent are honoured.

Standard library only.
"""

import argparse
import bisect
import heapq
import json
import sys
import unicodedata
from collections import deque

STRATEGIES = ("serial", "priority", "dag")


# --------------------------------------------------------------------------
# Time helpers (MODEL.md section 2)
# --------------------------------------------------------------------------

def round_half_away(x):
    """Round a float to the nearest integer, halves away from zero.

    Exact for every finite double: as_integer_ratio() gives the exact value
    n/d of the double, so no intermediate rounding can happen (unlike
    floor(x + 0.5), which is wrong for 0.49999999999999994 and for large odd
    values near 2**53).  Mirrors Swift's `x.rounded()` (.toNearestOrAwayFromZero).
    """
    x = float(x)
    n, d = x.as_integer_ratio()          # d > 0
    neg = n < 0
    n = abs(n)
    q, r = divmod(n, d)
    if 2 * r >= d:                        # tie (2r == d) goes away from zero
        q += 1
    return -q if neg else q


def ms_to_us(ms):
    """µs = the IEEE double product ms * 1000, rounded half away from zero."""
    return round_half_away(float(ms) * 1000.0)


def us_to_ms_text(us):
    """Exact decimal text of us/1000: 133336 -> '133.336', 130000 -> '130'."""
    us = int(us)
    sign = "-" if us < 0 else ""
    us = abs(us)
    whole, frac = divmod(us, 1000)
    if frac == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{frac:03d}".rstrip("0")


def ceil_div(a, b):
    return -((-a) // b)


# --------------------------------------------------------------------------
# Scenario loading (assumes a valid scenario)
# --------------------------------------------------------------------------

def _opt(obj, key, default):
    """Optional key: absent or null -> default."""
    if obj is None:
        return default
    v = obj.get(key)
    return default if v is None else v


def _id_key(s):
    # Swift's String == is Unicode canonical equivalence; NFD-normalising
    # gives the same equality for lookups.
    return unicodedata.normalize("NFD", s)


class Scenario:
    def __init__(self, data):
        self.name = data["name"]
        dev = _opt(data, "device", {})
        self.cores = int(_opt(dev, "cores", 4))
        self.refresh_rate = float(_opt(dev, "refreshRate", 60))
        self.commit_cost = ms_to_us(_opt(dev, "commitCost", 0))
        self.render_time = ms_to_us(_opt(dev, "renderTime", 0))
        # frame interval: (1_000_000 / refreshRate).rounded(), double quotient
        self.frame = round_half_away(1_000_000.0 / self.refresh_rate)

        self.pre_main = [(p["name"], ms_to_us(p["cost"]))
                         for p in _opt(data, "preMain", [])]

        tasks = data["tasks"]
        self.n = len(tasks)
        self.ids = [t["id"] for t in tasks]
        self.cost = [ms_to_us(t["cost"]) for t in tasks]
        self.main_only = [bool(_opt(t, "mainThreadOnly", False)) for t in tasks]
        self.priority = [int(_opt(t, "priority", 0)) for t in tasks]
        self.first_frame = [bool(_opt(t, "firstFrame", False)) for t in tasks]
        index_of = {_id_key(s): i for i, s in enumerate(self.ids)}
        if len(index_of) != self.n:
            raise ValueError("duplicate task id")
        self.deps = []
        for t in tasks:
            ds = [index_of[_id_key(d)] for d in _opt(t, "dependsOn", [])]
            self.deps.append(ds)
        self.dependents = [[] for _ in range(self.n)]
        for i, ds in enumerate(self.deps):
            for d in ds:
                self.dependents[d].append(i)

    def rank(self, i):
        return (self.priority[i], i)


def load_scenario(path):
    with open(path, "rb") as f:
        return Scenario(json.load(f))


# --------------------------------------------------------------------------
# Simulation (MODEL.md sections 3 and 4)
# --------------------------------------------------------------------------

DFL = "didFinishLaunching"
DFL_RANK = (-1, -1)   # always first among items enqueued at the same instant


class Simulation:
    def __init__(self, sc, strategy, max_concurrent=None):
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}")
        self.sc = sc
        self.strategy = strategy
        n = sc.n
        self.nworkers = sc.cores - 1
        self.maxc = self.nworkers
        if strategy == "dag" and max_concurrent is not None:
            if max_concurrent < 1:
                raise ValueError("--max-concurrent must be >= 1")
            self.maxc = min(max_concurrent, self.nworkers)

        # per-task results
        self.ready = [None] * n
        self.start = [None] * n
        self.end = [None] * n
        self.thread = [None] * n
        self.iter_of = [None] * n     # iteration in which a main task ran
        self.main_seq = [None] * n    # execution order of main-thread tasks
        self._main_seq_next = 0

        # main thread
        self.t = 0
        self.main_busy_until = None   # end of the current positive-duration activity
        self.main_activity = None     # ('task', i) or ('commit',)
        self.steps = None             # deque of remaining steps of the running iteration; None = no iteration
        self.iter_index = -1
        self.iter_start = None
        self.commit_start = None
        self.mq = []                  # main queue: sorted list of (enqueue time, rank, item)
        self.blocked_since = None
        self.blocked_total = 0

        # workers
        self.ready_set = []           # heap of (rank, task)
        self.free_workers = list(range(1, self.nworkers + 1))  # heap of worker numbers
        heapq.heapify(self.free_workers)
        self.running = 0              # worker tasks currently running (positive duration)
        self.worker_events = []       # heap of (end time, worker, task)

        # records
        self.commits = []             # (start, end, presented)
        self.iterations = []          # (start, commit end)

        # strategy state
        if strategy == "dag":
            self.remaining_deps = [len(d) for d in sc.deps]
        if strategy == "priority":
            tiers = sorted(set(sc.priority))
            self.tier_of_prio = {p: k for k, p in enumerate(tiers)}
            self.tiers = [[] for _ in tiers]
            for i in range(n):
                self.tiers[self.tier_of_prio[sc.priority[i]]].append(i)   # index order
            self.tier_of = [self.tier_of_prio[sc.priority[i]] for i in range(n)]
            self.tier_left = [len(tk) for tk in self.tiers]
            self.t0_workers_left = sum(1 for i in self.tiers[0] if not sc.main_only[i])

    # ---- queues ----------------------------------------------------------

    def enqueue_main(self, item, rank):
        # FIFO by enqueue time; same instant ordered by rank.
        bisect.insort(self.mq, (self.t, rank, item))

    def make_ready(self, i):
        """Hand task i to its queue at the current instant."""
        sc = self.sc
        assert self.ready[i] is None
        self.ready[i] = self.t
        if sc.main_only[i]:
            self.enqueue_main(i, sc.rank(i))
        else:
            heapq.heappush(self.ready_set, (sc.rank(i), i))

    # ---- effects ---------------------------------------------------------

    def on_task_end(self, i):
        """Effects of task i ending at self.t."""
        sc = self.sc
        if self.strategy == "dag":
            for x in sc.dependents[i]:
                self.remaining_deps[x] -= 1
                if self.remaining_deps[x] == 0:
                    self.make_ready(x)
        elif self.strategy == "priority":
            k = self.tier_of[i]
            self.tier_left[k] -= 1
            if k == 0:
                if not sc.main_only[i]:
                    self.t0_workers_left -= 1
                # T1 opens when didFinishLaunching returns (a main-thread step).
            elif self.tier_left[k] == 0:
                self.open_tier(k + 1)
        # serial: nothing (didFinishLaunching runs everything itself)

    def open_tier(self, k):
        if k >= len(self.tiers):
            return
        for i in self.tiers[k]:          # index order
            self.make_ready(i)           # non-main -> ready set; main -> main queue

    def finish_commit(self):
        start = self.commit_start
        e = self.t
        presented = ceil_div(e + self.sc.render_time, self.sc.frame) * self.sc.frame
        self.commits.append((start, e, presented))
        self.iterations.append((self.iter_start, e))
        self.commit_start = None

    # ---- the main thread -------------------------------------------------

    def begin_main_task(self, i):
        sc = self.sc
        self.start[i] = self.t
        self.thread[i] = "main"
        self.iter_of[i] = self.iter_index
        self.main_seq[i] = self._main_seq_next
        self._main_seq_next += 1
        if sc.cost[i] == 0:
            self.end[i] = self.t
            self.on_task_end(i)
        else:
            self.main_busy_until = self.t + sc.cost[i]
            self.main_activity = ("task", i)

    def expand_item(self, item):
        """The steps one snapshot item consists of."""
        if item != DFL:
            return [("task", item)]
        if self.strategy == "serial":
            return [("dfl_serial",)]
        if self.strategy == "dag":
            return [("dfl_dag",)]
        return [("dfl_priority",)]

    def serial_order(self):
        """Topological order; among tasks whose dependencies are done, best rank first."""
        sc = self.sc
        left = [len(d) for d in sc.deps]
        heap = [(sc.rank(i), i) for i in range(sc.n) if left[i] == 0]
        heapq.heapify(heap)
        order = []
        while heap:
            _, i = heapq.heappop(heap)
            order.append(i)
            for x in sc.dependents[i]:
                left[x] -= 1
                if left[x] == 0:
                    heapq.heappush(heap, (sc.rank(x), x))
        assert len(order) == sc.n, "dependency cycle"
        return order

    def main_advance(self):
        """Step 2a: take main-thread steps until something of positive duration
        starts, the thread is blocked, or it sleeps with an empty queue.
        Returns True if anything changed."""
        sc = self.sc
        changed = False
        while True:
            if self.main_busy_until is not None:
                return changed
            if self.blocked_since is not None:
                if self.t0_workers_left > 0:
                    return changed
                self.blocked_total += self.t - self.blocked_since
                self.blocked_since = None
                changed = True
            if self.steps is None:
                if not self.mq:
                    return changed            # sleeps
                # a new iteration: snapshot the whole queue, empty it
                snapshot = [item for (_, _, item) in self.mq]
                self.mq = []
                self.iter_index += 1
                self.iter_start = self.t
                steps = []
                for item in snapshot:
                    steps.extend(self.expand_item(item))
                steps.append(("commit",))
                self.steps = deque(steps)
                changed = True
                continue
            if not self.steps:
                self.steps = None             # iteration over (its commit has ended)
                changed = True
                continue
            step = self.steps.popleft()
            changed = True
            kind = step[0]
            if kind == "task":
                self.begin_main_task(step[1])
            elif kind == "commit":
                self.commit_start = self.t
                if sc.commit_cost == 0:
                    self.finish_commit()
                else:
                    self.main_busy_until = self.t + sc.commit_cost
                    self.main_activity = ("commit",)
            elif kind == "dfl_serial":
                order = self.serial_order()
                for i in order:
                    self.ready[i] = self.t    # instant didFinishLaunching started
                self.steps.extendleft(reversed([("task", i) for i in order]))
            elif kind == "dfl_dag":
                # adds every task as an operation; those without dependencies are ready now
                for i in range(sc.n):
                    if self.remaining_deps[i] == 0:
                        self.make_ready(i)
            elif kind == "dfl_priority":
                t0 = self.tiers[0]
                # (1) every non-main task of T0 to the ready set
                for i in t0:
                    if not sc.main_only[i]:
                        self.make_ready(i)
                # (2) main tasks of T0, back to back, index order; (3) block; (4) return
                mains = [i for i in t0 if sc.main_only[i]]
                for i in mains:
                    self.ready[i] = self.t    # instant didFinishLaunching started
                self.steps.extendleft(reversed(
                    [("task", i) for i in mains] + [("block",), ("return",)]))
            elif kind == "block":
                if self.t0_workers_left > 0:
                    self.blocked_since = self.t
                    return True
            elif kind == "return":
                self.open_tier(1)
            else:
                raise AssertionError(step)

    def main_activity_ends(self):
        """Step 1 for the main thread's positive-duration activity."""
        act = self.main_activity
        self.main_busy_until = None
        self.main_activity = None
        if act[0] == "task":
            i = act[1]
            self.end[i] = self.t
            self.on_task_end(i)
        else:
            self.finish_commit()

    # ---- workers ---------------------------------------------------------

    def workers_take(self):
        """Step 2b: free workers, lowest index first, take the best ready task
        while one may (ready set non-empty and fewer than maxConcurrent running)."""
        sc = self.sc
        changed = False
        while self.ready_set and self.running < self.maxc:
            w = self.free_workers[0]          # lowest-index free worker
            _, i = heapq.heappop(self.ready_set)
            changed = True
            self.start[i] = self.t
            self.thread[i] = f"worker-{w}"
            if sc.cost[i] == 0:
                self.end[i] = self.t          # completes at once; same worker goes on
                self.on_task_end(i)
            else:
                heapq.heappop(self.free_workers)
                self.running += 1
                heapq.heappush(self.worker_events, (self.t + sc.cost[i], w, i))
        return changed

    # ---- the event loop --------------------------------------------------

    def run(self):
        sc = self.sc
        t = 0
        self.pre_main_out = []
        for name, c in sc.pre_main:
            self.pre_main_out.append((name, t, t + c))
            t += c
        self.t0 = t
        self.t = t
        self.mq = [(t, DFL_RANK, DFL)]

        while True:
            # 2. repeat until neither a. nor b. changes anything
            while True:
                a = self.main_advance()
                b = self.workers_take()
                if not a and not b:
                    break
            # 3. advance t to the next end time
            cands = []
            if self.main_busy_until is not None:
                cands.append(self.main_busy_until)
            if self.worker_events:
                cands.append(self.worker_events[0][0])
            if not cands:
                break
            nt = min(cands)
            assert nt > self.t
            self.t = nt
            # 1. effects of every positive-duration item ending at t
            if self.main_busy_until == nt:
                self.main_activity_ends()
            while self.worker_events and self.worker_events[0][0] == nt:
                _, w, i = heapq.heappop(self.worker_events)
                heapq.heappush(self.free_workers, w)
                self.running -= 1
                self.end[i] = nt
                self.on_task_end(i)

        # everything must have happened
        assert self.steps is None and not self.mq, "main thread did not finish"
        assert self.blocked_since is None
        assert not self.ready_set
        assert all(e is not None for e in self.end), "a task never ran"
        return self

    # ---- metrics and output (MODEL.md sections 5 and 6) -----------------

    def metrics(self):
        sc = self.sc
        n = sc.n
        t0 = self.t0
        commit_time = sum(e - s for (s, e, _) in self.commits)
        last_task_end = max(self.end)
        last_commit_end = max(e for (_, e, _) in self.commits)
        launch = max(last_task_end, last_commit_end)
        main_task_time = sum(sc.cost[i] for i in range(n) if self.thread[i] == "main")
        busy = t0 + main_task_time + commit_time
        total_cost = sum(sc.cost)
        work = t0 + total_cost + commit_time
        cpu = 0 if launch == 0 else work / (sc.cores * launch)

        ff_tasks = [i for i in range(n) if sc.first_frame[i]]
        if ff_tasks:
            last = max(ff_tasks, key=lambda i: self.main_seq[i])
            ff_iter = self.iter_of[last]
        else:
            ff_iter = 0
        ttff = self.commits[ff_iter][2]
        mid = 0
        for k, (s, e) in enumerate(self.iterations):
            if k > ff_iter:
                mid = max(mid, e - s)

        # longest cost-weighted path through dependsOn
        order = self.topo_order()
        lp = [0] * n
        for i in order:
            lp[i] = sc.cost[i] + max((lp[d] for d in sc.deps[i]), default=0)
        longest = max(lp) if n else 0
        main_total = sum(sc.cost[i] for i in range(n) if sc.main_only[i])
        lower = t0 + max(longest, main_total, ceil_div(total_cost, sc.cores))

        violations = []
        for i in range(n):
            for d in sc.deps[i]:
                if self.start[i] < self.end[d]:
                    violations.append((i, d))
        if self.strategy != "priority":
            assert not violations, "serial/dag must respect dependencies"

        return {
            "timeToFirstFrameMs": ttff,
            "launchCompleteMs": launch,
            "mainThreadBusyMs": busy,
            "mainThreadBlockedMs": self.blocked_total,
            "cpuUtilization": cpu,
            "frames": len(self.commits),
            "maxInputDelayMs": mid,
            "criticalPathMs": t0 + longest,
            "lowerBoundMs": lower,
            "violations": violations,
        }

    def topo_order(self):
        sc = self.sc
        left = [len(d) for d in sc.deps]
        q = deque(i for i in range(sc.n) if left[i] == 0)
        order = []
        while q:
            i = q.popleft()
            order.append(i)
            for x in sc.dependents[i]:
                left[x] -= 1
                if left[x] == 0:
                    q.append(x)
        assert len(order) == sc.n, "dependency cycle"
        return order


class Ms:
    """A millisecond value held as integer microseconds (exact JSON output)."""
    __slots__ = ("us",)

    def __init__(self, us):
        self.us = int(us)


def result_object(sim):
    """The section 6 object; ms values wrapped in Ms."""
    sc = sim.sc
    m = sim.metrics()
    metrics = {
        "timeToFirstFrameMs": Ms(m["timeToFirstFrameMs"]),
        "launchCompleteMs": Ms(m["launchCompleteMs"]),
        "mainThreadBusyMs": Ms(m["mainThreadBusyMs"]),
        "mainThreadBlockedMs": Ms(m["mainThreadBlockedMs"]),
        "cpuUtilization": m["cpuUtilization"],
        "frames": m["frames"],
        "maxInputDelayMs": Ms(m["maxInputDelayMs"]),
        "criticalPathMs": Ms(m["criticalPathMs"]),
        "lowerBoundMs": Ms(m["lowerBoundMs"]),
        "dependencyViolations": len(m["violations"]),
    }
    return {
        "scenario": sc.name,
        "strategy": sim.strategy,
        "metrics": metrics,
        "preMain": [{"name": nm, "startMs": Ms(s), "endMs": Ms(e)}
                    for (nm, s, e) in sim.pre_main_out],
        "tasks": [{"id": sc.ids[i], "thread": sim.thread[i], "readyMs": Ms(sim.ready[i]),
                   "startMs": Ms(sim.start[i]), "endMs": Ms(sim.end[i])}
                  for i in range(sc.n)],
        "commits": [{"startMs": Ms(s), "endMs": Ms(e), "presentedMs": Ms(p)}
                    for (s, e, p) in sim.commits],
        "violations": [{"task": sc.ids[i], "dependency": sc.ids[d],
                        "startMs": Ms(sim.start[i]), "dependencyEndMs": Ms(sim.end[d])}
                       for (i, d) in m["violations"]],
    }


def dumps(obj, indent=2, level=0):
    """JSON text with Ms printed as exact decimals."""
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(obj, Ms):
        return us_to_ms_text(obj.us)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        if level >= 2 and not any(isinstance(v, (dict, list)) for v in obj.values()):
            # small leaf objects (tasks, commits, ...) on one line
            return "{ " + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent, level + 1)}"
                                    for k, v in obj.items()) + " }"
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent, level + 1)}"
                 for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(obj, list):
        if not obj:
            return "[]"
        items = [pad + dumps(v, indent, level + 1) for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    if isinstance(obj, bool) or obj is None:
        return json.dumps(obj)
    if isinstance(obj, float):
        if obj == int(obj) and abs(obj) < 2 ** 53:
            return str(int(obj))
        return repr(obj)
    return json.dumps(obj, ensure_ascii=False)


def simulate(scenario, strategy, max_concurrent=None):
    """Run one strategy; returns the section 6 object (ms values as Ms)."""
    sc = scenario if isinstance(scenario, Scenario) else Scenario(scenario)
    sim = Simulation(sc, strategy, max_concurrent).run()
    return result_object(sim)


def main(argv=None):
    ap = argparse.ArgumentParser(description="launchflow reference simulator (MODEL.md v1)")
    ap.add_argument("scenario")
    ap.add_argument("--strategy", required=True, choices=STRATEGIES)
    ap.add_argument("--max-concurrent", type=int, default=None)
    args = ap.parse_args(argv)
    sc = load_scenario(args.scenario)
    out = simulate(sc, args.strategy, args.max_concurrent)
    sys.stdout.write(dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

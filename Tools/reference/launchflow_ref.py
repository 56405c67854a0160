#!/usr/bin/env python3
"""Independent reference implementation of the launchflow model (MODEL.md v2.1,
and docs/model.md v2.2: §3.10 contention, §3.11 the main executor, §3.12 launch
phases).

Usage:
    python3 launchflow_ref.py SCENARIO.json --strategy serial|priority|dag|anchored
                              [--max-concurrent N] [--idle-mode batch|oneByOne]
                              [--model v2.2|v2.1|v2]

Prints the JSON object of MODEL.md section 6 on stdout (v2.2, the default:
with firstDrawMs and phases; --model v2.1: the v2.1 object, without them, for
checking a binary that does not speak v2.2 yet; --model v2: the v2 object,
without the three v2.1 metrics and with v2's lowerBoundMs, for checking a
binary that does not speak v2.1 yet).  An invalid scenario
is rejected as section 1 says: every problem on stderr, one per line, each
starting with "error: ", exit status 2, nothing on stdout.

docs/model.md §3.13 (device.clusters, tasks[].qos) too.

Written from MODEL.md alone, as a plain discrete-event simulation in integer
microseconds.  Clarity over speed.  Defaults and null-as-absent are honoured.
If the event loop ever stops making progress while work remains, a
SimulationStuck error is raised (that would be a hole in MODEL.md: "every run
ends").

Standard library only.
"""

import argparse
import bisect
import difflib
import heapq
import json
import math
import sys
import unicodedata
from collections import deque

STRATEGIES = ("serial", "priority", "dag", "anchored")
IDLE_MODES = ("batch", "oneByOne")
MAX_MS = 3_600_000
MAX_PRIORITY = 1_000_000
METRIC_NAMES = ("timeToFirstFrameMs", "firstFrameReadyMs", "firstDrawMs", "timeToFullDisplayMs",
                "launchCompleteMs", "mainThreadBusyMs",
                "mainThreadBlockedMs", "cpuUtilization", "frames", "maxInputDelayMs",
                "inputLatencyMaxMs", "criticalPathMs", "lowerBoundMs", "firstFrameBoundMs",
                "dependencyViolations")
MODELS = ("v2.2", "v2.1", "v2")
AFTER_VALUES = ("firstFrame",)
MAIN_EXECUTORS = ("dispatch", "operationQueue")     # (§3.11)
MAX_CPUS = 1024                                       # (§3.10, §4: device.cpus 1 … 1024)
DEFAULT_STARTS_IN = "didFinishLaunching"              # (§3.12)
QOS_CLASSES = ("userInteractive", "userInitiated", "default", "utility", "background")   # (§3.13)
QOS_DEFAULT = 2
QOS_BACKGROUND = 4
MAX_CORES = 1024


class SimulationStuck(RuntimeError):
    """The event loop made no progress while work remained (a MODEL.md finding)."""


class ScenarioError(ValueError):
    """An invalid scenario; .problems lists every problem (section 1)."""

    def __init__(self, problems):
        super().__init__("\n".join(problems))
        self.problems = list(problems)


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
# Validation (MODEL.md section 1): every problem, each naming its task or key
# --------------------------------------------------------------------------

TOP_KEYS = ("name", "description", "device", "preMain", "tasks", "idleMode", "inputs",
            "$schema", "budgets", "jitter", "mainExecutor", "strategy", "platform",
            "launchPhases", "startsIn")
DEVICE_KEYS = ("cores", "refreshRate", "commitCost", "renderTime", "cpus", "mainThreadPriority",
               "clusters", "preset")

# (docs/scenarios.md, "Phones with performance and efficiency cores") the
# presets: clusters [(name, count, speed)] and refresh rate, filled in where
# the device gives none; cores then default from the clusters as always.
PRESETS = {
    "iphone-16": ([("P", 2, 1), ("E", 4, 0.5)], 60),
    "iphone-16-pro": ([("P", 2, 1), ("E", 4, 0.5)], 120),
    "iphone-17-pro": ([("P", 2, 1), ("E", 4, 0.5)], 120),
    "pixel-6": ([("X1", 2, 1), ("A76", 2, 0.486), ("A55", 4, 0.157)], 90),
    "android-entry": ([("A73", 4, 1), ("A53", 4, 0.563)], 60),
}


def expand_preset(data):
    """A copy of the scenario with device.preset's clusters and refresh rate
    filled in where the device gives none (the key itself dropped); the
    scenario itself when it names no preset, or a bad one (validate says why)."""
    dev = data.get("device") if isinstance(data, dict) else None
    if not isinstance(dev, dict) or dev.get("preset") is None:
        return data
    preset = PRESETS.get(dev["preset"]) if isinstance(dev["preset"], str) else None
    if preset is None:
        return data
    dev = dict(dev)
    del dev["preset"]
    clusters, rate = preset
    if dev.get("clusters") is None:
        dev["clusters"] = [{"name": n, "count": c, "speed": v} for (n, c, v) in clusters]
    if dev.get("refreshRate") is None:
        dev["refreshRate"] = rate
    out = dict(data)
    out["device"] = dev
    return out
CLUSTER_KEYS = ("name", "count", "speed")
PHASE_KEYS = ("name", "cost")
INPUT_KEYS = ("name", "at", "cost")
TASK_KEYS = ("id", "cost", "mainThreadOnly", "priority", "dependsOn", "firstFrame",
             "latency", "delay", "queue", "idle", "anchor", "group", "costP90", "latencyP90",
             "after", "fullyDrawn", "before", "qos")
BEFORE_VALUES = ("firstFrame", "launch")   # advice only: the simulation ignores it


def _id_key(s):
    # Swift's String == is Unicode canonical equivalence; NFD-normalising
    # gives the same equality for lookups.
    return unicodedata.normalize("NFD", s)


def _did_you_mean(word, choices):
    m = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {m[0]!r}?)" if m else ""


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _finite(v):
    try:
        return math.isfinite(float(v))
    except OverflowError:          # an integer literal beyond the double range
        return False


def _type_name(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    return "an object"


def validate(data):
    """Returns the list of problems of a parsed scenario (empty when valid)."""
    P = []

    def unknown(obj, allowed, where):
        for k in obj:
            if k not in allowed:
                P.append(f"{where}: unknown key {k!r}{_did_you_mean(k, allowed)}")

    def present(obj, key):
        return isinstance(obj, dict) and obj.get(key) is not None

    def need(obj, key, where):
        if not present(obj, key):
            P.append(f"{where}: missing key {key!r}")
            return False
        return True

    def number(v, where, lo=None, lo_open=False, hi=None, integer=False, what="number"):
        if not _is_num(v):
            P.append(f"{where}: expected a {what}, got {_type_name(v)}")
            return False
        if not _finite(v):
            P.append(f"{where}: {v!r} is beyond the double range")
            return False
        if integer and float(v) != math.floor(float(v)):
            P.append(f"{where}: {v!r} is not an integer")
            return False
        fv = float(v)
        if lo is not None and (fv <= lo if lo_open else fv < lo):
            P.append(f"{where}: {v!r} is out of range (must be {'>' if lo_open else '≥'} {lo}"
                     + (f" and ≤ {hi})" if hi is not None else ")"))
            return False
        if hi is not None and fv > hi:
            P.append(f"{where}: {v!r} is out of range (must be ≤ {hi})")
            return False
        return True

    def ms(v, where):
        if not _is_num(v):
            P.append(f"{where}: expected a number of milliseconds, got {_type_name(v)}")
            return False
        if not _finite(v):
            P.append(f"{where}: {v!r} is beyond the double range")
            return False
        if float(v) < 0:
            P.append(f"{where}: negative milliseconds {v!r}")
            return False
        if float(v) > MAX_MS:
            P.append(f"{where}: {v!r} ms is more than {MAX_MS} (an hour)")
            return False
        return True

    def boolean(obj, key, where):
        if present(obj, key) and not isinstance(obj[key], bool):
            P.append(f"{where}.{key}: expected a boolean, got {_type_name(obj[key])}")

    def string(obj, key, where, nonempty=False):
        if not present(obj, key):
            return
        v = obj[key]
        if not isinstance(v, str):
            P.append(f"{where}.{key}: expected a string, got {_type_name(v)}")
        elif nonempty and v == "":
            P.append(f"{where}.{key}: must not be empty")

    if not isinstance(data, dict):
        return [f"the scenario must be a JSON object, got {_type_name(data)}"]
    unknown(data, TOP_KEYS, "scenario")
    if need(data, "name", "scenario"):
        string(data, "name", "scenario")
    string(data, "description", "scenario")
    string(data, "$schema", "scenario")

    dev = data.get("device")
    if dev is not None:
        if not isinstance(dev, dict):
            P.append(f"device: expected an object, got {_type_name(dev)}")
        else:
            unknown(dev, DEVICE_KEYS, "device")
            if present(dev, "preset") and dev["preset"] not in PRESETS:
                P.append(f"device.preset: must be one of {', '.join(PRESETS)}, found {dev['preset']!r}")
            elif present(dev, "preset"):
                dev = expand_preset(data)["device"]
            if present(dev, "cores"):
                number(dev["cores"], "device.cores", lo=2, hi=1024, integer=True, what="integer")
            if present(dev, "refreshRate"):
                number(dev["refreshRate"], "device.refreshRate", lo=0, lo_open=True, hi=1000)
            for k in ("commitCost", "renderTime"):
                if present(dev, k):
                    ms(dev[k], f"device.{k}")
            if present(dev, "cpus"):                              # (§3.10)
                number(dev["cpus"], "device.cpus", lo=1, hi=MAX_CPUS, integer=True, what="integer")
            boolean(dev, "mainThreadPriority", "device")
            if present(dev, "clusters"):                          # (§3.13)
                P += _cluster_problems(dev, number)

    pm = data.get("preMain")
    if pm is not None:
        if not isinstance(pm, list):
            P.append(f"preMain: expected an array, got {_type_name(pm)}")
        else:
            for j, ph in enumerate(pm):
                w = f"preMain[{j}]"
                if not isinstance(ph, dict):
                    P.append(f"{w}: expected an object, got {_type_name(ph)}")
                    continue
                unknown(ph, PHASE_KEYS, w)
                if need(ph, "name", w):
                    string(ph, "name", w)
                if need(ph, "cost", w):
                    ms(ph["cost"], f"{w}.cost")

    # (§3.12, §9 "Launch phases") launchPhases: at least one {name, cost}, names
    # non-empty and unique (compared as ids are); startsIn: a phase's name (compared
    # the same way), only with launchPhases; phases without one named
    # didFinishLaunching need a startsIn
    lp = data.get("launchPhases")
    phase_keys = None                  # NFD names of the well-formed phases
    if lp is not None:
        if not isinstance(lp, list):
            P.append(f"launchPhases: expected an array, got {_type_name(lp)}")
        elif not lp:
            P.append("launchPhases: must hold at least one phase, found []")
        else:
            phase_keys = {}
            for j, ph in enumerate(lp):
                w = f"launchPhases[{j}]"
                if not isinstance(ph, dict):
                    P.append(f"{w}: expected an object, got {_type_name(ph)}")
                    continue
                unknown(ph, PHASE_KEYS, w)
                if need(ph, "name", w):
                    v = ph["name"]
                    if not isinstance(v, str):
                        P.append(f"{w}.name: expected a string, got {_type_name(v)}")
                    elif v == "":
                        P.append(f"{w}.name: empty phase name")
                    else:
                        k = _id_key(v)
                        if k in phase_keys:
                            P.append(f"{w}.name: duplicate phase name {v!r} "
                                     f"(also launchPhases[{phase_keys[k]}])")
                        else:
                            phase_keys[k] = j
                if need(ph, "cost", w):
                    ms(ph["cost"], f"{w}.cost")
    si = data.get("startsIn")
    if si is not None:
        if not isinstance(si, str):
            P.append(f"startsIn: expected a string, got {_type_name(si)}")
        elif lp is None:
            P.append(f"startsIn: {si!r} without launchPhases (startsIn names a launch phase)")
        elif phase_keys is not None and _id_key(si) not in phase_keys:
            names = [ph["name"] for ph in lp if isinstance(ph, dict) and isinstance(ph.get("name"), str)]
            P.append(f"startsIn: {si!r} names no phase of launchPhases{_did_you_mean(si, names)}")
    elif phase_keys is not None and _id_key(DEFAULT_STARTS_IN) not in phase_keys:
        P.append(f"launchPhases: no phase is named {DEFAULT_STARTS_IN!r}: give startsIn, "
                 f"the phase in which didFinishLaunching runs")

    im = data.get("idleMode")
    if im is not None:
        if not isinstance(im, str):
            P.append(f"idleMode: expected a string, got {_type_name(im)}")
        elif im not in IDLE_MODES:
            P.append(f"idleMode: {im!r} is neither \"batch\" nor \"oneByOne\""
                     f"{_did_you_mean(im, IDLE_MODES)}")

    mx = data.get("mainExecutor")                                  # (§3.11)
    if mx is not None:
        if not isinstance(mx, str):
            P.append(f"mainExecutor: expected a string, got {_type_name(mx)}")
        elif mx not in MAIN_EXECUTORS:
            P.append(f"mainExecutor: {mx!r} is neither \"dispatch\" nor \"operationQueue\""
                     f"{_did_you_mean(mx, MAIN_EXECUTORS)}")

    st = data.get("strategy")             # the app's strategy: metadata, no schedule changes
    if st is not None:
        if not isinstance(st, str):
            P.append(f"strategy: expected a string, got {_type_name(st)}")
        elif st not in STRATEGIES:
            P.append(f"strategy: {st!r} is not one of {', '.join(STRATEGIES)}"
                     f"{_did_you_mean(st, STRATEGIES)}")

    pf = data.get("platform")             # the words advice uses: metadata, no schedule changes
    if pf is not None:
        if not isinstance(pf, str):
            P.append(f"platform: expected a string, got {_type_name(pf)}")
        elif pf not in ("ios", "android"):
            P.append(f"platform: {pf!r} is neither \"ios\" nor \"android\""
                     f"{_did_you_mean(pf, ('ios', 'android'))}")

    inputs = data.get("inputs")
    if inputs is not None:
        if not isinstance(inputs, list):
            P.append(f"inputs: expected an array, got {_type_name(inputs)}")
        else:
            for j, inp in enumerate(inputs):
                w = f"inputs[{j}]"
                if not isinstance(inp, dict):
                    P.append(f"{w}: expected an object, got {_type_name(inp)}")
                    continue
                unknown(inp, INPUT_KEYS, w)
                string(inp, "name", w, nonempty=True)
                for k in ("at", "cost"):
                    if need(inp, k, w):
                        ms(inp[k], f"{w}.{k}")

    bud = data.get("budgets")
    if bud is not None:
        if not isinstance(bud, dict):
            P.append(f"budgets: expected an object, got {_type_name(bud)}")
        else:
            unknown(bud, METRIC_NAMES, "budgets")
            for k, v in bud.items():
                if v is not None:
                    number(v, f"budgets.{k}", lo=0)
    if present(data, "jitter"):
        number(data["jitter"], "jitter", lo=0)

    tasks = data.get("tasks")
    if tasks is None:
        P.append("scenario: missing key 'tasks'")
        return P
    if not isinstance(tasks, list):
        P.append(f"tasks: expected an array, got {_type_name(tasks)}")
        return P
    if not tasks:
        P.append("tasks: no tasks")
        return P

    ids = {}                       # NFD id -> index of its first task
    labels = []
    for i, t in enumerate(tasks):
        w = f"tasks[{i}]"
        labels.append(w)
        if not isinstance(t, dict):
            P.append(f"{w}: expected an object, got {_type_name(t)}")
            continue
        if need(t, "id", w):
            v = t["id"]
            if not isinstance(v, str):
                P.append(f"{w}.id: expected a string, got {_type_name(v)}")
            elif v == "":
                P.append(f"{w}.id: empty id")
            else:
                w = f"task {v!r}"
                labels[i] = w
                k = _id_key(v)
                if k in ids:
                    P.append(f"{w}: duplicate id (also tasks[{ids[k]}])")
                else:
                    ids[k] = i
        unknown(t, TASK_KEYS, w)
        cost_ok = need(t, "cost", w) and ms(t["cost"], f"{w}.cost")
        for b in ("mainThreadOnly", "firstFrame", "idle", "anchor", "fullyDrawn"):
            boolean(t, b, w)
        if present(t, "after"):                                   # (v2.1)
            v = t["after"]
            if not isinstance(v, str):
                P.append(f"{w}.after: expected a string, got {_type_name(v)}")
            elif v not in AFTER_VALUES:
                P.append(f"{w}.after: {v!r} is not \"firstFrame\" (the only value)"
                         f"{_did_you_mean(v, AFTER_VALUES)}")
        if present(t, "before"):                                  # advice only
            v = t["before"]
            if not isinstance(v, str):
                P.append(f"{w}.before: expected a string, got {_type_name(v)}")
            elif v not in BEFORE_VALUES:
                P.append(f"{w}.before: {v!r} is not \"firstFrame\" or \"launch\""
                         f"{_did_you_mean(v, BEFORE_VALUES)}")
        if present(t, "priority"):
            number(t["priority"], f"{w}.priority", lo=0, hi=MAX_PRIORITY, integer=True,
                   what="integer")
        if present(t, "qos"):                                     # (§3.13)
            v = t["qos"]
            if not isinstance(v, str):
                P.append(f"{w}.qos: expected a string, got {_type_name(v)}")
            elif v not in QOS_CLASSES:
                P.append(f"{w}.qos: {v!r} is not one of {', '.join(QOS_CLASSES)}"
                         f"{_did_you_mean(v, QOS_CLASSES)}")
        lat_ok = True
        for k in ("latency", "delay"):
            if present(t, k):
                ok = ms(t[k], f"{w}.{k}")
                if k == "latency":
                    lat_ok = ok
        string(t, "queue", w, nonempty=True)
        string(t, "group", w, nonempty=True)
        if present(t, "costP90") and ms(t["costP90"], f"{w}.costP90") and cost_ok:
            if float(t["costP90"]) < float(t["cost"]):
                P.append(f"{w}.costP90: {t['costP90']!r} is less than cost {t['cost']!r}")
        if present(t, "latencyP90") and ms(t["latencyP90"], f"{w}.latencyP90") and lat_ok:
            lat = t.get("latency") if present(t, "latency") else 0
            if float(t["latencyP90"]) < float(lat):
                P.append(f"{w}.latencyP90: {t['latencyP90']!r} is less than latency {lat!r}")
        mto = t.get("mainThreadOnly") is True
        if t.get("firstFrame") is True and not mto:
            P.append(f"{w}: a firstFrame task must be mainThreadOnly")
        if t.get("idle") is True and not mto:
            P.append(f"{w}: an idle task must be mainThreadOnly")
        if t.get("fullyDrawn") is True and not mto:
            P.append(f"{w}: a fullyDrawn task must be mainThreadOnly")

    # dependencies
    deps = [[] for _ in tasks]
    id_list = [t.get("id") for t in tasks if isinstance(t, dict) and isinstance(t.get("id"), str)]
    for i, t in enumerate(tasks):
        if not isinstance(t, dict) or not present(t, "dependsOn"):
            continue
        w = labels[i]
        ds = t["dependsOn"]
        if not isinstance(ds, list):
            P.append(f"{w}.dependsOn: expected an array, got {_type_name(ds)}")
            continue
        seen = set()
        for d in ds:
            if not isinstance(d, str):
                P.append(f"{w}.dependsOn: expected a task id, got {_type_name(d)}")
                continue
            k = _id_key(d)
            if k in seen:
                P.append(f"{w}.dependsOn: {d!r} is listed twice")
                continue
            seen.add(k)
            if isinstance(t.get("id"), str) and k == _id_key(t["id"]):
                P.append(f"{w}.dependsOn: depends on itself")
                continue
            if k not in ids:
                P.append(f"{w}.dependsOn: unknown task id {d!r}{_did_you_mean(d, id_list)}")
                continue
            deps[i].append(ids[k])
    for cyc in _cycles(deps):
        names = [tasks[j]["id"] for j in cyc] + [tasks[cyc[0]]["id"]]
        P.append("dependency cycle: " + " → ".join(names))
    P += _after_waited_for(tasks, deps, labels)
    return P


def speed_thousandths(v):
    """(§3.13) A speed as whole thousandths, round(speed x 1000), or None when it has
    more than 3 decimals (|speed x 1000 - round(speed x 1000)| > 1e-6)."""
    x = float(v) * 1000.0
    r = round_half_away(x)
    return r if abs(x - r) <= 1e-6 else None


def _cluster_problems(dev, number):
    """(§3.13, §9 "Clusters and QoS") device.clusters: at least one {name, count,
    speed}; names non-empty and unique (compared as ids are); count an integer >= 1;
    speed in (0, 1] with at most 3 decimals; one cluster at speed 1; not with cpus.
    Without cores, cores = max(2, the total count), which must be a valid cores."""
    P = []
    cl = dev["clusters"]
    if not isinstance(cl, list):
        return [f"device.clusters: expected an array, got {_type_name(cl)}"]
    if not cl:
        return ["device.clusters: must hold at least one cluster, found []"]
    seen = {}
    total = 0
    counts_ok = True
    fastest = False
    for j, c in enumerate(cl):
        w = f"device.clusters[{j}]"
        if not isinstance(c, dict):
            P.append(f"{w}: expected an object, got {_type_name(c)}")
            counts_ok = False
            continue
        for k in c:
            if k not in CLUSTER_KEYS:
                P.append(f"{w}: unknown key {k!r}{_did_you_mean(k, CLUSTER_KEYS)}")
        v = c.get("name")
        if v is None:
            P.append(f"{w}: missing key 'name'")
        elif not isinstance(v, str):
            P.append(f"{w}.name: expected a string, got {_type_name(v)}")
        elif v == "":
            P.append(f"{w}.name: empty cluster name")
        elif _id_key(v) in seen:
            P.append(f"{w}.name: duplicate cluster name {v!r} (also device.clusters[{seen[_id_key(v)]}])")
        else:
            seen[_id_key(v)] = j
        v = c.get("count")
        if v is None:
            P.append(f"{w}: missing key 'count'")
            counts_ok = False
        elif number(v, f"{w}.count", lo=1, integer=True, what="integer"):
            total += int(float(v))
        else:
            counts_ok = False
        v = c.get("speed")
        if v is None:
            P.append(f"{w}: missing key 'speed'")
        elif number(v, f"{w}.speed", lo=0, lo_open=True, hi=1):
            th = speed_thousandths(v)
            if th is None:
                P.append(f"{w}.speed: {v!r} has more than 3 decimals")
            elif th == 0:
                P.append(f"{w}.speed: {v!r} is 0 thousandths: a speed is a whole number of "
                         f"thousandths, at least 0.001")
            elif th == 1000:
                fastest = True
    if not fastest:
        P.append("device.clusters: no cluster at speed 1 (a task's cost is its time on a core of speed 1)")
    if dev.get("cpus") is not None:
        P.append("device.clusters: not together with device.cpus (the clusters are the CPUs)")
    if counts_ok and dev.get("cores") is None and total > MAX_CORES:
        P.append(f"device.clusters: {total} cores in all, so cores (without device.cores) would be "
                 f"{total}, more than {MAX_CORES}; give device.cores")
    return P


def _after_waited_for(tasks, deps, labels):
    """(v2.1) One problem per task with after "firstFrame" that the first frame
    waits for: a firstFrame task or an anchor, or a task one of them depends on
    (directly or not), with one dependsOn path to it from such a task.  The path
    is a shortest one, found breadth-first from the firstFrame and anchor tasks
    in index order (MODEL.md leaves the choice of path to the implementation)."""
    def flag(i, key):
        return isinstance(tasks[i], dict) and tasks[i].get(key) is True

    def name(i):
        v = tasks[i].get("id") if isinstance(tasks[i], dict) else None
        return v if isinstance(v, str) and v else labels[i]

    n = len(tasks)
    parent = [None] * n              # BFS tree: parent[x] depends on x (x reached from it)
    root = [None] * n
    queue = deque()
    for i in range(n):
        if flag(i, "firstFrame") or flag(i, "anchor") or (
                isinstance(tasks[i], dict) and tasks[i].get("before") in BEFORE_VALUES):
            root[i] = i
            queue.append(i)
    while queue:
        v = queue.popleft()
        for d in deps[v]:
            if root[d] is None:
                root[d] = root[v]
                parent[d] = v
                queue.append(d)
    out = []
    for i in range(n):
        if root[i] is None or not isinstance(tasks[i], dict) or tasks[i].get("after") != "firstFrame":
            continue
        path = [i]
        while parent[path[-1]] is not None:
            path.append(parent[path[-1]])
        path.reverse()
        r = path[0]
        what = ("a firstFrame task" if flag(r, "firstFrame") else "an anchor" if flag(r, "anchor")
                else f"pinned before {tasks[r]['before']!r}")
        out.append(f"{labels[i]}: has after \"firstFrame\", but the first frame waits for it: "
                   + " → ".join(name(j) for j in path) + f" ({name(r)!r} is {what})")
    return out


def _cycles(deps):
    """One cycle (as a list of indices, in dependsOn direction) per strongly
    connected component with more than one task (Tarjan, iterative)."""
    n = len(deps)
    index = [None] * n
    low = [0] * n
    on = [False] * n
    stack, comps, counter = [], [], 0
    for s in range(n):
        if index[s] is not None:
            continue
        work = [(s, 0)]
        index[s] = low[s] = counter
        counter += 1
        stack.append(s)
        on[s] = True
        while work:
            v, pi = work[-1]
            if pi < len(deps[v]):
                work[-1] = (v, pi + 1)
                x = deps[v][pi]
                if index[x] is None:
                    index[x] = low[x] = counter
                    counter += 1
                    stack.append(x)
                    on[x] = True
                    work.append((x, 0))
                elif on[x]:
                    low[v] = min(low[v], index[x])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on[x] = False
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        comps.append(comp)
    out = []
    for comp in sorted(comps, key=min):
        members = set(comp)
        start = min(comp)
        path, pos, v = [start], {start: 0}, start
        while True:                           # walk inside the component until a repeat
            v = next(x for x in deps[v] if x in members)
            if v in pos:
                out.append(path[pos[v]:])
                break
            pos[v] = len(path)
            path.append(v)
    return out


def parse_json(text):
    """json.loads that rejects NaN/Infinity; raises ScenarioError with line and column."""
    def bad_constant(name):
        raise ValueError(f"{name} is not valid JSON")
    try:
        return json.loads(text, parse_constant=bad_constant)
    except json.JSONDecodeError as e:
        raise ScenarioError([f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}"])
    except ValueError as e:
        raise ScenarioError([f"invalid JSON: {e}"])


# --------------------------------------------------------------------------
# Scenario loading
# --------------------------------------------------------------------------

def _opt(obj, key, default):
    """Optional key: absent or null -> default."""
    if obj is None:
        return default
    v = obj.get(key)
    return default if v is None else v


class Scenario:
    """A validated scenario, every time in integer µs."""

    def __init__(self, data, check=True):
        if check:
            problems = validate(data)
            if problems:
                raise ScenarioError(problems)
        data = expand_preset(data)
        self.name = data["name"]
        dev = _opt(data, "device", {})
        # (§3.13) the CPUs as clusters: (name, count, speed in thousandths); without
        # cores, cores = max(2, the total count)
        cl = _opt(dev, "clusters", None)
        self.clusters = None if cl is None else [
            (c["name"], int(float(c["count"])), speed_thousandths(c["speed"])) for c in cl]
        default_cores = 4 if cl is None else max(2, sum(c for (_, c, _) in self.clusters))
        self.cores = int(_opt(dev, "cores", default_cores))
        self.refresh_rate = float(_opt(dev, "refreshRate", 60))
        self.commit_cost = ms_to_us(_opt(dev, "commitCost", 0))
        self.render_time = ms_to_us(_opt(dev, "renderTime", 0))
        # (§3.10) the CPUs the threads share (None: a CPU per thread) and the main
        # thread's priority over the workers
        cpus = _opt(dev, "cpus", None)
        self.cpus = None if cpus is None else int(cpus)
        self.main_thread_priority = bool(_opt(dev, "mainThreadPriority", False))
        # (§3.11) how main-thread tasks reach the main thread under dag and anchored
        self.main_executor = _opt(data, "mainExecutor", "dispatch")
        # frame interval: (1_000_000 / refreshRate).rounded(), double quotient
        self.frame = round_half_away(1_000_000.0 / self.refresh_rate)

        self.pre_main = [(p["name"], ms_to_us(p["cost"]))
                         for p in _opt(data, "preMain", [])]
        self.t0 = sum(c for (_, c) in self.pre_main)
        # (§3.12) the launch phases of iteration 0 ([]: none, one dFL item as before),
        # the index of the startsIn phase, t1 (dFL's start) and A (the total cost of
        # the phases after the startsIn phase)
        self.launch_phases = [(p["name"], ms_to_us(p["cost"]))
                              for p in _opt(data, "launchPhases", [])]
        if self.launch_phases:
            keys = [_id_key(nm) for (nm, _) in self.launch_phases]
            self.starts_in = keys.index(_id_key(_opt(data, "startsIn", DEFAULT_STARTS_IN)))
            self.t1 = self.t0 + sum(c for (_, c) in self.launch_phases[:self.starts_in + 1])
            self.after_phases_cost = sum(c for (_, c) in self.launch_phases[self.starts_in + 1:])
        else:
            self.starts_in = None
            self.t1 = self.t0
            self.after_phases_cost = 0
        self.idle_mode = _opt(data, "idleMode", "batch")
        self.inputs = []                       # (name, at µs, cost µs), scenario order
        for k, inp in enumerate(_opt(data, "inputs", [])):
            self.inputs.append((_opt(inp, "name", f"input-{k + 1}"),
                                ms_to_us(inp["at"]), ms_to_us(inp["cost"])))

        tasks = data["tasks"]
        self.n = len(tasks)
        self.ids = [t["id"] for t in tasks]
        self.cost = [ms_to_us(t["cost"]) for t in tasks]
        self.main_only = [bool(_opt(t, "mainThreadOnly", False)) for t in tasks]
        self.priority = [int(_opt(t, "priority", 0)) for t in tasks]
        self.first_frame = [bool(_opt(t, "firstFrame", False)) for t in tasks]
        self.latency = [ms_to_us(_opt(t, "latency", 0)) for t in tasks]
        self.delay = [ms_to_us(_opt(t, "delay", 0)) for t in tasks]
        self.idle = [bool(_opt(t, "idle", False)) for t in tasks]
        self.anchor = [bool(_opt(t, "anchor", False)) for t in tasks]
        self.after = [_opt(t, "after", None) == "firstFrame" for t in tasks]        # (v2.1)
        self.fully_drawn = [bool(_opt(t, "fullyDrawn", False)) for t in tasks]    # (v2.1)
        self.qos = [QOS_CLASSES.index(_opt(t, "qos", "default")) for t in tasks]  # (§3.13)
        self.group = [_opt(t, "group", None) for t in tasks]
        # queues: names compared as Swift compares strings -> small integers
        qnum = {}
        self.queue = []
        self.queue_names = []
        for t in tasks:
            q = _opt(t, "queue", None)
            if q is None:
                self.queue.append(None)
                continue
            k = _id_key(q)
            if k not in qnum:
                qnum[k] = len(self.queue_names)
                self.queue_names.append(q)
            self.queue.append(qnum[k])
        index_of = {_id_key(s): i for i, s in enumerate(self.ids)}
        if len(index_of) != self.n:
            raise ValueError("duplicate task id")
        self.deps = [[index_of[_id_key(d)] for d in _opt(t, "dependsOn", [])] for t in tasks]
        self.dependents = [[] for _ in range(self.n)]
        for i, ds in enumerate(self.deps):
            for d in ds:
                self.dependents[d].append(i)

    def has_idle_tasks(self):
        return any(self.idle)

    def uses_v21(self):
        """Does the scenario use a v2.1 task key (after, fullyDrawn)?"""
        return any(self.after) or any(self.fully_drawn)

    def contended(self):
        """(§3.10) Can threads share CPUs?  Only with cpus < cores: there are cores
        threads (main + cores - 1 workers), so with cpus >= cores every rate is 1
        (with mainThreadPriority too: the workers then share cpus - 1 >= cores - 1)."""
        return self.cpus is not None and self.cpus < self.cores

    def cpu_count(self):
        """min(cores, cpus), cpus absent counting as cores (§3.10, §7)."""
        return self.cores if self.cpus is None else min(self.cores, self.cpus)

    def capacity(self):
        """The work all threads can do per µs at most, as a fraction (num, den):
        min(cores, cpus) (§3.10, §7); with clusters K = min(cores, sum of count x
        speed) in thousandths (§3.13)."""
        if self.clusters is not None:
            return min(self.cores * 1000, sum(c * sp for (_, c, sp) in self.clusters)), 1000
        return self.cpu_count(), 1

    def rated(self):
        """Do the items run at rates (§3.10 contention, or §3.13 clusters)?"""
        return self.contended() or self.clusters is not None

    def uses_new_keys(self):
        """Does the scenario use cpus / mainThreadPriority / mainExecutor (§3.10-3.11)
        in a way that can change a schedule?"""
        return self.contended() or self.main_executor != "dispatch"

    def uses_v22(self):
        """Does the scenario use a key of §3.12-3.13 (launchPhases, clusters)?"""
        return bool(self.launch_phases) or self.clusters is not None


def load_scenario(path):
    """Reads, parses and validates a scenario file (ScenarioError if invalid)."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError([f"invalid JSON: not UTF-8 ({e})"])
    return Scenario(parse_json(text))


# --------------------------------------------------------------------------
# Simulation (MODEL.md sections 3 and 4)
# --------------------------------------------------------------------------

DFL = -1            # didFinishLaunching as a main-queue item
DFL_RANK = (-1,)    # sorts before every task rank: always first at its instant


class Simulation:
    def __init__(self, sc, strategy, max_concurrent=None, idle_mode=None):
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}")
        if idle_mode is not None and idle_mode not in IDLE_MODES:
            raise ValueError(f"unknown idle mode {idle_mode!r}")
        if max_concurrent is not None and max_concurrent < 1:
            raise ValueError("--max-concurrent must be >= 1")
        self.sc = sc
        self.strategy = strategy
        self.idle_mode = idle_mode or sc.idle_mode
        n = sc.n
        self.dagish = strategy in ("dag", "anchored")
        self.nworkers = sc.cores - 1
        # --max-concurrent applies to dag and anchored only; it counts worker
        # tasks in flight (started and not yet done), so it is not clamped to
        # the number of workers (a task in its latency holds a slot, not a worker).
        self.limit = max_concurrent if self.dagish else None

        # the anchor closure (section 4, dag); c = 0 inside, 1 outside
        self.in_closure = [False] * n
        if self.dagish:
            anchors = [i for i in range(n)
                       if sc.anchor[i] or (strategy == "anchored" and sc.first_frame[i])]
            for i in anchors:
                self.in_closure[i] = True
            stack = list(anchors)
            while stack:
                i = stack.pop()
                for d in sc.deps[i]:
                    if not self.in_closure[d]:
                        self.in_closure[d] = True
                        stack.append(d)
            queues = {sc.queue[i] for i in range(n) if self.in_closure[i] and sc.queue[i] is not None}
            for i in range(n):       # one round, as the page says; their dependencies are not added
                if (sc.main_only[i] and sc.queue[i] is not None and sc.queue[i] in queues
                        and not sc.after[i]):        # (v2.1) the closure never holds an after task
                    self.in_closure[i] = True
            assert not any(self.in_closure[i] and sc.after[i] for i in range(n)), \
                "an after task in the closure (validation lets none through)"
        self.closure_nonempty = any(self.in_closure)
        if self.dagish:
            self.rank = [(0 if self.in_closure[i] else 1, sc.priority[i], i) for i in range(n)]
        else:
            self.rank = [(sc.priority[i], i) for i in range(n)]
        # an idle task of the closure is treated as not idle; serial runs idle tasks itself
        self.eff_idle = [sc.idle[i] and strategy != "serial" and not self.in_closure[i]
                         for i in range(n)]

        # (§3.11) mainExecutor "operationQueue" (dag and anchored only): a main-thread
        # task neither idle nor in the anchor closure is handed over to the main
        # operation queue, a serial queue (busy from the admission of one of its tasks
        # until that task is done) that enqueues the task it admits on the main queue
        self.op_mode = self.dagish and sc.main_executor == "operationQueue"
        self.in_op = [self.op_mode and sc.main_only[i] and not sc.idle[i] and not self.in_closure[i]
                      for i in range(n)]
        self.op_holder = None         # the task keeping the main operation queue busy
        self.op_waiting = []          # heap of (rank, task): handed over, not yet admitted
        self.op_admitted = [None] * n  # when the main operation queue admitted the task
        self.mq_at = [None] * n       # when a task was enqueued on the main queue

        # (§3.10) CPU contention, only with cpus < cores (otherwise every rate is 1 and
        # the plain event loop below is used, unchanged); (§3.13) with clusters, the
        # items always run at the rates of the cores they are given
        self.contended = sc.rated()
        self.main_left = None         # remaining work (µs) of the main thread's running item
        self.running = {}             # contended: worker -> [task, remaining work µs]

        # (v2.1) after "firstFrame": held until the first-frame commit is presented (P)
        self.hold_after = strategy != "serial" and any(sc.after)   # serial ignores after
        self.n_ff = sum(sc.first_frame)
        self.ff_ended = 0             # firstFrame tasks that have run (ended)
        self.ff_commit = None         # index in self.commits of the first-frame commit
        self.P = None                 # its presentation time, once it has ended
        self.held_after = []          # after tasks ready before P, waiting for it
        self.present_now = False      # P == the end of a zero-duration commit in step 2

        # per-task results
        self.ready = [None] * n       # readyMs: the hand-over instant (section 6)
        self.start = [None] * n
        self.end = [None] * n
        self.done = [None] * n
        self.thread = [None] * n
        self.iter_of = [None] * n     # iteration in which a main-thread task ran
        self.main_seq = [None] * n    # order in which main-thread tasks started
        self._seq = 0
        self.admitted = [False] * n
        self.inline_wait = [False] * n   # priority: inline T0 task with a queue, not handed over

        # (§3.12) launch phases: when each started, when its own cost had run (for
        # mainThreadBusyMs) and when it ended (the startsIn phase: when dFL returned)
        nph = len(sc.launch_phases)
        self.phase_start = [None] * nph
        self.phase_cost_end = [None] * nph
        self.phase_end = [None] * nph
        self.t1 = None                # the instant dFL started

        # main thread
        self.t = 0
        self.busy_until = None        # end of the current positive-duration activity
        self.activity = None          # ('task', i) | ('input', k) | ('commit',) | ('phase', j)
        self.steps = None             # deque: remaining steps of the running iteration
        self.iter_index = -1
        self.iter_start = None
        self.iter_ran_work = False    # ran didFinishLaunching or a task
        self.commit_start = None
        self.mq = []                  # main queue: sorted (enqueue time, rank, task)
        self.mq_closure = 0           # closure tasks in the main queue
        self.idle_q = []              # idle queue: sorted (enqueue time, rank, task)
        self.blocked_since = None
        self.blocked_total = 0

        # inputs
        m = len(sc.inputs)
        self.pending = []             # sorted (at, position)
        self.in_start = [None] * m
        self.in_end = [None] * m

        # workers
        self.ready_set = []           # heap of (rank, task)
        self.free_workers = list(range(1, self.nworkers + 1))
        heapq.heapify(self.free_workers)
        self.in_flight = 0            # worker tasks started and not yet done

        # queues (not used by serial, which has its own rule)
        nq = len(sc.queue_names)
        self.holder = [None] * nq     # the task keeping the queue busy
        self.held = [[] for _ in range(nq)]   # heaps of (rank, task)
        self.dirty = set()            # queues to look at when admitting

        # timed events: (time, sequence, kind, a, b)
        self.events = []
        self._eseq = 0

        # records
        self.commits = []             # (start, end, presented)
        self.iterations = []          # (start, commit end, ran work)
        self.idle_steps = []          # (instant, tasks taken): for the self-tests

        # strategy state
        if strategy == "serial":
            self.s_left = [len(d) for d in sc.deps]
            self.s_avail = [(self.rank[i], i) for i in range(n) if self.s_left[i] == 0]
            heapq.heapify(self.s_avail)
            self.s_qbusy = [False] * nq
            self.s_parked = [[] for _ in range(nq)]
            self.s_started = 0
        elif strategy == "priority":
            tiers = sorted(set(sc.priority))
            tier_num = {p: k for k, p in enumerate(tiers)}
            self.tier_of = [tier_num[sc.priority[i]] for i in range(n)]
            self.tiers = [[] for _ in tiers]
            for i in range(n):
                self.tiers[self.tier_of[i]].append(i)     # index order
            # (v2.1) a tier is done when its tasks without after are done
            self.tier_left = [sum(1 for i in tk if not sc.after[i]) for tk in self.tiers]
            self.inline = [self.tier_of[i] == 0 and sc.main_only[i] and not sc.idle[i]
                           and sc.delay[i] == 0 and not sc.after[i] for i in range(n)]
            # (3) waits for the T0 tasks neither mainThreadOnly nor delayed nor after
            self.waited = [self.tier_of[i] == 0 and not sc.main_only[i] and sc.delay[i] == 0
                           and not sc.after[i] for i in range(n)]
            self.waited_left = sum(self.waited)
            self.dfl_returned = False
        else:
            self.remaining_deps = [len(d) for d in sc.deps]
            self.anchors_left = sum(1 for i in range(n) if sc.anchor[i])
            self.ff_left = (sum(1 for i in range(n) if sc.first_frame[i] and not sc.anchor[i])
                            if strategy == "anchored" else 0)

    # ---- events ------------------------------------------------------------

    def push_event(self, time, kind, a=None, b=None):
        heapq.heappush(self.events, (time, self._eseq, kind, a, b))
        self._eseq += 1

    # ---- a task's way to a thread (section 3) ------------------------------

    def make_ready(self, i):
        """The strategy makes task i ready now; released after its delay.
        (v2.1) A task with after that becomes ready before the first-frame commit
        is presented (P not known yet, or now < P) is held until P."""
        if self.hold_after and self.sc.after[i] and (self.P is None or self.t < self.P):
            self.held_after.append(i)
            return
        self.delay_then_release(i)

    def delay_then_release(self, i):
        if self.sc.delay[i] > 0:
            self.push_event(self.t + self.sc.delay[i], "release", i)
        else:
            self.release(i)

    def present_first_frame(self):
        """(v2.1) The instant P (step 1): the held after tasks are released delay after P."""
        assert self.t == self.P
        held, self.held_after = self.held_after, []
        for i in held:
            self.delay_then_release(i)

    def release(self, i):
        q = self.sc.queue[i]
        if q is None:
            self.admit(i)
        else:
            heapq.heappush(self.held[q], (self.rank[i], i))
            self.dirty.add(q)

    def admit(self, i):
        self.admitted[i] = True
        q = self.sc.queue[i]
        if q is not None:
            assert self.holder[q] is None
            self.holder[q] = i
        if self.inline_wait[i]:
            self.ready[i] = self.t        # readyMs of a queued inline task: its admission
            return                        # not handed over: didFinishLaunching runs it
        self.hand_over(i)

    def hand_over(self, i):
        sc = self.sc
        self.ready[i] = self.t
        if self.eff_idle[i]:
            bisect.insort(self.idle_q, (self.t, self.rank[i], i))
        elif sc.main_only[i]:
            if self.in_op[i]:                 # (§3.11) waits for the main operation queue
                heapq.heappush(self.op_waiting, (self.rank[i], i))
            else:
                self.enqueue_main(i)
        else:
            heapq.heappush(self.ready_set, (self.rank[i], i))

    def enqueue_main(self, i):
        bisect.insort(self.mq, (self.t, self.rank[i], i))
        self.mq_at[i] = self.t
        if self.in_closure[i]:
            self.mq_closure += 1

    def admit_queues(self):
        """Every free queue admits its best-ranked held task (until none may)."""
        while self.dirty:
            qs = sorted(self.dirty)
            self.dirty.clear()
            for q in qs:
                if self.holder[q] is None and self.held[q]:
                    _, i = heapq.heappop(self.held[q])
                    self.admit(i)
        # (§3.11) the main operation queue admits last: once no free queue can admit,
        # it admits one task, if free, and enqueues it on the main queue now
        if self.op_holder is None and self.op_waiting:
            _, i = heapq.heappop(self.op_waiting)
            self.op_holder = i
            self.op_admitted[i] = self.t
            self.enqueue_main(i)

    # ---- effects -------------------------------------------------------------

    def on_end(self, i):
        """Task i ends now (its cost is over)."""
        sc = self.sc
        self.end[i] = self.t
        if sc.first_frame[i]:
            self.ff_ended += 1
        if self.strategy == "anchored" and sc.first_frame[i] and not sc.anchor[i]:
            self.ff_left -= 1
        if sc.latency[i] == 0:
            self.on_done(i)
        else:
            self.push_event(self.t + sc.latency[i], "done", i)

    def on_done(self, i):
        """Effects of task i being done now."""
        sc = self.sc
        self.done[i] = self.t
        if self.thread[i] != "main":
            self.in_flight -= 1
        q = sc.queue[i]
        if self.strategy == "serial":
            if q is not None:
                self.s_qbusy[q] = False
                for x in self.s_parked[q]:
                    heapq.heappush(self.s_avail, (self.rank[x], x))
                self.s_parked[q] = []
            for x in sc.dependents[i]:
                self.s_left[x] -= 1
                if self.s_left[x] == 0:
                    heapq.heappush(self.s_avail, (self.rank[x], x))
            return
        if q is not None:
            assert self.holder[q] == i
            self.holder[q] = None
            self.dirty.add(q)
        if self.in_op[i]:                     # (§3.11) the main operation queue is free
            assert self.op_holder == i
            self.op_holder = None
        if self.dagish:
            if sc.anchor[i]:
                self.anchors_left -= 1
            for x in sc.dependents[i]:
                self.remaining_deps[x] -= 1
                if self.remaining_deps[x] == 0:
                    self.make_ready(x)
        else:                               # priority
            if sc.after[i]:
                return                      # (v2.1) after tasks do not count for tiers
            k = self.tier_of[i]
            self.tier_left[k] -= 1
            if k == 0:
                if self.waited[i]:
                    self.waited_left -= 1
                if self.tier_left[0] == 0 and self.dfl_returned:
                    self.open_tier(1)
            elif self.tier_left[k] == 0:
                self.open_tier(k + 1)

    def open_tier(self, k):
        """Tier k opens: its tasks become ready, in index order.  (v2.1) A tier whose
        tasks all have after is done the instant it opens: the next opens in the same step."""
        while k < len(self.tiers):
            for i in self.tiers[k]:          # index order
                self.make_ready(i)
            if self.tier_left[k] > 0:
                return
            k += 1

    def finish_commit(self, in_step1=False):
        e = self.t
        sc = self.sc
        presented = ceil_div(e + sc.render_time, sc.frame) * sc.frame
        self.commits.append((self.commit_start, e, presented))
        self.iterations.append((self.iter_start, e, self.iter_ran_work))
        self.commit_start = None
        self.steps = None                    # the iteration is over
        if self.ff_commit is None and self.ff_ended == self.n_ff:
            # (v2.1) the first-frame commit: the first at whose end every firstFrame task has run
            self.ff_commit = len(self.commits) - 1
            self.P = presented
            if self.hold_after:
                if presented > e:
                    self.push_event(presented, "present")
                elif in_step1:
                    self.present_first_frame()   # an event of this step 1 like the others
                else:
                    self.present_now = True      # a further step 1 once this step 2 is done

    # ---- the main thread -----------------------------------------------------

    def begin_main_task(self, i):
        sc = self.sc
        self.start[i] = self.t
        self.thread[i] = "main"
        self.iter_of[i] = self.iter_index
        self.main_seq[i] = self._seq
        self._seq += 1
        self.iter_ran_work = True
        if self.strategy == "serial":
            self.s_started += 1
            if sc.queue[i] is not None:
                self.s_qbusy[sc.queue[i]] = True
        if sc.cost[i] == 0:
            self.on_end(i)
        else:
            self.main_busy(sc.cost[i], ("task", i))

    def main_busy(self, cost, activity):
        """The main thread starts an item of positive duration.  Without contention
        busy_until is its end; with contention (§3.10) it only says "running" and the
        end follows from main_left, the remaining work, and the rates."""
        self.busy_until = self.t + cost
        self.activity = activity
        self.main_left = cost

    def begin_input(self, k):
        self.in_start[k] = self.t
        c = self.sc.inputs[k][2]
        if c == 0:
            self.in_end[k] = self.t
        else:
            self.main_busy(c, ("input", k))

    def block(self):
        if self.blocked_since is None:
            self.blocked_since = self.t
        return False

    def unblock(self):
        if self.blocked_since is not None:
            self.blocked_total += self.t - self.blocked_since
            self.blocked_since = None

    def remove_from_mq(self, pos):
        _, _, i = self.mq.pop(pos)
        if self.in_closure[i]:
            self.mq_closure -= 1
        return i

    def may_start_iteration(self):
        return bool(self.mq) or bool(self.idle_q) or (bool(self.pending) and self.iter_index >= 0)

    def start_iteration(self):
        self.iter_index += 1
        self.iter_start = self.t
        items = [i for (_, _, i) in self.mq]
        self.mq = []
        self.mq_closure = 0
        inputs = []
        if self.iter_index >= 1:              # iteration 0 takes no input
            inputs = [k for (_, k) in self.pending]
            self.pending = []
        steps = [("input", k) for k in inputs]
        for i in items:
            if i != DFL:
                steps.append(("task", i))
            elif self.sc.launch_phases:
                # (§3.12) one item per launch phase in place of the dFL item; the
                # startsIn phase runs dFL once its own cost has run, and ends when
                # dFL returns
                for j in range(len(self.sc.launch_phases)):
                    steps.append(("phase", j))
                    if j == self.sc.starts_in:
                        steps += [("dfl",), ("phase_end", j)]
            else:
                steps.append(("dfl",))
        steps += [("idle_step",), ("commit",)]
        self.steps = deque(steps)
        self.iter_ran_work = bool(items)

    def expand_dfl(self):
        sc = self.sc
        st = self.strategy
        if st == "serial":
            for i in range(sc.n):
                self.ready[i] = self.t        # the instant didFinishLaunching started
            sub = [("serial",)]
        elif st == "priority":
            sub = [("prio_t0",)]
            for i in self.tiers[0]:
                if self.inline[i]:
                    if sc.queue[i] is None:
                        sub.append(("task", i))
                    else:
                        sub += [("inline_release", i), ("inline_wait", i)]
            sub += [("prio_wait",), ("prio_return",)]
        else:
            sub = [("dag_start",)]
            if self.closure_nonempty:
                sub.append(("dag_loop",))
        self.steps.extendleft(reversed(sub))

    def serial_pick(self):
        """Best-ranked task not started, dependencies done, queue without a task in flight."""
        sc = self.sc
        while self.s_avail:
            _, i = self.s_avail[0]
            heapq.heappop(self.s_avail)
            q = sc.queue[i]
            if q is not None and self.s_qbusy[q]:
                self.s_parked[q].append(i)
                continue
            return i
        return None

    def take_out_or_block(self):
        """priority: while didFinishLaunching waits, run the first main-queue (then
        idle-queue) task that keeps a queue busy; else stay blocked."""
        sc = self.sc
        for pos, (_, _, j) in enumerate(self.mq):
            if sc.queue[j] is not None:
                assert self.holder[sc.queue[j]] == j
                self.unblock()
                self.remove_from_mq(pos)
                self.begin_main_task(j)
                return True
        for pos, (_, _, j) in enumerate(self.idle_q):
            if sc.queue[j] is not None:
                assert self.holder[sc.queue[j]] == j
                self.unblock()
                self.idle_q.pop(pos)
                self.begin_main_task(j)
                return True
        return self.block()

    def main_step(self):
        """One main-thread step.  Returns False if the thread is blocked (no progress)."""
        sc = self.sc
        steps = self.steps
        step = steps[0]
        kind = step[0]
        if kind == "input":
            steps.popleft()
            self.begin_input(step[1])
        elif kind == "task":
            steps.popleft()
            self.begin_main_task(step[1])
        elif kind == "dfl":
            steps.popleft()
            self.t1 = self.t
            self.expand_dfl()
        elif kind == "phase":                 # (§3.12) a launch phase's own work
            steps.popleft()
            j = step[1]
            self.phase_start[j] = self.t
            c = sc.launch_phases[j][1]
            if c == 0:
                self.phase_ended(j)
            else:
                self.main_busy(c, ("phase", j))
        elif kind == "phase_end":             # the startsIn phase ends as dFL returns
            steps.popleft()
            self.phase_end[step[1]] = self.t
        elif kind == "serial":
            if self.s_started == sc.n:        # every task has ended: return
                steps.popleft()
                return True
            i = self.serial_pick()
            if i is None:
                return self.block()           # until the next task is done
            self.unblock()
            self.begin_main_task(i)
        elif kind == "prio_t0":
            steps.popleft()
            for i in self.tiers[0]:           # index order
                if self.inline[i]:
                    if sc.queue[i] is None:
                        self.ready[i] = self.t
                else:
                    self.make_ready(i)
        elif kind == "inline_release":
            steps.popleft()
            i = step[1]
            self.inline_wait[i] = True
            self.release(i)
        elif kind == "inline_wait":
            i = step[1]
            if not self.admitted[i]:
                return self.take_out_or_block()
            self.unblock()
            steps.popleft()
            self.inline_wait[i] = False
            self.begin_main_task(i)
        elif kind == "prio_wait":
            if self.waited_left > 0:
                return self.take_out_or_block()
            self.unblock()
            steps.popleft()
        elif kind == "prio_return":
            steps.popleft()
            self.dfl_returned = True
            if self.tier_left[0] == 0:
                self.open_tier(1)
        elif kind == "dag_start":
            steps.popleft()
            for i in range(sc.n):             # index order, one step
                if self.remaining_deps[i] == 0:
                    self.make_ready(i)
        elif kind == "dag_loop":
            if self.anchors_left == 0 and self.ff_left == 0:
                self.unblock()
                steps.popleft()               # didFinishLaunching returns
            elif self.mq_closure > 0:
                pos = next(p for p, (_, _, j) in enumerate(self.mq) if self.in_closure[j])
                self.unblock()
                j = self.remove_from_mq(pos)
                self.begin_main_task(j)
            else:
                return self.block()
        elif kind == "idle_step":
            steps.popleft()
            if not self.mq and not self.pending and self.idle_q:
                if self.idle_mode == "batch":
                    take = [i for (_, _, i) in self.idle_q]
                    self.idle_q = []
                else:
                    take = [self.idle_q.pop(0)[2]]
                self.idle_steps.append((self.t, take))
                steps.extendleft(reversed([("task", i) for i in take]))
        elif kind == "commit":
            steps.popleft()
            self.commit_start = self.t
            if sc.commit_cost == 0:
                self.finish_commit()
            else:
                self.main_busy(sc.commit_cost, ("commit",))
        else:
            raise AssertionError(step)
        return True

    def main_advance(self):
        """Step 2a: main-thread steps until something of positive duration starts,
        the thread is blocked, or it sleeps.  Returns True if anything changed."""
        changed = False
        while True:
            if self.busy_until is not None:
                return changed
            if self.steps is None:
                if not self.may_start_iteration():
                    return changed            # sleeps
                self._iters_now += 1
                if self._iters_now > self._iter_guard:
                    raise SimulationStuck(
                        f"t={us_to_ms_text(self.t)} ms: run-loop iterations start again and "
                        f"again without time passing ({self.strategy})")
                self.start_iteration()
                changed = True
                continue
            if not self.main_step():
                return changed                # blocked
            changed = True
            self.admit_queues()               # the step is applied in full: queues admit

    def main_activity_ends(self):
        act = self.activity
        self.busy_until = None
        self.activity = None
        self.main_left = None
        if act[0] == "task":
            self.on_end(act[1])
        elif act[0] == "input":
            self.in_end[act[1]] = self.t
        elif act[0] == "phase":
            self.phase_ended(act[1])
        else:
            self.finish_commit(in_step1=True)

    def phase_ended(self, j):
        """(§3.12) Launch phase j's own cost has run; a phase other than the startsIn
        one ends here (the startsIn one goes on with dFL)."""
        self.phase_cost_end[j] = self.t
        if j != self.sc.starts_in:
            self.phase_end[j] = self.t

    # ---- workers -------------------------------------------------------------

    def workers_take(self):
        """Step 2b: free workers, lowest index first, take the best ready task while
        one may (one ready, and fewer than --max-concurrent in flight)."""
        sc = self.sc
        changed = False
        while self.ready_set and self.free_workers:
            if self.limit is not None and self.in_flight >= self.limit:
                break
            w = self.free_workers[0]          # lowest-index free worker
            _, i = heapq.heappop(self.ready_set)
            changed = True
            self.start[i] = self.t
            self.thread[i] = f"worker-{w}"
            self.in_flight += 1
            if sc.cost[i] == 0:
                self.on_end(i)                # ends at once; the same worker goes on
                self.admit_queues()
            else:
                heapq.heappop(self.free_workers)
                if self.contended:            # (§3.10) its end follows from its rate
                    self.running[w] = [i, sc.cost[i]]
                else:
                    self.push_event(self.t + sc.cost[i], "wend", w, i)
        return changed

    # ---- CPU contention (§3.10) -------------------------------------------------

    def rates(self):
        """The rates n/d of the running items, as (the main thread's, {worker: its
        rate}), from the state after step 2 at the current instant."""
        sc = self.sc
        if sc.clusters is not None:
            return self.cluster_rates()
        C = sc.cpus
        main_running = self.busy_until is not None
        W = len(self.running)
        if sc.main_thread_priority:
            Cp = C - 1 if main_running else C     # the main thread keeps one CPU
            wr = (1, 1) if W <= Cp else (Cp, W)   # (0, W) when Cp = 0
            return (1, 1), {w: wr for w in self.running}
        R = W + (1 if main_running else 0)
        r = (1, 1) if R <= C else (C, R)
        return r, {w: r for w in self.running}

    def cluster_rates(self):
        """(§3.13) Cores for the running items: the QoS classes in order (the main
        thread's item in userInteractive, first in it; the workers by number); each
        class takes from the free cores it may use (background: only those of the
        slowest cluster(s)), fastest first, cores of equal speed by their cluster's
        position: one core each at its speed when there are enough, else all of
        them shared: sum of speeds / n each (0 when none is left)."""
        sc = self.sc
        classes = [[] for _ in QOS_CLASSES]
        if self.busy_until is not None:
            classes[0].append("main")
        for w in sorted(self.running):
            classes[sc.qos[self.running[w][0]]].append(w)
        speeds = [sp for (_, _, sp) in sc.clusters]
        free = [c for (_, c, _) in sc.clusters]
        order = sorted(range(len(speeds)), key=lambda c: (-speeds[c], c))
        slowest = min(speeds)
        rate = {}
        for k, items in enumerate(classes):
            if not items:
                continue
            E = [c for c in order if free[c] > 0 and (k != QOS_BACKGROUND or speeds[c] == slowest)]
            if len(items) <= sum(free[c] for c in E):
                pos = 0
                for c in E:
                    take = min(free[c], len(items) - pos)
                    for x in items[pos:pos + take]:
                        rate[x] = (speeds[c], 1000)
                    free[c] -= take
                    pos += take
                    if pos == len(items):
                        break
            else:
                total = sum(free[c] * speeds[c] for c in E)
                for c in E:
                    free[c] = 0
                for x in items:
                    rate[x] = (total, 1000 * len(items))
        return rate.get("main"), {w: rate[w] for w in self.running}

    def advance_contended(self):
        """Step 3 with contention: the next visited instant is the earliest projected
        end (s + ceil(w d / n) for rate n/d > 0) or timed event; every running item
        loses floor((t - s) n / d) of its remaining work; the main thread's item, then
        the workers' (lowest number first), whose work reaches 0 end now (step 1).
        Returns False when nothing is left to happen."""
        s = self.t
        main_rate, wrates = self.rates()
        cands = []
        if self.busy_until is not None:
            mn, md = main_rate
            assert mn > 0                     # the main thread is never starved
            cands.append(s + ceil_div(self.main_left * md, mn))
        for w, (_, left) in self.running.items():
            wn, wd = wrates[w]
            if wn > 0:                        # rate 0: no end until a rate changes
                cands.append(s + ceil_div(left * wd, wn))
        if self.events:
            cands.append(self.events[0][0])
        if not cands:
            return False
        nt = min(cands)
        assert nt > s, (nt, s)
        dt = nt - s
        if self.busy_until is not None:
            self.main_left = max(0, self.main_left - dt * mn // md)
        for w, item in self.running.items():
            wn, wd = wrates[w]
            item[1] = max(0, item[1] - dt * wn // wd)
        self.t = nt
        if self.busy_until is not None and self.main_left == 0:
            self.main_activity_ends()
        for w in sorted(self.running):
            if self.running[w][1] == 0:
                i = self.running.pop(w)[0]
                heapq.heappush(self.free_workers, w)
                self.on_end(i)
        return True

    # ---- the event loop --------------------------------------------------------

    def run(self):
        sc = self.sc
        t = 0
        self.pre_main_out = []
        for name, c in sc.pre_main:
            self.pre_main_out.append((name, t, t + c))
            t += c
        self.t0 = t
        assert t == sc.t0
        self.t = t
        for k, (_, at, _) in enumerate(sc.inputs):
            if at <= t:
                self.pending.append((at, k))
            else:
                self.push_event(at, "input", k)
        self.pending.sort()
        self.mq = [(t, DFL_RANK, DFL)]
        self._iter_guard = sc.n + len(sc.inputs) + 4
        round_guard = 10 * (sc.n + len(sc.inputs)) + 100

        while True:
            # 2. repeat a. and b. until neither changes anything
            self._iters_now = 0
            rounds = 0
            while True:
                while True:
                    a = self.main_advance()
                    b = self.workers_take()
                    if not a and not b:
                        break
                    rounds += 1
                    if rounds > round_guard:
                        raise SimulationStuck(f"t={us_to_ms_text(self.t)} ms: no end to the "
                                              f"steps of one instant ({self.strategy})")
                if not self.present_now:
                    break
                # (v2.1) the first-frame commit ended in step 2 and is presented at its
                # end: the releases at P come in a further step 1 at the same instant,
                # then step 2 follows again
                self.present_now = False
                self.present_first_frame()
                self.admit_queues()
            # 3. advance t to the next event time
            if self.contended:
                # (§3.10) ends projected from remaining work and rates; the items
                # ending now are applied first in step 1
                if not self.advance_contended():
                    break
                nt = self.t
            else:
                cands = []
                if self.busy_until is not None:
                    cands.append(self.busy_until)
                if self.events:
                    cands.append(self.events[0][0])
                if not cands:
                    break
                nt = min(cands)
                assert nt > self.t, (nt, self.t)
                self.t = nt
                # 1. the effects of every event at t, then queues admit
                if self.busy_until == nt:
                    self.main_activity_ends()
            while self.events and self.events[0][0] == nt:
                _, _, kind, a, b = heapq.heappop(self.events)
                if kind == "wend":
                    heapq.heappush(self.free_workers, a)
                    self.on_end(b)
                elif kind == "done":
                    self.on_done(a)
                elif kind == "release":
                    self.release(a)
                elif kind == "input":
                    bisect.insort(self.pending, (sc.inputs[a][1], a))
                elif kind == "present":
                    self.present_first_frame()
                else:
                    raise AssertionError(kind)
            self.admit_queues()
        self.check_finished()
        return self

    def check_finished(self):
        sc = self.sc
        problems = []
        left = [sc.ids[i] for i in range(sc.n) if self.done[i] is None]
        if left:
            problems.append(f"{len(left)} task(s) never done: {', '.join(map(repr, left[:8]))}")
        if self.steps is not None:
            problems.append(f"main thread stuck at step {self.steps[0] if self.steps else None}"
                            + (" (blocked)" if self.blocked_since is not None else ""))
        if self.mq or self.idle_q or self.ready_set:
            problems.append("items left in the main queue, idle queue or ready set")
        if self.pending or any(e is None for e in self.in_end):
            problems.append("inputs never handled")
        if any(self.held):
            problems.append("tasks left held in a queue")
        if self.held_after:
            problems.append("after tasks never released")
        if self.op_waiting or self.op_holder is not None:
            problems.append("tasks left in the main operation queue")
        if self.running:
            problems.append("worker items left running")
        if problems:
            raise SimulationStuck(f"no event left at t={us_to_ms_text(self.t)} ms "
                                  f"({self.strategy}): " + "; ".join(problems))
        assert self.blocked_since is None
        assert self.t1 == sc.t1, (self.t1, sc.t1)
        assert all(e is not None for e in self.phase_end)

    # ---- metrics and output (MODEL.md sections 5 and 6) -----------------------

    def metrics(self):
        sc = self.sc
        n = sc.n
        t0 = self.t0
        t1 = sc.t1                    # (§3.12) dFL's start: t0 without launch phases
        A = sc.after_phases_cost      # the phases after the startsIn phase
        commit_time = sum(e - s for (s, e, _) in self.commits)
        input_cost = sum(c for (_, _, c) in sc.inputs)
        last_done = max(self.done)
        work_commit_end = max(e for (_, e, ran) in self.iterations if ran)
        launch = max(last_done, work_commit_end)
        end = max(launch, max(e for (_, e, _) in self.commits))
        # (§3.10, §7) busy: wall time on the main thread's items (a stretched item
        # counts its stretch; without contention these are the costs)
        main_task_time = sum(self.end[i] - self.start[i] for i in range(n) if self.thread[i] == "main")
        input_time = sum(self.in_end[k] - self.in_start[k] for k in range(len(sc.inputs)))
        # (§3.12) a launch phase counts the wall time of its own cost (the startsIn
        # phase's span also holds dFL, whose tasks count as tasks)
        phase_time = sum(e - s for s, e in zip(self.phase_start, self.phase_cost_end))
        busy = t0 + phase_time + main_task_time + input_time + commit_time
        total_cost = sum(sc.cost)
        phase_cost = sum(c for (_, c) in sc.launch_phases)
        # cpuUtilization: the work done (the costs; a stretched commit counts its
        # commitCost) over min(cores, cpus) x end
        work = t0 + phase_cost + total_cost + input_cost + len(self.commits) * sc.commit_cost
        # (§3.13) K = min(cores, sum of count x speed) with clusters: a fraction kn / kd
        kn, kd = sc.capacity()
        cpu = 0 if end == 0 else work * kd / (kn * end)

        ff_tasks = [i for i in range(n) if sc.first_frame[i]]
        if ff_tasks:
            last = max(ff_tasks, key=lambda i: self.main_seq[i])   # last to run
            ff_iter = self.iter_of[last]
        else:
            ff_iter = 0
        # every iteration ends with a commit: iteration k's commit is commits[k]
        assert ff_iter == self.ff_commit, (ff_iter, self.ff_commit)
        ttff = self.commits[ff_iter][2]
        ff_ready = self.commits[ff_iter][1] + sc.render_time            # (v2.1)
        fd_tasks = [i for i in range(n) if sc.fully_drawn[i]]           # (v2.1)
        if fd_tasks:
            last = max(fd_tasks, key=lambda i: self.main_seq[i])        # last to run
            ttfd = max(self.commits[self.iter_of[last]][2], ttff)
        else:
            ttfd = ttff
        mid = max((e - s for k, (s, e, _) in enumerate(self.iterations) if k > ff_iter), default=0)
        ilat = max((self.in_start[k] - sc.inputs[k][1] for k in range(len(sc.inputs))), default=0)

        # longest path through dependsOn, a task weighing cost + latency
        lp = [0] * n
        for i in topo_order(sc):
            lp[i] = sc.cost[i] + sc.latency[i] + max((lp[d] for d in sc.deps[i]), default=0)
        longest = max(lp) if n else 0
        main_total = sum(sc.cost[i] for i in range(n) if sc.main_only[i])
        # (§3.12) the bounds count from t1, the main thread's term with A
        lower_v2 = t1 + max(longest, A + main_total, ceil_div(total_cost * kd, kn))
        # (v2.1) for each queue, the sum of its tasks' cost + latency
        per_queue = [0] * len(sc.queue_names)
        for i in range(n):
            if sc.queue[i] is not None:
                per_queue[sc.queue[i]] += sc.cost[i] + sc.latency[i]
        lower = max(lower_v2, t1 + max(per_queue, default=0))

        # (v2.1) firstFrameBoundMs: P = the longest path ending at a firstFrame task
        # (the last task weighing its cost only), M = the main-thread cost of the
        # firstFrame tasks and everything they depend on
        p_ff = max((sc.cost[f] + max((lp[d] for d in sc.deps[f]), default=0) for f in ff_tasks),
                   default=0)
        needed = set(ff_tasks)
        stack = list(ff_tasks)
        while stack:
            for d in sc.deps[stack.pop()]:
                if d not in needed:
                    needed.add(d)
                    stack.append(d)
        m_ff = sum(sc.cost[i] for i in needed if sc.main_only[i])
        ff_bound_raw = t1 + max(p_ff, A + m_ff) + sc.commit_cost + sc.render_time
        ff_bound = ceil_div(ff_bound_raw, sc.frame) * sc.frame

        violations = [(i, d) for i in range(n) for d in sc.deps[i] if self.start[i] < self.done[d]]
        if self.strategy != "priority":
            assert not violations, "serial, dag and anchored never break a dependency"

        return {
            "timeToFirstFrameMs": ttff,
            "firstFrameReadyMs": ff_ready,
            "firstDrawMs": self.commits[0][1],      # (§3.12) the end of iteration 0's commit
            "timeToFullDisplayMs": ttfd,
            "launchCompleteMs": launch,
            "mainThreadBusyMs": busy,
            "mainThreadBlockedMs": self.blocked_total,
            "cpuUtilization": cpu,
            "frames": len(self.commits),
            "maxInputDelayMs": mid,
            "inputLatencyMaxMs": ilat,
            "criticalPathMs": t1 + longest,
            "lowerBoundMs": lower,
            "lowerBoundMsV2": lower_v2,
            "firstFrameBoundMs": ff_bound,
            "violations": violations,
        }


def topo_order(sc):
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


def result_object(sim, model="v2.2"):
    """The section 6 object; ms values wrapped in Ms.  model "v2.1": the v2.1 object
    (no firstDrawMs, no phases); model "v2": the v2 object (moreover no
    firstFrameReadyMs, timeToFullDisplayMs, firstFrameBoundMs; lowerBoundMs
    without the queue term)."""
    if model not in MODELS:
        raise ValueError(f"unknown model {model!r}")
    sc = sim.sc
    m = sim.metrics()
    v2 = model == "v2"
    v22 = model == "v2.2"
    if not v22 and sc.uses_v22():
        raise ValueError("a scenario with launchPhases or clusters has no v2.1 or v2 result")
    if v2 and sc.uses_v21():
        raise ValueError("a scenario with after or fullyDrawn has no v2 result")
    if v2 and sc.uses_new_keys():
        raise ValueError("a scenario with cpus or mainExecutor has no v2 result")
    metrics = {"timeToFirstFrameMs": Ms(m["timeToFirstFrameMs"])}
    if not v2:
        metrics["firstFrameReadyMs"] = Ms(m["firstFrameReadyMs"])
    if v22:
        metrics["firstDrawMs"] = Ms(m["firstDrawMs"])
    if not v2:
        metrics["timeToFullDisplayMs"] = Ms(m["timeToFullDisplayMs"])
    metrics.update({
        "launchCompleteMs": Ms(m["launchCompleteMs"]),
        "mainThreadBusyMs": Ms(m["mainThreadBusyMs"]),
        "mainThreadBlockedMs": Ms(m["mainThreadBlockedMs"]),
        "cpuUtilization": m["cpuUtilization"],
        "frames": m["frames"],
        "maxInputDelayMs": Ms(m["maxInputDelayMs"]),
        "inputLatencyMaxMs": Ms(m["inputLatencyMaxMs"]),
        "criticalPathMs": Ms(m["criticalPathMs"]),
        "lowerBoundMs": Ms(m["lowerBoundMsV2" if v2 else "lowerBoundMs"]),
    })
    if not v2:
        metrics["firstFrameBoundMs"] = Ms(m["firstFrameBoundMs"])
    metrics["dependencyViolations"] = len(m["violations"])
    out = {
        "scenario": sc.name,
        "strategy": sim.strategy,
        "metrics": metrics,
        "preMain": [{"name": nm, "startMs": Ms(s), "endMs": Ms(e)}
                    for (nm, s, e) in sim.pre_main_out],
    }
    if v22:
        out["phases"] = [{"name": nm, "startMs": Ms(sim.phase_start[j]), "endMs": Ms(sim.phase_end[j])}
                         for j, (nm, _) in enumerate(sc.launch_phases)]
    out.update({
        "tasks": [{"id": sc.ids[i], "thread": sim.thread[i], "readyMs": Ms(sim.ready[i]),
                   "startMs": Ms(sim.start[i]), "endMs": Ms(sim.end[i]),
                   "doneMs": Ms(sim.done[i])}
                  for i in range(sc.n)],
        "inputs": [{"name": nm, "atMs": Ms(at), "startMs": Ms(sim.in_start[k]),
                    "endMs": Ms(sim.in_end[k])}
                   for k, (nm, at, _) in enumerate(sc.inputs)],
        "commits": [{"startMs": Ms(s), "endMs": Ms(e), "presentedMs": Ms(p)}
                    for (s, e, p) in sim.commits],
        "violations": [{"task": sc.ids[i], "dependency": sc.ids[d],
                        "startMs": Ms(sim.start[i]), "dependencyEndMs": Ms(sim.done[d])}
                       for (i, d) in m["violations"]],
    })
    return out


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


def simulate(scenario, strategy, max_concurrent=None, idle_mode=None, model="v2.2"):
    """Run one strategy; returns the section 6 object (ms values as Ms).
    scenario: a Scenario or a parsed JSON object (validated here).
    model "v2": the v2 object (see result_object)."""
    sc = scenario if isinstance(scenario, Scenario) else Scenario(scenario)
    sim = Simulation(sc, strategy, max_concurrent, idle_mode).run()
    return result_object(sim, model)


def compare_object(scenario, max_concurrent=None, idle_mode=None, model="v2.2"):
    """What `launchflow compare SCENARIO --format json` prints (section 6): the
    scenario's name and one result object per strategy, in the order of STRATEGIES."""
    sc = scenario if isinstance(scenario, Scenario) else Scenario(scenario)
    return {"scenario": sc.name,
            "results": [simulate(sc, s, max_concurrent, idle_mode, model) for s in STRATEGIES]}


def main(argv=None):
    ap = argparse.ArgumentParser(description="launchflow reference simulator (MODEL.md v2.1, "
                                             "docs/model.md v2.2)")
    ap.add_argument("scenario")
    ap.add_argument("--strategy", required=True, choices=STRATEGIES)
    ap.add_argument("--max-concurrent", type=int, default=None)
    ap.add_argument("--idle-mode", choices=IDLE_MODES, default=None,
                    help="overrides the scenario's idleMode")
    ap.add_argument("--model", choices=MODELS, default="v2.2",
                    help="v2.1: print the v2.1 object (no firstDrawMs, no phases); "
                         "v2: the v2 object (v2 metrics, v2 lowerBoundMs)")
    args = ap.parse_args(argv)
    if args.max_concurrent is not None and args.max_concurrent < 1:
        ap.error("--max-concurrent must be an integer >= 1")
    try:
        sc = load_scenario(args.scenario)
    except ScenarioError as e:
        for p in e.problems:
            sys.stderr.write(f"error: {p}\n")
        return 2
    except OSError as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    if args.model == "v2" and sc.uses_v21():
        sys.stderr.write("error: --model v2: the scenario uses after or fullyDrawn (v2.1)\n")
        return 2
    if args.model == "v2" and sc.uses_new_keys():
        sys.stderr.write("error: --model v2: the scenario uses cpus or mainExecutor\n")
        return 2
    if args.model != "v2.2" and sc.uses_v22():
        sys.stderr.write(f"error: --model {args.model}: the scenario uses launchPhases or clusters\n")
        return 2
    out = simulate(sc, args.strategy, args.max_concurrent, args.idle_mode, args.model)
    sys.stdout.write(dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

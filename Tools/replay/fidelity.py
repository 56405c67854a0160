#!/usr/bin/env python3
"""The figures of docs/model.md, "How close is the model to a real run?":
`launchflow replay` on the bundled scenarios, with one worker (threads <=
CPUs, as the model assumes) and with the scenario's own workers
(oversubscribed on a small machine), the latter simulated without and with
`--cpus machine` (device.cpus). Prints a Markdown table of the median and
worst error of the first frame and launch complete, and the load other
processes put on the machine during the runs.

  python3 Tools/replay/fidelity.py --bin .build/release/launchflow [--runs 3] [--random 40] [--ties N]
      [--only-random]

--random N adds N random launch-shaped scenarios (Tools/replay/gen_launches.py,
seed 7). --ties N adds N of the cross-check's scenarios instead
(Tools/reference/gen_scenarios.py, seed 7): made of microsecond ties, 1 ms
tasks and 1000 Hz frames, they measure the runtime's hand-off latency more
than the model (docs/model.md §11 gives both).
"""
import argparse, json, statistics, subprocess, sys, pathlib, tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIOS = ["article", "dependencies-only", "idle-work", "modules", "post-frame", "tiers-only", "large-app",
             "permission-alerts"]


def replay(binary, scenario, runs, extra):
    path = scenario if scenario.endswith(".json") else str(ROOT / "scenarios" / f"{scenario}.json")
    out = subprocess.run([binary, "replay", path, "--runs", str(runs), "--format", "json"] + extra,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{scenario}: {out.stderr}")
    return json.loads(out.stdout)


def pre_main(scenario):
    """The scenario's pre-main total, ms."""
    path = scenario if scenario.endswith(".json") else str(ROOT / "scenarios" / f"{scenario}.json")
    phases = json.load(open(path)).get("preMain") or []
    return sum(p.get("cost", 0) for p in phases)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / ".build/release/launchflow"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--ties", type=int, default=0)
    ap.add_argument("--only-random", action="store_true", help="without the bundled scenarios")
    ap.add_argument("--config", type=int, action="append", help="only these rows (1, 2, 3)")
    args = ap.parse_args()
    scenarios = [] if args.only_random else list(SCENARIOS)
    for count, generator, extra in [(args.random, "Tools/replay/gen_launches.py", []),
                                    (args.ties, "Tools/reference/gen_scenarios.py", ["--no-extras"])]:
        if not count:
            continue
        folder = tempfile.mkdtemp(prefix="launchflow-fidelity-")
        subprocess.run([sys.executable, str(ROOT / generator), "--seed", "7", "--count", str(count), "--out", folder]
                       + extra, check=True, capture_output=True)
        scenarios += sorted(str(p) for p in pathlib.Path(folder).glob("*.json"))
    configs = [("one worker (threads ≤ CPUs)", ["--workers", "1"]),
               ("the scenario's workers, model without cpus", []),
               ("the scenario's workers, model with --cpus machine", ["--cpus", "machine"])]
    note = "" if args.only_random else " (permission-alerts: 1)"
    print(f"{len(scenarios)} scenarios × 4 strategies, {args.runs} run(s) each{note}\n")
    print("| runs | first frame before vsync, error (ms): median, p95 | launch complete, error: median, p95 | "
          "tasks on the model's thread and iteration | task bodies, longer than simulated: median, p95 | "
          "the schedule's own error, first frame before vsync (ms): median, p95 | "
          "the schedule's own error, launch complete: median, p95 | "
          "the runtime's set-up, past pre-main (ms): median, max | other processes' load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for number, (label, extra) in enumerate(configs, 1):
        if args.config and number not in args.config:
            continue
        ready, lc, loads, threads, placed, tasks, late = [], [], [], set(), 0, 0, []
        stretch, own_ready, own_lc, steals = [], [], [], []
        for scenario in scenarios:
            runs = 1 if scenario == "permission-alerts" else args.runs
            report = replay(args.bin, scenario, runs, extra)
            loads.append(report["otherProcessesLoad"] or 0)  # null: not measured on this OS
            steals.append(report.get("stealLoad") or 0)
            late.append(max(0.0, report["setUpMs"] - pre_main(scenario)))
            threads.add(f"{report['workers'] + 1} threads on {report['cpus']} CPUs")
            for s in report["strategies"]:
                sim, real = s["simulated"], s["measured"]
                again = s["resimulated"]
                ready.append(real["firstFrameReadyMs"] - sim["firstFrameReadyMs"])
                own_ready.append(real["firstFrameReadyMs"] - again["firstFrameReadyMs"])
                if s["bodyTimeMs"] > 0:
                    stretch.append(s["bodyStretchMs"] / s["bodyTimeMs"] * 100)
                if sim["launchCompleteMs"] > 0:
                    lc.append((real["launchCompleteMs"] - sim["launchCompleteMs"]) / sim["launchCompleteMs"] * 100)
                    own_lc.append((real["launchCompleteMs"] - again["launchCompleteMs"]) / again["launchCompleteMs"] * 100)
                placed += sum(t["sameThread"] == runs and t["sameIteration"] == runs for t in s["tasks"])
                tasks += len(s["tasks"])
        p95 = lambda xs: sorted(xs)[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
        kinds = ", ".join(sorted(threads)) if len(threads) <= 2 else f"{len(threads)} shapes"
        print(f"| {label} ({kinds}) | {statistics.median(ready):+.1f}, {p95(ready):+.1f} | "
              f"{statistics.median(lc):+.1f}%, {p95(lc):+.1f}% | {placed} of {tasks} | "
              f"{statistics.median(stretch):+.1f}%, {p95(stretch):+.1f}% | "
              f"{statistics.median(own_ready):+.1f}, {p95(own_ready):+.1f} | "
              f"{statistics.median(own_lc):+.1f}%, {p95(own_lc):+.1f}% | "
              f"{statistics.median(late):.1f}, {max(late):.1f} | "
              f"{statistics.median(loads) * 100:.0f}% (median; the hypervisor's steal {statistics.median(steals) * 100:.1f}%) |")


if __name__ == "__main__":
    main()

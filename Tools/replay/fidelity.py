#!/usr/bin/env python3
"""The figures of docs/model.md, "How close is the model to a real run?":
`launchflow replay` on the bundled scenarios, with one worker (threads <=
CPUs, as the model assumes) and with the scenario's own workers
(oversubscribed on a small machine), the latter simulated without and with
`--cpus machine` (device.cpus). Prints a Markdown table of the median and
worst error of the first frame and launch complete, and the load other
processes put on the machine during the runs.

  python3 Tools/replay/fidelity.py --bin .build/release/launchflow [--runs 3]
"""
import argparse, json, statistics, subprocess, sys, pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIOS = ["article", "dependencies-only", "idle-work", "modules", "post-frame", "tiers-only", "large-app",
             "permission-alerts"]


def replay(binary, scenario, runs, extra):
    out = subprocess.run([binary, "replay", str(ROOT / "scenarios" / f"{scenario}.json"), "--runs", str(runs),
                          "--format", "json"] + extra, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{scenario}: {out.stderr}")
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / ".build/release/launchflow"))
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    configs = [("one worker (threads ≤ CPUs)", ["--workers", "1"]),
               ("the scenario's workers, model without cpus", []),
               ("the scenario's workers, model with --cpus machine", ["--cpus", "machine"])]
    print("| runs | first frame error, median (worst) | launch complete error, median (worst) | first frame exact | other processes' load |")
    print("|---|---:|---:|---:|---:|")
    for label, extra in configs:
        ff, lc, exact, loads, threads = [], [], 0, [], set()
        for scenario in SCENARIOS:
            runs = 1 if scenario == "permission-alerts" else args.runs
            report = replay(args.bin, scenario, runs, extra)
            loads.append(report["otherProcessesLoad"])
            threads.add(f"{report['workers'] + 1} threads on {report['cpus']} CPUs")
            for s in report["strategies"]:
                sim, real = s["simulated"], s["measured"]
                ff.append((real["timeToFirstFrameMs"] - sim["timeToFirstFrameMs"]) / sim["timeToFirstFrameMs"] * 100)
                lc.append((real["launchCompleteMs"] - sim["launchCompleteMs"]) / sim["launchCompleteMs"] * 100)
                exact += real["timeToFirstFrameMs"] == sim["timeToFirstFrameMs"]
        worst = lambda xs: max(xs, key=abs)
        print(f"| {label} ({', '.join(sorted(threads))}) | {statistics.median(ff):+.1f}% ({worst(ff):+.1f}%) | "
              f"{statistics.median(lc):+.1f}% ({worst(lc):+.1f}%) | {exact} of {len(ff)} | "
              f"{statistics.median(loads) * 100:.0f}% median |")


if __name__ == "__main__":
    main()

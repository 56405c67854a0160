#!/usr/bin/env python3
"""Times a sweep with this checkout's release build and with another commit's,
side by side on the same machine (docs/benchmarks.md's "against the engine before
model v2" figures).

    python3 Tools/bench/compare_engines.py [--base 30ba1e6] [--reps 9]
        [--scenario Tools/bench/sweep-300.json] [--strategies serial priority dag serial,priority,dag]

The other commit is checked out in a git worktree under .build/compare-<commit>
and built in release mode there (a few minutes the first time). The two builds
run alternately, 10,000 sampled launches on one thread each time; the best wall
time of each is printed with their ratio (below 1: this checkout is faster).
"""
import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build(tree):
    subprocess.run(["swift", "build", "-c", "release", "--product", "launchflow"], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(tree, ".build", "release", "launchflow")


def timed(binary, scenario, strategies, runs):
    start = time.perf_counter()
    subprocess.run([binary, "sweep", scenario, "--runs", str(runs), "--jobs", "1", "--strategies", strategies],
                   stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="30ba1e6", help="the commit to compare with (default: the engine before v2)")
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--scenario", default=os.path.join(ROOT, "Tools", "bench", "sweep-300.json"))
    parser.add_argument("--strategies", nargs="+", default=["serial", "priority", "dag", "serial,priority,dag"])
    args = parser.parse_args()

    base_tree = os.path.join(ROOT, ".build", "compare-" + args.base)
    if not os.path.isdir(base_tree):
        subprocess.run(["git", "worktree", "add", "--detach", base_tree, args.base], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    print(f"building {args.base} and this checkout (release)…", file=sys.stderr)
    builds = {args.base: build(base_tree), "this checkout": build(ROOT)}
    load = os.getloadavg()[0]
    print(f"sweep of {os.path.basename(args.scenario)}, {args.runs} runs, one thread; best of {args.reps}, "
          f"load average {load:.2f} at start")
    for strategies in args.strategies:
        best = {name: float("inf") for name in builds}
        for _ in range(args.reps):
            for name, binary in builds.items():
                best[name] = min(best[name], timed(binary, args.scenario, strategies, args.runs))
        base, this = best[args.base], best["this checkout"]
        print(f"  {strategies:22} {args.base} {base:.3f} s   this checkout {this:.3f} s   ratio {this / base:.3f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Stand-in for the launchflow binary, backed by the reference:
    ref_bin.py simulate FILE --strategy S --format json [--max-concurrent N] [--idle-mode M]
Lets crosscheck.py be exercised before the Swift binary speaks v2:
    python3 crosscheck.py --bin ./ref_bin.py --seed 1 --count 50
An invalid scenario gives "error: ..." lines on stderr and exit status 2.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launchflow_ref as ref  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("command", choices=["simulate"])
ap.add_argument("scenario")
ap.add_argument("--strategy", required=True, choices=ref.STRATEGIES)
ap.add_argument("--format", default="json", choices=["json"])
ap.add_argument("--max-concurrent", type=int)
ap.add_argument("--idle-mode", choices=ref.IDLE_MODES)
a = ap.parse_args()
if a.max_concurrent is not None and a.max_concurrent < 1:
    ap.error("--max-concurrent must be an integer >= 1")
try:
    sc = ref.load_scenario(a.scenario)
except ref.ScenarioError as e:
    sys.stderr.write("".join(f"error: {p}\n" for p in e.problems))
    sys.exit(2)
sys.stdout.write(ref.dumps(ref.simulate(sc, a.strategy, a.max_concurrent, a.idle_mode)) + "\n")

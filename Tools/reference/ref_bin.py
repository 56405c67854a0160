#!/usr/bin/env python3
"""Stand-in for the launchflow binary, backed by the reference:
    ref_bin.py simulate FILE --strategy S --format json [--max-concurrent N]
Lets crosscheck.py be exercised before the Swift binary exists:
    python3 crosscheck.py --bin ./ref_bin.py --seed 1 --count 50
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
a = ap.parse_args()
sys.stdout.write(ref.dumps(ref.simulate(ref.load_scenario(a.scenario), a.strategy, a.max_concurrent)) + "\n")

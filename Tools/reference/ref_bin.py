#!/usr/bin/env python3
"""Stand-in for the launchflow binary, backed by the reference:
    ref_bin.py simulate FILE --strategy S --format json [--max-concurrent N] [--idle-mode M]
    ref_bin.py compare FILE --format json [--strategies LIST] [--max-concurrent N] [--idle-mode M]
Lets crosscheck.py be exercised without the Swift binary:
    python3 crosscheck.py --bin ./ref_bin.py --seed 1 --count 50
An invalid scenario gives "error: ..." lines on stderr and exit status 2.

Two environment variables, for testing crosscheck.py itself:
    LAUNCHFLOW_REF_MODEL=v2           print the v2 object (as a v2 binary would:
                                      for `crosscheck.py --v2 --bin ref_bin.py`)
    LAUNCHFLOW_REF_MODEL=v2.1         print the v2.1 object, without firstDrawMs and
                                      phases, and reject launchPhases (as a binary
                                      that does not speak v2.2: `--v21`)
    LAUNCHFLOW_REF_EXTRA_STRATEGY=X   `compare` also prints a result for a strategy
                                      named X (a copy of dag's), as a binary that
                                      knows a strategy the reference does not
"""
import argparse
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launchflow_ref as ref  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("command", choices=["simulate", "compare"])
ap.add_argument("scenario")
ap.add_argument("--strategy", choices=ref.STRATEGIES)
ap.add_argument("--strategies", help="compare: comma-separated strategies")
ap.add_argument("--format", default="json", choices=["json"])
ap.add_argument("--max-concurrent", type=int)
ap.add_argument("--idle-mode", choices=ref.IDLE_MODES)
a = ap.parse_args()
if a.command == "simulate" and a.strategy is None:
    ap.error("simulate needs --strategy")
if a.max_concurrent is not None and a.max_concurrent < 1:
    ap.error("--max-concurrent must be an integer >= 1")
model = os.environ.get("LAUNCHFLOW_REF_MODEL", "v2.2")
if model not in ref.MODELS:
    ap.error(f"LAUNCHFLOW_REF_MODEL: unknown model {model!r}")
try:
    sc = ref.load_scenario(a.scenario)
except ref.ScenarioError as e:
    sys.stderr.write("".join(f"error: {p}\n" for p in e.problems))
    sys.exit(2)
if model == "v2" and sc.uses_v21():
    sys.stderr.write("error: unknown key 'after' or 'fullyDrawn' (this stand-in speaks v2)\n")
    sys.exit(2)
if model != "v2.2" and sc.uses_v22():
    sys.stderr.write(f"error: unknown key 'launchPhases' or 'clusters' (this stand-in speaks {model})\n")
    sys.exit(2)
if a.command == "simulate":
    out = ref.simulate(sc, a.strategy, a.max_concurrent, a.idle_mode, model)
else:
    names = a.strategies.split(",") if a.strategies else list(ref.STRATEGIES)
    for nm in names:
        if nm not in ref.STRATEGIES:
            ap.error(f"unknown strategy {nm!r}")
    out = {"scenario": sc.name,
           "results": [ref.simulate(sc, s, a.max_concurrent, a.idle_mode, model) for s in names]}
    extra = os.environ.get("LAUNCHFLOW_REF_EXTRA_STRATEGY")
    if extra:
        r = copy.copy(ref.simulate(sc, "dag", a.max_concurrent, a.idle_mode, model))
        r["strategy"] = extra
        out["results"].append(r)
sys.stdout.write(ref.dumps(out) + "\n")

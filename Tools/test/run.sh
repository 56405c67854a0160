#!/usr/bin/env bash
# make test's phases (the Makefile's test target runs this once its deps are in).
# Each phase keeps its `== ` heading; the phases that need no CPU of their own
# to themselves run beside one that leaves the CPUs idle much of the time:
#
#   lint, deployment floor, beside the debug build (portability: the Mac lint and the
#   portability             type-check of the Darwin branches, Tools/portability)
#   build                   swift build --build-tests (what swift test would build)
#   tests                   swift test --skip-build; the real-run tests mostly wait
#                           (latencies, delays), so beside them, one after another:
#     the thread sanitizer's build of the replay host, docs/runtime.md's snippets
#     (Tools/portability/doc_snippets.py), the Python reference's
#     tests, the two cross-checks, advise's check and the fuzz run
#   the runtime under the thread sanitizer (its real runs; after the tests, so
#                           that no two real runs share the CPUs)
#
# A phase run beside another writes to .build/test-logs/NAME.log, printed whole
# under its heading when it ends (nothing interleaves). Every phase runs even
# when one fails; the exit status is 1 when any failed, and the last line
# names them.
#
# Environment (from the Makefile): SWIFT, BUNDLED (the bundled scenarios),
# FUZZ_SHORT (fuzz inputs).
set -u
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
FUZZ_SHORT=${FUZZ_SHORT:-1000}
logs=.build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
failed=()

# step NAME HEADING COMMAND…: runs COMMAND, its output to $logs/NAME.log, its
# heading to $logs/NAME.head and its exit status to $logs/NAME.rc.
step() {
    local name=$1 heading=$2
    shift 2
    echo "$heading" >"$logs/$name.head"
    "$@" >"$logs/$name.log" 2>&1
    echo $? >"$logs/$name.rc"
}

# show NAME…: each step's heading and output, once it has ended (a failed one said so).
show() {
    local name rc
    for name in "$@"; do
        echo "== $(cat "$logs/$name.head")"
        cat "$logs/$name.log"
        rc=$(cat "$logs/$name.rc")
        if [ "$rc" != 0 ]; then
            echo "error: $name failed (exit status $rc; its output above, also in $logs/$name.log)" >&2
            failed+=("$name")
        fi
    done
}

# run NAME HEADING COMMAND…: a phase in the foreground, its output as it comes.
run() {
    local name=$1 heading=$2
    shift 2
    echo "== $heading"
    "$@"
    local rc=$?
    if [ $rc != 0 ]; then
        echo "error: $name failed (exit status $rc)" >&2
        failed+=("$name")
    fi
    return $rc
}

step lint "lint (swift format, .swift-format; beside the build)" \
    "${MAKE:-make}" --no-print-directory lint &
lint=$!
step floor "the deployment floor (Tools/deployment-floor/check.py: nothing newer than Package.swift's platforms in LaunchflowRuntime's closure, nor in the launchflow executable's, the simulator's targets; beside the build)" \
    bash -c 'python3 Tools/deployment-floor/check.py; runtime=$?; python3 Tools/deployment-floor/check.py --target launchflow && exit $runtime' &
floor=$!
step portability "the Mac lint: Glibc-only spellings outside code guarded for Linux, and the Darwin branches type-checked against Darwin's declarations (Tools/portability; beside the build)" \
    "${MAKE:-make}" --no-print-directory portability &
portability=$!
run build "build (debug, the tests too; the first build of a clone takes 2-3 minutes, quietly)" \
    "$SWIFT" build -q --build-tests --disable-xctest
built=$?
wait $lint $floor $portability
show lint floor portability
if [ $built != 0 ]; then
    echo "make test: failed: ${failed[*]}" >&2
    exit 1
fi

# Beside the tests, one at a time (each of them uses both CPUs at times).
BESIDE=(tsan-build doc-snippets reference crosscheck crosscheck-new-keys crosscheck-phases crosscheck-clusters advise advise-phases fuzz)
{
    step tsan-build "the thread sanitizer's build of the replay host and the runtime probe (--sanitize=thread, .build/tsan; beside the tests)" \
        bash -c '"$0" build -q --build-path .build/tsan --sanitize=thread --product launchflow-replay-host &&
            "$0" build -q --build-path .build/tsan --sanitize=thread --product launchflow-runtime-probe' "$SWIFT"
    step doc-snippets "docs/runtime.md's Swift snippets: each type-checked against the runtime and the UIKit/SwiftUI stand-ins, the command-line host built as a new package and run to completion (Tools/portability/doc_snippets.py; beside the tests)" \
        python3 Tools/portability/doc_snippets.py
    step reference "the Python reference's own tests (beside the tests)" \
        python3 Tools/reference/test_ref.py
    step crosscheck "cross-check against the Python reference (60 random v2.1 scenarios; 'make crosscheck' runs 300; beside the tests)" \
        python3 Tools/reference/crosscheck.py --bin .build/debug/launchflow --seed 7 --count 60
    step crosscheck-new-keys "the same with device.cpus, mainThreadPriority and mainExecutor on some (60 random scenarios, --new-keys; beside the tests)" \
        python3 Tools/reference/crosscheck.py --bin .build/debug/launchflow --seed 8 --count 60 --new-keys
    step crosscheck-phases "the same with launch phases (launchPhases, startsIn) and the --new-keys keys (60 random scenarios, --phases --new-keys; beside the tests)" \
        python3 Tools/reference/crosscheck.py --bin .build/debug/launchflow --seed 9 --count 60 --phases --new-keys
    step crosscheck-clusters "the same with performance and efficiency cores (device.clusters, tasks[].qos) and launch phases (60 random scenarios, --clusters --phases; beside the tests)" \
        python3 Tools/reference/crosscheck.py --bin .build/debug/launchflow --seed 10 --count 60 --clusters --phases
    # shellcheck disable=SC2086 # BUNDLED is a list of files
    step advise "advise's plans checked with the reference (15 random v2.1 scenarios and the bundled ones; 'make crosscheck' runs 100; beside the tests)" \
        python3 Tools/reference/crosscheck_advise.py --bin .build/debug/launchflow --seed 7 --count 15 --files $BUNDLED
    step advise-phases "advise's plans checked with the reference on scenarios with launch phases (15 random, --phases; beside the tests)" \
        python3 Tools/reference/crosscheck_advise.py --bin .build/debug/launchflow --seed 9 --count 15 --phases
    step fuzz "fuzzing (Tools/fuzz/fuzz.py, $FUZZ_SHORT inputs through every command; 'make fuzz' runs more; beside the tests)" \
        python3 Tools/fuzz/fuzz.py --bin .build/debug/launchflow --seed 7 --count "$FUZZ_SHORT"
} &
beside=$!
trap 'kill $beside 2>/dev/null' INT TERM

run tests "tests (swift test: unit, command line, pictures, browser, the runtime on real run loops)" \
    "$SWIFT" test -q --disable-xctest --skip-build
wait $beside
show "${BESIDE[@]}"

# LifecycleTests' cases that end in a trap are left out: under the sanitizer the Swift runtime's
# backtracer cannot start its process (tsan's fork interceptor CHECK-fails) and the probe hangs.
if [ "$(cat "$logs/tsan-build.rc")" = 0 ]; then
    run tsan "the runtime under the thread sanitizer (the replay host and the runtime probe built with --sanitize=thread, their real runs again: a race fails them)" \
        env LAUNCHFLOW_REPLAY_HOST=.build/tsan/debug/launchflow-replay-host \
        LAUNCHFLOW_RUNTIME_PROBE=.build/tsan/debug/launchflow-runtime-probe "$SWIFT" test -q --disable-xctest --skip-build \
        --filter 'RealRunTests/(faults|idleOneByOneAndMaxConcurrent|codeOnlyRunsTheSameLaunch|traceImportsBack)|LifeCycleTests/lifeCycleOrder|ConcurrencyTests|LifecycleTests/(mainThreadHandOversKeepTheStatesOrder|aSecondDidFinishLaunchingThrows|aLaunchThatWouldWaitForeverFailsAndStops|workAfterTheEndRunsAsCancelledAndIsRecorded|aLaunchDroppedUnstartedEndsItsWorkers|aTaskRunsAtItsQoS)'
fi

if [ ${#failed[@]} != 0 ]; then
    echo "make test: failed: ${failed[*]}" >&2
    exit 1
fi

#!/bin/sh
# Rewrites the committed Perfetto fixtures (Tests/LaunchflowTests/Fixtures/import/perfetto-*.pftrace[.gz])
# from their specs, with the official protos. The tests check that they match.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
sh "$root/Tools/perfetto-fixtures/setup.sh"
py="$root/.build/venv-perfetto/bin/python"
dir="$root/Tests/LaunchflowTests/Fixtures/import"
"$py" "$root/Tools/perfetto-fixtures/write_trace.py" "$dir/perfetto-trackevent.spec.json" "$dir/perfetto-trackevent.pftrace"
"$py" "$root/Tools/perfetto-fixtures/write_trace.py" "$dir/perfetto-atrace.spec.json" "$dir/perfetto-atrace.pftrace.gz"
# Issue 37: the shapes real producers write (Chrome on Android, an Android start-up), and atrace's containers.
"$py" "$root/Tools/perfetto-fixtures/write_chrome_trace.py" chrome "$dir/perfetto-chrome-android.spec.json" "$dir/perfetto-chrome-android.pftrace"
"$py" "$root/Tools/perfetto-fixtures/write_chrome_trace.py" chrome "$dir/perfetto-chrome-legacy.spec.json" "$dir/perfetto-chrome-legacy.pftrace"
"$py" "$root/Tools/perfetto-fixtures/write_chrome_trace.py" android-startup "$dir/perfetto-android-startup.spec.json" "$dir/perfetto-android-startup.pftrace"
for variant in sched sched-other; do
    "$py" "$root/Tools/perfetto-fixtures/write_chrome_trace.py" android-startup "$dir/perfetto-android-startup-$variant.spec.json" "$dir/perfetto-android-startup-$variant.pftrace"
done
python3 "$root/Tools/perfetto-fixtures/write_atrace_containers.py" "$dir/atrace-launch.txt" "$dir"
echo "wrote $dir/perfetto-trackevent.pftrace $dir/perfetto-atrace.pftrace.gz $dir/perfetto-chrome-android.pftrace $dir/perfetto-chrome-legacy.pftrace $dir/perfetto-android-startup.pftrace $dir/perfetto-android-startup-sched.pftrace $dir/perfetto-android-startup-sched-other.pftrace $dir/atrace-launch.ctrace $dir/systrace-launch.html"

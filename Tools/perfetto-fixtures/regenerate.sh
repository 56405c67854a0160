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
echo "wrote $dir/perfetto-trackevent.pftrace $dir/perfetto-atrace.pftrace.gz"

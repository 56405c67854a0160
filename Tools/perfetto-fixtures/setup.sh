#!/bin/sh
# Creates the virtual environment the Perfetto tests write their traces with
# (.build/venv-perfetto: the official Perfetto protos and protobuf from PyPI).
# Idempotent; prints one line. Exit status 0 when the environment works.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/.build/venv-perfetto"
check='from perfetto.protos.perfetto.trace import perfetto_trace_pb2'
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" 2>/dev/null; then
    echo "perfetto fixtures: $venv is ready"
    exit 0
fi
log="${TMPDIR:-/tmp}/launchflow-venv-perfetto.log"
mkdir -p "$root/.build"
if ! python3 -m venv "$venv" >"$log" 2>&1; then
    # Debian's python3 without ensurepip: python3-venv brings it.
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; } >>"$log" 2>&1
        rm -rf "$venv"
        python3 -m venv "$venv" >>"$log" 2>&1
    fi
fi
if [ -x "$venv/bin/pip" ] && "$venv/bin/pip" install -q --disable-pip-version-check -r "$root/Tools/perfetto-fixtures/requirements.txt" >>"$log" 2>&1 \
    && "$venv/bin/python" -c "$check" 2>>"$log"; then
    echo "perfetto fixtures: created $venv (perfetto, protobuf from PyPI)"
    exit 0
fi
echo "warning: could not create $venv (see $log); the tests that write Perfetto traces with the official protos will be skipped" >&2
exit 1

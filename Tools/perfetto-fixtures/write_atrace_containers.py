#!/usr/bin/env python3
"""Writes atrace text in the containers real captures come in (issue 37),
with Python's zlib and plain text, independently of launchflow's reader:

    write_atrace_containers.py ATRACE.txt OUT_DIR

- OUT_DIR/atrace-launch.ctrace: what `adb shell atrace -z ...` prints: a
  `capturing trace... done` line, `TRACE:`, then the text compressed with zlib;
- OUT_DIR/systrace-launch.html: what `systrace.py -o trace.html` writes: an
  HTML page whose trace data sits in <script class="trace-data"> blocks, here
  one of Chrome JSON (as systrace writes beside atrace) and one of the atrace text.
"""
import os
import sys
import zlib

PAGE = """<!DOCTYPE html>
<html>
<head i18n-values="dir:textdirection;">
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<meta charset="utf-8"/>
<title>Android System Trace</title>
<script>
'use strict';
function onLoad() { /* the trace viewer */ }
</script>
</head>
<body>
  <!-- BEGIN TRACE -->
  <script class="trace-data" type="application/text">
{"traceEvents": [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "chrome"}}], "metadata": {}}
  </script>
  <script class="trace-data" type="application/text">
%s  </script>
<!-- END TRACE -->
</body>
</html>
"""


def main():
    text = open(sys.argv[1], "rb").read()
    out = sys.argv[2]
    with open(os.path.join(out, "atrace-launch.ctrace"), "wb") as f:
        f.write(b"capturing trace... done\nTRACE:\n" + zlib.compress(text, 9))
    with open(os.path.join(out, "systrace-launch.html"), "w") as f:
        f.write(PAGE % text.decode("utf-8"))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A seeded fuzzer for the launchflow binary (issue 19).

Usage:
    python3 Tools/fuzz/fuzz.py --bin .build/debug/launchflow [--count N] [--seed S] [--jobs J]
                               [--timeout SECONDS] [--keep DIR] [--only I] [--no-probes]

It mutates the project's own inputs -- the scenarios (one with budgets), the
Chrome, atrace and MetricKit traces, the Instruments exports (xctrace export
XML), Macrobenchmark and measurement files of
the test fixtures, launchflow's own trace output and its baselines -- with byte flips, truncation, deleted
and duplicated elements, values of the wrong type, huge and tiny numbers,
deep nesting and long or control-character names (for the XML: rows and cells
deleted or repeated, refs to unknown or unclosed ids, ids defined twice,
numbers that are not, tags and schemas renamed, entities, encodings), and runs one command on
each mutant, round-robin over every command and its main options (so every
command sees count / commands inputs).  A run fails on:

  trap       the process died of a signal (a Swift runtime failure is SIGILL,
             exit 132 from a shell) or exited with a status other than 0, 1, 2
  hang       it ran longer than --timeout seconds (killed)
  malformed  an output that is not well-formed: JSON on standard output with
             --format json or a .json file, SVG (XML) files, the HTML page
             (no character XML forbids, its inline SVG well-formed), Markdown
             holding a raw '<'
  control    a raw control byte (C0 other than line feed, DEL, C1) on
             standard output or standard error
  leftover   a temporary file (.NAME.tmp-PID-XXXX) left behind, or an output
             file written by a run that failed
  growth     time that grows faster than the input: every --probe-every
             inputs (at most 6 times per generator) one generator (a long
             name, many tasks, many slices, a deep array…) is run at size n
             and 8n; 8n may take at most 24 times as long (linear: 8,
             quadratic: 64) in CPU time (the process's user and system
             time: what an algorithm's growth costs, whatever else shares
             the machine's CPUs, as in make test)
  kill       every --kill-every inputs (at most 24 times), SIGINT, SIGTERM or
             SIGKILL (then a second run) in the middle of a large write left a
             temporary file, or a partial output

Every input is made from --seed and its index alone, so a failure is
reproduced with --only INDEX (and --keep DIR keeps its files).  The last line
is 'fuzz: N passed, M failed'; the exit status is 1 when anything failed.

Why a Python driver and not a Swift target: a trap kills the process that
traps, so only a driver outside it can count traps and go on; per-input time
limits, exit statuses, signals, what is left on disk and what reaches a
terminal are properties of a process; and Python's json and expat parsers
check the output independently of launchflow's own writers.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "LaunchflowTests", "Fixtures", "import")
XCTRACE = os.path.join(FIXTURES, "xctrace")

# MARK: Seeds


def read(path):
    with open(path, "rb") as f:
        return f.read()


def seeds(binary):
    """The corpus: (kind, name, bytes) for every kind of input launchflow reads."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "scenarios", "*.json"))):
        if not path.endswith(".schema.json"):
            out.append(("scenario", os.path.basename(path), read(path)))
    for path in sorted(glob.glob(os.path.join(ROOT, "docs", "examples", "*.json"))):
        out.append(("scenario", os.path.basename(path), read(path)))
    for name in ["chrome-app-launch.json", "chrome-bare-array.json", "chrome-unbalanced.json",
                 "chrome-no-thread-names.json", "chrome-negative-dur.json", "atrace-launch.txt",
                 "atrace-unbalanced.txt", "metrickit-payload.json"]:
        out.append(("trace", name, read(os.path.join(FIXTURES, name))))
    for path in sorted(glob.glob(os.path.join(FIXTURES, "chrome-several-runs", "*"))):
        out.append(("trace", os.path.basename(path), read(path)))
    # Traces as real producers write them (issue 37): the containers of atrace, Chrome's and
    # Android's Perfetto shapes, and the corpus of real recordings other projects keep.
    for name in ["atrace-launch.ctrace", "systrace-launch.html", "perfetto-chrome-android.pftrace",
                 "perfetto-android-startup.pftrace", "perfetto-trackevent.pftrace"]:
        out.append(("trace", name, read(os.path.join(FIXTURES, name))))
    for path in sorted(glob.glob(os.path.join(FIXTURES, "corpus", "*"))):
        if not path.endswith("README.md"):
            out.append(("xctrace" if path.endswith(".xml") else "trace", os.path.basename(path), read(path)))
    for path in sorted(glob.glob(os.path.join(XCTRACE, "*.xml"))):
        out.append(("xctrace", os.path.basename(path), read(path)))
    own = subprocess.run([binary, "simulate", os.path.join(ROOT, "scenarios", "article.json"), "--format", "trace"],
                         capture_output=True, check=True).stdout
    out.append(("trace", "launchflow-trace.json", own))
    for name in ["macrobenchmark-benchmarkData.json", "measured-ttff.json", "metrickit-payload.json"]:
        out.append(("measured", name, read(os.path.join(FIXTURES, name))))
    article = json.loads(read(os.path.join(ROOT, "scenarios", "article.json")))
    article["budgets"] = {"timeToFirstFrameMs": 400, "launchCompleteMs": 900, "cpuUtilization": 0.5}
    out.append(("scenario", "article-budgets.json", json.dumps(article, indent=2).encode()))
    for name in ["article.json", "permission-alerts.json"]:
        recorded = subprocess.run([binary, "baseline", os.path.join(ROOT, "scenarios", name)],
                                  capture_output=True, check=True).stdout
        out.append(("baseline", "baseline-of-" + name, recorded))
    return out


# MARK: Mutations

HUGE = [1e308, -1e308, 1e19, -1e19, 9007199254740993, 1.8e19, 4e15, 4.000001e15, 1e15, 2**63, -2**63, 1e-320,
        5e-324, -0.0, 0, -1, 3600000, 3600000.001, 1e300, 123456789012345678901234567890]
NASTY = ["\u001b[31m", "\u0007", "\u0000", "\u007f", "\u0085", "\u009b", "\ufffe", "\uffff", "\u202e", "\u2066",
         "<img src=x onerror=alert(1)>", "]]>", "-->", "</script>", "&amp;", "\\N", "*_`|[x](y)#~", "\n", "\r\t",
         "%s%n", "é\u0301", "🚀"]


def long_name(rng):
    unit = rng.choice(["a", "\u202e", "é", "🚀", "\u0007", "<&>", "ab-"])
    return unit * rng.choice([1000, 4096, 4097, 20000, 100000])


def random_value(rng, depth=0):
    pick = rng.randrange(9)
    if pick == 0:
        return rng.choice(HUGE)
    if pick == 1:
        return rng.choice(NASTY) + "x"
    if pick == 2:
        return long_name(rng)
    if pick == 3:
        return rng.choice([True, False, None])
    if pick == 4 and depth < 2:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    if pick == 5 and depth < 2:
        return {rng.choice(["id", "cost", "name", "x"]): random_value(rng, depth + 1)}
    if pick == 6:
        return rng.uniform(-1e6, 1e6)
    if pick == 7:
        return rng.randrange(-5, 50)
    return "".join(rng.choice("abc-_. ") for _ in range(rng.randrange(12)))


def nodes(value, path=()):
    """Every (path, value) in a JSON document."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, path + (i,))


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def mutate_tree(rng, doc):
    """One structural mutation of a parsed document, in place where possible; returns the document."""
    all_nodes = list(nodes(doc))
    path, value = rng.choice(all_nodes)
    op = rng.randrange(10)
    if not path:
        if op < 2:
            return [doc] * rng.randrange(2)
        nested = doc
        for _ in range(rng.choice([100, 511, 513, 2000])):
            nested = [nested]
        return nested if op < 4 else {"tasks": nested, "name": "deep"}
    parent = get(doc, path[:-1])
    key = path[-1]
    if op == 0 and isinstance(parent, list):
        del parent[key]
    elif op == 0 and isinstance(parent, dict):
        del parent[key]
    elif op == 1 and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(value)))
        if rng.random() < 0.2:
            parent.extend([value] * rng.choice([10, 1000]))
    elif op == 1 and isinstance(parent, dict):
        parent[key + rng.choice(["", "x", "Ms"])] = json.loads(json.dumps(value))
    elif op in (2, 3):
        parent[key] = rng.choice(HUGE)
    elif op == 4:
        parent[key] = rng.choice(NASTY) + (value if isinstance(value, str) else "") + rng.choice(NASTY)
    elif op == 5:
        parent[key] = long_name(rng)
    elif op == 6 and isinstance(value, (int, float)) and not isinstance(value, bool):
        parent[key] = value * rng.choice([-1, 0, 1000, 1e6, 1e-6, 1.0000001])
    elif op == 7:
        wrapped = value
        for _ in range(rng.choice([3, 600])):
            wrapped = [wrapped]
        parent[key] = wrapped
    elif op == 8 and isinstance(parent, dict):
        other = rng.choice(list(parent.keys()))
        parent[key], parent[other] = parent[other], parent[key]
    else:
        parent[key] = random_value(rng)
    return doc


def mutate_bytes(rng, data):
    data = bytearray(data)
    op = rng.randrange(6)
    if not data:
        return bytes(rng.randrange(256) for _ in range(8))
    if op == 0:
        for _ in range(rng.randrange(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif op == 1:
        del data[rng.randrange(len(data)):]
    elif op == 2:
        a = rng.randrange(len(data))
        b = min(len(data), a + rng.randrange(1, 400))
        data[a:a] = data[a:b] * rng.randrange(1, 4)
    elif op == 3:
        a = rng.randrange(len(data))
        del data[a:a + rng.randrange(1, 200)]
    elif op == 4:
        a = rng.randrange(len(data))
        data[a:a] = rng.choice(NASTY).encode("utf-8", "surrogatepass") + bytes([rng.randrange(256)])
    else:
        a = rng.randrange(len(data))
        data[a:a] = rng.choice([b"\xff\xfe", b"\xc0\x80", b"\xed\xa0\x80", b"\\ud800", b"\x00", b"1e999", b"-"])
    return bytes(data)


def mutate_lines(rng, data):
    """atrace text: lines deleted, duplicated, renamed, renumbered."""
    lines = data.split(b"\n")
    for _ in range(rng.randrange(1, 4)):
        k = rng.randrange(len(lines))
        op = rng.randrange(5)
        if op == 0:
            del lines[k]
        elif op == 1:
            lines[k:k] = [lines[k]] * rng.choice([1, 2, 500])
        elif op == 2:
            lines[k] = re.sub(rb"\|([^|\n]*)$", lambda m: b"|" + long_name(rng).encode(), lines[k])
        elif op == 3:
            lines[k] = re.sub(rb"\d+\.\d+", rng.choice([b"99999999999.999999", b"0.0", b"4000000000.1"]), lines[k])
        else:
            lines[k] = lines[k] + rng.choice(NASTY).encode()
        if not lines:
            break
    return b"\n".join(lines)


def mutate_xml(rng, data):
    """An Instruments export (xctrace export XML): one structural change, by regular expressions over the bytes."""
    op = rng.randrange(14)
    rows = [m.span() for m in re.finditer(rb"<row>.*?</row>\n?", data, re.S)]
    elements = [m.span() for m in re.finditer(rb"<([a-z-]+)( [^<>]*)?>[^<]*</\1>|<[a-z-]+ ref=\"\d+\"/>|<sentinel/>",
                                              data)]
    if op == 0 and rows:  # a row deleted, or repeated (1, 2 or 500 times)
        a, b = rng.choice(rows)
        return data[:a] + data[a:b] * rng.choice([0, 2, 3, 501]) + data[b:]
    if op == 1 and elements:  # a cell (or a value inside one) deleted or repeated
        a, b = rng.choice(elements)
        return data[:a] + data[a:b] * rng.choice([0, 0, 2]) + data[b:]
    if op == 2:  # a ref to an unknown id, to an id not yet closed, or not a number
        refs = list(re.finditer(rb'ref="(\d+)"', data))
        if refs:
            m = rng.choice(refs)
            new = rng.choice([b"999999", b"0", b"-1", b"1", b"x", b"", b"99999999999999999999", b"67108864",
                              str(int(m.group(1)) + 1).encode()])
            return data[:m.start(1)] + new + data[m.end(1):]
    if op == 3:  # an id defined twice, removed, or made a ref
        ids = list(re.finditer(rb' id="(\d+)"', data))
        if ids:
            m = rng.choice(ids)
            new = rng.choice([b' id="1"', b"", b' ref="1"', b' id="1" ref="2"', b' id="67108863"', b' id="a b"'])
            return data[:m.start()] + new + data[m.end():]
    if op == 4:  # a number that is not one
        numbers = list(re.finditer(rb">(\d+)<", data))
        if numbers:
            m = rng.choice(numbers)
            new = rng.choice([b"-1", b"1e999", b"99999999999999999999", b"", b"0x10", b"1.5", b" 12 ", b"4000000000000000001",
                              b"9223372036854775807", b"\xd9\xa3", b"&#x31;", b"+5"])
            return data[:m.start(1)] + new + data[m.end(1):]
    if op == 5:  # the schema renamed (another table's, or none), or a column deleted
        schemas = list(re.finditer(rb'<schema name="([^"]*)"', data))
        if schemas and rng.random() < 0.6:
            m = rng.choice(schemas)
            new = rng.choice([b"os-signpost", b"os-signpost-interval", b"life-cycle-period", b"thread-state",
                              b"time-profile", b"", b"x"])
            return data[:m.start(1)] + new + data[m.end(1):]
        cols = [m.span() for m in re.finditer(rb"<col>.*?</col>", data, re.S)]
        if cols:
            a, b = rng.choice(cols)
            return data[:a] + data[a:b] * rng.choice([0, 2]) + data[b:]
    if op == 6:  # a tag renamed (both ends)
        tags = sorted(set(re.findall(rb"<([a-z][a-z-]*)[ >/]", data)))
        if tags:
            old = rng.choice(tags)
            new = rng.choice(tags + [b"x", b"row", b"node", b"schema", b"thread", b"process"])
            return re.sub(rb"(</?)" + re.escape(old) + rb"([ >/])", lambda m: m.group(1) + new + m.group(2), data)
    if op == 7 and elements:  # a cell nested deep
        a, b = rng.choice(elements)
        depth = rng.choice([50, 600, 3000])
        return data[:a] + b"<thread>" * depth + data[a:b] + b"</thread>" * depth + data[b:]
    if op == 8:  # a display string changed: Main Thread renamed or moved, a long or odd name
        fmts = list(re.finditer(rb'fmt="([^"]*)"', data))
        if fmts:
            m = rng.choice(fmts)
            new = rng.choice([b"Main Thread 0x1 (x, pid: 1)", b"", b"Main Thread", b"(", b") (", b"a (pid: )",
                              long_name(rng).encode().replace(b"<", b"&lt;").replace(b"&>", b"&amp;&gt;"),
                              b"&#x202e;&lt;&amp;", b"com.example.shop (581)"])
            return data[:m.start(1)] + new + data[m.end(1):]
    if op == 9:  # entities: undefined, internal, nested (a small billion laughs)
        doctype = rng.choice([
            b'<!DOCTYPE trace-query-result [<!ENTITY a "task">]>',
            b'<!DOCTYPE trace-query-result [<!ENTITY a "xxxxxxxxxx"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
            b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">'
            b'<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>',
            b'<!DOCTYPE trace-query-result SYSTEM "file:///etc/passwd">',
            b'<!DOCTYPE trace-query-result [<!ENTITY x SYSTEM "file:///dev/zero">]>'])
        body = data.split(b"?>", 1)
        text = list(re.finditer(rb'>([a-zA-Z][^<]*)<', data))
        if len(body) == 2 and text:
            m = rng.choice(text)
            data = data[:m.start(1)] + rng.choice([b"&a;", b"&f;", b"&x;", b"&nope;", b"&#0;", b"&#xD800;"]) \
                + data[m.end(1):]
            body = data.split(b"?>", 1)
            return body[0] + b"?>" + doctype + body[1]
    if op == 10:  # another declared encoding, a BOM, or no declaration
        head = rng.choice([b'<?xml version="1.0" encoding="UTF-16"?>', b'<?xml version="1.0" encoding="ISO-8859-1"?>',
                           b'\xef\xbb\xbf<?xml version="1.0"?>', b"", b'<?xml version="1.1"?>', b'<?xml version="2"?>'])
        return re.sub(rb"^<\?xml[^>]*\?>", lambda m: head, data, count=1)
    if op == 11 and rows:  # rows moved: one row's cells put in another order
        a, b = rng.choice(rows)
        cells = re.findall(rb"<[a-z-]+ ref=\"\d+\"/>|<sentinel/>", data[a:b])
        if len(cells) > 1:
            rng.shuffle(cells)
            return data[:a] + b"<row>" + b"".join(cells) + b"</row>\n" + data[b:]
    if op == 12:  # a node without its schema first, or a second root, or trailing text
        return rng.choice([
            data.replace(b"<schema", b"<node><schema", 1) if rng.random() < 0.5 else data.replace(b"</schema>", b"</schema></node><node>", 1),
            data + b"<trace-query-result/>", data + b"garbage", data.replace(b"</trace-query-result>", b"")])
    return mutate_bytes(rng, data)


GENTLE = ["<img src=x onerror=alert(1)>", "]]> --> <!--", "é\u0301 🚀", "\u202eevil", "*_`|[x](y)#~\\N",
          "two\nlines\ttab", "&amp; &#0; &lt;", "esc\u001b[2Jbell\u0007", "\u007fdel\u0085"]


def mutate_gently(rng, doc):
    """A change that usually keeps the input valid, so that the writers run: an odd name, a number moved."""
    leaves = [(p, v) for p, v in nodes(doc) if p and not isinstance(v, (dict, list))]
    if not leaves:
        return doc
    path, value = rng.choice(leaves)
    parent = get(doc, path[:-1])
    if isinstance(value, str):
        parent[path[-1]] = value + rng.choice(GENTLE)
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and rng.random() < 0.2:
        parent[path[-1]] = rng.choice(HUGE)  # a number out of every range, in an input otherwise valid
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        parent[path[-1]] = type(value)(value * rng.choice([0, 0.5, 2, 3])) if value else rng.choice([1, 5, 50])
    return doc


def mutate(rng, data):
    """Gentle changes to the names and numbers of a JSON input (2 in 5), else 1 to 3 mutations:
    structural when the bytes are JSON or XML, by lines or bytes otherwise."""
    if data.lstrip()[:1] == b"<":
        for _ in range(rng.choice([1, 1, 2, 3])):
            data = mutate_xml(rng, data) if rng.random() < 0.85 else mutate_bytes(rng, data)
        return data
    if rng.random() < 0.4:
        try:
            doc = json.loads(data)
            for _ in range(rng.choice([1, 2, 3])):
                doc = mutate_gently(rng, doc)
            return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8")
        except (ValueError, UnicodeDecodeError, RecursionError):
            pass
    for _ in range(rng.choice([1, 1, 2, 3])):
        try:
            doc = json.loads(data)
            structural = rng.random() < 0.8
        except (ValueError, UnicodeDecodeError, RecursionError):
            structural = False
        if structural:
            try:
                doc = mutate_tree(rng, doc)
                data = json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
            except RecursionError:
                data = mutate_bytes(rng, data)
        elif data[:1] not in (b"{", b"[") and rng.random() < 0.7:
            data = mutate_lines(rng, data)
        else:
            data = mutate_bytes(rng, data)
    return data


# MARK: Commands

ARTICLE = os.path.join(ROOT, "scenarios", "article.json")
MEASURED = os.path.join(FIXTURES, "measured-ttff.json")
PERMISSIONS = os.path.join(ROOT, "scenarios", "permission-alerts.json")
SPLIT_LIFECYCLE = os.path.join(XCTRACE, "split-lifecycle.xml")
SPLIT_STATES = os.path.join(XCTRACE, "split-thread-state.xml")

# (kind, arguments): INPUT is the mutant, OUT a fresh path in the run's folder, DIR a fresh folder.
COMMANDS = [
    ("scenario", ["validate", "INPUT"]),
    ("scenario", ["validate", "INPUT", "--strict"]),
    ("scenario", ["simulate", "INPUT"]),
    ("scenario", ["simulate", "INPUT", "--format", "json", "--strategy", "priority"]),
    ("scenario", ["simulate", "INPUT", "--format", "trace", "--strategy", "anchored", "--max-concurrent", "1"]),
    ("scenario", ["compare", "INPUT"]),
    ("scenario", ["compare", "INPUT", "--format", "markdown", "--out", "DIR"]),
    ("scenario", ["compare", "INPUT", "--format", "json", "--idle-mode", "oneByOne"]),
    ("scenario", ["render", "INPUT", "--out", "DIR"]),
    ("scenario", ["report", "INPUT", "--out", "OUT.html", "--jobs", "1"]),
    ("scenario", ["check", "INPUT", "--baseline", "BASELINE", "--format", "json"]),
    ("scenario", ["baseline", "INPUT"]),
    ("scenario", ["diff", ARTICLE, "INPUT", "--format", "json"]),
    ("scenario", ["sweep", "INPUT", "--runs", "20", "--jobs", "1", "--out", "DIR"]),
    ("scenario", ["whatif", "INPUT", "--jobs", "1", "--format", "json"]),
    ("scenario", ["calibrate", "INPUT", "--measured", MEASURED, "--runs", "20", "--jobs", "1", "--plot", "OUT.svg"]),
    ("trace", ["import", "INPUT"]),
    ("trace", ["import", "INPUT", "--out", "OUT.json"]),
    ("trace", ["import", "INPUT", "--into", "INTO", "--out", "OUT.json"]),
    ("trace", ["import", "INPUT", "--match", ".", "--premain", "dyld"]),
    ("xctrace", ["import", "INPUT"]),
    ("xctrace", ["import", "INPUT", "--out", "OUT.json", "--cost", "running"]),
    ("xctrace", ["import", "INPUT", "--cpus", "2", "--out", "OUT.json"]),
    ("trace", ["import", "INPUT", "--cpus", "1"]),
    ("xctrace", ["import", "INPUT", SPLIT_LIFECYCLE, SPLIT_STATES, "--out", "OUT.json", "--from", "xctrace"]),
    ("xctrace", ["import", "INPUT", "--process", "com.example.shop", "--main-thread", "4790", "--match", "a"]),
    ("xctrace", ["import", "INPUT", "--into", "INTO", "--out", "OUT.json", "--process", "581"]),
    ("measured", ["calibrate", ARTICLE, "--measured", "INPUT", "--fit", "--out", "OUT.json", "--plot", "OUT.svg",
                  "--runs", "20", "--jobs", "1"]),
    ("measured", ["calibrate", ARTICLE, "--measured", "INPUT", "--format", "json", "--runs", "20", "--jobs", "1"]),
    ("measured", ["import", "INPUT"]),
    ("baseline", ["check", ARTICLE, "--baseline", "INPUT", "--tolerance", "2%"]),
    ("baseline", ["check", PERMISSIONS, "--baseline", "INPUT", "--format", "json", "--strategies", "dag"]),
    ("scenario", ["check", "INPUT", "--budget", "frames=3", "--budget", "timeToFirstFrameMs=250ms"]),
    # Option values (NUM: a number from OPTION_VALUES) on the unchanged bundled scenario or a mutant.
    ("scenario", ["sweep", "INPUT", "--runs", "NUM", "--jitter", "NUM", "--seed", "NUM", "--jobs", "1"]),
    ("scenario", ["whatif", "INPUT", "--reduce", "NUM%", "--top", "NUM", "--jobs", "1"]),
    ("scenario", ["simulate", "INPUT", "--max-concurrent", "NUM", "--strategy", "dag"]),
    ("baseline", ["check", ARTICLE, "--baseline", "INPUT", "--tolerance", "NUM%", "--budget", "frames=NUM"]),
    ("baseline", ["check", ARTICLE, "--baseline", "INPUT", "--tolerance", "NUMms"]),
]

# (No valid value that asks for a legitimately long run, such as --runs 1000000: that is not a hang.)
OPTION_VALUES = ["1", "0", "-1", "2", "20", "0.5", "1e308", "-1e308", "1e19", "9223372036854775807",
                 "18446744073709551616", "nan", "inf", "1e-320", "4.5", "", "x", "100", "1000", "1000001", "2e6"]

CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
TEMPORARY = re.compile(r"^\..+\.tmp-\d+-[0-9a-f]+$")


def check_outputs(folder, before, status, args, stdout, stderr):
    """The problems with one finished run: (category, detail) pairs."""
    problems = []
    for stream, data in (("stdout", stdout), ("stderr", stderr)):
        found = CONTROL.search(data)
        if found:
            problems.append(("control", f"raw byte {found.group()!r} on {stream} at {found.start()}"))
    if status == 0 and "--format" in args and args[args.index("--format") + 1] in ("json", "trace"):
        try:
            json.loads(stdout)
        except ValueError as error:
            problems.append(("malformed", f"standard output is not JSON: {error}"))
    if status == 0 and args[0] == "import" and "--out" not in args:
        try:
            json.loads(stdout)
        except ValueError as error:
            problems.append(("malformed", f"the imported scenario is not JSON: {error}"))
    after = set()
    for directory, _, files in os.walk(folder):
        for name in files:
            after.add(os.path.relpath(os.path.join(directory, name), folder))
    for name in sorted(after - before):
        path = os.path.join(folder, name)
        base = os.path.basename(name)
        if TEMPORARY.match(base):
            problems.append(("leftover", f"temporary file {name}"))
            continue
        if status == 2:
            problems.append(("leftover", f"{name} written by a run that failed"))
            continue
        data = read(path)
        problems += well_formed(name, data)
    return problems


def well_formed(name, data):
    problems = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return [("malformed", f"{name} is not UTF-8: {error}")]
    if name.endswith(".json"):
        try:
            json.loads(text)
        except ValueError as error:
            problems.append(("malformed", f"{name}: {error}"))
    elif name.endswith(".svg") or name.endswith(".html"):
        bad = XML_FORBIDDEN.search(text)
        if bad:
            problems.append(("malformed", f"{name} holds U+{ord(bad.group()):04X}, which XML forbids"))
        pictures = [text] if name.endswith(".svg") else re.findall(r"<svg.*?</svg>", text.split("<script")[0], re.S)
        for k, svg in enumerate(pictures):
            try:
                ElementTree.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", svg).encode("utf-8"))
            except ElementTree.ParseError as error:
                problems.append(("malformed", f"{name} picture {k}: {error}"))
    elif name.endswith(".md") and "<" in text:
        problems.append(("malformed", f"{name} holds raw '<' (HTML in Markdown)"))
    return problems


def run(binary, args, cwd, timeout):
    """(status, stdout, stderr, seconds, timed_out); a negative status is the signal that ended it."""
    start = time.monotonic()
    process = subprocess.Popen([binary] + args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        timed_out = True
    return process.returncode, stdout, stderr, time.monotonic() - start, timed_out


def classify(status, timed_out):
    if timed_out:
        return [("hang", "killed after the time limit")]
    if status < 0 or status not in (0, 1, 2):
        name = signal.Signals(-status).name if status < 0 else f"exit {status}"
        return [("trap", name)]
    return []


def fuzz_one(index, options, corpus, shared):
    """Mutates one input, runs its command; returns (index, command, problems, seconds, reproduction)."""
    rng = random.Random(hashlib.sha256(f"{options.seed}:{index}".encode()).digest())
    kind, args = COMMANDS[index % len(COMMANDS)]
    sources = [s for s in corpus if s[0] == kind]
    _, seed_name, original = sources[rng.randrange(len(sources))]
    data = mutate(rng, original)
    folder = tempfile.mkdtemp(prefix=f"lf-fuzz-{index}-", dir=options.workdir)
    suffix = ".json" if data[:1] in (b"{", b"[") else ".xml" if kind == "xctrace" else ".txt"
    input_path = os.path.join(folder, "input" + suffix)
    with open(input_path, "wb") as f:
        f.write(data)
    shutil.copy(ARTICLE, os.path.join(folder, "into.json"))
    replace = {"INPUT": input_path, "OUT.html": os.path.join(folder, "out", "report.html"),
               "OUT.json": os.path.join(folder, "out.json"), "OUT.svg": os.path.join(folder, "plot.svg"),
               "DIR": os.path.join(folder, "out"), "BASELINE": shared["baseline"],
               "INTO": os.path.join(folder, "into.json")}
    args = [replace.get(a, a) for a in args]
    args = [a.replace("NUM", rng.choice(OPTION_VALUES)) if "NUM" in a else a for a in args]
    if "NUM" in " ".join(COMMANDS[index % len(COMMANDS)][1]) and rng.random() < 0.5:
        with open(input_path, "wb") as f:  # the options alone, on the input as it was
            f.write(original)
    before = {"input" + suffix, "into.json"}
    status, stdout, stderr, seconds, timed_out = run(options.bin, args, folder, options.timeout)
    problems = classify(status, timed_out)
    if not timed_out:
        problems += check_outputs(folder, before, status, args, stdout, stderr)
    # import --into refreshes the file in place only without --out; with it, into.json must be unchanged.
    if read(os.path.join(folder, "into.json")) != read(ARTICLE):
        problems.append(("leftover", "--into file changed although --out was given"))
    if problems and options.keep:
        target = os.path.join(options.keep, f"{index}")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(folder, target)
        with open(os.path.join(target, "command.txt"), "w") as f:
            f.write(" ".join(args) + f"\nseed input: {seed_name}\nstatus: {status}\n")
            f.write(stderr.decode("utf-8", "replace")[-4000:])
    shutil.rmtree(folder, ignore_errors=True)
    return index, COMMANDS[index % len(COMMANDS)][1][0], problems, seconds, seed_name, status


# MARK: Probes: growth and kills


def growth_generators():
    """(name, kind, command arguments, make(size) -> bytes) for the growth probes."""
    def scenario(tasks, name="s", description=""):
        return json.dumps({"name": name, "description": description, "tasks": tasks}, ensure_ascii=False).encode()

    def chain(n):
        return [{"id": f"t{i}", "cost": 1, "mainThreadOnly": i == 0, "firstFrame": i == 0,
                 "dependsOn": [f"t{i - 1}"] if i else []} for i in range(n)]

    def export(rows, name="x"):
        """An os-signpost-interval export of `rows` rows on one thread (the values after the first by ref)."""
        cols = "".join(f"<col><mnemonic>{m}</mnemonic></col>" for m in
                       ["start", "duration", "name", "process", "start-thread"])
        first = ('<row><start-time id="1">0</start-time><duration id="2">5</duration>'
                 f'<string id="3">{name}</string><process id="4" fmt="app (1)"><pid id="5">1</pid></process>'
                 '<thread id="6" fmt="Main Thread 0x1 (app, pid: 1)"><tid id="7">1</tid><process ref="4"/></thread>'
                 '</row>\n')
        body = "".join(f'<row><start-time id="{8 + 3 * i}">{10 * i + 10}</start-time><duration ref="2"/>'
                       f'<string id="{9 + 3 * i}">s{i}</string><process ref="4"/><thread ref="6"/></row>\n'
                       for i in range(rows))
        return ('<?xml version="1.0"?>\n<trace-query-result><node><schema name="os-signpost-interval">'
                f"{cols}</schema>\n{first}{body}</node></trace-query-result>\n").encode()

    def trace(events):
        head = [{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "main"}}]
        return json.dumps({"traceEvents": head + events}, ensure_ascii=False).encode()

    return [
        ("a long bidi id (validate)", ["validate", "INPUT"],
         lambda n: scenario([{"id": "\u202e" * 4096, "cost": 1, "dependsOn": ["\u202e" * (n * 2500)]}])),
        ("a long unknown key (validate)", ["validate", "INPUT"],
         lambda n: scenario([{"id": "a", "cost": 1, "\u202e" * (n * 2500): 1}])),
        ("a long slice name (import)", ["import", "INPUT"],
         lambda n: trace([{"name": "\u202e" * (n * 2000), "ph": "B", "pid": 1, "tid": 1, "ts": 0},
                          {"name": "x" + "\u202e" * (n * 2000), "ph": "E", "pid": 1, "tid": 1, "ts": 5}])),
        ("many distinct slices (import)", ["import", "INPUT"],
         lambda n: trace([{"name": f"s{i}", "ph": "X", "pid": 1, "tid": 1, "ts": i * 10, "dur": 5}
                          for i in range(n * 2000)])),
        ("many unknown dependencies (validate)", ["validate", "INPUT"],
         lambda n: scenario([{"id": f"t{i}", "cost": 1, "dependsOn": [f"u{i}"]} for i in range(n * 2000)])),
        ("a long chain (compare)", ["compare", "INPUT", "--format", "json"], lambda n: scenario(chain(n * 500))),
        ("a long description (report)", ["report", "INPUT", "--out", "OUT.html", "--jobs", "1"],
         lambda n: scenario(chain(3), description="<&>\u202e" * (n * 1500))),
        ("many intervals (import, Instruments)", ["import", "INPUT"], lambda n: export(n * 3000)),
        ("a long signpost name (import, Instruments)", ["import", "INPUT"],
         lambda n: export(2, name="\u202e" * (n * 2000))),
        ("deep nesting (validate)", ["validate", "INPUT"],
         lambda n: b'{"name": "x", "tasks": ' + b"[" * (n * 60) + b"]" * (n * 60) + b"}"),
    ]


def children_cpu_seconds():
    """User and system time of this process's waited-for children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def probe_growth(options, k):
    """Runs generator k at sizes n and 8n; a problem when 8n takes more than 24 times as much CPU time (and
    over 1 s). CPU time, not the wall clock: make test runs the fuzzer beside other phases, and a run slowed
    by them would look like growth. The probes run one at a time after the inputs' pool, so the children's
    time that grew is that run's alone."""
    name, args, make = growth_generators()[k % len(growth_generators())]
    times = []
    for size in (1, 8):
        folder = tempfile.mkdtemp(prefix="lf-fuzz-growth-", dir=options.workdir)
        path = os.path.join(folder, "input.json")
        with open(path, "wb") as f:
            f.write(make(size))
        full = [{"INPUT": path, "OUT.html": os.path.join(folder, "r.html")}.get(a, a) for a in args]
        before = children_cpu_seconds()
        status, _, _, _, timed_out = run(options.bin, full, folder, options.timeout * 4)
        seconds = children_cpu_seconds() - before
        shutil.rmtree(folder, ignore_errors=True)
        problems = classify(status, timed_out)
        if problems:
            return name, [(c, f"{d} ({name}, size {size})") for c, d in problems]
        times.append(seconds)
    ratio = times[1] / max(times[0], 1e-3)
    if ratio > 24 and times[1] > 1.0:
        return name, [("growth", f"{name}: {times[0]:.2f} s at n, {times[1]:.2f} s at 8n of CPU time (x{ratio:.0f})")]
    return name, []


def probe_kill(options, k, big):
    """SIGINT, SIGTERM or SIGKILL (then a second run) in the middle of a large write: the probe
    watches the folder and signals as soon as the temporary file appears (or, one time in four,
    at a random moment)."""
    rng = random.Random(f"kill:{options.seed}:{k}")
    folder = tempfile.mkdtemp(prefix="lf-fuzz-kill-", dir=options.workdir)
    out = os.path.join(folder, "out.json")
    with open(out, "w") as f:
        f.write("old")
    sig = rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
    args = [options.bin, "import", big, "--out", out]
    process = subprocess.Popen(args, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + (rng.uniform(0, options.kill_window) if rng.random() < 0.25 else options.timeout)
    hit = False
    while process.poll() is None and time.monotonic() < deadline:
        if any(TEMPORARY.match(n) for n in os.listdir(folder)):
            hit = True
            break
        time.sleep(0.0005)
    process.send_signal(sig)
    process.wait()
    problems = []
    if sig == signal.SIGKILL:  # cannot be caught: the next write must clear what it left
        subprocess.run(args, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    left = [n for n in os.listdir(folder) if TEMPORARY.match(n)]
    if left:
        problems.append(("kill", f"{sig.name}{' mid-write' if hit else ''}: temporary files left: {left}"))
    data = read(out)
    if data != b"old":
        try:
            json.loads(data)
        except ValueError:
            problems.append(("kill", f"{sig.name}: a partial output ({len(data)} bytes)"))
    shutil.rmtree(folder, ignore_errors=True)
    return sig.name + (" mid-write" if hit else ""), problems


# MARK: Main


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug", "launchflow"))
    parser.add_argument("--count", type=int, default=1000, help="mutated inputs (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per input (default 20)")
    parser.add_argument("--probe-every", type=int, default=250, help="a growth probe every N inputs")
    parser.add_argument("--kill-every", type=int, default=500, help="a kill probe every N inputs")
    parser.add_argument("--kill-window", type=float, default=3.0, help="kills land within this many seconds")
    parser.add_argument("--no-probes", action="store_true")
    parser.add_argument("--only-probes", action="store_true", help="the probes of --count inputs, without the inputs")
    parser.add_argument("--keep", help="keep each failing input, its command and stderr in this folder")
    parser.add_argument("--only", type=int, help="run only the input of this index")
    options = parser.parse_args()
    options.bin = os.path.abspath(options.bin)
    if not os.access(options.bin, os.X_OK):
        sys.exit(f"fuzz: no launchflow binary at {options.bin} (run 'swift build' first)")
    options.workdir = tempfile.mkdtemp(prefix="lf-fuzz-")
    if options.keep:
        os.makedirs(options.keep, exist_ok=True)
    corpus = seeds(options.bin)
    baseline = os.path.join(options.workdir, "baseline.json")
    with open(baseline, "wb") as f:
        f.write(subprocess.run([options.bin, "baseline", ARTICLE], capture_output=True, check=True).stdout)
    shared = {"baseline": baseline}
    indices = [options.only] if options.only is not None else list(range(options.count))
    if options.only_probes:
        indices = []
    start = time.monotonic()
    failures = []
    per_command = {}
    statuses = {}
    slowest = (0.0, None)
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        futures = [pool.submit(fuzz_one, i, options, corpus, shared) for i in indices]
        for future in concurrent.futures.as_completed(futures):
            index, command, problems, seconds, seed_name, status = future.result()
            done += 1
            statuses[status] = statuses.get(status, 0) + 1
            per_command[command] = per_command.get(command, 0) + 1
            if seconds > slowest[0]:
                slowest = (seconds, f"{index} ({command})")
            for category, detail in problems:
                failures.append((category, f"input {index} ({command}, from {seed_name}): {detail}"))
            if done % 1000 == 0:
                print(f"fuzz: {done}/{len(indices)} inputs, {len(failures)} problems, "
                      f"{time.monotonic() - start:.0f} s", flush=True)
    probes = 0
    mid_write = 0
    if not options.no_probes and options.only is None:
        big = os.path.join(options.workdir, "big-trace.json")
        head = [{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "main"}}]
        with open(big, "w") as f:
            json.dump({"traceEvents": head + [{"name": f"task-{i}-" + "x" * 40, "ph": "X", "pid": 1, "tid": 1,
                                               "ts": i * 10, "dur": 5} for i in range(20000)]}, f)
        # One probe per --probe-every (--kill-every) inputs, at most 6 per growth generator and 24 kills.
        growth = min(6 * len(growth_generators()), max(1, options.count // options.probe_every))
        kills = min(24, max(1, options.count // options.kill_every))
        for k in range(growth):
            name, problems = probe_growth(options, k)
            probes += 1
            failures += [(c, f"growth probe {k}: {d}") for c, d in problems]
        for k in range(kills):
            name, problems = probe_kill(options, k, big)
            probes += 1
            mid_write += name.endswith("mid-write")
            failures += [(c, f"kill probe {k}: {d}") for c, d in problems]
    shutil.rmtree(options.workdir, ignore_errors=True)
    elapsed = time.monotonic() - start
    categories = ["trap", "hang", "malformed", "control", "leftover", "growth", "kill"]
    counts = {c: sum(1 for f in failures if f[0] == c) for c in categories}
    for category, detail in sorted(failures)[:60]:
        print(f"FAIL {category}: {detail}")
    if len(failures) > 60:
        print(f"… and {len(failures) - 60} more")
    print("fuzz: inputs per command: " + ", ".join(f"{c} {n}" for c, n in sorted(per_command.items())))
    print("fuzz: exit statuses: " + ", ".join(f"{s} ×{n}" for s, n in sorted(statuses.items())))
    print(f"fuzz: seed {options.seed}, {len(indices)} inputs and {probes} probes ({mid_write} kills mid-write) "
          f"in {elapsed:.0f} s "
          f"({options.jobs} jobs); slowest input {slowest[0]:.2f} s ({slowest[1]})")
    print("fuzz: " + ", ".join(f"{counts[c]} {c}s" if c != "growth" else f"{counts[c]} growth" for c in categories))
    total = len(indices) + probes
    failed = len({f[1].split(":")[0] for f in failures})
    print(f"fuzz: {total - failed} passed, {failed} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

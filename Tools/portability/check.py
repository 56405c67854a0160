#!/usr/bin/env python3
"""The Mac lint: Glibc-only spellings outside code guarded for Linux.

Every target builds on macOS 13+ with the Swift 6 toolchain (issue 39, item 7),
but this machine builds for Linux only, so a call that exists only in Glibc, or
is spelt Glibc's way, compiles here and breaks the Mac build. This check reads
every Swift file under Sources/ and Tests/ (Fixtures aside), follows the
`#if`/`#elseif`/`#else` branches, and reports each use of a pattern below that is
not inside a branch that only Linux compiles:

  - `#if os(Linux)`, `#if canImport(Glibc)` (or Musl, or swift-corelibs-
    foundation's FoundationXML and FoundationNetworking, which Darwin does not
    have), and `&&` of them with anything;
  - the `#else` of `#if os(macOS)`/`canImport(Darwin)` (and the like), and an
    `#elseif` after such a branch.

Comments are left out; string literals are read only for the paths (a string
that starts with /proc/ or /sys/). A line that ends in a comment
`// portability: <why>` is left alone (RuntimeBench's `import Synchronization`,
whose every use is `@available(macOS 15, …)`). Each finding names the file, the line, what
was found and why it does not build or mean the same on a Mac.

What it cannot see (docs/development.md, "The Mac"): a spelling it has no pattern
for; a call that exists on both with another meaning it does not list (units,
flags); a Darwin branch that does not compile (that is type-checked against
stand-ins by Tools/portability/darwin_branches.sh); an API newer than macOS 13 in
Foundation or Dispatch (only `import Synchronization` is flagged here).

`Tools/portability/pending.txt` lists findings in code whose owners are changing
it, each with who is to change what: a listed finding is printed as pending and
does not fail the check; an entry that no longer matches anything is printed so
that it is removed.

Usage: check.py [--root DIR] [--self-test]   (exit 1 on a finding)
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lint"))
from swift_source import code_and_strings  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# (regex over code with comments and strings blanked, what it is, why not on a Mac)
CODE_PATTERNS = [
    (r"^\s*(@preconcurrency\s+)?import\s+Glibc\b", "import Glibc", "there is no Glibc module on Darwin"),
    (r"^\s*(@preconcurrency\s+)?import\s+Musl\b", "import Musl", "there is no Musl module on Darwin"),
    (r"^\s*(@preconcurrency\s+)?import\s+(FoundationXML|FoundationNetworking)\b", "import FoundationXML/FoundationNetworking",
     "swift-corelibs-foundation's split modules: on Darwin that API is in Foundation (guard with canImport)"),
    (r"\bGlibc\.", "Glibc.-qualified name", "there is no Glibc module on Darwin"),
    (r"\b(RUSAGE_[A-Z]+|PRIO_[A-Z]+|SOCK_[A-Z]+|CLOCK_[A-Z_]+|SCHED_[A-Z]+|ITIMER_[A-Z]+)\.rawValue\b",
     "a C constant's .rawValue", "Glibc imports these as enum structs; on Darwin they are plain Int32 values"),
    (r"\b__[a-z][a-z0-9_]*_t\b", "a Glibc internal type (__…_t)", "Glibc's own typedefs (__priority_which_t, __rusage_who_t) do not exist on Darwin"),
    (r"\b__sigaction_handler\b", "sigaction's __sigaction_handler", "Darwin's union is __sigaction_u.__sa_handler"),
    (r"\bst_[amc]tim\b", "stat's st_atim/st_mtim/st_ctim", "Darwin's fields are st_atimespec/st_mtimespec/st_ctimespec"),
    (r"\b(epoll_[a-z_0-9]+|inotify_[a-z_0-9]+|eventfd|timerfd_[a-z_]+|signalfd|memfd_create|pipe2|accept4|dup3)\s*\(",
     "a Linux-only system call", "Linux's own; Darwin has kqueue, pipe + fcntl, and so on"),
    (r"\b(sched_setaffinity|sched_getaffinity|sched_getcpu|sched_setscheduler|sched_getscheduler|CPU_SET|CPU_ZERO)\b",
     "a Linux scheduler call", "Darwin has no CPU affinity nor sched_setscheduler (thread policies are Mach calls)"),
    (r"\b(prctl|gettid|getauxval|sysinfo|get_nprocs|mallinfo2?|malloc_trim|malloc_usable_size|posix_fadvise|fallocate|getrandom|program_invocation_name|pthread_getattr_np|clock_nanosleep)\s*\(",
     "a Glibc-only function", "not in Darwin's libc"),
    (r"\bsyscall\s*\(\s*SYS_", "syscall(SYS_…)", "raw Linux system call numbers"),
    (r"\b(CLOCK_BOOTTIME|CLOCK_MONOTONIC_COARSE|CLOCK_REALTIME_COARSE|CLOCK_TAI|O_TMPFILE|O_PATH|O_NOATIME|O_DIRECT|SOCK_CLOEXEC|SOCK_NONBLOCK|MAP_POPULATE|SCHED_BATCH|SCHED_IDLE)\b",
     "a Linux-only constant", "not defined by Darwin's headers"),
    (r"\b(posix_spawnattr_t|posix_spawn_file_actions_t|pthread_t|pthread_attr_t)\s*\(\s*\)", "a pthread/posix_spawn type built with ()",
     "Glibc's are structs; Darwin's posix_spawnattr_t and posix_spawn_file_actions_t are optional opaque pointers and pthread_t a pointer"),
    (r"\bpthread_setname_np\s*\((?:[^,()]|\([^()]*\))*,", "pthread_setname_np(thread, name)", "Darwin's takes only the name (of the calling thread)"),
    (r"\bstrerror_r\s*\(", "strerror_r", "Glibc's GNU variant returns a pointer; Darwin's (XSI) an int"),
    (r"(?<![.\w])environ\b", "environ", "not imported on Darwin (use ProcessInfo or _NSGetEnviron)"),
    (r"\bru_maxrss\b", "rusage.ru_maxrss", "KiB on Linux, bytes on Darwin"),
    (r"^\s*(@preconcurrency\s+)?import\s+Synchronization\b", "import Synchronization",
     "Mutex and Atomic need macOS 15, and the package builds for macOS 13"),
]
# Patterns that are spelt the same on Darwin but mean something else there: fine in a Darwin-only branch.
SAME_SPELLING = {"rusage.ru_maxrss"}
# (regex over string literals, what, why): paths that exist only on Linux.
STRING_PATTERNS = [
    (r'^"/proc(/|")', "a /proc path", "Darwin has no /proc"),
    (r'^"/sys(/|")', "a /sys path (cgroups, devices)", "Darwin has no /sys"),
]

LINUX_ATOM = re.compile(r"os\(\s*Linux\s*\)|canImport\(\s*(Glibc|Musl|FoundationXML|FoundationNetworking)\s*\)")
DARWIN_ATOM = re.compile(r"os\(\s*(macOS|iOS|tvOS|watchOS|visionOS)\s*\)|canImport\(\s*Darwin\s*\)|"
                         r"os\(\s*Darwin\s*\)|canImport\(\s*ObjectiveC\s*\)")


def linux_only(condition):
    """A condition only Linux satisfies: a Linux atom in a conjunction (no ||, no !)."""
    if "||" in condition or "!" in condition:
        return False
    return any(LINUX_ATOM.search(part) for part in condition.split("&&"))


def darwin_only(condition):
    if "||" in condition and not all(DARWIN_ATOM.search(p) for p in condition.split("||")):
        return False
    if "!" in condition:
        return False
    return bool(DARWIN_ATOM.search(condition))


def guarded_lines(code):
    """For each line (1-based): whether only Linux compiles it, and whether only Darwin does."""
    lines = code.split("\n")
    guarded = [False] * (len(lines) + 2)
    darwin = [False] * (len(lines) + 2)
    stack = []  # per #if: [this branch only Linux compiles, this branch only Darwin compiles, a Darwin branch was seen]
    for k, text in enumerate(lines, start=1):
        stripped = text.strip()
        m = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        if m:
            kind, condition = m.group(1), m.group(2)
            if kind == "if":
                stack.append([linux_only(condition), darwin_only(condition), darwin_only(condition)])
            elif kind == "elseif" and stack:
                top = stack[-1]
                top[0], top[1] = linux_only(condition), darwin_only(condition)
                top[2] = top[2] or top[1]
            elif kind == "else" and stack:
                top = stack[-1]
                # The #else of a Darwin branch: Linux (and other non-Darwin systems) compile it.
                top[0], top[1] = top[2], False
            elif kind == "endif" and stack:
                stack.pop()
            guarded[k] = True
            continue
        guarded[k] = any(entry[0] for entry in stack)
        darwin[k] = any(entry[1] for entry in stack)
    return guarded, darwin


MARKER = re.compile(r"//\s*portability:\s*\S")


def findings(path, source):
    code, strings = code_and_strings(source)
    guarded, darwin = guarded_lines(code)
    # A line that says why it is portable (`// portability: …`) is left alone.
    for k, raw in enumerate(source.split("\n"), start=1):
        if MARKER.search(raw):
            guarded[k] = True
    found = []
    for k, text in enumerate(code.split("\n"), start=1):
        if guarded[k]:
            continue
        for pattern, what, why in CODE_PATTERNS:
            if darwin[k] and what in SAME_SPELLING:
                continue  # spelt the same on both, meaning another thing: a Darwin branch is the fix
            if re.search(pattern, text):
                found.append((path, k, what, why))
    for line, literal in strings:
        if guarded[line]:
            continue
        for pattern, what, why in STRING_PATTERNS:
            if re.search(pattern, literal):
                found.append((path, line, what, why))
    return found


def swift_files(root):
    for top in ("Sources", "Tests"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if d != "Fixtures")
            if os.path.islink(folder):
                continue
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def read_pending(root):
    """`path: what` entries (and a note after ' — '); '#' starts a comment."""
    entries = []
    path = os.path.join(root, "Tools", "portability", "pending.txt")
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            where, _, rest = line.partition(": ")
            what = rest.split(" — ", 1)[0].strip()
            entries.append((where.strip(), what))
    return entries


def self_test():
    """Cases the check must get right, so that a check that can no longer find anything fails."""
    cases = [
        ("getrusage(RUSAGE_CHILDREN.rawValue, &usage)\n", ["a C constant's .rawValue"]),
        ("#if os(Linux)\ngetrusage(RUSAGE_CHILDREN.rawValue, &u)\n#else\ngetrusage(RUSAGE_CHILDREN, &u)\n#endif\n", []),
        ("#if canImport(Darwin)\nlet x = 1\n#else\nlet t = String(contentsOfFile: \"/proc/stat\")\n#endif\n", []),
        ("#if canImport(Darwin)\nlet t = String(contentsOfFile: \"/proc/stat\")\n#endif\n", ["a /proc path"]),
        ("let t = try String(contentsOfFile: \"/proc/self/status\", encoding: .utf8)\n", ["a /proc path"]),
        ("// reads /proc/stat\nlet s = \"the CPU time /proc/stat counts\"\n", []),
        ("_ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -15)\n",
         ["a C constant's .rawValue", "a Glibc internal type (__…_t)"]),
        ("import Glibc\n", ["import Glibc"]),
        ("#if canImport(Glibc)\n    import Glibc\n#elseif canImport(Darwin)\n    import Darwin\n#endif\n", []),
        ("#if canImport(FoundationXML)\n    import FoundationXML\n#endif\n", []),
        ("import FoundationXML\n", ["import FoundationXML/FoundationNetworking"]),
        ("action.__sigaction_handler.sa_handler = h\n", ["sigaction's __sigaction_handler"]),
        ("#if os(Linux)\n#if DEBUG\naction.__sigaction_handler.sa_handler = h\n#endif\n#endif\n", []),
        ("#if os(Linux) || os(macOS)\naction.__sigaction_handler.sa_handler = h\n#endif\n", ["sigaction's __sigaction_handler"]),
        ("var a = posix_spawnattr_t()\n", ["a pthread/posix_spawn type built with ()"]),
        ("posix_spawn(&pid, path, nil, nil, argv, environ)\n", ["environ"]),
        ("let e = ProcessInfo.processInfo.environment\n", []),
        ("import Synchronization\n", ["import Synchronization"]),
        ("let fd = epoll_create1(0)\n", ["a Linux-only system call"]),
        ("pthread_setname_np(pthread_self(), \"w\")\n", ["pthread_setname_np(thread, name)"]),
        ("let s = #\"a \"/proc/x\" b\"#\n", []),
        ("/* nested /* getrusage(RUSAGE_SELF.rawValue, &u) */ */\n", []),
        ("import Synchronization  // portability: every use is @available(macOS 15, *)\n", []),
        ("import Synchronization  // portability:\n", ["import Synchronization"]),
        ("#if os(Linux)\nx = u.ru_maxrss / 1024\n#elseif canImport(Darwin)\nx = u.ru_maxrss / 1048576\n#endif\n", []),
        ("#if canImport(Darwin)\na.__sigaction_handler.sa_handler = h\n#endif\n", ["sigaction's __sigaction_handler"]),
        ("x = u.ru_maxrss / 1024\n", ["rusage.ru_maxrss"]),
    ]
    failed = 0
    for source, expected in cases:
        got = sorted(f[2] for f in findings("case.swift", source))
        if got != sorted(expected):
            failed += 1
            print(f"portability self-test: expected {sorted(expected)}, found {got} in:\n{source}", file=sys.stderr)
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=ROOT)
    parser.add_argument("--self-test", action="store_true", help="run only the check's own cases")
    options = parser.parse_args()
    failed = self_test()
    if failed:
        print(f"portability: the check's own cases failed ({failed})", file=sys.stderr)
        return 1
    if options.self_test:
        print("portability: self-test passed")
        return 0
    pending = read_pending(options.root)
    used = set()
    problems = []
    files = 0
    for path in swift_files(options.root):
        files += 1
        rel = os.path.relpath(path, options.root)
        with open(path, encoding="utf-8") as f:
            source = f.read()
        for found in findings(rel, source):
            entry = (found[0], found[2])
            if entry in pending:
                used.add(entry)
                print(f"pending: {found[0]}:{found[1]}: {found[2]} ({found[3]}) — Tools/portability/pending.txt")
                continue
            problems.append(found)
    for path, line, what, why in problems:
        print(f"{path}:{line}: error: {what} outside code guarded for Linux: {why}", file=sys.stderr)
    stale = [entry for entry in pending if entry not in used]
    for where, what in stale:
        print(f"Tools/portability/pending.txt: note: '{where}: {what}' matches nothing any more: remove it")
    if problems:
        print(f"portability: {len(problems)} Glibc-only spellings outside guarded code ({files} files)",
              file=sys.stderr)
        return 1
    print(f"portability: {files} Swift files, no Glibc-only spelling outside guarded code"
          + (f" ({len(used)} pending in others' files)" if used else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

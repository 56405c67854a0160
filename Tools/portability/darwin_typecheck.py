#!/usr/bin/env python3
"""Type-checks the Darwin branches of launchflow's platform code on Linux.

This machine cannot build for macOS, and `swiftc` here compiles only the Linux
branch of an `#if os(Linux) … #elseif canImport(Darwin) … #endif`. This script
writes each file's Darwin view — the conditions rewritten as Darwin evaluates
them (`os(Linux)`, `canImport(Glibc)`, `canImport(FoundationXML)` false;
`canImport(Darwin)`, `os(macOS)` true), `import Darwin` and the project's own
imports dropped — and type-checks it with `swiftc -typecheck` beside
`DarwinStandIns.swift` (Darwin's declarations of what those branches call,
written from Apple's headers) and the file's stubs of project types.

Every file under Sources/ and Tests/ with a Darwin branch must be listed here,
checked or skipped with the reason, or the script fails: a new Darwin branch
is not left unchecked by accident.

The runtime's Apple glue (AppleGlue.swift: QuartzCore's display link, os's
signposter) is viewed with those frameworks present (`canImport(UIKit)`,
`canImport(QuartzCore)`, `canImport(os)` true) and checked against
AppleFrameworkStandIns.swift with Objective-C interop on (`@objc`, `#selector`,
whose `Selector` comes from a stand-in ObjectiveC module, and NSObject and
CADisplayLink from objc/classes.h, as Objective-C classes); a file that names a
project module (`LaunchflowModel.QualityOfService`) gets a stand-in module of
that name with the declarations it uses.

What it cannot show: that the stand-ins say what the SDK says; availability;
behaviour at run time (docs/development.md, "The Mac").

Usage: darwin_typecheck.py [--swiftc PATH]   (exit 1 when a view does not type-check)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))

# The project's modules, as stand-in modules for the files that name them (module-qualified names such
# as `LaunchflowModel.QualityOfService` need a module of that name): only the declarations those files use,
# as the module declares them.
LAUNCHFLOW_MODEL = """
    public typealias Micros = Int
    public enum QualityOfService: String, CaseIterable, Sendable, Comparable {
        case userInteractive, userInitiated
        case `default`
        case utility, background
        public static func < (a: Self, b: Self) -> Bool { false }
    }
    public enum LaunchSignposts {
        public static let taskInterval: StaticString = "launchflow-task"
    }
"""
# The runtime's own declarations the glue uses (Configuration.swift, Lock.swift), as they are declared.
RUNTIME_STUBS = """
    import LaunchflowModel
    public protocol FrameClock: Sendable {
        func commitEnded(at time: Micros, presented: @escaping @Sendable (Micros) -> Void)
    }
    public protocol LaunchTraceSink: Sendable {
        func taskBegan(_ id: String, thread: Int)
        func taskEnded(_ id: String, thread: Int)
    }
    final class Locked<Value> {
        init(_ value: Value) {}
        func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T { fatalError("stub") }
    }
    extension Locked: @unchecked Sendable where Value: Sendable {}
"""

# Files whose Darwin branches are type-checked, with the stubs of the project's types they use: a string
# of stubs, or {"stubs": …, "modules": {name: source} (stand-in modules the file imports by name),
# "frameworks": True (Apple's frameworks: AppleFrameworkStandIns.swift and the ObjectiveC stand-in
# module, with Objective-C interop on, for `@objc` and `#selector`)}.
CHECKED = {
    "Sources/LaunchflowRuntime/ThreadQoS.swift": {"modules": {"LaunchflowModel": LAUNCHFLOW_MODEL}},
    "Sources/LaunchflowRuntime/AppleGlue.swift": {
        "stubs": RUNTIME_STUBS, "modules": {"LaunchflowModel": LAUNCHFLOW_MODEL}, "frameworks": True,
    },
    "Sources/launchflow/SignalCleanup.swift": """
        enum TemporaryFiles {
            static func prepareForSignals() {}
            static func removeRegistered() {}
        }
        enum CgroupCleanup {
            static func prepareForSignals() {}
            static func removeRegistered() {}
        }
    """,
    "Sources/LaunchflowCLI/LoadMeter.swift": "",
    "Sources/launchflow-bench/Spawn.swift": "",
    "Sources/launchflow-replay-host/Priority.swift": "",
    "Tests/LaunchflowCLITests/SignalSupport.swift": "",
    "Tests/LaunchflowRenderTests/ResidentMemory.swift": "",
}
# Files with a Darwin branch that are not type-checked here, and why.
SKIPPED = {
    "Sources/LaunchflowRender/Graphviz.swift": "its Darwin branch is `import Darwin` alone (for the C library Glibc gives on Linux)",
    "Sources/LaunchflowRuntime/Platform.swift": "the runtime's (its engineer's): CoreFoundation's run-loop spellings, which swift-corelibs-foundation does not have under Apple's names",
}

DARWIN_CONDITIONS = [
    (r"os\(\s*Linux\s*\)", "false"),
    (r"canImport\(\s*(Glibc|Musl|FoundationXML|FoundationNetworking)\s*\)", "false"),
    (r"canImport\(\s*Darwin\s*\)", "true"),
    (r"os\(\s*(macOS|Darwin)\s*\)", "true"),
    (r"os\(\s*(iOS|tvOS|watchOS|visionOS)\s*\)", "false"),
    # Apple's frameworks the runtime's glue imports (AppleGlue.swift): present, as stand-ins.
    (r"canImport\(\s*(UIKit|QuartzCore|os)\s*\)", "true"),
]
PROJECT_IMPORTS = re.compile(
    r"^\s*(@testable\s+)?import\s+(Launchflow\w*|launchflow\w*|Testing|Darwin|CGraphviz|CZlib|QuartzCore|os|UIKit)\s*$")


def darwin_view(source, keep=()):
    """The file as Darwin compiles it; imports of the project's modules, Darwin and Apple's frameworks
    dropped (their declarations are the stand-ins), except the stand-in modules in `keep`."""
    out = []
    for line in source.split("\n"):
        stripped = line.strip()
        if re.match(r"#(if|elseif)\b", stripped):
            for pattern, value in DARWIN_CONDITIONS:
                line = re.sub(pattern, value, line)
        m = PROJECT_IMPORTS.match(line)
        if m and m.group(2) not in keep:
            line = "// (dropped for the Darwin view) " + line.strip()
        out.append(line)
    return "\n".join(out)


def files_with_darwin_branches(root):
    for top in ("Sources", "Tests"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if d != "Fixtures")
            if os.path.islink(folder):
                continue
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if re.search(r"#(if|elseif)\b.*(canImport\(\s*(Darwin|UIKit|QuartzCore|os)\s*\)|os\(\s*macOS\s*\))",
                             text):
                    yield os.path.relpath(path, root)


def build_modules(swiftc, modules, folder):
    """Each stand-in module `name: source` as `folder/name.swiftmodule`; None, or the compiler's output."""
    for name, source in modules.items():
        source_path = os.path.join(folder, f"{name}-module.swift")
        with open(source_path, "w", encoding="utf-8") as f:
            f.write(source)
        result = subprocess.run(
            [swiftc, "-emit-module", "-swift-version", "6", "-parse-as-library", "-module-name", name,
             "-emit-module-path", os.path.join(folder, f"{name}.swiftmodule"), source_path],
            capture_output=True, text=True)
        if result.returncode != 0:
            return result.stdout + result.stderr
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--swiftc", default=os.environ.get("SWIFTC", "swiftc"))
    options = parser.parse_args()
    problems = 0
    found = set(files_with_darwin_branches(ROOT))
    for path in sorted(found - set(CHECKED) - set(SKIPPED)):
        print(f"{path}: error: a Darwin branch that darwin_typecheck.py neither checks nor skips: add it to CHECKED "
              "(with the stubs it needs) or to SKIPPED (with the reason)", file=sys.stderr)
        problems += 1
    with tempfile.TemporaryDirectory(prefix="lf-darwin-") as folder:
        for path, entry in sorted(CHECKED.items()):
            if path not in found:
                print(f"{path}: error: listed in CHECKED but has no Darwin branch (moved? remove it)", file=sys.stderr)
                problems += 1
                continue
            entry = entry if isinstance(entry, dict) else {"stubs": entry}
            modules = dict(entry.get("modules", {}))
            name = os.path.basename(path)
            work = os.path.join(folder, name.replace(".swift", ""))
            os.makedirs(work)
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                view = darwin_view(f.read(), keep=set(modules))
            view_path = os.path.join(work, name)
            with open(view_path, "w", encoding="utf-8") as f:
                f.write(view)
            stub_path = os.path.join(work, "Stubs-" + name)
            with open(stub_path, "w", encoding="utf-8") as f:
                f.write("import Foundation\n" + entry.get("stubs", ""))
            sources = [os.path.join(HERE, "DarwinStandIns.swift"), stub_path, view_path]
            flags = []
            if entry.get("frameworks"):
                with open(os.path.join(HERE, "ObjectiveCStandIn.swift"), encoding="utf-8") as f:
                    modules["ObjectiveC"] = f.read()
                sources.insert(1, os.path.join(HERE, "AppleFrameworkStandIns.swift"))
                flags = ["-Xfrontend", "-enable-objc-interop", "-I", os.path.join(HERE, "objc")]
            failure = build_modules(options.swiftc, modules, work)
            if failure:
                problems += 1
                print(f"{path}: error: a stand-in module does not build:\n{failure}", file=sys.stderr)
                continue
            command = [options.swiftc, "-typecheck", "-swift-version", "6", "-parse-as-library", "-I", work,
                       *flags, *sources]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                problems += 1
                print(f"{path}: error: its Darwin view does not type-check:", file=sys.stderr)
                print(result.stdout + result.stderr, file=sys.stderr)
            else:
                print(f"{path}: the Darwin branches type-check against the stand-ins")
    for path, why in sorted(SKIPPED.items()):
        if path in found:
            print(f"{path}: not type-checked: {why}")
    if problems:
        print(f"darwin_typecheck: {problems} problems", file=sys.stderr)
        return 1
    print(f"darwin_typecheck: {len(CHECKED)} files' Darwin branches type-check")
    return 0


if __name__ == "__main__":
    sys.exit(main())

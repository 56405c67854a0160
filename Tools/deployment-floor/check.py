#!/usr/bin/env python3
"""The deployment-floor check: nothing newer than Package.swift's `platforms`
in the runtime's closure (LaunchflowRuntime and the targets it depends on),
so that an app supporting iOS 16 can link it.

How it works (docs/development.md, "The deployment floor"):

1. `swift package describe` gives the floor (the `platforms` of
   Package.swift: iOS, macOS, tvOS, visionOS) and the closure: the target
   and, transitively, every target it depends on.
2. For every module the closure imports (and Swift, _Concurrency and
   _StringProcessing, which every file sees), `swift-symbolgraph-extract`
   gives the toolchain's own declarations with their `@available`
   attributes, per Apple platform, even on Linux; the graphs are cached
   under .build/deployment-floor/, per toolchain.
3. A declaration introduced above the floor on any of those platforms gives
   a pattern: a type, protocol or macro by its name; a method, initialiser
   or property by its name and first argument label — unless a declaration
   at or below the floor (or the closure itself) has the same name and
   label, which the text alone cannot tell apart. A module whose every
   declaration is above the floor (Synchronization, Observation) is
   refused at its `import`.
4. Every Swift file of the closure, comments and string literals left out,
   is matched against the patterns; each match is reported with the
   declaration, the platforms and versions it needs, and the floor. A line
   ending in `// deployment-floor: guarded` (a use inside
   `if #available(...)`) is left alone.

It runs its own cases first (`--self-test` runs only them), so that a
check that could no longer find anything fails instead of passing.

Usage: python3 Tools/deployment-floor/check.py [--target LaunchflowRuntime]
Exit status: 0 nothing above the floor, 1 something is (each listed), 2 it could not run.
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lint"))
from swift_source import code_only  # noqa: E402

PLATFORMS = {"ios": "iOS", "macos": "macOS", "tvos": "tvOS", "visionos": "visionOS"}
IMPLICIT_MODULES = ["Swift", "_Concurrency", "_StringProcessing"]
TYPE_KINDS = {
    "swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor",
    "swift.macro", "swift.associatedtype",
}
MEMBER_KINDS = {
    "swift.func", "swift.method", "swift.type.method", "swift.init", "swift.property", "swift.type.property",
    "swift.var", "swift.enum.case",
}
SUPPRESS = "// deployment-floor: guarded"
# `import M`, `@testable import M`, `import struct M.Type`: M.
IMPORT = re.compile(
    r"[ \t]*(?:@[\w()]+[ \t]+)*import[ \t]+(?:(?:struct|class|enum|protocol|typealias|func|let|var)[ \t]+)?(\w+)")


def version(text):
    return tuple(int(part) for part in text.split("."))


def run(arguments, **options):
    return subprocess.run(arguments, capture_output=True, text=True, **options)


# MARK: The package: floor and closure


def describe_package(root, cache):
    # A scratch path of its own: .build's lock would make it wait for a build running beside it.
    scratch = os.path.join(cache, "scratch")
    result = run(["swift", "package", "--scratch-path", scratch, "describe", "--type", "json"], cwd=root)
    if result.returncode != 0:
        sys.exit(f"deployment-floor: error: swift package describe failed:\n{result.stderr}")
    return json.loads(result.stdout[result.stdout.index("{"):])


def floor_of(package):
    floor = {}
    for platform in package.get("platforms", []):
        name = PLATFORMS.get(platform["name"])
        if name:
            floor[name] = version(platform["version"])
    return floor


def closure_of(package, target):
    by_name = {t["name"]: t for t in package["targets"]}
    if target not in by_name:
        sys.exit(f"deployment-floor: error: no target '{target}' in the package")
    seen, stack = [], [target]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.append(name)
        stack.extend(by_name[name].get("target_dependencies", []))
    return [by_name[name] for name in seen]


# MARK: The toolchain's declarations


def symbol_graphs(module, cache):
    """The symbol graph files of `module` (its own and its extensions of others), extracted once."""
    folder = os.path.join(cache, module)
    if not os.path.isdir(folder):
        os.makedirs(folder + ".tmp", exist_ok=True)
        result = run([
            "swift-symbolgraph-extract", "-module-name", module, "-target", target_triple(),
            "-output-dir", folder + ".tmp", "-minimum-access-level", "public",
        ])
        if result.returncode != 0:
            return None
        os.replace(folder + ".tmp", folder)
    return [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith(".symbols.json")]


def target_triple():
    result = run(["swift", "-print-target-info"])
    return json.loads(result.stdout)["target"]["triple"]


def needs(symbol, floor):
    """The platforms and versions `symbol` is introduced in above `floor` (empty: within it)."""
    above = []
    for entry in symbol.get("availability", []):
        platform = entry.get("domain")
        introduced = entry.get("introduced")
        if platform in floor and introduced:
            needed = (introduced["major"], introduced.get("minor", 0), introduced.get("patch", 0))
            if needed > floor[platform] + (0,) * (3 - len(floor[platform])):
                above.append(f"{platform} {'.'.join(str(n) for n in needed[:2])}")
    return above


def name_and_label(component):
    """`indices(where:)` → ('indices', 'where'); `removeSubranges(_:)` and `suffix()` → (…, '_');
    `span` → ('span', None); `init(validating:as:)` → ('init', 'validating')."""
    match = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)(?:\((.*)\))?", component)
    if not match:
        return None
    base, arguments = match.group(1), match.group(2)
    if arguments is None:
        return base, None
    # No argument and an unlabelled first one read the same in a call: `suffix()`, `suffix(3)`.
    labels = [label for label in arguments.split(":") if label != ""]
    return base, (labels[0] if labels else "_")


def table(modules, floor, cache):
    """Patterns for the declarations above the floor, and the modules wholly above it."""
    above_types, above_members, within_types, within_members = {}, {}, set(), set()
    modules_above = {}
    for module in modules:
        files = symbol_graphs(module, cache)
        if files is None:
            continue
        own_total, own_above = 0, 0
        for path in files:
            own = os.path.basename(path) == f"{module}.symbols.json"
            with open(path) as file:
                graph = json.load(file)
            for symbol in graph["symbols"]:
                kind = symbol["kind"]["identifier"]
                components = symbol["pathComponents"]
                what = ".".join(components)
                needed = needs(symbol, floor)
                if own and kind in TYPE_KINDS and len(components) == 1:
                    own_total += 1
                    own_above += bool(needed)
                if kind in TYPE_KINDS:
                    key = components[-1]
                    (above_types.setdefault(key, (what, module, needed)) if needed else within_types.add(key))
                elif kind in MEMBER_KINDS:
                    parsed = name_and_label(components[-1])
                    if parsed is None:
                        continue
                    if kind == "swift.init":
                        parsed = ("init", parsed[1])
                    if needed:
                        above_members.setdefault(parsed, (what, module, needed))
                    else:
                        within_members.add(parsed)
        if own_total and own_total == own_above:
            modules_above[module] = own_total
    types = {name: found for name, found in above_types.items() if name not in within_types}
    members = {key: found for key, found in above_members.items() if key not in within_members}
    return types, members, modules_above


# MARK: Sources


def declared_names(texts):
    """What the closure declares itself — functions; properties, variables and cases; types — by name:
    a method, property or type of its own with a new API's name is not that API."""
    functions, values, types = set(), set(), set()
    for text in texts:
        functions.update(re.findall(r"\bfunc\s+([A-Za-z_]\w*)", text))
        values.update(re.findall(r"\b(?:var|let|case)\s+([A-Za-z_]\w*)", text))
        types.update(re.findall(r"\b(?:struct|class|enum|protocol|typealias|actor)\s+([A-Za-z_]\w*)", text))
    return functions, values, types


def scan(files, types, members, modules_above, floor):
    """Every use above the floor in `files` ({path: text})."""
    functions, values, own_types = declared_names(code_only(text) for text in files.values())
    patterns = []
    for name, (what, module, needed) in types.items():
        if name not in own_types:
            patterns.append((re.compile(rf"(?<![\w$])[@#]?{re.escape(name)}\b"), what, module, needed))
    for (base, label), (what, module, needed) in members.items():
        if base in (values if label is None else functions) or base == "init" and label == "_":
            continue
        if base == "init":
            regex = rf"\binit\(\s*{re.escape(label)}\s*:"
        elif label is None:
            regex = rf"\.{re.escape(base)}\b(?!\s*\()"
        elif label == "_":
            regex = rf"\b{re.escape(base)}\((?!\s*\w+\s*:)"
        else:
            regex = rf"\b{re.escape(base)}\(\s*{re.escape(label)}\s*:"
        patterns.append((re.compile(regex), what, module, needed))
    floor_text = ", ".join(f"{p} {'.'.join(map(str, v))}" for p, v in sorted(floor.items()))
    findings = []
    for path, text in sorted(files.items()):
        code = code_only(text).split("\n")
        for number, (line, original) in enumerate(zip(code, text.split("\n")), start=1):
            if original.rstrip().endswith(SUPPRESS):
                continue
            imported = IMPORT.match(line)
            if imported and imported.group(1) in modules_above:
                findings.append(f"{path}:{number}: import {imported.group(1)}: every declaration of the module is "
                                f"above the floor ({floor_text})")
                continue
            for regex, what, module, needed in patterns:
                if regex.search(line):
                    findings.append(f"{path}:{number}: {what} ({module}) needs {', '.join(needed)}, above the floor "
                                    f"({floor_text})")
    return findings


def imports(texts):
    found = set()
    for text in texts:
        found.update(match.group(1) for match in map(IMPORT.match, code_only(text).split("\n")) if match)
    return found


# MARK: Its own cases


SELF_TEST_BAD = """import Synchronization
import Foundation
let flag = Atomic<Bool>(false)              // Synchronization: macOS 15
let big: Int128 = 1                         // the standard library: macOS 15
let where_ = [1, 2].indices(where: { $0 > 1 })   // the standard library: macOS 15
"""
SELF_TEST_GOOD = """import Foundation
import Dispatch
let n = [1, 2].count(where: { $0 > 1 })     // back-deployed: no availability
let d: Duration = .seconds(1)               // macOS 13: the floor
DispatchQueue.main.async {}
let text = "Atomic<Bool> in a string is not a use"
// nor is Int128 in a comment
func indices(where: Int) {}                  // the closure's own
"""


def self_test(cache):
    floor = {"iOS": (16, 0), "macOS": (13, 0), "tvOS": (16, 0), "visionOS": (1, 0)}
    modules = sorted(set(IMPLICIT_MODULES) | imports([SELF_TEST_BAD, SELF_TEST_GOOD]))
    types, members, modules_above = table(modules, floor, cache)
    bad = scan({"bad.swift": SELF_TEST_BAD}, types, members, modules_above, floor)
    good = scan({"good.swift": SELF_TEST_GOOD}, types, members, modules_above, floor)
    lines = sorted({int(finding.split(":")[1]) for finding in bad})
    problems = []
    if lines != [1, 3, 4, 5]:
        problems.append(f"the self-test's uses above the floor were found on lines {lines}, not [1, 3, 4, 5]:\n  "
                        + "\n  ".join(bad))
    if good:
        problems.append("the self-test's uses within the floor were reported:\n  " + "\n  ".join(good))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="LaunchflowRuntime")
    parser.add_argument("--self-test", action="store_true", help="run only the check's own cases")
    options = parser.parse_args()
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    toolchain = run(["swift", "--version"]).stdout + run(["swift", "--version"]).stderr
    cache = os.path.join(root, ".build", "deployment-floor", hashlib.sha256(toolchain.encode()).hexdigest()[:12])
    os.makedirs(cache, exist_ok=True)

    problems = self_test(cache)
    if problems:
        print("deployment-floor: error: the check itself is broken:\n" + "\n".join(problems), file=sys.stderr)
        return 2
    if options.self_test:
        print("deployment-floor: self-test passed")
        return 0

    package = describe_package(root, cache)
    floor = floor_of(package)
    if not {"iOS", "macOS"} <= floor.keys():
        print("deployment-floor: error: Package.swift declares no iOS or macOS floor (platforms: [...])", file=sys.stderr)
        return 1
    closure = closure_of(package, options.target)
    files = {}
    for target in closure:
        folder = os.path.join(root, target["path"])
        for directory, _, names in os.walk(folder):
            for name in names:
                if name.endswith(".swift"):
                    path = os.path.join(directory, name)
                    with open(path, encoding="utf-8") as file:
                        files[os.path.relpath(path, root)] = file.read()
    own_modules = {target["c99name"] for target in package["targets"]}
    modules = sorted((set(IMPLICIT_MODULES) | imports(files.values())) - own_modules)
    types, members, modules_above = table(modules, floor, cache)
    findings = scan(files, types, members, modules_above, floor)
    floor_text = ", ".join(f"{p} {'.'.join(map(str, v))}" for p, v in sorted(floor.items()))
    names = ", ".join(target["name"] for target in closure)
    if findings:
        print("\n".join(f"error: {finding}" for finding in findings))
        print(f"deployment-floor: {len(findings)} use(s) above the floor ({floor_text}) in {names}", file=sys.stderr)
        return 1
    print(f"deployment-floor: {len(files)} files of {names}: nothing above the floor ({floor_text}); "
          f"checked against {len(types)} types and {len(members)} members of {', '.join(modules)} "
          f"above it{', and the imports of ' + ', '.join(sorted(modules_above)) if modules_above else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Compiles every Swift snippet of docs/runtime.md (make test; make doc-snippets).

Each fenced ```swift block is compiled as the line before it says, in an HTML
comment (which Markdown does not show):

  (nothing)                      the block is a file of an app: type-checked with
                                 `swiftc -typecheck` against the built
                                 LaunchflowRuntime module (.build/debug/Modules),
                                 the UIKit and SwiftUI stand-ins
                                 (Tools/portability/apple/, compiled as modules
                                 named UIKit and SwiftUI, so `import UIKit` is
                                 verbatim) and the app's own types the snippets
                                 call (Tools/portability/apple/AppStandIns.swift:
                                 CrashReporter, Config, …). A block with `@main`
                                 is a library file; another may have top-level
                                 code (it is the module's main.swift).
  <!-- snippet: fragment -->     statements, type-checked inside
                                 `@MainActor func snippet(graph: inout LaunchGraph,
                                 launch: Launch, …) throws` (the names the prose
                                 around it gives them).
  <!-- snippet: package DIR PATH -->
                                 the file PATH of a new package DIR: once every
                                 block is read, the package is written to
                                 .build/doc-snippets/DIR, beside a link called
                                 launchflow to this checkout, built
                                 with `swift build` and run (its first executable
                                 product); it must exit 0 within 120 s.
  <!-- snippet: group NAME… -->  a file of each app NAME: the blocks of one
                                 app are type-checked together, as one module
                                 (a block may be in several apps: the graph
                                 they share).
  <!-- snippet: skip REASON -->  not compiled; REASON is printed.

A block with no `import` gets `import LaunchflowRuntime` (and Foundation)
first. Fails (exit 1) on any block that does not compile or run, naming the
doc's line.

What it cannot show: that a stand-in says what Apple's SDK says (each cites
the page it was written from), availability, and UIKit's behaviour.

Usage: doc_snippets.py [--doc docs/runtime.md] [--modules .build/debug/Modules] [--swift swift]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
APPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "apple")
# Stand-in modules, in the order they are built (a later one may import an earlier one).
STAND_IN_MODULES = ["UIKit", "SwiftUI"]
FRAGMENT_PARAMETERS = "graph: inout LaunchGraph, launch: Launch, launchOrigin: DispatchTime"


def blocks(text):
    """(line, directive, code) of each ```swift block; line is 1-based, of the fence."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            start = i
            directive = ""
            k = i - 1
            while k >= 0 and lines[k].strip() == "":
                k -= 1
            match = re.match(r"\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$", lines[k]) if k >= 0 else None
            if match:
                directive = match.group(1)
            i += 1
            code = []
            while i < len(lines) and lines[i].strip() != "```":
                code.append(lines[i])
                i += 1
            found.append((start + 1, directive, "\n".join(code) + "\n"))
        i += 1
    return found


def build_stand_ins(swiftc, folder):
    for name in STAND_IN_MODULES:
        command = [swiftc, "-emit-module", "-swift-version", "6", "-parse-as-library", "-module-name", name,
                   "-I", folder, os.path.join(APPLE, name + ".swift"),
                   "-emit-module-path", os.path.join(folder, name + ".swiftmodule")]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"doc_snippets: error: the {name} stand-in does not compile:\n{result.stdout}{result.stderr}")


def source(code, fragment):
    if fragment:
        body = "\n".join("    " + l if l else l for l in code.split("\n"))
        code = (f"@MainActor func snippet({FRAGMENT_PARAMETERS}) throws {{\n{body}}}\n")
    if not re.search(r"^\s*(@testable\s+)?import\s", code, re.M):
        code = "import Foundation\nimport LaunchflowRuntime\n\n" + code
    return code


def typecheck(swiftc, modules, stand_ins, folder, files):
    """Type-checks files [(line, code)] as one module; a lone file without @main may have top-level code."""
    library = len(files) > 1 or any("@main" in code or "func snippet(" in code for _, code in files)
    paths = []
    for line, code in files:
        path = os.path.join(folder, f"line{line}.swift" if library else "main.swift")
        with open(path, "w", encoding="utf-8") as f:
            f.write(code)
        paths.append(path)
    command = [swiftc, "-typecheck", "-swift-version", "6", "-module-name", "Snippet", "-I", modules,
               "-I", stand_ins] + paths + [os.path.join(APPLE, "AppStandIns.swift")]
    if library:
        command.insert(2, "-parse-as-library")
    result = subprocess.run(command, capture_output=True, text=True)
    for path in paths:
        os.remove(path)
    return result


def run_package(swift, name, files, line):
    # The package beside a checkout called launchflow (its identity is the folder's name): a link to this one.
    parent = os.path.join(ROOT, ".build", "doc-snippets")
    folder = os.path.join(parent, name)
    os.makedirs(folder, exist_ok=True)
    link = os.path.join(parent, "launchflow")
    if not os.path.islink(link):
        os.symlink(ROOT, link)
    for sub in os.listdir(folder):
        if sub != ".build":
            path = os.path.join(folder, sub)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    for path, code in files.items():
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(code)
    build = subprocess.run([swift, "build", "-q", "--package-path", folder], capture_output=True, text=True)
    if build.returncode != 0:
        return f"does not build:\n{build.stdout}{build.stderr}"
    products = re.findall(r'\.executable(?:Target)?\(\s*name:\s*"([^"]+)"', files.get("Package.swift", ""))
    if not products:
        return "its Package.swift declares no executable target"
    binary = os.path.join(folder, ".build", "debug", products[0])
    try:
        ran = subprocess.run([binary], capture_output=True, text=True, timeout=120, cwd=folder)
    except subprocess.TimeoutExpired:
        return "did not end within 120 s"
    if ran.returncode != 0:
        return f"exited {ran.returncode}:\n{ran.stdout}{ran.stderr}"
    print(f"  {name}: built and ran to completion; its output:")
    print("".join("    " + l + "\n" for l in ran.stdout.splitlines()))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--doc", default=os.path.join(ROOT, "docs", "runtime.md"))
    parser.add_argument("--modules", default=os.path.join(ROOT, ".build", "debug", "Modules"))
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    parser.add_argument("--swiftc", default=os.environ.get("SWIFTC", "swiftc"))
    options = parser.parse_args()
    if not os.path.exists(os.path.join(options.modules, "LaunchflowRuntime.swiftmodule")):
        sys.exit(f"doc_snippets: error: no LaunchflowRuntime module in {options.modules}: build first "
                 "(swift build --target LaunchflowRuntime)")
    doc = os.path.relpath(options.doc, ROOT)
    with open(options.doc, encoding="utf-8") as f:
        found = blocks(f.read())
    problems = 0
    checked = 0
    packages = {}
    groups = {}
    with tempfile.TemporaryDirectory(prefix="lf-snippets-") as folder:
        stand_ins = os.path.join(folder, "modules")
        os.makedirs(stand_ins)
        build_stand_ins(options.swiftc, stand_ins)
        for line, directive, code in found:
            words = directive.split()
            kind = words[0] if words else ""
            if kind == "skip":
                print(f"{doc}:{line}: not compiled: {' '.join(words[1:])}")
                continue
            if kind == "package":
                if len(words) != 3:
                    print(f"{doc}:{line}: error: 'snippet: package' needs a package name and a path", file=sys.stderr)
                    problems += 1
                    continue
                packages.setdefault(words[1], ({}, line))[0][words[2]] = code
                continue
            if kind == "group":
                for name in words[1:]:
                    groups.setdefault(name, []).append((line, source(code, False)))
                continue
            if kind not in ("", "fragment"):
                print(f"{doc}:{line}: error: unknown snippet directive '{directive}'", file=sys.stderr)
                problems += 1
                continue
            result = typecheck(options.swiftc, options.modules, stand_ins, folder,
                               [(line, source(code, kind == "fragment"))])
            checked += 1
            if result.returncode != 0:
                problems += 1
                print(f"{doc}:{line}: error: the snippet does not type-check:\n{result.stdout}{result.stderr}",
                      file=sys.stderr)
            else:
                print(f"{doc}:{line}: type-checks" + (" (a fragment)" if kind else ""))
        for name, files in sorted(groups.items()):
            result = typecheck(options.swiftc, options.modules, stand_ins, folder, files)
            checked += 1
            lines = ", ".join(str(line) for line, _ in files)
            if result.returncode != 0:
                problems += 1
                print(f"{doc}:{files[0][0]}: error: the app '{name}' (the blocks at lines {lines}) does not "
                      f"type-check:\n{result.stdout}{result.stderr}", file=sys.stderr)
            else:
                print(f"{doc}:{files[0][0]}: the app '{name}' (the blocks at lines {lines}) type-checks")
    for name, (files, line) in sorted(packages.items()):
        failure = run_package(options.swift, name, files, line)
        checked += 1
        if failure:
            problems += 1
            print(f"{doc}:{line}: error: the package '{name}' ({', '.join(sorted(files))}) {failure}", file=sys.stderr)
        else:
            print(f"{doc}:{line}: the package '{name}' ({', '.join(sorted(files))}) builds and runs to completion")
    if problems:
        print(f"doc_snippets: {problems} of {checked} snippets failed", file=sys.stderr)
        return 1
    print(f"doc_snippets: {checked} snippets of {doc} compile")
    return 0


if __name__ == "__main__":
    sys.exit(main())

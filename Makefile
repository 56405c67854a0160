# launchflow — make targets. Each installs what is missing first (as root:
# apt-get; otherwise through sudo when there is one).
SWIFT ?= swift
SCENARIO ?= scenarios/article.json
OUT ?= output

PREFIX ?= /usr/local

.PHONY: all demo images test deps deps-browser deps-perfetto perfetto-fixtures build release install bench crosscheck fuzz format lint portability doc-snippets clean

all: demo

## deps: install Graphviz's C library, pkg-config and zlib's headers (gzip'd
## Perfetto traces) when missing: with apt on Debian, with Homebrew on macOS
## (Graphviz through pkg-config; zlib and python3 come with the Command Line
## Tools). The package managers' output goes to $(DEPS_LOG); one line says
## what is installed.
DEPS_LOG ?= $(or $(TMPDIR),/tmp)/launchflow-deps.log
SUDO = $$( [ "$$(id -u)" -eq 0 ] || echo sudo )
APT_INSTALL = $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq
UNAME := $(shell uname -s)

ifeq ($(UNAME),Darwin)
deps:
	@command -v brew >/dev/null 2>&1 || { echo "error: Homebrew (https://brew.sh) is needed to install Graphviz and pkg-config" >&2; exit 1; }
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libgvc; then \
		echo "installing graphviz and pkg-config from Homebrew (Graphviz's C library, linked in-process; log: $(DEPS_LOG))"; \
		brew install graphviz pkg-config >>$(DEPS_LOG) 2>&1 \
			|| { echo "error: brew install failed; the end of $(DEPS_LOG):" >&2; tail -n 5 $(DEPS_LOG) >&2; exit 1; }; \
	fi
else
deps:
	@if ! command -v python3 >/dev/null 2>&1; then \
		echo "installing python3 (the reference implementation and the test set-up; log: $(DEPS_LOG))"; \
		{ $(APT_INSTALL) python3 python3-venv; } >>$(DEPS_LOG) 2>&1 \
			|| { echo "error: apt-get failed; the end of $(DEPS_LOG):" >&2; tail -n 5 $(DEPS_LOG) >&2; exit 1; }; \
	fi
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libgvc; then \
		echo "installing libgraphviz-dev and pkg-config (Graphviz's C library, linked in-process; log: $(DEPS_LOG))"; \
		{ $(APT_INSTALL) libgraphviz-dev pkg-config; } >>$(DEPS_LOG) 2>&1 \
			|| { echo "error: apt-get failed; the end of $(DEPS_LOG):" >&2; tail -n 5 $(DEPS_LOG) >&2; exit 1; }; \
	fi
	@if [ ! -f /usr/include/zlib.h ]; then \
		echo "installing zlib1g-dev (zlib, to read gzip'd Perfetto traces; log: $(DEPS_LOG))"; \
		{ $(APT_INSTALL) zlib1g-dev; } >>$(DEPS_LOG) 2>&1 \
			|| { echo "error: apt-get failed; the end of $(DEPS_LOG):" >&2; tail -n 5 $(DEPS_LOG) >&2; exit 1; }; \
	fi
endif

## deps-perfetto: the Python virtual environment (.build/venv-perfetto: the
## official Perfetto protos and protobuf from PyPI) with which the tests write
## Perfetto traces; when pip cannot install them those tests are skipped (and say so).
deps-perfetto:
	@sh Tools/perfetto-fixtures/setup.sh || true

## perfetto-fixtures: rewrite the committed Perfetto test traces from their specs
perfetto-fixtures:
	sh Tools/perfetto-fixtures/regenerate.sh

## deps-browser: Chromium, which the report's browser tests drive headless (Debian's
## package; on macOS Homebrew's cask); when it cannot be installed those tests are
## skipped (and say so).
ifeq ($(UNAME),Darwin)
deps-browser:
	@if [ ! -d /Applications/Chromium.app ] && ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium from Homebrew (headless browser for the report's tests; log: $(DEPS_LOG))"; \
		brew install --cask chromium >>$(DEPS_LOG) 2>&1 \
			|| echo "warning: chromium could not be installed (see $(DEPS_LOG)); the browser tests will be skipped"; \
	fi
else
deps-browser:
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium (headless browser for the report's tests; log: $(DEPS_LOG))"; \
		{ $(APT_INSTALL) chromium; } >>$(DEPS_LOG) 2>&1 \
			|| echo "warning: chromium could not be installed (see $(DEPS_LOG)); the browser tests will be skipped"; \
	fi
endif

build: deps
	$(SWIFT) build -q

release: deps
	$(SWIFT) build -c release

## install: a release build of launchflow, copied to $(PREFIX)/bin with its resource bundle (the
## report's script and style sheet, which Bundle.module finds beside the executable) and the
## host `launchflow replay` starts
install: release
	@if [ -w "$(PREFIX)" ] || { [ ! -e "$(PREFIX)" ] && [ -w "$$(dirname "$(PREFIX)")" ]; }; then SUDO=""; \
		else SUDO="$(SUDO)"; fi; \
	$$SUDO install -d "$(PREFIX)/bin/launchflow_LaunchflowRender.resources" \
		&& $$SUDO install -m 755 .build/release/launchflow "$(PREFIX)/bin/launchflow" \
		&& $$SUDO install -m 755 .build/release/launchflow-replay-host "$(PREFIX)/bin/launchflow-replay-host" \
		&& $$SUDO install -m 644 .build/release/launchflow_LaunchflowRender.resources/* \
			"$(PREFIX)/bin/launchflow_LaunchflowRender.resources/" \
		&& echo "installed $(PREFIX)/bin/launchflow (and beside it the report's script and style sheet, and launchflow-replay-host for replay)"

## demo: compare the strategies on the bundled example and render its pictures
## into output/, with a release build (the debug one is 10–40× slower; the
## first release build takes a few minutes)
demo: deps
	@echo "building launchflow (release)"
	@$(SWIFT) build -c release -q --product launchflow
	.build/release/launchflow compare $(SCENARIO) --out $(OUT)

## images: regenerate the README's pictures (docs/images/: each scenario's task
## graph and its strategies on one time scale, the sweep's distributions, and a
## screenshot of the report in headless Chromium) from the bundled scenarios
IMAGES = article permission-alerts idle-work modules
images: build
	@rm -rf .build/images && for s in $(IMAGES); do \
		.build/debug/launchflow render scenarios/$$s.json --out .build/images >/dev/null || exit 1; \
		cp .build/images/$$s-graph.svg .build/images/$$s-compare-gantt.svg docs/images/ || exit 1; \
		echo "docs/images/$$s-graph.svg docs/images/$$s-compare-gantt.svg"; \
	done
	@.build/debug/launchflow sweep docs/examples/article-uncertain.json --runs 10000 --seed 7 --out .build/images >/dev/null
	@cp .build/images/article-uncertain-sweep.svg docs/images/ && echo "docs/images/article-uncertain-sweep.svg"
	@.build/debug/launchflow report scenarios/article.json --out .build/images/article-report.html
	@chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1000 \
		--screenshot=docs/images/report.png "file://$(CURDIR)/.build/images/article-report.html#task=launch-cache" \
		>/dev/null 2>&1 && echo "docs/images/report.png (headless Chromium)"

## test: what CI runs (Tools/test/run.sh, each phase under its `==` heading) — the lint and the
## runtime's deployment floor (Tools/deployment-floor/check.py), the whole test suite (quiet:
## failures and the summary; Swift Testing only: there are no XCTest cases, so XCTest's empty
## "Executed 0 tests" run is not started), the runtime again with the replay host and the runtime
## probe built under the thread sanitizer, and the independent Python reference: its own
## tests, then a cross-check of the simulator against it on 60 random scenarios (and 60 with the
## newer keys; make crosscheck: more), a check of advise's plans against it on 15 random
## scenarios and the bundled ones, and $(FUZZ_SHORT) fuzzed inputs. The lint and the floor run beside the
## build; the sanitizer's build, the reference's checks and the fuzz run beside the tests (whose
## real runs mostly wait), each one's output printed whole when it ends. 6 min 0 s from a fresh
## clone on two CPUs (7 min 4 s shared with other builds; 8 min 18 s when each phase waited for
## the last), 2-3 minutes of it the debug build.
test: deps deps-browser deps-perfetto
	@MAKE="$(MAKE)" SWIFT="$(SWIFT)" BUNDLED="$(BUNDLED)" FUZZ_SHORT="$(FUZZ_SHORT)" bash Tools/test/run.sh

## fuzz: the seeded fuzzer (Tools/fuzz/fuzz.py): N mutated scenarios, traces and
## measurement files through every command, SEED picks them; fails on a trap,
## a hang, malformed output (JSON, SVG, HTML, Markdown), a raw control byte on
## a terminal stream, a file left behind, time growing faster than the input,
## or a kill mid-write leaving a temporary file. FUZZ_ARGS passes more options
## (--jobs, --timeout, --keep DIR to keep the failing inputs).
## `make test` runs $(FUZZ_SHORT) inputs (about 30 s, beside the tests); `make fuzz N=100000` the long run.
N ?= 10000
SEED ?= 1
FUZZ_SHORT ?= 1000
fuzz: build
	python3 Tools/fuzz/fuzz.py --bin .build/debug/launchflow --seed $(SEED) --count $(N) $(FUZZ_ARGS)

## bench: the benchmarks (release build): engine and command by size, rendering, sweeps, import (Chrome JSON, Perfetto), advise.
## BENCH_ARGS=--quick skips the 1M-task scenario.
bench: deps
	$(SWIFT) build -c release --product launchflow
	$(SWIFT) build -c release --product launchflow-bench
	.build/release/launchflow-bench $(BENCH_ARGS)
	.build/release/launchflow-bench --v2 --sizes 10000,100000
	.build/release/launchflow-bench --render
	.build/release/launchflow-bench --sweep
	.build/release/launchflow-bench --sweep --v2
	.build/release/launchflow-bench --import
	.build/release/launchflow-bench --runtime
	$(SWIFT) build -c release --product launchflow-replay-host
	python3 Tools/replay/fidelity.py --bin .build/release/launchflow --runs 3 --random 40
	.build/release/launchflow-bench --perfetto
	.build/release/launchflow-bench --advise

## crosscheck: compare the simulator with the independent Python reference of the model (Tools/reference),
## then check advise's plans with it (Tools/reference/crosscheck_advise.py) on ADVISE_COUNT random
## scenarios (100; those over 300 tasks skipped) and the bundled ones
BUNDLED = $(filter-out scenarios/scenario.schema.json,$(wildcard scenarios/*.json))
ADVISE_COUNT ?= 100
crosscheck: build
	python3 Tools/reference/crosscheck.py --bin .build/debug/launchflow --seed $${SEED:-1} --count $${COUNT:-300}
	python3 Tools/reference/crosscheck_advise.py --bin .build/debug/launchflow --seed $${SEED:-1} --count $(ADVISE_COUNT) --files $(BUNDLED)
	python3 Tools/reference/crosscheck.py --bin .build/debug/launchflow --seed $${SEED:-1} --count $${COUNT:-300} --phases --new-keys
	python3 Tools/reference/crosscheck_advise.py --bin .build/debug/launchflow --seed $${SEED:-1} --count $(ADVISE_COUNT) --phases
	python3 Tools/reference/crosscheck.py --bin .build/debug/launchflow --seed $${SEED:-1} --count $${COUNT:-300} --clusters --phases
	python3 Tools/reference/crosscheck_advise.py --bin .build/debug/launchflow --seed $${SEED:-1} --count $(ADVISE_COUNT) --clusters

## format: rewrite the sources in the project's style (.swift-format)
format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

## portability: the Mac lint (Tools/portability/check.py: Glibc-only spellings outside code
## guarded for Linux) and the type-check of the Darwin branches against Darwin's declarations
## (Tools/portability/darwin_typecheck.py); make test runs both beside the build
portability:
	python3 Tools/portability/check.py
	python3 Tools/portability/darwin_typecheck.py

## lint: fail on any source not in the project's style (.swift-format: swift-format's
## default rules, 120 columns, 4 spaces; semicolons allowed for the byte writers'
## one-line key/value pairs), and on a function in Sources/ over 100 lines
## (Tools/lint/function_length.py)
lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	@python3 Tools/lint/function_length.py --max 100

## doc-snippets: compile every Swift snippet of docs/runtime.md (Tools/portability/doc_snippets.py): each
## type-checked against the runtime and the UIKit/SwiftUI stand-ins (Tools/portability/apple/), and the
## command-line host's package built and run to completion; make test runs it beside the tests
doc-snippets:
	$(SWIFT) build -q --target LaunchflowRuntime
	python3 Tools/portability/doc_snippets.py

clean:
	rm -rf .build

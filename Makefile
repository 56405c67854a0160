# launchflow — make targets. Each installs what is missing first (as root:
# apt-get; otherwise through sudo when there is one).
SWIFT ?= swift
SCENARIO ?= scenarios/article.json
OUT ?= output

PREFIX ?= /usr/local

.PHONY: all demo test deps build release install bench crosscheck format lint clean

all: demo

## deps: install Graphviz's C library and pkg-config when missing
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libgvc; then \
		echo "installing libgraphviz-dev and pkg-config (Graphviz's C library, linked in-process)"; \
		SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq libgraphviz-dev pkg-config; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## install: a release build of launchflow, copied to $(PREFIX)/bin
install: release
	install -d $(PREFIX)/bin
	install -m 755 .build/release/launchflow $(PREFIX)/bin/launchflow

## demo: compare the strategies on the bundled example and render its pictures into output/
demo: build
	.build/debug/launchflow compare $(SCENARIO) --out $(OUT)

## test: the whole test suite
test: deps
	$(SWIFT) test

## bench: the benchmarks (release build): engine and command by size, rendering, sweeps, import.
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

## crosscheck: compare the simulator with the independent Python reference of MODEL.md
crosscheck: build
	python3 Tools/reference/crosscheck.py --bin .build/debug/launchflow --seed $${SEED:-1} --count $${COUNT:-300}

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --recursive Sources Tests Package.swift

clean:
	rm -rf .build

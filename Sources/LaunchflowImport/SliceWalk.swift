import LaunchflowCore

extension SliceSelection {
    /// The walk over each app thread's slices in time order that finds the
    /// selected slices (see ``SliceSelection``), then binds the flows to them.
    struct Walk {
        let trace: Trace
        let app: App
        let rules: SelectionRules
        private var decisions: [NameDecision?]
        private var lines: LineIndex

        /// What a selected slice counts towards.
        enum Target: Equatable {
            case task(Int32)
            case phase(Int32)
            case none
        }

        struct Selected {
            var slice: Int32
            var target: Target
        }

        private(set) var selected: [Selected] = []
        /// Per thread: indices into ``selected`` in time order (they never overlap).
        private var selectedByThread: [[Int32]]
        /// Per thread: every slice in time order (for flows that bind to the next slice).
        private var sortedByThread: [[Int32]]
        /// Per slice: the index into ``selected`` of the selected slice it is in, or -1
        /// (kept only when flows bind to slices, as Perfetto's do).
        private var selectedOfSlice: [Int32] = []

        private struct TaskSum {
            var id: String
            var cost: Nanos = 0
            var slices = 0
            var onMain = 0
            var firstStart: Nanos
            var lastEnd: Nanos
            /// The (pid, tid) of the thread of the first slice (the first in (pid, tid) order, at one start).
            var firstThread: ThreadKey

            /// Task order: by first start, then thread, then id — never the file's order.
            static func before(_ a: TaskSum, _ b: TaskSum) -> Bool {
                (a.firstStart, a.firstThread.pid, a.firstThread.tid, a.id)
                    < (b.firstStart, b.firstThread.pid, b.firstThread.tid, b.id)
            }
            var parts: [Nanos] = []
            var dependsOn = Set<Int32>()
            /// Where its slices' thread spent them (traces with scheduler events).
            var sched = SchedTimeline.Breakdown()
            var wall: Nanos = 0
        }

        private var tasks: [TaskSum] = []
        private var taskSlot: [String: Int32] = [:]
        private var phases: [TaskSum] = []
        private var phaseSlot: [String: Int32] = [:]
        private var unmatched: [String: UnmatchedSlice] = [:]
        private var unmatchedOrder: [String] = []
        private var reportedConflicts = Set<Int32>()
        private var threadsWithTasks = Set<Int32>()

        init(trace: Trace, app: App, rules: SelectionRules) {
            self.trace = trace
            self.app = app
            self.rules = rules
            decisions = [NameDecision?](repeating: nil, count: trace.names.count)
            lines = trace.lines
            selectedByThread = [[Int32]](repeating: [], count: trace.threads.count)
            sortedByThread = selectedByThread
        }

        private mutating func decision(_ name: Int32) -> NameDecision {
            if let known = decisions[Int(name)] { return known }
            let made = rules.decide(trace.names[name])
            decisions[Int(name)] = made
            return made
        }

        // MARK: Selection

        private struct Open {
            var slice: Int32
            var start: Nanos
            var end: Nanos
            /// This slice or one around it is selected.
            var inSelected: Bool
            /// A slice inside this one is selected (tracked for depth 0 only).
            var holdsSelected = false
            /// The index into ``selected`` of the selected slice this one is in, or -1.
            var selectedIndex: Int32 = -1
        }

        mutating func select(log: inout ImportLog) {
            let slices = trace.slices
            if trace.flows.contains(where: { $0.slice >= 0 }) {
                selectedOfSlice = [Int32](repeating: -1, count: slices.count)
            }
            var byThread = [[Int32]](repeating: [], count: trace.threads.count)
            for (k, slice) in slices.enumerated() where trace.threads[Int(slice.thread)].pid == app.pid {
                byThread[Int(slice.thread)].append(Int32(k))
            }
            // Time order, whatever the file's: at one start, a zero-length slice
            // first (it ends there, so it holds nothing and nothing holds it: a
            // cost-0 slice of its own), then parents before their children;
            // slices of the same span by name, then file order.
            let names = trace.names
            let before = { (a: Int32, b: Int32) -> Bool in
                let x = slices[Int(a)]
                let y = slices[Int(b)]
                if x.start != y.start { return x.start < y.start }
                if (x.end == x.start) != (y.end == y.start) { return x.end == x.start }
                if x.end != y.end { return x.end > y.end }  // parents before their children
                if x.name != y.name { return names[x.name] < names[y.name] }
                return a < b
            }
            // Threads in (pid, tid) order, so that nothing depends on the order of the file.
            let threadOrder = byThread.indices.sorted {
                (trace.threads[$0].pid, trace.threads[$0].tid) < (trace.threads[$1].pid, trace.threads[$1].tid)
            }
            for thread in threadOrder where !byThread[thread].isEmpty {
                var list = byThread[thread]
                byThread[thread] = []
                if !zip(list, list.dropFirst()).allSatisfy({ before($0, $1) }) { list.sort(by: before) }
                walk(thread: Int32(thread), list, log: &log)
                if !trace.flows.isEmpty { sortedByThread[thread] = list }
            }
        }

        private mutating func walk(thread: Int32, _ list: [Int32], log: inout ImportLog) {
            var stack: [Open] = []
            var warnedOverlap = false
            let onMain = thread == app.mainThread
            for k in list {
                let slice = trace.slices[Int(k)]
                while let top = stack.last, top.end <= slice.start { close(stack.removeLast(), depth: stack.count) }
                if let top = stack.last, slice.end > top.end {
                    if !warnedOverlap {
                        warnedOverlap = true
                        log.warning(
                            trace.file,
                            "'\(trace.names[slice.name])' starts inside '\(trace.names[trace.slices[Int(top.slice)].name])' but ends after it, on \(trace.describe(thread: thread)): slices on one thread should nest; it is taken as a sibling (reported once per thread)",
                            line: line(of: slice.offset), at: position(slice))
                    }
                    while let top = stack.last, slice.end > top.end { close(stack.removeLast(), depth: stack.count) }
                }
                let inSelected = stack.last?.inSelected ?? false
                var selectedHere = false
                var selectedIndex = stack.last?.selectedIndex ?? -1
                if !inSelected {
                    let decision = decision(slice.name)
                    let isPhase = onMain && decision.premain
                    let interesting =
                        isPhase
                        || (rules.match != nil ? decision.matches : rules.isInto ? decision.known : stack.isEmpty)
                    if interesting {
                        selectedHere = true
                        selectedIndex = Int32(selected.count)
                        take(Int32(k), slice, decision, isPhase: isPhase, thread: thread, log: &log)
                        if !stack.isEmpty { stack[0].holdsSelected = true }
                    }
                }
                if !selectedOfSlice.isEmpty { selectedOfSlice[Int(k)] = selectedIndex }
                stack.append(
                    Open(
                        slice: k, start: slice.start, end: slice.end, inSelected: inSelected || selectedHere,
                        selectedIndex: selectedIndex))
            }
            while let top = stack.popLast() { close(top, depth: stack.count) }
        }

        /// A slice ends: an unselected depth-0 slice holding no task is, with `--into`, unmatched.
        private mutating func close(_ open: Open, depth: Int) {
            guard rules.isInto, depth == 0, !open.inSelected, !open.holdsSelected else { return }
            let slice = trace.slices[Int(open.slice)]
            addUnmatched(trace.names[slice.name], slice.duration)
        }

        private mutating func addUnmatched(_ name: String, _ duration: Nanos) {
            if unmatched[name] == nil {
                unmatchedOrder.append(name)
                unmatched[name] = UnmatchedSlice(name: name, count: 0, total: 0)
            }
            unmatched[name]!.count += 1
            unmatched[name]!.total = unmatched[name]!.total.addingSaturated(duration)
        }

        private mutating func take(
            _ k: Int32, _ slice: TraceSlice, _ decision: NameDecision, isPhase: Bool, thread: Int32,
            log: inout ImportLog
        ) {
            var target = Target.none
            let name = trace.names[slice.name]
            if !decision.conflicts.isEmpty {
                if reportedConflicts.insert(slice.name).inserted {
                    log.error(
                        trace.file,
                        "slice '\(name)' matches map rules for \(decision.conflicts.count) tasks: \(decision.conflicts.joined(separator: " and ")) (map \(rules.mapFile ?? "")); a slice must count towards one task: make the rules exclusive",
                        line: line(of: slice.offset), at: position(slice))
                }
            } else if isPhase {
                target = .phase(Self.slot(name, in: &phases, &phaseSlot, slice, k, trace, rules))
            } else if name.isEmpty {
                addUnmatched("(a slice without a name)", slice.duration)
            } else if !decision.known {
                addUnmatched(name, slice.duration)
            } else {
                let slot = Self.slot(decision.task, in: &tasks, &taskSlot, slice, k, trace, rules)
                if thread == app.mainThread { tasks[Int(slot)].onMain += 1 }
                threadsWithTasks.insert(thread)
                target = .task(slot)
            }
            selectedByThread[Int(thread)].append(Int32(selected.count))
            selected.append(Selected(slice: k, target: target))
        }

        /// Static: an instance method borrowing `self` while two of its
        /// properties are passed `inout` made Swift copy them on every call
        /// (100,000 distinct slice names took minutes; issue 19).
        private static func slot(
            _ id: String, in sums: inout [TaskSum], _ slots: inout [String: Int32], _ slice: TraceSlice, _ k: Int32,
            _ trace: Trace, _ rules: SelectionRules
        ) -> Int32 {
            let thread = ThreadKey(
                pid: trace.threads[Int(slice.thread)].pid, tid: trace.threads[Int(slice.thread)].tid)
            let slot: Int32
            if let existing = slots[id] {
                slot = existing
            } else {
                slot = Int32(sums.count)
                slots[id] = slot
                sums.append(TaskSum(id: id, firstStart: slice.start, lastEnd: slice.end, firstThread: thread))
            }
            if (slice.start, thread.pid, thread.tid)
                < (sums[Int(slot)].firstStart, sums[Int(slot)].firstThread.pid, sums[Int(slot)].firstThread.tid)
            {
                sums[Int(slot)].firstStart = slice.start
                sums[Int(slot)].firstThread = thread
            }
            sums[Int(slot)].lastEnd = max(sums[Int(slot)].lastEnd, slice.end)
            // The cost: the wall time, or (--cost running) the time the thread ran.
            var cost = slice.duration
            if let schedule = trace.schedule {
                let breakdown = schedule.breakdown(
                    tid: trace.threads[Int(slice.thread)].tid, from: slice.start, to: slice.end)
                sums[Int(slot)].sched += breakdown
                // Time before the thread's first scheduler event is unknown: counted as running (a warning says so).
                if rules.cost == .running { cost = breakdown.running + breakdown.unknown }
            }
            // Saturating: a corrupt trace's sums stop at Int64.max (then over the hour limit, an error).
            sums[Int(slot)].wall =
                sums[Int(slot)].wall.addingReportingOverflow(slice.duration).overflow
                ? .max : sums[Int(slot)].wall + slice.duration
            sums[Int(slot)].cost =
                sums[Int(slot)].cost.addingReportingOverflow(cost).overflow
                ? .max : sums[Int(slot)].cost + cost
            sums[Int(slot)].slices += 1
            if sums[Int(slot)].parts.count < 5 { sums[Int(slot)].parts.append(cost) }
            return slot
        }

        func position(_ slice: TraceSlice) -> String {
            trace.position(event: slice.event, offset: slice.offset, thread: slice.thread)
        }

        /// The line of byte `offset` (nil in a binary trace).
        private mutating func line(of offset: Int) -> Int? {
            trace.format == .perfetto ? nil : trace.format == .xctrace ? offset : lines.line(of: offset)
        }

        // MARK: Flows

        /// The selected slice around time `t` on `thread`.
        private func enclosing(_ thread: Int32, _ t: Nanos) -> Selected? {
            let list = selectedByThread[Int(thread)]
            var low = 0
            var high = list.count
            while low < high {  // first entry starting after t
                let mid = (low + high) / 2
                if trace.slices[Int(selected[Int(list[mid])].slice)].start <= t { low = mid + 1 } else { high = mid }
            }
            guard low > 0 else { return nil }
            let candidate = selected[Int(list[low - 1])]
            return trace.slices[Int(candidate.slice)].end >= t ? candidate : nil
        }

        /// The selected slice around the next slice that begins at or after `t` on `thread`.
        private func next(_ thread: Int32, _ t: Nanos) -> Selected? {
            let list = sortedByThread[Int(thread)]
            var low = 0
            var high = list.count
            while low < high {
                let mid = (low + high) / 2
                if trace.slices[Int(list[mid])].start < t { low = mid + 1 } else { high = mid }
            }
            guard low < list.count else { return nil }
            return enclosing(thread, trace.slices[Int(list[low])].start)
        }

        mutating func bindFlows(log: inout ImportLog) {
            guard !trace.flows.isEmpty else { return }
            let flows = trace.flows
            let order = flows.indices.sorted {
                let a = flows[$0]
                let b = flows[$1]
                return (a.flow, a.time, a.event) < (b.flow, b.time, b.event)
            }
            var dropped = 0
            for (x, y) in zip(order, order.dropFirst()) {
                let a = flows[x]
                let b = flows[y]
                guard a.flow == b.flow, a.phase != .finish, b.phase != .start else { continue }
                let from = bind(a)
                let to = bind(b)
                switch (from?.target, to?.target) {
                case (.task(let d)?, .task(let t)?):
                    if d != t { tasks[Int(t)].dependsOn.insert(d) }
                case (.task?, nil), (nil, .task?):
                    dropped += 1
                    guard dropped <= 10 else { continue }
                    let (loose, bound) = from == nil ? (a, b) : (b, a)
                    let thread = trace.threads[Int(loose.thread)]
                    let task = trace.names[trace.slices[Int((from ?? to)!.slice)].name]
                    let why =
                        thread.pid != app.pid
                        ? "is in another process (pid \(thread.pid))" : "is not inside a task slice"
                    _ = bound
                    log.warning(
                        trace.file,
                        "flow \(flowName(a.flow)): its '\(letter(loose.phase))' event \(why), so the dependency of \(from == nil ? "'\(task)' on it" : "it on '\(task)'") is not imported",
                        line: line(of: loose.offset),
                        at: trace.position(event: loose.event, offset: loose.offset, thread: loose.thread))
                default: continue  // neither end in a task, or an end in a pre-main phase
                }
            }
            if dropped > 10 {
                log.warning(trace.file, "… and \(dropped - 10) more flows with only one end in a task, not imported")
            }
        }

        private func bind(_ step: FlowStep) -> Selected? {
            guard trace.threads[Int(step.thread)].pid == app.pid else { return nil }
            if step.slice >= 0 {
                let index = selectedOfSlice.isEmpty ? -1 : selectedOfSlice[Int(step.slice)]
                return index >= 0 ? selected[Int(index)] : nil
            }
            return step.bindsToEnclosingSlice ? enclosing(step.thread, step.time) : next(step.thread, step.time)
        }

        private func flowName(_ key: Int32) -> String {
            let parts = trace.flowKeys[key].split(separator: "\u{0}", omittingEmptySubsequences: false)
            return "id \(parts.last ?? "")" + (parts.count == 3 && !parts[1].isEmpty ? " ('\(parts[1])')" : "")
        }

        private func letter(_ phase: FlowStep.Phase) -> String {
            switch phase {
            case .start: "s"
            case .step: "t"
            case .finish: "f"
            }
        }

        // MARK: Result

        func finish(into run: inout ImportedRun, log: inout ImportLog) {
            let order = tasks.indices.sorted { TaskSum.before(tasks[$0], tasks[$1]) }
            var rank = [Int](repeating: 0, count: tasks.count)
            for (r, k) in order.enumerated() { rank[k] = r }
            var repeated: [TaskSum] = []
            for k in order {
                let sum = tasks[k]
                run.tasks.append(
                    ImportedTask(
                        id: sum.id, cost: sum.cost, onMain: sum.onMain == sum.slices,
                        dependsOn: sum.dependsOn.map { Int($0) }.sorted { rank[$0] < rank[$1] }.map { tasks[$0].id },
                        slices: sum.slices, span: sum.firstStart...sum.lastEnd))
                if sum.slices > 1 { repeated.append(sum) }
            }
            for phase in phases.sorted(by: TaskSum.before) {
                run.preMain.append(
                    ImportedPhase(name: phase.id, cost: phase.cost, span: phase.firstStart...phase.lastEnd))
                if phase.slices > 1 { repeated.append(phase) }
            }
            noteRepeats(repeated, log: &log)
            if let schedule = trace.schedule {
                noteScheduling(order.map { tasks[$0] }, threads: schedule.threadCount, log: &log)
            }
            run.threadsWithTasks = threadsWithTasks.count
            run.unmatched = unmatchedOrder.map { unmatched[$0]! }
        }

        /// Where each task's thread spent it, one note per task.
        private func noteScheduling(_ sums: [TaskSum], threads: Int, log: inout ImportLog) {
            // Instruments says "Blocked"; the kernel's states are sleeping ones.
            let instruments = trace.format == .xctrace
            let waiting = instruments ? "blocked" : "sleeping"
            let unknown = instruments ? "unknown (no thread-state row)" : "unknown (before its thread's first event)"
            log.note(
                trace.file,
                "the trace has \(trace.scheduleSource ?? "scheduler events (sched_switch)") for \(plural(threads, "thread")): each task's time running, runnable (waiting for a CPU) and \(waiting) (waiting: I/O, a lock, a message) follows\(rules.cost == .running ? "; the costs are the running times (--cost running)" : "; --cost running makes the running time the cost")"
            )
            for sum in sums {
                let wall = sum.wall
                func part(_ label: String, _ value: Nanos) -> String {
                    let share = wall > 0 ? " (\(fixed(Double(value) * 100 / Double(wall), 0))%)" : ""
                    return "\(label) \(formatMillis(nanos: value))\(share)"
                }
                var parts = [
                    part("running", sum.sched.running), part("runnable", sum.sched.runnable),
                    part(waiting, sum.sched.sleeping),
                ]
                if sum.sched.unknown > 0 {
                    parts.append(part(unknown, sum.sched.unknown))
                }
                log.note(
                    trace.file, "'\(sum.id)' \(formatMillis(nanos: wall)) ms: \(parts.joined(separator: ", "))")
                if rules.cost == .running, sum.sched.unknown > 0 {
                    log.warning(
                        trace.file,
                        "'\(sum.id)': \(formatMillis(nanos: sum.sched.unknown)) of its \(formatMillis(nanos: wall)) ms \(instruments ? "are not covered by a thread-state row" : "come before its thread's first scheduler event") (its state is unknown there): that time is counted as running"
                    )
                }
            }
        }

        /// A note per name that occurs several times (one note for them all when there are many).
        private func noteRepeats(_ sums: [TaskSum], log: inout ImportLog) {
            if sums.count > 5 {
                let examples = sums.prefix(3).map { "'\($0.id)' ×\($0.slices)" }.joined(separator: ", ")
                log.note(
                    trace.file,
                    "\(sums.count) names have several slices each (\(examples), …); each name's costs are summed")
                return
            }
            for sum in sums {
                var parts = sum.parts.map { formatMillis(nanos: $0) }.joined(separator: " + ")
                if sum.slices > sum.parts.count { parts += " + …" }
                log.note(
                    trace.file,
                    "'\(sum.id)' has \(sum.slices) slices; their costs are summed: \(parts) = \(formatMillis(nanos: sum.cost)) ms"
                )
            }
        }
    }
}

import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// The Chrome Trace Event format does not require events in timestamp order:
/// a trace whose events are shuffled imports to the same scenario, byte for
/// byte, as the same trace in order; zero-length slices are cost-0 tasks.
struct ChromeOrderTests {
    /// A launch of `taskCount` tasks on three threads, as JSON events: `X`
    /// and `B`/`E` slices (unnamed `E`s too), nested children, slices that
    /// touch (an `E` and a `B` at one instant), zero-length slices (`X` with
    /// `dur` 0, and a `B` and a named `E` at one instant), flows, metadata.
    /// With `namedEnds`, every `E` names its slice.
    static func events(seed: UInt64, taskCount: Int, namedEnds: Bool) -> (events: [String], tasks: [String: Double]) {
        var random = SplitMix64(seed: seed)
        func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        func named(_ name: String) -> String { namedEnds ? #""name":"\#(name)","# : "" }
        let tids = [700, 712, 713]
        var events = [
            #"{"ph":"M","name":"process_name","pid":700,"args":{"name":"com.example.app"}}"#,
            #"{"ph":"M","name":"thread_name","pid":700,"tid":700,"args":{"name":"main"}}"#,
            #"{"ph":"M","name":"thread_name","pid":700,"tid":712,"args":{"name":"worker-1"}}"#,
            #"{"ph":"X","name":"other-process","pid":90,"tid":90,"ts":5,"dur":3}"#,
        ]
        var cursor = [Int](repeating: 1000, count: tids.count)
        var lastWasZero = [Bool](repeating: false, count: tids.count)
        var tasks: [String: Double] = [:]
        var spans: [(id: String, tid: Int, start: Int, end: Int, ts: String)] = []
        for k in 0..<taskCount {
            let t = below(tids.count)
            let tid = tids[t]
            // Touching the previous slice half of the time (never right after a zero-length one).
            let start = cursor[t] + (below(2) == 0 && !lastWasZero[t] ? 0 : 1 + below(50))
            let zero = below(6) == 0
            let length = zero ? 0 : 1 + below(400)
            let id = "task-\(k)"
            let ts = "\(start).\(below(4) * 25)"
            let end = "\(start + length).\(below(4) * 25)"
            let cost = zero ? 0 : (Double(end)! - Double(ts)!) / 1000
            if zero {
                if below(2) == 0 {
                    events.append(#"{"ph":"X","name":"\#(id)","pid":700,"tid":\#(tid),"ts":\#(ts),"dur":0}"#)
                } else {
                    events.append(#"{"ph":"B","name":"\#(id)","pid":700,"tid":\#(tid),"ts":\#(ts)}"#)
                    events.append(#"{"ph":"E","name":"\#(id)","pid":700,"tid":\#(tid),"ts":\#(ts)}"#)
                }
                tasks[id] = 0
                spans.append((id, tid, start, start, ts))
            } else {
                if below(2) == 0 {
                    events.append(#"{"ph":"B","name":"\#(id)","cat":"launch","pid":700,"tid":\#(tid),"ts":\#(ts)}"#)
                    events.append(#"{"ph":"E",\#(named(id))"pid":700,"tid":\#(tid),"ts":\#(end)}"#)
                } else {
                    events.append(
                        #"{"ph":"X","name":"\#(id)","pid":700,"tid":\#(tid),"ts":\#(ts),"dur":\#(Double(end)! - Double(ts)!)}"#
                    )
                }
                if length > 20 {  // a child, touching its parent's start
                    events.append(#"{"ph":"B","name":"\#(id) child","pid":700,"tid":\#(tid),"ts":\#(ts)}"#)
                    events.append(
                        #"{"ph":"E",\#(named(id + " child"))"pid":700,"tid":\#(tid),"ts":\#(start + length / 2)}"#)
                }
                tasks[id] = cost
                spans.append((id, tid, start, start + length, ts))
            }
            cursor[t] = start + length + 1
            lastWasZero[t] = zero
        }
        // Flows from a task to a later one on another thread (distinct times).
        for (n, a) in spans.enumerated() where a.end > a.start && n % 4 == 0 {
            guard let b = spans.first(where: { $0.tid != a.tid && $0.start > a.end && $0.end > $0.start }) else {
                continue
            }
            events.append(#"{"ph":"s","name":"dep","cat":"flow","id":\#(n),"pid":700,"tid":\#(a.tid),"ts":\#(a.ts)}"#)
            events.append(
                #"{"ph":"f","bp":"e","name":"dep","cat":"flow","id":\#(n),"pid":700,"tid":\#(b.tid),"ts":\#(b.ts)}"#)
        }
        return (events, tasks)
    }

    static func importJSON(_ events: [String], in folder: TemporaryFolder, name: String) throws -> ImportOutcome {
        let path = try folder.write(name, #"{"traceEvents": ["# + events.joined(separator: ",\n") + "]}")
        return try TraceImport.run(ImportRequest(traces: [path]))
    }

    /// Shuffled: with every `E` named, in any order; otherwise keeping the
    /// file order of the `B`/`E` events of one thread at one instant (the
    /// order the format reads them in: two slices that begin at one instant
    /// nest in file order).
    @Test(arguments: [(1, true), (2, true), (3, true), (4, false), (5, false), (6, false)])
    func aShuffledTraceImportsToTheSameScenario(seed: UInt64, namedEnds: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (events, tasks) = Self.events(seed: seed, taskCount: 25 + Int(seed) * 5, namedEnds: namedEnds)
        let inOrder = try Self.importJSON(events, in: folder, name: "ordered.json")
        let object = try #require(JSONSerialization.jsonObject(with: Data(inOrder.scenario)) as? [String: Any])
        let imported = (object["tasks"] as? [[String: Any]] ?? []).map {
            ($0["id"] as! String, ($0["cost"] as! NSNumber).doubleValue)
        }
        // Every task, zero-length ones included, each at its cost to the
        // microsecond (the exact milliseconds as the loader reads them).
        #expect(Set(imported.map(\.0)) == Set(tasks.keys), "seed \(seed)")
        for (id, cost) in imported {
            let expected = Double(microseconds(fromMilliseconds: tasks[id]!)) / 1000
            #expect(abs(cost - expected) < 1e-9, "seed \(seed) \(id)")
        }
        #expect(inOrder.log.diagnostics.filter { $0.severity != .note }.isEmpty, "\(inOrder.log.text)")
        var random = SplitMix64(seed: seed &* 7919)
        for round in 0..<8 {
            var shuffled = events
            shuffled.shuffle(using: &random)
            if !namedEnds { shuffled = Self.keepingOrderAtEachInstant(shuffled, original: events) }
            let outcome = try Self.importJSON(shuffled, in: folder, name: "shuffled-\(round).json")
            #expect(
                String(decoding: outcome.scenario, as: UTF8.self).replacingOccurrences(
                    of: "shuffled-\(round).json", with: "ordered.json")
                    == String(decoding: inOrder.scenario, as: UTF8.self), "seed \(seed) round \(round)")
            #expect(outcome.log.diagnostics.filter { $0.severity != .note }.isEmpty, "\(outcome.log.text)")
        }
    }

    /// `shuffled` with the `B`/`E` events of each (thread, instant) put back in their original order.
    static func keepingOrderAtEachInstant(_ shuffled: [String], original: [String]) -> [String] {
        func key(_ event: String) -> String? {
            guard event.contains(#""ph":"B""#) || event.contains(#""ph":"E""#) else { return nil }
            let tid = event.split(separator: #""tid":"#)[1].prefix { $0 != "," }
            let ts = event.split(separator: #""ts":"#)[1].prefix { $0 != "}" && $0 != "," }
            return "\(tid)|\(Double(ts)!)"
        }
        var queues: [String: [String]] = [:]
        for event in original { if let key = key(event) { queues[key, default: []].append(event) } }
        return shuffled.map { event in
            guard let key = key(event) else { return event }
            return queues[key]!.removeFirst()
        }
    }

    @Test func zeroLengthSlicesAreCostZeroTasks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let events = [
            #"{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}}"#,
            #"{"ph":"X","name":"a","pid":1,"tid":1,"ts":100,"dur":10}"#,
            #"{"ph":"X","name":"zero","pid":1,"tid":1,"ts":110,"dur":0}"#,
            #"{"ph":"B","name":"b","pid":1,"tid":1,"ts":110}"#,
            #"{"ph":"E","pid":1,"tid":1,"ts":120}"#,
            #"{"ph":"B","name":"z2","pid":1,"tid":1,"ts":130}"#,
            #"{"ph":"E","pid":1,"tid":1,"ts":130}"#,
        ]
        let outcome = try Self.importJSON(events, in: folder, name: "zero.json")
        let object = try #require(JSONSerialization.jsonObject(with: Data(outcome.scenario)) as? [String: Any])
        let tasks = (object["tasks"] as? [[String: Any]] ?? []).map {
            "\($0["id"] as! String) \(($0["cost"] as! NSNumber).doubleValue)"
        }
        #expect(tasks == ["a 0.01", "b 0.01", "zero 0.0", "z2 0.0"])
    }
}

import Dispatch
import Foundation
import LaunchflowCore

// Progress on a terminal (standard error), for the long commands: a bar where
// the work is counted (sweep, whatif, calibrate), a line with the time taken
// where it is not (render, report). Both write nothing unless standard error
// is a terminal, and clear their line when done.

/// A one-line progress bar on stderr, redrawn at most once per percent.
///
/// A class: the worker threads share one bar (its state is behind a lock).
final class ProgressBar: Sendable {
    let total: Int
    /// What is counted: "runs", "tasks".
    let unit: String
    /// The percentage last drawn.
    private let drawn = LockedValue(-1)

    init(total: Int, unit: String = "runs") {
        self.total = max(total, 1)
        self.unit = unit
    }

    /// `done` runs of `total` are finished (called from any thread).
    func update(_ done: Int) {
        let percent = min(done * 100 / total, 100)
        drawn.withLock { last in
            guard percent > last else { return }
            last = percent
            let filled = percent * 30 / 100
            let line =
                "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
                + "] \(percent)% \(min(done, total))/\(total) \(unit)"
            Self.write(line)
        }
    }

    /// Clears the bar's line.
    func finish() { drawn.withLock { _ in Self.write("\r\u{1B}[2K") } }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// "report: laying out the pictures… 2.4 s", drawn once the work has taken
/// more than a second and redrawn every half second until ``finish()``.
/// A class: the timer's handler and the command share it.
final class WorkingLine: Sendable {
    private let what: String
    private let start = DispatchTime.now()
    private let state = LockedValue<(timer: DispatchSourceTimer?, drawn: Bool)>((nil, false))

    /// Starts the clock; draws only when standard error is a terminal.
    init?(_ what: String, streams: any OutputStreams) {
        guard streams is StandardStreams, isatty(2) == 1 else { return nil }
        self.what = what
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + 1, repeating: 0.5)
        timer.setEventHandler { [weak self] in self?.draw() }
        state.withLock { $0.timer = timer }
        timer.resume()
    }

    private func draw() {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        state.withLock { state in
            guard state.timer != nil else { return }
            state.drawn = true
            ProgressBar.write("\r\u{1B}[2K\(what)… \(String(format: "%.1f", seconds)) s")
        }
    }

    /// Stops the clock and clears the line if it was drawn.
    func finish() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            if state.drawn { ProgressBar.write("\r\u{1B}[2K") }
            state.drawn = false
        }
    }
}

/// `before` in a finished run: where each task's point of the launch falls,
/// and which tasks are done after it. `advise` never makes a task late that
/// is in time as written; `validate` warns about a late one.
extension Schedule {
    /// The instant `deadline` falls at in this run: the start of the
    /// first-frame commit (iteration `firstFrameIteration`), or the return of
    /// `didFinishLaunching`.
    public func instant(of deadline: LaunchDeadline, firstFrameIteration: Int) -> Micros {
        switch deadline {
        case .firstFrame: commits[firstFrameIteration].start
        case .launch: didFinishLaunching.end
        }
    }

    /// Whether each task has a `before` and is done (latency included) after that point in this run.
    public func lateTasks(firstFrameIteration: Int) -> [Bool] {
        let specs = scenario.tasks
        let frame = instant(of: .firstFrame, firstFrameIteration: firstFrameIteration)
        let launch = didFinishLaunching.end
        return specs.indices.map { i in
            guard let before = specs[i].before else { return false }
            return tasks[i].done > (before == .firstFrame ? frame : launch)
        }
    }
}

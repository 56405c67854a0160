/// The signposts LaunchflowRuntime's `SignpostTraceSink` emits on Apple
/// platforms, which `launchflow import` of an Instruments export reads back.
public enum LaunchSignposts {
    /// The name of the `OSSignposter` interval around each task's body; its
    /// message is the task's id, and import names the task by the message
    /// alone (docs/import.md, "Recording on iOS").
    public static let taskInterval: StaticString = "launchflow-task"
}

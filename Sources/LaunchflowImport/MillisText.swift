import LaunchflowCore

/// Milliseconds as a scenario writes them, from a double: rounded to the
/// microsecond (the model's resolution), exact decimals.
func millisText(_ ms: Double) -> String {
    formatMillis(microseconds(fromMilliseconds: ms))
}

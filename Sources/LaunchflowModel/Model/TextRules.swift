/// What a string in a scenario may hold: ids, names, queues, groups and the
/// description are shown in terminals, SVG pictures, HTML and Markdown, so
/// none may hold a control character other than a line feed or a tab (which
/// pictures show as line breaks and spaces and terminals as `\n`, `\t`): no
/// other C0 control, no DEL, no C1 control. Each has a length that every
/// picture, table and diagnostic can carry (a 1 GB id once took 2 GB of
/// memory to accept).
extension FieldLimits {
    /// The longest id or name, in characters (Unicode scalars).
    package static let maxTextLength = 4096
    /// The longest free text (the scenario's description), in characters.
    package static let maxFreeTextLength = 65_536

    /// The most characters this string may hold.
    package var maxLength: Int { freeText ? Self.maxFreeTextLength : Self.maxTextLength }

    /// The most bytes a JSON string literal of ``maxLength`` characters can
    /// take (`\uXXXX\uXXXX` for each, and the quotes): a longer literal is
    /// too long before it is decoded.
    package var maxLiteralBytes: Int { 12 * maxLength + 2 }

    /// The problem with a string read from a file or set in code, or nil.
    ///
    /// - Complexity: O(n), stopping at the first control character or past ``maxLength``.
    package func textProblem(_ text: String) -> String? {
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            if Self.isControl(scalar), scalar != "\n", scalar != "\t" {
                return "must not hold control characters, found U+\(Self.hex(scalar.value)) at character \(count)"
            }
            if count > maxLength { return tooLong("\(text.unicodeScalars.count) characters") }
        }
        return nil
    }

    /// The problem with a string that is too long; `found` says how long it is.
    package func tooLong(_ found: String) -> String { "must be at most \(maxLength) characters long, found \(found)" }

    /// C0 controls, DEL and C1 controls.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

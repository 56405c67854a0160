import LaunchflowCore

/// An option of a command, declared as data so that parsing and `--help`
/// cannot drift apart. A command reads an option's value through the spec
/// itself — `args.string(Options.out)`, `args.integer(Options.runs, default:
/// 1000)`, `args.choice(.idleMode, as: IdleMode.self)` — never by its name.
struct OptionSpec: Sendable {
    /// Without the dashes: `strategy` for `--strategy`.
    var name: String
    /// The value's placeholder (`<strategy>`); nil for a flag.
    var value: String?
    var help: String
    /// The values allowed, if the set is fixed.
    var choices: [String]? = nil
    var repeatable = false
    /// The value when the option is not given; shown in the help as `(default: …)`.
    var defaultValue: String? = nil
    /// The value when the option is given without one (`--fit` = `--fit scale`);
    /// then only a following word among ``choices`` is taken as its value.
    var implicitValue: String? = nil
    /// Options of one group (the same name) of which one is required: the
    /// usage shows them as `(--a <x> | --b <y>)`, not in brackets.
    var oneOf: String? = nil
    /// An integer option's allowed values (``ParsedArguments/integer(_:default:)`` checks them).
    var range: ClosedRange<Int>? = nil

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help)
    }
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var optional = false
    /// The last argument only: it takes every remaining positional (one or more).
    var repeatable = false
}

/// A subcommand: its help text, arguments and options.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var arguments: [ArgumentSpec]
    var options: [OptionSpec]
    var discussion: String = ""

    static let helpOption = OptionSpec.flag("help", "Show help information.")

    var allOptions: [OptionSpec] { options + [Self.helpOption] }

    var usage: String {
        var parts = ["launchflow", name]
        for argument in arguments {
            let text = argument.optional ? "[<\(argument.name)>]" : "<\(argument.name)>"
            parts.append(argument.repeatable ? text + " ..." : text)
        }
        func text(_ option: OptionSpec) -> String {
            var text = option.value.map { "--\(option.name) \($0)" } ?? "--\(option.name)"
            if let value = option.value, option.implicitValue != nil { text = "--\(option.name) [\(value)]" }
            return text
        }
        var groupsShown = Set<String>()
        for option in options {
            if let group = option.oneOf {
                guard groupsShown.insert(group).inserted else { continue }
                parts.append("(" + options.filter { $0.oneOf == group }.map(text).joined(separator: " | ") + ")")
                continue
            }
            parts.append(option.repeatable ? "[\(text(option)) ...]" : "[\(text(option))]")
        }
        return parts.joined(separator: " ")
    }

    /// The help page: OVERVIEW, USAGE, ARGUMENTS, OPTIONS (and a discussion).
    var help: String {
        var out = "OVERVIEW: \(abstract)\n"
        if !discussion.isEmpty { out += "\n\(discussion)\n" }
        out += "\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in arguments { out += helpRow("<\(argument.name)>", argument.help) }
        }
        out += "\nOPTIONS:\n"
        for option in allOptions {
            var label = "--\(option.name)"
            if let value = option.value { label += option.implicitValue == nil ? " \(value)" : " [\(value)]" }
            if option.name == "help" { label = "-h, --help" }
            var help = option.help
            if let value = option.defaultValue {
                let period = help.hasSuffix(".")
                if period { help.removeLast() }
                help += " (default: \(value))" + (period ? "." : "")
            }
            out += helpRow(label, help)
        }
        return out
    }
}

/// `  label     help`, wrapping the label onto its own line when it is long.
func helpRow(_ label: String, _ help: String) -> String {
    let width = 26
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    var out = "  " + label
    if label.count + 2 >= width {
        out += "\n" + String(repeating: " ", count: width)
    } else {
        out += String(repeating: " ", count: width - label.count - 2)
    }
    out += lines.joined(separator: "\n" + String(repeating: " ", count: width)) + "\n"
    return out
}

/// What the user wrote, checked against a ``CommandSpec``. Values are read
/// through the options' specs, typed: a path or a name, a choice, an
/// integer in the option's range, a seed; the usage errors name the option.
struct ParsedArguments {
    /// The command the arguments are for (its usage goes with an error).
    let command: CommandSpec
    var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// The option's text, or its default: a path, a name, a pattern.
    func string(_ option: OptionSpec) -> String? { values[option.name]?.last ?? option.defaultValue }

    /// Every value a repeatable option was given, in order.
    func strings(_ option: OptionSpec) -> [String] { values[option.name] ?? [] }

    /// Whether the option was given: a flag, or an option with a value.
    func isGiven(_ option: OptionSpec) -> Bool { flags.contains(option.name) || values[option.name] != nil }

    /// The option's value (or default) as one of its typed choices; nil when
    /// neither is given. The parser has already checked the value is a choice.
    func choice<T: RawRepresentable>(_ option: OptionSpec, as type: T.Type = T.self) -> T? where T.RawValue == String {
        string(option).flatMap(T.init(rawValue:))
    }

    /// An integer option within its ``OptionSpec/range``, or `fallback` when absent.
    func integer(_ option: OptionSpec, default fallback: Int) throws(CLIError) -> Int {
        try integer(option) ?? fallback
    }

    /// An integer option within its ``OptionSpec/range``; nil when absent.
    func integer(_ option: OptionSpec) throws(CLIError) -> Int? {
        guard let text = string(option) else { return nil }
        let range = option.range ?? Int.min...Int.max
        guard let n = Int(text), range.contains(n) else {
            let expected =
                range.upperBound == Int.max
                ? "an integer ≥ \(grouped(range.lowerBound))"
                : "an integer from \(grouped(range.lowerBound)) to \(grouped(range.upperBound))"
            throw usage("invalid value '\(text)' for '--\(option.name)': expected \(expected)")
        }
        return n
    }

    /// A usage error of this command.
    func usage(_ message: String) -> CLIError { .usage(command, message) }

    /// Tokenises `args`: `--x v`, `--x=v`, `-h`, and `--` (everything after it is positional).
    init(_ args: [String], for command: CommandSpec) throws(CLIError) {
        self.command = command
        let options = command.allOptions
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            if arg == "-h" {
                flags.insert("help")
                continue
            }
            guard arg.hasPrefix("--") else {
                throw CLIError.usage(command, "unknown option '\(arg)'\(suggestion(for: arg, in: options))")
            }
            var name = String(arg.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw CLIError.usage(command, "unknown option '--\(name)'\(suggestion(for: "--" + name, in: options))")
            }
            guard spec.value != nil else {
                if inlineValue != nil { throw CLIError.usage(command, "option '--\(name)' takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if let implicit = spec.implicitValue {
                if i < args.count, spec.choices?.contains(args[i]) == true {
                    value = args[i]
                    i += 1
                } else {
                    value = implicit
                }
            } else if i < args.count, !(args[i].hasPrefix("--") && args[i].count > 2) {
                value = args[i]
                i += 1
            } else {
                throw CLIError.usage(command, "option '--\(name)' needs a value \(spec.value!)")
            }
            if let choices = spec.choices, !choices.contains(value) {
                let hint = didYouMean(value, in: choices)
                throw CLIError.usage(
                    command,
                    "invalid value '\(value)' for '--\(name)': expected one of \(choices.joined(separator: ", "))\(hint)"
                )
            }
            if values[name] != nil && !spec.repeatable {
                throw CLIError.usage(command, "option '--\(name)' given more than once")
            }
            values[name, default: []].append(value)
        }
        if flags.contains("help") { return }
        let required = command.arguments.filter { !$0.optional }.count
        if positionals.count < required {
            let missing = command.arguments[positionals.count]
            throw CLIError.usage(command, "missing argument <\(missing.name)>")
        }
        if positionals.count > command.arguments.count, command.arguments.last?.repeatable != true {
            throw CLIError.usage(command, "unexpected argument '\(positionals[command.arguments.count])'")
        }
    }
}

private func suggestion(for word: String, in options: [OptionSpec]) -> String {
    didYouMean(word, in: options.map { "--" + $0.name })
}

/// Everything that ends a command early, with its exit status.
enum CLIError: Error {
    /// Bad command line: the message, then the usage and a pointer to `--help`. Exit 2.
    case usage(CommandSpec?, String)
    /// Input files that cannot be used (a scenario, a baseline): every problem. Exit 2.
    case diagnostics([Diagnostic])
    /// Other bad input (a render failure, an output folder that is a file…). Exit 2.
    case input(String)

    var status: Int32 { 2 }

    /// The text for stderr; what came from the command line or a file is escaped.
    var message: String {
        switch self {
        case .usage(let command, let text):
            var out = "error: \(escapedForTerminal(text))\n"
            if let command {
                out += "usage: \(command.usage)\nSee 'launchflow \(command.name) --help'.\n"
            } else {
                out += "usage: launchflow <command> [<arguments>] [<options>]\nSee 'launchflow --help'.\n"
            }
            return out
        case .diagnostics(let problems): return problems.map { $0.description + "\n" }.joined()
        case .input(let text): return "error: \(escapedForTerminal(text))\n"
        }
    }
}

/// 10000000 → "10,000,000".
func grouped(_ n: Int) -> String {
    var digits = String(n)
    var out = ""
    while digits.count > 3 {
        out = "," + digits.suffix(3) + out
        digits.removeLast(3)
    }
    return digits + out
}

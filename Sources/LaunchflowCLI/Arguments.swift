import LaunchflowCore

/// An option of a command, declared as data so that parsing and `--help`
/// cannot drift apart.
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

/// What the user wrote, checked against a ``CommandSpec``.
struct ParsedArguments {
    var positionals: [String] = []
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }

    /// The option's value, or its default.
    func value(_ option: OptionSpec) -> String? { values[option.name]?.last ?? option.defaultValue }

    /// The option's value (or default) as one of its typed choices; nil when
    /// neither is given. The parser has already checked the value is a choice.
    func choice<T: RawRepresentable>(_ option: OptionSpec, as type: T.Type = T.self) -> T? where T.RawValue == String {
        value(option).flatMap(T.init(rawValue:))
    }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    /// Tokenises `args`: `--x v`, `--x=v`, `-h`, and `--` (everything after it is positional).
    init(_ args: [String], for command: CommandSpec) throws(CLIError) {
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

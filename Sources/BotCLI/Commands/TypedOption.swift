import ArgumentParsing

/// An option declared once with how its value is read: the table's spec and the typed value.
///
/// The name, the help, the default and the parser sit together, so a command never looks an
/// option up by a string of its own and a default is written once, in the spec, where `--help`
/// shows it.
struct TypedOption<Value>: Sendable {
    let spec: OptionSpec
    fileprivate let parse: @Sendable (String) throws(CommandFailure) -> Value

    /// An option whose value `parse` reads, throwing the usage failure that says what it takes.
    init(_ spec: OptionSpec, parse: @escaping @Sendable (String) throws(CommandFailure) -> Value) {
        self.spec = spec
        self.parse = parse
    }

    /// An option whose value `parse` reads or refuses (`nil`): refused, it is exit 64 with
    /// "--name takes `expected`, not 'value'".
    init(_ spec: OptionSpec, expected: String, parse: @escaping @Sendable (String) -> Value?) {
        let name = spec.name
        self.init(spec) { text throws(CommandFailure) in
            guard let value = parse(text) else {
                throw CommandFailure("--\(name) takes \(expected), not '\(text)'", code: .usage)
            }
            return value
        }
    }

    /// The option's value in `invocation` (its default when not given), `nil` when it has neither.
    func value(in invocation: Invocation) throws(CommandFailure) -> Value? {
        guard let text = invocation.value(spec.name) else { return nil }
        return try parse(text)
    }
}

extension TypedOption {
    /// The value of an option whose spec has a default: as given, else that default, so the
    /// default is written once, in the spec `--help` shows.
    func defaultedValue(in invocation: Invocation) throws(CommandFailure) -> Value {
        try parse(invocation.value(spec.name) ?? spec.defaultValue ?? "")
    }
}

extension TypedOption where Value == String {
    /// An option whose value is any text (a path, a name).
    init(_ spec: OptionSpec) {
        self.init(spec) { text throws(CommandFailure) in text }
    }
}

/// A successfully parsed command line: which command to run and the values it was given.
///
/// Values are keyed by the names declared in the table, and defaults are already filled in, so the code that
/// runs a command never looks at raw arguments.
public struct Invocation: Equatable, Sendable {
    /// The names of the commands from the root to the one to run, such as `["tool", "remote", "add"]`.
    public let commandPath: [String]
    /// Every positional value, in command-line order.
    public let positionals: [String]
    /// The innermost command's usage synopsis, kept so a failed validation can be reported like a parse error.
    public let usage: String
    let flags: [String: Bool]
    let optionValues: [String: [String]]
    let positionalValues: [String: [String]]

    /// Whether the flag or inversion declared as `name` is on (its default when not given).
    public func flag(_ name: String) -> Bool {
        flags[name] ?? false
    }

    /// The value of the option declared as `name`: the last one given, else its default.
    public func value(_ name: String) -> String? {
        optionValues[name]?.last
    }

    /// Every value given for the option declared as `name`, in order (its default when none was given).
    public func values(_ name: String) -> [String] {
        optionValues[name] ?? []
    }

    /// The value of the single positional argument declared as `name`.
    public func positional(_ name: String) -> String? {
        positionalValues[name]?.first
    }

    /// Every value taken by the positional argument declared as `name` (one, or many when it repeats).
    public func positionals(_ name: String) -> [String] {
        positionalValues[name] ?? []
    }

    /// A usage error about this invocation, for checks the table cannot express (exit 64, with usage).
    public func usageError(_ message: String) -> UsageError {
        UsageError(message: message, usage: usage, commandPath: commandPath.joined(separator: " "))
    }
}

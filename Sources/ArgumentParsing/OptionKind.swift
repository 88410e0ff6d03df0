/// How an option consumes the command line, which decides its parsing, help label and completion.
public enum OptionKind: Equatable, Sendable {
    /// A switch that is off unless given: `--verbose`.
    case flag
    /// An option that takes one value; given twice, the last one wins: `--format json`.
    case value
    /// An option that takes one value each time and collects them in order: `--rule a --rule b`.
    case repeatableValue
    /// A switch with an explicit off spelling, `--name` / `--no-name`, and the state used when neither is given.
    case inversion(defaultValue: Bool)

    /// Whether the option reads a value from the command line.
    var takesValue: Bool {
        switch self {
        case .value, .repeatableValue: true
        case .flag, .inversion: false
        }
    }
}

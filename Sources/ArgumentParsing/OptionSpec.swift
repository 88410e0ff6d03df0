/// One named option of a command, declared as data.
///
/// The long name doubles as the key an ``Invocation`` answers to, so code reading the result names the same
/// thing the user typed.
public struct OptionSpec: Equatable, Sendable {
    /// The long name without dashes (`format` for `--format`); also the key for reading the value.
    public var name: String
    /// The one-letter spelling (`v` for `-v`), if any.
    public var shortName: Character?
    /// The placeholder shown in help and errors (`<file>`); defaults to the long name.
    public var valueName: String
    /// The help text.
    public var help: String
    /// How the option consumes the command line.
    public var kind: OptionKind
    /// The only values accepted, in the order help and errors list them; empty accepts anything.
    public var allowedValues: [String]
    /// The value used when the option is absent, also shown in help as `default: x`.
    public var defaultValue: String?
    /// Whether the command refuses to run without this option.
    public var isRequired: Bool
    /// Whether help, usage and completion scripts leave the option out (it still parses).
    public var isHidden: Bool
    /// Whether every subcommand below the declaring command accepts and lists this option too.
    public var isInherited: Bool

    /// Creates an option; prefer the ``flag(_:short:help:inherited:hidden:)`` family for readable tables.
    public init(
        name: String,
        shortName: Character? = nil,
        valueName: String? = nil,
        help: String = "",
        kind: OptionKind,
        allowedValues: [String] = [],
        defaultValue: String? = nil,
        isRequired: Bool = false,
        isHidden: Bool = false,
        isInherited: Bool = false
    ) {
        self.name = name
        self.shortName = shortName
        self.valueName = valueName ?? name
        self.help = help
        self.kind = kind
        self.allowedValues = allowedValues
        self.defaultValue = defaultValue
        self.isRequired = isRequired
        self.isHidden = isHidden
        self.isInherited = isInherited
    }

    /// A switch that is off unless given.
    public static func flag(
        _ name: String,
        short: Character? = nil,
        help: String = "",
        inherited: Bool = false,
        hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, help: help, kind: .flag, isHidden: hidden, isInherited: inherited)
    }

    /// A `--name` / `--no-name` pair with the state used when neither is given.
    public static func inversion(
        _ name: String,
        defaultValue: Bool,
        help: String = "",
        inherited: Bool = false,
        hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, help: help, kind: .inversion(defaultValue: defaultValue), isHidden: hidden,
            isInherited: inherited)
    }

    /// An option that takes one value.
    public static func value(
        _ name: String,
        short: Character? = nil,
        valueName: String? = nil,
        help: String = "",
        allowedValues: [String] = [],
        defaultValue: String? = nil,
        required: Bool = false,
        inherited: Bool = false,
        hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, valueName: valueName, help: help, kind: .value,
            allowedValues: allowedValues, defaultValue: defaultValue, isRequired: required, isHidden: hidden,
            isInherited: inherited)
    }

    /// An option that may be given many times, collecting its values in order.
    public static func repeatable(
        _ name: String,
        short: Character? = nil,
        valueName: String? = nil,
        help: String = "",
        allowedValues: [String] = [],
        inherited: Bool = false,
        hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, valueName: valueName, help: help, kind: .repeatableValue,
            allowedValues: allowedValues, isHidden: hidden, isInherited: inherited)
    }

    /// The spelling that turns an inversion off (`--no-color`), or nil for other kinds.
    var invertedName: String? {
        if case .inversion = kind { "no-\(name)" } else { nil }
    }
}

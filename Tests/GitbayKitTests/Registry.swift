import Foundation

/// gitbay's command registry as recorded in `gitbay-registry.json`: paths, forms, flags, constraints.
///
/// Decoded with snake_case conversion; only the fields the validator checks are modelled.
struct Registry: Decodable, Sendable {
    /// One registered command (or one form of it).
    struct Command: Decodable, Sendable {
        let path: String
        let form: String?
        let positionals: [Positional]
        let positionalCount: Count
        let parser: String
        let flags: [Flag]
        let constraints: [Constraint]
        let readOnly: Bool
        let readsStdin: Bool
        let formSelector: Selector?
        let refusedFlags: [String]?
    }

    /// A positional argument's declaration.
    struct Positional: Decodable, Sendable {
        let name: String
        let type: String
        let lengthRange: [Int]?
    }

    /// The accepted number of positionals; `max` is `nil` when unbounded.
    struct Count: Decodable, Sendable {
        let min: Int
        let max: Int?
    }

    /// A declared flag.
    struct Flag: Decodable, Sendable {
        let name: String
        let takesValue: Bool
        let repeatable: Bool
        let values: [String]?
        let valueType: String?
        let intRange: [Int?]?
        let lengthRange: [Int]?
        let valueAliases: [String: String]?
        let caseInsensitive: Bool?
    }

    /// A cross-flag rule.
    struct Constraint: Decodable, Sendable {
        let kind: String
        let flags: [String]?
        let flag: String?
        let with: [String]?
        let positional: String?
        let inline: String?
        let stdin: String?
        let noun: String?
    }

    /// How a form is chosen when a path has several.
    struct Selector: Decodable, Sendable {
        let anyWordEquals: [String]
    }

    let knownPaths: [String]
    let commands: [Command]

    /// Loads the registry copied into the test fixtures.
    static func load() throws -> Registry {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Registry.self, from: Fixtures.data("gitbay-registry"))
    }
}

import Foundation

/// A JSON Schema (draft 2020-12) of the rule file format, generated from the plugins' vocabulary.
///
/// Editors with a YAML language server use it to complete item kinds, action names and the field
/// a condition starts with, and to flag unknown keys as they are typed; `check` remains the judge
/// of the condition language itself.
public enum RuleSchema {
    public static func json(registry: PluginRegistry) -> String {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: document(registry: registry),
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func document(registry: PluginRegistry) -> [String: Any] {
        let scope: [String: Any] = [
            "type": "string",
            "description":
                "Which repositories: gitbay query terms repo:OWNER/NAME (with * as wildcard) and owner:NAME.",
            "pattern": #"^\s*((repo:\S+|owner:\S+)\s*)+$"#,
        ]
        let kinds = registry.kinds.map(\.rawValue)
        let rule: [String: Any] = [
            "type": "object",
            "required": ["name", "on", "do"],
            "additionalProperties": false,
            "patternProperties": ["^x-": [:] as [String: Any]],
            "properties": [
                "name": [
                    "type": "string", "pattern": "^[a-z0-9][a-z0-9._-]{0,63}$",
                    "description": "Unique rule name; the bot's markers on items carry it.",
                ] as [String: Any],
                "description": ["type": "string"],
                "on": ["enum": kinds, "description": "The kind of items the rule looks at."] as [String: Any],
                "command": [
                    "type": "string", "pattern": #"^\s*/[a-z]"#,
                    "description":
                        "A command people give in a comment, as a usage line: /merge [strategy:ff|merge|squash|rebase].",
                ] as [String: Any],
                "allowed": [
                    "description": "Who may give the command: author, writers or account names; writers when left out.",
                    "oneOf": [
                        ["type": "string"],
                        ["type": "array", "minItems": 1, "items": ["type": "string"]] as [String: Any],
                    ],
                ] as [String: Any],
                "limit": [
                    "type": "integer", "minimum": 1, "description": "The most actions this rule may take in one run.",
                ] as [String: Any],
                "scope": scope,
                "schedule": ["$ref": "#/$defs/schedule"],
                "when": [
                    "type": "array", "description": "Conditions, all of which must hold.",
                    "items": ["$ref": "#/$defs/condition"],
                ] as [String: Any],
                "do": ["type": "array", "minItems": 1, "description": "Actions, in order."] as [String: Any],
            ] as [String: Any],
            "allOf": registry.kinds.map { kind in
                [
                    "if": ["properties": ["on": ["const": kind.rawValue]]],
                    "then": [
                        "properties": [
                            "when": ["items": ["$ref": "#/$defs/\(kind.rawValue)-condition"]],
                            "do": ["items": action(kind, registry: registry)],
                        ]
                    ],
                ] as [String: Any]
            },
        ]
        var definitions: [String: Any] = [
            "condition": [
                "oneOf": [
                    ["type": "string"],
                    block(reference: "#/$defs/condition"),
                ]
            ],
            "rule": rule,
            "schedule": schedule,
        ]
        for kind in registry.kinds {
            let fields =
                registry.fields(for: kind).map { NSRegularExpression.escapedPattern(for: $0.name) }
                + registry.families(for: kind).map { NSRegularExpression.escapedPattern(for: $0.prefix) + "\\.\\S+" }
            definitions["\(kind.rawValue)-condition"] = [
                "oneOf": [
                    [
                        "type": "string",
                        "pattern": "^\\s*(not\\s+)?(\(fields.joined(separator: "|")))(\\s|$)",
                        "description": "A condition on one of the \(kind.rawValue) fields: "
                            + (registry.fields(for: kind).map(\.name) + registry.families(for: kind).map(\.spec.name))
                            .joined(separator: ", "),
                    ] as [String: Any],
                    block(reference: "#/$defs/\(kind.rawValue)-condition"),
                ]
            ]
        }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://gitbay.org/schemas/gitbay-bot-rules.json",
            "title": "gitbay-bot rule file",
            "type": "object",
            "anyOf": [["required": ["rules"]], ["required": ["extends"]]],
            "additionalProperties": false,
            "patternProperties": ["^x-": [:] as [String: Any]],
            "properties": [
                "scope": scope,
                "rules": ["type": "array", "items": ["$ref": "#/$defs/rule"]] as [String: Any],
                "extends": [
                    "type": "string", "pattern": "^[^:@]+/[^:@]+:[^@]+(@.+)?$",
                    "description":
                        "A repository's own rules file only: the file it builds on, owner/name:path, optionally @ref.",
                ] as [String: Any],
                "disable": [
                    "type": "array", "items": ["type": "string"],
                    "description": "A repository's own rules file only: rules of the files it extends to switch off.",
                ] as [String: Any],
            ] as [String: Any],
            "$defs": definitions,
        ]
    }

    /// A rule's `schedule:`: days, ranges of clock time (which may wrap midnight) and a zone.
    private static var schedule: [String: Any] {
        [
            "type": "object", "additionalProperties": false,
            "description": "When the rule may act; outside it, its entries are held. Every key is optional.",
            "properties": [
                "days": [
                    "type": "array", "minItems": 1,
                    "items": ["enum": Weekday.week.map(\.name)], "description": "Days it acts on (default: every day).",
                ] as [String: Any],
                "hours": [
                    "type": "array", "minItems": 1,
                    "items": ["type": "string", "pattern": #"^\s*\d{1,2}:\d{2}\s*-\s*\d{1,2}:\d{2}\s*$"#],
                    "description":
                        "Ranges of local time, HH:MM-HH:MM; 22:00-06:00 runs over midnight (default: all day).",
                ] as [String: Any],
                "timezone": [
                    "type": "string", "description": "An IANA time zone such as Europe/Berlin (default: UTC).",
                ],
            ] as [String: Any],
        ]
    }

    /// An `all:`, `any:` or `not:` block whose conditions follow `reference`.
    private static func block(reference: String) -> [String: Any] {
        [
            "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": false,
            "properties": [
                "all": ["type": "array", "items": ["$ref": reference]],
                "any": ["type": "array", "items": ["$ref": reference]],
                "not": ["oneOf": [["$ref": reference], ["type": "array", "items": ["$ref": reference]]]],
            ],
        ]
    }

    /// The mapping an action with named parameters takes: each a string, or one of its words.
    private static func parameters(of action: ActionDefinition) -> [String: Any] {
        var properties: [String: Any] = [:]
        for parameter in action.parameters {
            var property: [String: Any] = ["type": "string", "description": parameter.doc]
            if let values = parameter.values { property["enum"] = values }
            properties[parameter.name] = property
        }
        return [
            "type": "object", "additionalProperties": false, "description": action.doc, "properties": properties,
            "required": action.parameters.filter(\.required).map(\.name),
        ]
    }

    /// What one `do:` entry may be for a kind: a bare action name, or `name: value`.
    private static func action(_ kind: ItemKind, registry: PluginRegistry) -> [String: Any] {
        let actions = registry.actions(for: kind)
        let bare = actions.filter { $0.argument == .none }.map(\.name)
        var properties: [String: Any] = [:]
        for action in actions where action.argument != .none {
            let names: [String: Any] = [
                "oneOf": [["type": "string"], ["type": "array", "items": ["type": "string"], "minItems": 1]]
            ]
            switch action.argument {
            case .labels, .users: properties[action.name] = names.merging(["description": action.doc]) { $1 }
            case .text, .milestone: properties[action.name] = ["type": "string", "description": action.doc]
            case .parameters: properties[action.name] = parameters(of: action)
            case .none: break
            }
        }
        return [
            "oneOf": [
                ["enum": bare],
                [
                    "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": false,
                    "properties": properties,
                ] as [String: Any],
            ]
        ]
    }
}

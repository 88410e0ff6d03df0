import Foundation

/// The field and action reference (`docs/fields.md`), generated from a plugin registry.
///
/// Generating it from the same definitions the engine evaluates means the reference cannot drift
/// from the code: a test compares the committed file with this output.
public enum FieldReference {
    /// The Markdown text: per item kind, a table of fields and a table of actions.
    public static func markdown(_ registry: PluginRegistry) -> String {
        var lines = [
            "# Fields and actions",
            "",
            "Generated from the plugins \(registry.pluginNames.joined(separator: ", ")) by "
                + "`FieldReference.markdown`; do not edit by hand. To regenerate, run "
                + "`GITBAY_REGENERATE_DOCS=1 swift test --filter FieldReferenceTests`.",
            "",
            "\"Reads\" names what the bot fetches beyond the list row before it can answer: "
                + legend(registry).map { "`\($0.0)` (\($0.1))" }.joined(separator: ", ") + ". "
                + "A field *bounded from* cheaper reads is known to lie in a range before its own are read: an order "
                + "comparison (`quiet > 60d`) that every value of the range answers alike is decided without them "
                + "(docs/rules.md#decided-without-a-read).",
        ]
        for kind in registry.kinds {
            let fields = registry.fields(for: kind)
            let actions = registry.actions(for: kind)
            guard !fields.isEmpty || !actions.isEmpty else { continue }
            lines += ["", "## `\(kind.rawValue)`", "", "### Fields", ""]
            lines += ["| field | type | reads | what it is |", "| --- | --- | --- | --- |"]
            let rows =
                fields.map { (name: $0.name, type: $0.type, needs: $0.needs, bounds: $0.bounds?.needs, doc: $0.doc) }
                + registry.families(for: kind).map {
                    (
                        name: $0.spec.name, type: $0.type, needs: $0.field($0.parameter)?.needs ?? $0.needs,
                        bounds: $0.field($0.parameter)?.bounds?.needs, doc: $0.doc
                    )
                }
            lines += rows.sorted { $0.name < $1.name }.map {
                let bounded = $0.bounds.map { "; bounded from " + reads($0, registry) } ?? ""
                return row("`\($0.name)`", $0.type.name, reads($0.needs, registry) + bounded, $0.doc)
            }
            lines += ["", "### Actions", ""]
            lines += ["| action | argument | reads | what it does |", "| --- | --- | --- | --- |"]
            lines += actions.map { row("`\($0.name)`", argument(of: $0), reads($0.needs, registry), $0.doc) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What each need costs, so that a reader can see which conditions make a run more expensive:
    /// the engine says it of an item's needs, each plugin of the repository facts it declares.
    private static func legend(_ registry: PluginRegistry) -> [(String, String)] {
        registry.needs.map { need in
            (need.name, registry.definition(of: need)?.cost ?? itemCosts[need] ?? "")
        }
    }

    /// What the needs of an item cost.
    private static let itemCosts: [ReadNeed: String] = [
        .labels: "`label:` queries or `show`", .activity: "`list --q` rows, for `updated_at`",
        .detail: "one `show` per item", .freshDetail: "the `show` read in this run, never the read cache's copy",
    ]

    /// The argument's kind, or for named parameters each name, its words, and `?` when optional.
    private static func argument(of action: ActionDefinition) -> String {
        guard action.argument == .parameters else { return action.argument.rawValue }
        return action.parameters.map { parameter in
            "`\(parameter.name)`" + (parameter.values.map { " (\($0.joined(separator: "|")))" } ?? " (text)")
                + (parameter.required ? "" : "?")
        }.joined(separator: ", ")
    }

    /// The names of `needs` in the registry's order.
    private static func reads(_ needs: Set<ReadNeed>, _ registry: PluginRegistry) -> String {
        needs.isEmpty ? "row" : registry.needs.filter(needs.contains).map { "`\($0.name)`" }.joined(separator: ", ")
    }

    /// One table row, with `|` escaped so a doc line cannot break the table.
    private static func row(_ cells: String...) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }
}

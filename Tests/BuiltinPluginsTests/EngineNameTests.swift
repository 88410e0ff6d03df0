import BuildsPlugin
import BuiltinPlugins
import Foundation
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// Where the engine names a built-in kind, field or action, which it should learn from plugins.
///
/// Kinds, fields and actions belong to the plugins that declare them: the engine names none, and
/// this fails when it does. A kind's Swift spelling (`ItemKind.issues`) is its plugin's, so the
/// compiler already keeps the engine from it; what is left to check is a string literal equal to
/// a kind's, field's or action's name.
///
/// JSON Schema's own vocabulary (`"title"`, `"description"`, which fields share) is not a name.
@Suite struct EngineNameTests {
    /// `Sources/RuleEngine` in this checkout.
    private static let engine = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/RuleEngine")

    /// The words of JSON Schema that `RuleSchema` writes as keys, which are not names.
    static let schemaVocabulary: Set<String> = [
        "$id", "$ref", "$defs", "$schema", "title", "description", "type", "properties", "required", "items",
        "enum", "const", "pattern", "oneOf", "anyOf", "allOf", "if", "then", "else", "not",
        "additionalProperties", "patternProperties", "minItems", "default", "examples",
    ]

    /// The names plugins declare: kinds as rules write them and as Swift spells them, fields and
    /// actions.
    static var names: Set<String> {
        var literals = Set<String>()
        for kind in BuiltinPlugins.registry.kinds {
            literals.insert(kind.rawValue)
            literals.formUnion(BuiltinPlugins.registry.fields(for: kind).map(\.name))
            literals.formUnion(BuiltinPlugins.registry.actions(for: kind).map(\.name))
        }
        return literals.subtracting(schemaVocabulary)
    }

    /// The string literals of Swift `source` equal to one of `names`; comments are passed over.
    static func mentions(in source: String, names: Set<String>) -> [String] {
        let code = source.replacing(/\/\*(.|\n)*?\*\//, with: "").split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { line in line.replacing(/\/\/.*$/, with: "") }.joined(separator: "\n")
        return code.matches(of: /"((?:[^"\\\n]|\\.)*)"/).map { String($0.output.1) }.filter(names.contains).map {
            "\"\($0)\""
        }
    }

    @Test func theEngineNamesNoBuiltinKindFieldOrAction() throws {
        let names = Self.names
        let files = FileManager.default.enumerator(atPath: Self.engine.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let source = try String(contentsOf: Self.engine.appendingPathComponent(file), encoding: .utf8)
            let found = Self.mentions(in: source, names: names)
            #expect(
                found.isEmpty,
                "Sources/RuleEngine/\(file) names what plugins declare: \(found); learn it from the registry")
        }
        #expect(!files.isEmpty, "no Swift files under \(Self.engine.path)")
    }

    @Test func aNameAddedOnPurposeIsFound() {
        let source = """
            // "labels" in a comment is fine.
            let field = "labels"
            let kind = ItemKind(rawValue: "milestones")
            let text = "the labels of it"
            """
        #expect(Self.mentions(in: source, names: Self.names) == ["\"labels\"", "\"milestones\""])
    }
}

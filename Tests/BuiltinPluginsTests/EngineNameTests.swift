import BuildsPlugin
import BuiltinPlugins
import Foundation
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// Where the engine names a built-in kind, field or action, which it should learn from plugins.
///
/// Kinds, fields and actions belong to the plugins that declare them: a mention in the engine
/// fails, but for the one listed in ``remaining`` (a word of JSON Schema's own that a field
/// happens to share), counted exactly so that it cannot grow.
@Suite struct EngineNameTests {
    /// `Sources/RuleEngine` in this checkout.
    private static let engine = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/RuleEngine")

    /// The mentions each file still has (string literals and `.case` references), by path under
    /// `Sources/RuleEngine`.
    static let remaining: [String: Int] = [
        // JSON Schema's own `"title"` key, which a field happens to share.
        "Rules/RuleSchema.swift": 1
    ]

    /// The names plugins declare: kinds as rules write them and as Swift spells them, fields and
    /// actions.
    static var names: (literals: Set<String>, identifiers: Set<String>) {
        var literals = Set<String>()
        for kind in BuiltinPlugins.registry.kinds {
            literals.insert(kind.rawValue)
            literals.formUnion(BuiltinPlugins.registry.fields(for: kind).map(\.name))
            literals.formUnion(BuiltinPlugins.registry.actions(for: kind).map(\.name))
        }
        return (literals, ["issues", "mergeRequests", "builds", "issue", "mergeRequest", "build"])
    }

    /// The mentions of `names` in Swift `source`: string literals equal to a name, and member
    /// references (`.issues`) to a kind's Swift spelling; comments are passed over.
    static func mentions(in source: String, literals: Set<String>, identifiers: Set<String>) -> [String] {
        let code = source.replacing(/\/\*(.|\n)*?\*\//, with: "").split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { line in line.replacing(/\/\/.*$/, with: "") }.joined(separator: "\n")
        var found: [String] = []
        for match in code.matches(of: /"((?:[^"\\\n]|\\.)*)"/) where literals.contains(String(match.output.1)) {
            found.append("\"\(match.output.1)\"")
        }
        let withoutLiterals = code.replacing(/"(?:[^"\\\n]|\\.)*"/, with: "\"\"")
        for match in withoutLiterals.matches(of: /\.([A-Za-z]+)(?![A-Za-z0-9_])/)
        where identifiers.contains(String(match.output.1)) {
            found.append(".\(match.output.1)")
        }
        return found
    }

    @Test func theEngineNamesNoMoreBuiltinKindsFieldsOrActionsThanItDid() throws {
        let (literals, identifiers) = Self.names
        var counts: [String: Int] = [:]
        let files = FileManager.default.enumerator(atPath: Self.engine.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let source = try String(contentsOf: Self.engine.appendingPathComponent(file), encoding: .utf8)
            let found = Self.mentions(in: source, literals: literals, identifiers: identifiers)
            if !found.isEmpty { counts[file] = found.count }
            #expect(
                found.count <= Self.remaining[file] ?? 0,
                "Sources/RuleEngine/\(file) names what plugins declare: \(found); learn it from the registry")
        }
        // Exact, so that a step that removes mentions lowers the allowance with it.
        #expect(counts == Self.remaining, "update remaining to what is left")
    }

    @Test func aNameAddedOnPurposeIsFound() {
        let (literals, identifiers) = Self.names
        let source = """
            // "labels" in a comment is fine, and so is .issues here.
            let field = "labels"
            let kind = ItemKind.issues
            let text = "the labels of it"
            """
        #expect(Self.mentions(in: source, literals: literals, identifiers: identifiers) == ["\"labels\"", ".issues"])
    }
}

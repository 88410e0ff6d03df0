import BuildsPlugin
import BuiltinPlugins
import Foundation
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct FieldReferenceTests {
    /// `docs/fields.md` in this checkout, found from this file's path.
    private static let committed = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/fields.md")

    @Test func theCommittedReferenceIsTheGeneratedOne() throws {
        let generated = FieldReference.markdown(Fixtures.registry)
        if ProcessInfo.processInfo.environment["GITBAY_REGENERATE_DOCS"] == "1" {
            try generated.write(to: Self.committed, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: Self.committed, encoding: .utf8)
        #expect(
            text == generated,
            "docs/fields.md is out of date; regenerate it with GITBAY_REGENERATE_DOCS=1 swift test --filter FieldReferenceTests"
        )
    }

    @Test func everyFieldAndActionHasARow() {
        let text = FieldReference.markdown(Fixtures.registry)
        for kind in BuiltinPlugins.registry.kinds {
            #expect(text.contains("## `\(kind.rawValue)`"))
            for field in Fixtures.registry.fields(for: kind) {
                #expect(text.contains("| `\(field.name)` | \(field.type.name) |"), "\(kind.rawValue).\(field.name)")
            }
            for action in Fixtures.registry.actions(for: kind) {
                // Named parameters are listed by name, the first leading.
                let argument =
                    action.argument == .parameters
                    ? "`\(action.parameters.first?.name ?? "")` (" : "\(action.argument.rawValue) |"
                #expect(text.contains("| `\(action.name)` | \(argument)"), "\(action.name)")
            }
        }
        #expect(text.contains("| `labels` | label set | `labels` |"))
        #expect(text.contains("| `stack.landed` | boolean | `detail`, `allMergeRequests` |"))
    }
}

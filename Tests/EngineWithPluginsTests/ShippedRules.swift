import BuiltinPlugins
import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

/// The shipped rules (`rules/*.yml`) over every repository, as `--scope repo:*` gives them; with
/// `limit`, that limit set on `rule`, so a limit and not only the tripwire and the cap decides.
func shippedRules(limit: Int? = nil, on rule: String = "mark-stale") throws -> [Rule] {
    var files = try RuleSet.files(at: [SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path])
    if let limit {
        files = files.map { file in
            let text = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(
                of: "  - name: \(rule)\n", with: "  - name: \(rule)\n    limit: \(limit)\n")
            return (file.path, Array(text.utf8))
        }
    }
    let set = RuleSet.load(
        files: files, registry: BuiltinPlugins.registry, scopeOverride: try RuleScope(parsing: "repo:*"))
    let valid = !set.hasErrors
    #expect(valid, "\(set.diagnostics.map { "\($0)" })")
    return set.rules
}

/// The generator's now, 2026-11-29T12:00:00Z.
let generatedNow = Date(timeIntervalSince1970: 1_795_953_600)

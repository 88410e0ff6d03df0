import Foundation
import RuleEngine
import YAML

/// `check --format json`: the diagnostics as data, for editors and CI annotations.
///
/// Versioned by its `format` key; fields are only ever added.
struct CheckReport: Encodable {
    struct Entry: Encodable {
        var file: String
        var line: Int
        var column: Int
        var severity: String
        var message: String
        var notes: [Entry]

        init(_ diagnostic: Diagnostic) {
            file = diagnostic.location.file
            line = diagnostic.location.line
            column = diagnostic.location.column
            severity = diagnostic.severity.rawValue
            message = diagnostic.message
            notes = diagnostic.notes.map(Entry.init)
        }
    }

    /// A path given that could not be read (not there, a folder without rule files): an error
    /// with no line to point at, so it has its own list rather than a diagnostic.
    struct Unreadable: Encodable {
        var path: String
        var message: String
    }

    var format = "gitbay-bot-check/1"
    var files: [String]
    var rules: [String]
    /// The diagnostics' errors and the unreadable paths.
    var errors: Int
    var warnings: Int
    var diagnostics: [Entry]
    var unreadable: [Unreadable]

    init(ruleSet: RuleSet, files: [String], unreadable: [Unreadable] = []) {
        self.files = files
        rules = ruleSet.rules.map(\.name)
        errors = ruleSet.diagnostics.filter { $0.severity == .error }.count + unreadable.count
        warnings = ruleSet.diagnostics.filter { $0.severity == .warning }.count
        diagnostics = ruleSet.diagnostics.map(Entry.init)
        self.unreadable = unreadable
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and arrays of them always encode.
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

import Foundation
import GitbayTestSupport
import Testing

/// `check --format json`: the report editors and CI annotations read, parsed and compared field by field.
@Suite struct CheckJSONTests {
    @Test func aBrokenFileReportsItsDiagnosticWithTheNote() async throws {
        let folder = try #require(CorpusTests.corpus).appendingPathComponent("invalid")
        let path = folder.appendingPathComponent("duplicate-key-in-rule.yml").path
        let result = await runBot(["check", "--format", "json", path])
        #expect(result.code == 78)
        #expect(result.error == "")

        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(report["format"] as? String == "gitbay-bot-check/1")
        #expect(report["files"] as? [String] == [path])
        #expect(report["rules"] as? [String] == [])
        #expect(report["errors"] as? Int == 1)
        #expect(report["warnings"] as? Int == 0)
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        try #require(diagnostics.count == 1)
        let diagnostic = diagnostics[0]
        #expect(diagnostic["file"] as? String == path)
        #expect(diagnostic["line"] as? Int == 5)
        #expect(diagnostic["column"] as? Int == 5)
        #expect(diagnostic["severity"] as? String == "error")
        #expect(diagnostic["message"] as? String == "duplicate key 'on'")
        let notes = try #require(diagnostic["notes"] as? [[String: Any]])
        try #require(notes.count == 1)
        #expect(notes[0]["file"] as? String == path)
        #expect(notes[0]["line"] as? Int == 4)
        #expect(notes[0]["column"] as? Int == 5)
        #expect(notes[0]["severity"] as? String == "note")
        #expect(notes[0]["message"] as? String == "first defined here")
        #expect((notes[0]["notes"] as? [Any])?.isEmpty == true)
    }

    @Test func validFilesReportTheirRulesAndNoDiagnostics() async throws {
        let folder = try #require(CorpusTests.corpus).appendingPathComponent("valid").path
        let result = await runBot(["check", "--format", "json", folder])
        #expect(result.code == 0)
        #expect(result.error == "")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(report["errors"] as? Int == 0)
        #expect((report["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(
            report["rules"] as? [String] == [
                "triage.new-bugs", "welcome.first-timers", "old-builds", "nudge-reviewers", "label-noisy",
            ])
    }

    /// A path that cannot be read is an error of the report too, not only a line on stderr: a CI
    /// step reading the JSON must not see "errors: 0" with exit 78, nor no JSON at all.
    @Test func anUnreadablePathIsCountedAndListed() async throws {
        let valid = try #require(CorpusTests.corpus).appendingPathComponent("valid").path
        let missing = Scratch.url("check-json-missing-\(UUID().uuidString)").path
        for paths in [[valid, missing], [missing]] {
            let result = await runBot(["check", "--format", "json"] + paths)
            #expect(result.code == 78)
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            #expect(report["errors"] as? Int == 1)
            let unreadable = try #require(report["unreadable"] as? [[String: Any]])
            #expect(unreadable.map { $0["path"] as? String } == [missing])
            #expect(unreadable.first?["message"] as? String == "no such file or folder: \(missing)")
        }
    }
}

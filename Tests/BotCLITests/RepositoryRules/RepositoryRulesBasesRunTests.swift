import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Testing

/// An organisation's base in krz/.gitbay, and repositories that build on it, or carry what no
/// rules file should be: each bad file gets a clear error and a failing status, and nothing else
/// is lost.
private enum Organisation {
    static let base = """
        rules:
          - name: mark-stale
            on: issues
            when: [state = open, quiet > 30d]
            do: [{add-label: stale}]
          - name: label-old
            on: issues
            when: [state = open, quiet > 30d]
            do: [{add-label: aged}]

        """

    /// A YAML document whose aliases expand past any bound: ten levels of nine.
    static var bomb: String {
        var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1..<10 {
            let previous = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
            lines.append("a\(level): &a\(level) [\(previous)]")
        }
        return (lines + ["rules: *a9"]).joined(separator: "\n") + "\n"
    }

    static func repository(_ name: String, files: [String: String], hidden: Bool = false) -> String {
        let listed = files.map { "\(jsonString($0.key)): \($0.value)" }.joined(separator: ", ")
        let reach =
            hidden
            ? "\"visibility\": \"private\", \"access\": [\"alice\"], \"admins\": [\"alice\"]"
            : "\"access\": [\"triage-bot\"]"
        return """
            {"path": "krz/\(name)", "default_branch": "main", \(reach),
             "branches": {"main": "\(sha("1"))"}, "commits": {"\(sha("1"))": {"files": {\(listed)}}},
             "issues": [{"number": 1, "title": "old bug", "state": "open", "author": "alice",
                         "created_at": "2026-09-01T00:00:00Z", "updated_at": "2026-09-30T00:00:00Z"}]}
            """
    }

    static var forge: String {
        let own = ".gitbay/bot.yml"
        let repositories = [
            repository(".gitbay", files: ["base.yml": jsonString(base)]),
            repository("app", files: [own: jsonString("extends: krz/.gitbay:base.yml\ndisable: [label-old]\n")]),
            repository("web", files: [own: jsonString("extends: krz/.gitbay:base.yml\n")]),
            repository("bomb", files: [own: jsonString(bomb)]),
            repository("binary", files: [own: "{\"base64\": \"cnVsZXM6AFtd\"}"]),
            repository("huge", files: [own: jsonString("# " + String(repeating: "x", count: 10_000_000) + "\n")]),
            repository("cycle", files: [own: jsonString("extends: krz/loop:.gitbay/bot.yml\n")]),
            repository("loop", files: [own: jsonString("extends: krz/cycle:.gitbay/bot.yml\n")]),
            repository("lost", files: [own: jsonString("extends: krz/private:base.yml\n")]),
            repository("private", files: ["base.yml": jsonString(base)], hidden: true),
        ]
        return """
            {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
             "users": ["triage-bot", "alice"], "repos": [\(repositories.joined(separator: ", "))]}
            """
    }
}

@Suite struct RepositoryRulesBasesRunTests {
    @Test func aBaseRuleSwitchedOffLeavesItsEntriesOutAndEachBadFileGetsItsStatus() async throws {
        let folder = Scratch.url("organisation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try operatorRules.write(to: folder.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        let state = BotState()
        try await SimulatorProcess.run(
            state: Organisation.forge, options: ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
        ) { simulator in
            let run = await runBot(
                against: simulator,
                ["run", "--verbose", "--max-actions", "100", folder.path, "--state-dir", state.folder])
            #expect(run.code == 0, "\(run.error)")
            let sent = run.output.split(separator: "\n").filter { $0.contains("issue label") }.joined(separator: "\n")
            // krz/app switched `label-old` off: its base's `mark-stale` acts there, `aged` does not.
            #expect(sent.contains("issue label krz/app 1 --add stale"), "\(run.output)")
            #expect(!sent.contains("issue label krz/app 1 --add aged"), "\(run.output)")
            #expect(sent.contains("issue label krz/web 1 --add aged"), "\(run.output)")
            #expect(sent.contains("issue label krz/web 1 --add stale"), "\(run.output)")
            // Every file but the 10 MB one, which its size in the tree refused unread: the nine own
            // files less that one, the base once, krz/loop's and krz/cycle's again as each other's
            // base, and krz/private's, which gitbay refuses.
            #expect(run.error.contains("rules files: repo cat of the changed (11 requests)"), "\(run.error)")
            let client = try simulator.client(access: .readOnly)
            let expected = [
                "bomb": "6:10: alias '*a4' expands the document beyond 100000 nodes",
                "binary": "1:1: krz/binary:.gitbay/bot.yml is binary",
                "huge": "1:1: krz/huge:.gitbay/bot.yml is 10000003 bytes; a rules file holds at most 1024 KiB",
                "cycle": "1:10: extends: krz/cycle:.gitbay/bot.yml is already in this chain",
                "lost": "1:10: extends: cannot read krz/private:base.yml: repository krz/private not found",
            ]
            for (name, start) in expected {
                let repository = try RepositoryPath("krz/\(name)")
                // The operator's rules go on in every repository whatever its file.
                #expect(sent.contains("issue label krz/\(name) 1 --add old"), "\(name): \(run.output)")
                let statuses = try await client.send(StatusListCommand(repository: repository, sha: sha("1")))
                let status = try #require(
                    statuses.statuses.first { $0.context == "gitbay-bot/rules" }, "\(name): \(run.error)")
                #expect(status.state == .failure)
                #expect(status.description.hasPrefix(start), "\(name): \(status.description)")
                #expect(status.description.hasSuffix("; gitbay-bot check --repository krz/\(name) --read-bases"))
            }
        }
    }
}

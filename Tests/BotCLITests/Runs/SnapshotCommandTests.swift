import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let rules = root.appendingPathComponent("rules").path
private let now = "2026-11-29T12:00:00.000Z"

/// A fresh path for a snapshot in the temporary folder.
private func snapshotPath() -> String {
    Scratch.url("gitbay-bot-snapshot-\(UUID().uuidString).json").path
}

/// A JSON plan's text without its `source` line, the one thing online and offline plans differ in.
private func withoutSource(_ text: String) -> String {
    text.split(separator: "\n").filter { !$0.contains("\"source\"") }.joined(separator: "\n")
}

/// `snapshot` against the simulator serving the demo forge: what it records, that it records no
/// secret, and that the file plans exactly as the live server does.
@Suite(.serialized) struct SnapshotCommandTests {
    private func bot(
        _ simulator: SimulatorProcess, _ arguments: [String]
    ) async -> (
        code: Int32, output: String, error: String
    ) {
        await runBot(
            arguments + ["--url", simulator.baseURL.absoluteString], environment: ["GITBAY_TOKEN": simulator.token])
    }

    @Test func anAllStatesSnapshotRecordsTheWholeForgeAndNoToken() async throws {
        let path = snapshotPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try ForgeStateFile.load(from: Data(contentsOf: demo), registry: BuiltinPlugins.registry)
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let result = await bot(
                simulator, ["snapshot", "--scope", "owner:krz", "--all-states", "-o", path, "--verbose"])
            #expect(result.code == 0, "\(result.error)")
            #expect(
                result.output
                    == "wrote \(path): 2 repositories, 11 issues, 10 merge requests, 11 builds, 8 milestones\n")
            #expect(result.error.contains("issue list --q \"owner:krz is:issue\" (1 request)"))
            #expect(!result.output.contains(simulator.token) && !result.error.contains(simulator.token))
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains(simulator.token))
            #expect(!text.contains(String(simulator.token.dropFirst(3))))
            #expect(try applied(simulator).isEmpty)
        }
        let snapshot = try ForgeStateFile.load(
            from: Data(contentsOf: URL(fileURLWithPath: path)), registry: BuiltinPlugins.registry)
        var state = snapshot.forgeState()
        state.now = original.now
        // Each repository's own rules file was looked for, and neither has one; the original
        // forge says nothing of them.
        #expect(state.repositories.allSatisfy { $0.ruleFiles == RepositoryRuleFiles.noFile })
        for index in state.repositories.indices { state.repositories[index].ruleFiles = nil }
        #expect(state == original.forgeState())
        for (taken, expected) in zip(snapshot.repos, original.repos) {
            #expect(taken.path == expected.path)
            #expect(taken.labels == expected.labels)
            #expect(taken.milestones == expected.milestones)
            #expect(taken.settings == expected.settings)
        }
        #expect(snapshot.repos.count == original.repos.count)
    }

    @Test func theSnapshotPlansAsTheLiveServerDoes() async throws {
        let path = snapshotPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let taken = await bot(simulator, ["snapshot", "--scope", "owner:krz", "-o", path])
            #expect(taken.code == 0, "\(taken.error)")
            #expect(taken.output.hasSuffix("2 repositories, 10 issues, 7 merge requests, 11 builds, 8 milestones\n"))
            let online = await bot(simulator, ["plan", rules, "--format", "json", "--now", now])
            #expect(online.code == 0)
            let offline = await runBot(["plan", rules, "--snapshot", path, "--format", "json", "--now", now])
            #expect(offline.code == 0)
            #expect(withoutSource(offline.output) == withoutSource(online.output))
            #expect(offline.output.contains("\"reference\" : \"krz/gitbay!51\""))
        }
    }

    /// The snapshot keeps the heads an open merge request has had (`mr revisions`): a `/merge` is
    /// bound to the head its giver saw, and a file without them read every command as given on the
    /// current head, so an offline plan merged what the live server's plan refused.
    @Test func aSnapshotKeepsTheHeadsAMergeRequestHasHad() async throws {
        let path = snapshotPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let forge = root.appendingPathComponent("examples/commands/forge.json")
        let pushed = String(repeating: "e", count: 40)
        try await SimulatorProcess.run(stateFile: forge, options: ["--clock", "frozen"]) { simulator in
            try await simulator.pushNewHead(pushed, toMergeRequest: 12, of: "krz/app", by: "alice", advancing: 60)
            let taken = await bot(simulator, ["snapshot", "--scope", "owner:krz", "-o", path, "--verbose"])
            #expect(taken.code == 0, "\(taken.error)")
            #expect(
                taken.error.contains("merge request heads: status list and mr revisions of the open ones (6 requests)"))
        }
        let state = try ForgeStateFile.load(
            from: Data(contentsOf: URL(fileURLWithPath: path)), registry: BuiltinPlugins.registry
        ).forgeState()
        let app = try #require(state.repositories.first { $0.path.description == "krz/app" })
        let heads = app.mergeRequest(12)?.revisions ?? []
        #expect(heads.map(\.sha) == [String(repeating: "12", count: 20), pushed])
        #expect(heads.map(\.isCurrent) == [false, true])
        #expect(app.mergeRequest(10)?.revisions?.count == 1)
    }

    @Test func aRepositoryScopeRecordsThatRepositoryOnly() async throws {
        let path = snapshotPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let result = await bot(simulator, ["snapshot", "--scope", "repo:krz/runner", "-o", path])
            #expect(result.code == 0, "\(result.error)")
            let snapshot = try ForgeStateFile.load(
                from: Data(contentsOf: URL(fileURLWithPath: path)), registry: BuiltinPlugins.registry)
            #expect(snapshot.repos.map(\.path.description) == ["krz/runner"])
            #expect(snapshot.repos.first?.builds.count == 8)
            #expect(snapshot.me == "triage-bot")
        }
    }

    @Test func aRefusedTokenWritesNothing() async throws {
        let path = snapshotPath()
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let token = "gb_" + String(repeating: "7", count: 64)
            let result = await runBot(
                ["snapshot", "--scope", "owner:krz", "-o", path, "--url", simulator.baseURL.absoluteString],
                environment: ["GITBAY_TOKEN": token])
            #expect(result.code == 1)
            #expect(result.error.contains("check the token"))
            #expect(!result.error.contains(token))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test(arguments: [
        (["snapshot", "-o", "x.json"], "Missing expected argument '--scope <query>'"),
        (["snapshot", "--scope", "owner:krz"], "Missing expected argument '--output <file>'"),
        (["snapshot", "--scope", "krz", "-o", "x.json"], "--scope: a scope takes only repo: and owner: terms"),
    ])
    func aMissingOrWrongScopeOrOutputIsAUsageError(_ arguments: [String], _ message: String) async {
        let result = await runBot(arguments, environment: ["GITBAY_TOKEN": "gb_" + String(repeating: "0", count: 64)])
        #expect(result.code == 64)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: "x.json"))
    }

    /// The writes the simulator applied; a snapshot must make none.
    private func applied(_ simulator: SimulatorProcess) throws -> [[String: Any]] {
        try simulator.journalEntries().filter { $0["applied"] as? Bool == true }
    }
}

import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import RuleEngine
import Testing

@testable import BotCLI

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let rules = root.appendingPathComponent("rules").path
private let now = "2026-11-29T12:00:00.000Z"

/// The argv of every write the simulator applied, in order.
private func appliedWrites(_ simulator: SimulatorProcess) throws -> [[String]] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true }.map { ($0["argv"] as? [String]) ?? [] }
}

/// A read-only client on the simulator, to look at what the bot left behind.
private func reader(_ simulator: SimulatorProcess) throws -> GitbayClient {
    let configuration = GitbayClientConfiguration(
        baseURL: simulator.baseURL, token: BearerToken(simulator.token), access: .readOnly)
    return try GitbayClient(configuration: configuration, transport: PlatformTransport.make())
}

/// The summary issue and the plan section, against the simulator: one issue and one section,
/// edited in place run after run, never a new one per run.
@Suite(.serialized) struct PublishingAgainstSimulatorTests {
    private func bot(_ simulator: SimulatorProcess, _ arguments: [String]) async -> (code: Int32, error: String) {
        let state = Scratch.url("state-\(UUID().uuidString)")
        let result = await runBot(
            arguments + ["--url", simulator.baseURL.absoluteString, "--now", now],
            environment: ["GITBAY_TOKEN": simulator.token, "XDG_STATE_HOME": state.path])
        return (result.code, result.error)
    }

    @Test func theSummaryIssueIsFiledOnceThenEditedInPlace() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let first = await bot(simulator, ["run", rules, "--summary-issue", "krz/runner"])
            #expect(first.code == 0)
            let second = await bot(simulator, ["run", rules, "--summary-issue", "krz/runner"])
            #expect(second.code == 0)
            let third = await bot(simulator, ["run", rules, "--summary-issue", "krz/runner"])
            let summaryWrites = try appliedWrites(simulator).filter {
                $0.count > 2 && $0[0] == "issue" && $0[2] == "krz/runner" && ["create", "edit"].contains($0[1])
            }
            #expect(summaryWrites.filter { $0[1] == "create" }.count == 1)
            #expect(summaryWrites.prefix(2).map { $0[1] } == ["create", "edit"])
            let created = try #require(first.error.firstMatch(of: /filed krz\/runner#(\d+)/)).1
            #expect(second.error.contains("updated krz/runner#\(created)"))
            // The third run's report may differ from the second only in the time spent waiting.
            #expect(third.error.contains("krz/runner#\(created)"))
            #expect(!third.error.contains("filed"))
            let repository = try RepositoryPath("krz/runner")
            let issue = try await reader(simulator).send(
                IssueShowCommand(repository: repository, number: try #require(Int(created))))
            let marker = SummaryIssue(repository: repository, ruleNames: []).marker
            #expect(issue.body?.hasPrefix("<!-- gitbay-bot:summary ") == true)
            #expect(issue.body?.contains(marker) == false)
            #expect(issue.body?.contains("## gitbay-bot run") == true)
            #expect(issue.title == SummaryIssue.title)
        }
    }

    @Test func anIssueQuotingTheKeyWithoutTheMarkerIsLeftAlone() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            _ = await bot(simulator, ["run", rules, "--dry-run"])
            let names = RuleSet.load(files: try RuleSet.files(at: [rules]), registry: BuiltinPlugins.registry).rules
                .map(\.name)
            let summary = SummaryIssue(repository: try RepositoryPath("krz/runner"), ruleNames: names)
            let writer = try GitbayClient(
                configuration: GitbayClientConfiguration(
                    baseURL: simulator.baseURL, token: BearerToken(simulator.token), access: .readWrite),
                transport: PlatformTransport.make())
            let decoy = try await writer.send(
                IssueCreateCommand(
                    repository: summary.repository, title: "about the bot", body: "the key is \(summary.key)"))
            let result = await bot(simulator, ["run", rules, "--summary-issue", "krz/runner"])
            #expect(result.code == 0)
            #expect(!result.error.contains("#\(decoy.number)"))
            let edits = try appliedWrites(simulator).filter { $0.starts(with: ["issue", "edit"]) }
            #expect(edits.isEmpty)
        }
    }

    @Test func thePlanSectionOfAMergeRequestIsReplacedAndTheAuthorsTextKept() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let writer = try GitbayClient(
                configuration: GitbayClientConfiguration(
                    baseURL: simulator.baseURL, token: BearerToken(simulator.token), access: .readWrite),
                transport: PlatformTransport.make())
            let repository = try RepositoryPath("krz/gitbay")
            _ = try await writer.send(
                MergeRequestEditCommand(repository: repository, number: 52, body: "Adds the cursor.\n"))
            let first = await bot(simulator, ["plan", rules, "--mr-section", "krz/gitbay!52"])
            #expect(first.code == 0)
            #expect(first.error.contains("plan section of krz/gitbay!52: updated"))
            let second = await bot(simulator, ["plan", rules, "--mr-section", "krz/gitbay!52"])
            #expect(second.error.contains("plan section of krz/gitbay!52: unchanged"))
            let request = try await reader(simulator).send(MergeRequestShowCommand(repository: repository, number: 52))
            let body = try #require(request.body)
            #expect(body.hasPrefix("Adds the cursor.\n\n\(PlanSection.begin)\n"))
            #expect(body.hasSuffix("\(PlanSection.end)\n"))
            #expect(body.components(separatedBy: PlanSection.begin).count == 2)
            let writes = try appliedWrites(simulator).filter { $0.starts(with: ["mr", "edit"]) }
            #expect(writes.count == 2)
            #expect(try appliedWrites(simulator).allSatisfy { $0.starts(with: ["mr", "edit"]) })
        }
    }

    @Test func aSectionIsSplicedBetweenItsMarkersOrAppended() {
        let begin = PlanSection.begin
        let end = PlanSection.end
        #expect(PlanSection.replacing(in: "", with: "plan") == "\(begin)\nplan\n\(end)\n")
        #expect(PlanSection.replacing(in: "Intro", with: "plan\n") == "Intro\n\n\(begin)\nplan\n\(end)\n")
        let current = "Intro\n\(begin)\nold plan\n\(end)\nOutro\n"
        #expect(PlanSection.replacing(in: current, with: "new") == "Intro\n\(begin)\nnew\n\(end)\nOutro\n")
        let long = String(repeating: "x", count: 70_000)
        let capped = PlanSection.replacing(in: "Intro", with: long)
        #expect(capped.contains("The plan is too long for the description; see the job's log."))
        #expect(capped.utf8.count <= PlanSection.maximumBodyBytes)
    }

    @Test func theKeyDependsOnTheRuleNamesNotTheirOrder() {
        #expect(SummaryIssue.key(ruleNames: ["a", "b"]) == SummaryIssue.key(ruleNames: ["b", "a"]))
        #expect(SummaryIssue.key(ruleNames: ["a", "b"]) != SummaryIssue.key(ruleNames: ["a"]))
        #expect(SummaryIssue.key(ruleNames: []) == "cbf29ce484222325")
    }
}

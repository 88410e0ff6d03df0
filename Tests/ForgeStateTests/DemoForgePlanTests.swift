import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// The demo forge exercises every rule in `rules/` and every trap of the three workflows; this pins
/// which items each rule acts on, so a change to a plugin or to the file shows up here.
@Suite struct DemoForgePlanTests {
    private static let registry = BuiltinPlugins.registry

    private func plan() throws -> Plan {
        let paths = try RuleSet.files(at: [SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path])
        let rules = RuleSet.load(files: paths, registry: Self.registry)
        #expect(rules.diagnostics.isEmpty)
        let state = try ForgeFiles.load(ForgeFiles.demoForge).forgeState()
        return Evaluator(registry: Self.registry).plan(rules: rules.rules, state: state, source: "demo-forge.json")
    }

    @Test func everyRuleActsOnExactlyItsItems() throws {
        let plan = try plan()
        let acted = Dictionary(grouping: plan.entries, by: \.rule).mapValues { $0.map(\.item.reference).sorted() }
        #expect(
            acted == [
                "mark-stale": ["krz/gitbay#31"],
                "unmark-stale": ["krz/gitbay#35"],
                "close-stale": ["krz/gitbay#34"],
                "ready-when-stack-lands": ["krz/gitbay!51"],
                "cancel-superseded": ["krz/gitbay/builds/201", "krz/runner/builds/101", "krz/runner/builds/102"],
                "close-finished-milestones": ["krz/gitbay/milestones/v1.37.1"],
            ])
        for entry in plan.entries {
            #expect(entry.actions.allSatisfy { $0.status == .pending }, "\(entry.rule) \(entry.item.reference)")
        }
        #expect(plan.guards.isEmpty)
    }

    /// The shipped stale notice says how long the issue was quiet in words people read, while the
    /// plan's reasons keep the compact form rules are written in.
    @Test func theStaleNoticeSaysTheQuietInWords() throws {
        let entry = try #require(try plan().entries.first { $0.rule == "mark-stale" })
        let notice = try #require(entry.actions.first { $0.action == "comment" }?.command?.stdin)
        #expect(
            notice.hasPrefix(
                "No one has commented on this issue for 101 days. It will be closed in 14 days\n"), "\(notice)")
        #expect(entry.reasons.first { $0.field == "quiet" }?.observed == "101d 4h")
    }

    @Test func protectedBuildsSayWhy() throws {
        let state = try ForgeFiles.load(ForgeFiles.demoForge).forgeState()
        func verdict(_ repository: Int, _ number: Int) throws -> Supersession {
            let repo = state.repositories[repository]
            let build = try #require(repo.builds.first { $0.number == number })
            return Supersession.evaluate(build, in: repo)
        }
        #expect(try verdict(0, 202) == .protected(.openMergeRequestHead(56)))
        #expect(try verdict(0, 203) == .finished)
        #expect(try verdict(1, 100) == .finished)
        #expect(try verdict(1, 103) == .protected(.branchTip("feat-cache")))
        #expect(try verdict(1, 104) == .protected(.openMergeRequestHead(7)))
        #expect(try verdict(1, 105) == .protected(.branchTip("feat-logs-wip")))
        #expect(try verdict(1, 110) == .protected(.defaultBranch("main")))
        #expect(try verdict(1, 102) == .superseded(by: 103))
    }
}

import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let milestoneRules = root.appendingPathComponent("rules/close-finished-milestones.yml").path
private let options = ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]

/// The argv of every milestone write the simulator applied.
private func milestoneWrites(_ simulator: SimulatorProcess) throws -> [[String]] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true }.compactMap { $0["argv"] as? [String] }
        .filter { $0.first == "milestone" }
}

/// The shipped milestone rule against the simulator: it closes the finished one once, leaves the
/// organisation's alone, and skips a milestone that gained an open item between plan and apply.
@Suite struct MilestoneRuleTests {
    @Test func aFinishedMilestoneIsClosedOnceAndASecondRunPlansNothing() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let state = BotState()
            let first = await runBot(against: simulator, ["run", milestoneRules, "--state-dir", state.folder])
            #expect(first.code == 0, "\(first.output)\(first.error)")
            let closed = try milestoneWrites(simulator)
            #expect(closed == [["milestone", "close", "krz/gitbay", "v1.37.1"]])
            let second = await runBot(against: simulator, ["run", milestoneRules, "--state-dir", state.folder])
            #expect(second.code == 0)
            #expect(second.output.hasSuffix("nothing to do\n"), "\(second.output)")
            let writes = try milestoneWrites(simulator)
            #expect(writes.count == 1)
            let history = try await state.history(server: simulator.baseURL, ["krz/gitbay/milestones/v1.37.1"])
            #expect(history.map { $0["action"] as? String } == ["close"])
        }
    }

    @Test func aMilestoneThatGainedAnOpenItemBetweenPlanAndApplyIsSkippedWithTheReason() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let plan = Scratch.url("plan-\(UUID()).json").path
            let planned = await runBot(against: simulator, ["plan", milestoneRules, "-o", plan])
            #expect(planned.code == 0)
            #expect(planned.output.contains("milestone close krz/gitbay v1.37.1"), "\(planned.output)")
            let status = try await simulator.write(["issue", "milestone", "krz/gitbay", "31", "v1.37.1"])
            #expect(status == 200)
            let applied = await runBot(
                ["apply", plan, "--state-dir", BotState().folder, "--url", simulator.baseURL.absoluteString],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(applied.code == 0, "\(applied.output)\(applied.error)")
            #expect(
                applied.output.contains(
                    "skipped: close-finished-milestones close on krz/gitbay/milestones/v1.37.1 (no longer matches: "
                        + "open_items = 0"), "\(applied.output)")
            let writes = try milestoneWrites(simulator)
            #expect(writes.isEmpty)
        }
    }

    /// Without `not org`, the organisation's overdue milestone is matched, and refused with why.
    @Test func anOrganisationsMilestoneIsRefusedNotSent() async throws {
        let rules = Scratch.url("org-\(UUID()).yml")
        try """
        scope: owner:krz
        rules:
          - name: close-overdue-milestones
            on: milestones
            when:
              - state = open
              - overdue > 7d
              - open_items = 0
            do:
              - close
        """.write(to: rules, atomically: true, encoding: .utf8)
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let run = await runBot(against: simulator, ["run", rules.path, "--state-dir", BotState().folder])
            #expect(run.code == 0, "\(run.output)\(run.error)")
            #expect(run.output.contains("Q3 2026 is an organisation's milestone"), "\(run.output)")
            let writes = try milestoneWrites(simulator)
            #expect(writes == [["milestone", "close", "krz/gitbay", "v1.37.1"]])
        }
    }
}

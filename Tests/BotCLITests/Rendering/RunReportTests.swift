import Foundation
import GitbayClient
import GitbayTestSupport
import RuleEngine
import Testing

@testable import BotCLI

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json").path
private let rules = root.appendingPathComponent("rules").path

/// The demo forge's plan, as `plan -o` saves it.
private func demoPlan() async throws -> Plan {
    let path = Scratch.url("plan-\(UUID().uuidString).json").path
    let result = await runBot(["plan", rules, "--snapshot", demo, "-o", path])
    #expect(result.code == 0)
    return try PlanJSON.decodePlan(from: try Data(contentsOf: URL(fileURLWithPath: path)))
}

@Suite struct RunReportTests {
    @Test func theReportCountsEachRuleAndSaysWhyActionsWereNotDone() async throws {
        var plan = try await demoPlan()
        plan.guards = ["tripwire: stale-issues would act on 40 of 50 items"]
        let pending = plan.entries.flatMap { entry in
            entry.actions.filter { $0.status == .pending }.map { (entry.rule, entry.item.reference, $0.action) }
        }
        let first = try #require(pending.first)
        var applied = ApplyReport()
        applied.outcomes = pending.dropFirst().map {
            ApplyOutcome(rule: $0.0, item: $0.1, action: $0.2, status: .applied)
        }
        applied.outcomes.append(
            ApplyOutcome(
                rule: first.0, item: first.1, action: first.2, status: .skipped,
                detail: "no longer matches: idle > 90d is false <@alice|x>"))
        var metrics = ClientMetrics()
        metrics.reads = 12
        metrics.writes = 9
        metrics.retries = 1
        metrics.rateLimitedResponses = 1
        metrics.serverWait = .seconds(3)
        let text = RunReportRenderer.markdown(
            RunReport(plan: plan, applied: applied, metrics: metrics, exitCode: .incomplete))
        #expect(text.hasPrefix("## gitbay-bot run\n\nEvaluated at 2026-"))
        #expect(text.contains("exit 3 (incomplete; the next run finishes it)"))
        let rule = try #require(plan.rules.first { $0.name == first.0 })
        let acted = pending.dropFirst().filter { $0.0 == rule.name }.count
        #expect(
            text.contains(
                "| \(MarkdownText.escape(rule.name)) | \(rule.kind.rawValue) | \(rule.considered) | \(rule.matched) "
                    + "| \(acted) | "))
        #expect(
            text.contains(
                "- **skipped**: \(MarkdownText.escape(first.0)) \(MarkdownText.escape(first.2)) on "
                    + "\(MarkdownText.escape(first.1)): no longer matches: idle &gt; 90d is false &lt;&#64;alice\\|x&gt;\n"
            ))
        #expect(text.contains("### Guards\n\n- tripwire: stale-issues would act on 40 of 50 items\n"))
        #expect(text.contains("| 12 | 9 | 1 | 1 | 0 | 0 | server 3.0 s |\n"))
    }

    @Test func aDryRunReportSaysWhatWouldBeDoneAndCostsNoRequests() async throws {
        let plan = try await demoPlan()
        let text = RunReportRenderer.markdown(RunReport(plan: plan, applied: nil, metrics: nil, exitCode: .ok))
        #expect(text.hasPrefix("## gitbay-bot dry run\n"))
        #expect(text.contains("| would act |"))
        #expect(!text.contains("### Requests"))
        let wouldAct = plan.rules.map { rule in
            plan.entries.filter { $0.rule == rule.name }.flatMap(\.actions).filter { $0.status == .pending }.count
        }
        #expect(wouldAct.reduce(0, +) == plan.pendingCommandCount)
    }

    @Test func runWritesTheReportFile() async throws {
        let path = Scratch.url("report-\(UUID().uuidString).md").path
        let result = await runBot(["run", rules, "--snapshot", demo, "--report", path])
        #expect(result.code == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text
                == RunReportRenderer.markdown(
                    RunReport(plan: try await demoPlan(), applied: nil, metrics: nil, exitCode: .ok)))
    }

    /// A dry run's report calls what waits for its rule's schedule window waiting, as `run` does,
    /// and what a guard holds back held.
    @Test func aDryRunReportSaysWaitingForAScheduleAndHeldForAGuard() async throws {
        let path = Scratch.url("report-\(UUID().uuidString).md").path
        let example = root.appendingPathComponent("examples/schedule").path
        let result = await runBot(["run", example, rules, "--snapshot", demo, "--max-actions", "1", "--report", path])
        // The guard's hold makes the run incomplete; the schedule's wait does not.
        #expect(result.code == 3, "\(result.error)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("| nudge-stale | issues | 10 | 2 | 0 | 0 | 0 | 0 | 2 | 0 |\n"), "\(text)")
        #expect(text.contains("- **waiting**: nudge-stale add-label on krz/gitbay#31: outside its schedule"), "\(text)")
        #expect(text.contains("- **held**: ") && text.contains(": --max-actions 1 reached\n"), "\(text)")
    }

    @Test func theListOfWhatWasNotDoneIsCapped() async throws {
        let plan = try await demoPlan()
        var applied = ApplyReport()
        applied.outcomes = (1...60).map {
            ApplyOutcome(rule: "r", item: "krz/gitbay#\($0)", action: "comment", status: .failed, detail: "boom")
        }
        let text = RunReportRenderer.markdown(RunReport(plan: plan, applied: applied, metrics: nil, exitCode: .failure))
        #expect(text.components(separatedBy: "- **failed**").count - 1 == RunReportRenderer.maximumListed)
        #expect(text.contains("- … and 10 more (see the job's log)\n"))
    }
}

import BuildsPlugin
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine

/// `gitbay-bench reads`: the shipped rules read through the ``ReadPlanner`` from the simulator on
/// generated forges of growing size, requests counted against ``ReadLowerBound``.
///
/// The simulator runs with a frozen clock, a large time scale and a high request rate so pacing
/// does not dominate; what is measured is the number of requests, which pacing cannot change.
enum ReadsBenchmark {
    static let summary = "shipped rules read from the simulator: requests vs the lower bound of pages needed"
    static let target = 1.25
    /// A cold run reading guards first sends at most half of what `--read-all` sends.
    static let guardedTarget = 0.5

    static func run(_ arguments: [String]) async throws {
        var sizes = [2, 5, 10, 20]
        var verbose = false
        var scope = "repo:*"
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--repos": sizes = (words.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--verbose": verbose = true
            case "--scope": scope = words.popFirst() ?? scope
            default:
                print("usage: gitbay-bench reads [--repos 2,5,10,20] [--scope repo:*] [--verbose]")
                return
            }
        }
        BenchRow.report(try await measure(sizes: sizes, scope: try RuleScope(parsing: scope), verbose: verbose))
    }

    /// Measures each forge size with the shipped rules, their scope replaced by `scope` (by
    /// default `repo:*`, so every repository of the forge is in scope, not only `owner:krz`'s fifth).
    static func measure(sizes: [Int], scope: RuleScope, verbose: Bool) async throws -> [BenchRow] {
        let rules = try ShippedRules.load(scope: scope)
        var rows: [BenchRow] = []
        for size in sizes {
            rows += try await measure(repos: size, rules: rules, verbose: verbose)
        }
        return rows
    }

    private static func measure(repos: Int, rules: [Rule], verbose: Bool) async throws -> [BenchRow] {
        let file = try await GeneratedForge.file(repos: repos)
        let data = try Data(contentsOf: file)
        let offline = try ForgeStateFile.load(from: data, registry: ShippedRules.registry).forgeState()
        let bound = ReadLowerBound(rules: rules, state: offline, registry: ShippedRules.registry)
        let evaluator = Evaluator(registry: ShippedRules.registry)
        let options = ["--clock", "frozen", "--time-scale", "1000", "--api-rate", "1000000"]
        return try await SimulatorProcess.run(stateFile: file, options: options) { simulator in
            let client = try simulator.client()
            let start = ContinuousClock.now
            let (online, report) = try await ReadPlanner(registry: ShippedRules.registry).read(
                rules, from: client, at: offline.now, policy: ReadPolicy(.audit))
            let wall = BenchClock.seconds(ContinuousClock.now - start)
            let stats = try await simulator.stats()
            let served = (stats["reads"] as? NSNumber)?.intValue ?? -1
            let sent = client.metrics.reads
            // The same rules with the guards read first, as `plan` and `run` read without --read-all.
            let guardedClient = try simulator.client()
            let (guarded, guardedReport) = try await ReadPlanner(registry: ShippedRules.registry).read(
                rules, from: guardedClient, at: offline.now, policy: ReadPolicy(.guarded(EvaluationOptions())))
            let guardedSent = guardedClient.metrics.reads
            let onlinePlan = evaluator.plan(rules: rules, state: online, source: "online")
            let offlinePlan = evaluator.plan(rules: rules, state: offline, source: "offline")
            let guardedPlan = evaluator.plan(rules: rules, state: guarded, source: "online")
            // Compared without notes: a tripwire note quotes the count of items looked at, and the
            // issue query also returns archived repositories' issues, which the offline state holds
            // only as far as the file does.
            let agree = onlinePlan.entries.map(withoutNotes) == offlinePlan.entries.map(withoutNotes)
            // Guards first leaves held entries unread, so only what acts must agree.
            let guardedAgree = guardedPlan.acting == offlinePlan.acting
            let ratio = Double(sent) / Double(bound.total)
            let items = offline.repositories.reduce(0) {
                $0 + $1.issues.count + $1.mergeRequests.count + $1.builds.count
            }
            if verbose {
                print("\(repos) repositories, \(items) items: \(sent) reads sent, \(served) served, \(wall) s")
                print("  planner (--read-all):")
                for step in report.steps { print("    \(step)") }
                print("  lower bound (\(bound.total)):")
                for part in bound.parts { print("    \(part.what): \(part.requests)") }
                print("  plans agree: \(agree) (\(onlinePlan.entries.count) entries)")
                print("  planner (guards first): \(guardedSent) reads")
                for step in guardedReport.steps { print("    \(step)") }
                for line in guarded.unread { print("    \(line)") }
                print("  acting entries agree: \(guardedAgree) (\(guardedPlan.acting.count) acting)")
            }
            let guardedRatio = Double(guardedSent) / Double(sent)
            return [
                BenchRow(
                    name: "reads", size: "\(repos) repos, \(items) items",
                    measure: "read requests / lower bound",
                    value: "\(sent) / \(bound.total) = \(String(format: "%.3f", ratio))"
                        + (served == sent ? "" : " (server saw \(served))"),
                    target: "≤ \(target), plans agree",
                    verdict: ratio <= target && agree && served == sent ? "PASS" : "FAIL"),
                BenchRow(
                    name: "reads", size: "\(repos) repos, \(items) items",
                    measure: "guards first / --read-all",
                    value: "\(guardedSent) / \(sent) = \(String(format: "%.3f", guardedRatio))",
                    target: "≤ \(guardedTarget), acting agrees",
                    verdict: guardedRatio <= guardedTarget && guardedAgree ? "PASS" : "FAIL"),
            ]
        }
    }

    /// An entry without its actions' notes, which quote run-wide counts.
    private static func withoutNotes(_ entry: PlanEntry) -> PlanEntry {
        var entry = entry
        for index in entry.actions.indices { entry.actions[index].note = nil }
        return entry
    }
}

import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

@testable import BotCLI

private let fastSimulator = ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
/// Monday 2026-11-30 09:30 in Berlin: inside the office rules' window.
private let inside = "2026-11-30T08:30:00.000Z"
/// Sunday 2026-11-29 13:00 in Berlin: outside it, the next opening the Monday at 09:00.
private let outside = "2026-11-29T12:00:00.000Z"

/// The journey's rules: issues and merge requests, labels tested and changed, details read
/// (`quiet`, the comment's marker), two rules kept to office hours and two at any time.
private let journeyRules = """
    scope: repo:*
    x-office: &office {days: [mon, tue, wed, thu, fri], hours: ["09:00-17:00"], timezone: Europe/Berlin}
    rules:
      - name: office-stale
        on: issues
        schedule: *office
        when: [state = open, quiet > 30d, "labels lacks [stale, pinned, security]"]
        do: [{add-label: stale}, {comment: "Nobody has spoken here for {{ quiet }}."}]
      - name: triage-ping
        on: issues
        when: [state = open, "labels has any [needs-triage, question]", idle > 7d]
        do: [{add-label: triaged}]
      - name: office-stale-mrs
        on: merge_requests
        schedule: *office
        when: [state = open, not draft, idle > 14d]
        do: [{add-label: stale}]
      - name: bug-mrs
        on: merge_requests
        when: [state = open, labels has bug]
        do: [{comment: "A bug fix: {{ title }}."}]

    """

/// A generated forge (two repositories of 40 issues and 12 merge requests, labelled, some closed
/// or merged) and the journey's rule file, in a fresh folder.
private func journey() async throws -> (forge: URL, rules: String) {
    let folder = Scratch.url("journey-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let forge = folder.appendingPathComponent("forge.json")
    try await ForgeGenerator.write(to: forge, repos: 2, issues: 40, mergeRequests: 12, builds: 0, seed: 3)
    let rules = folder.appendingPathComponent("journey.yml")
    try Data(journeyRules.utf8).write(to: rules)
    return (forge, rules.path)
}

/// `plan --format json` against `simulator` at `now` with `state`'s folder, decoded; no guard
/// holds anything back, so every entry is read whole on a cold cache as on a warm one.
private func plan(
    _ simulator: SimulatorProcess, _ rules: String, now: String, state: BotState, _ extra: [String] = []
) async throws -> (plan: Plan, log: String) {
    let result = await runBot(
        against: simulator,
        [
            "plan", rules, "--format", "json", "--state-dir", state.folder, "--force", "--max-actions", "1000",
            "--verbose",
        ]
            + extra, now: now)
    #expect(result.code == 0, "\(result.error)")
    return (try PlanJSON.decodePlan(from: Data(result.output.utf8)), result.error)
}

/// Two plans, field by field: each rule's totals, each entry's item, reasons, actions and
/// precondition, the guards; then whole.
private func expectSame(_ plan: Plan, _ expected: Plan, _ what: String) {
    #expect(plan.rules == expected.rules, "\(what): rules")
    #expect(plan.entries.map(\.item.reference) == expected.entries.map(\.item.reference), "\(what): entries")
    for (entry, other) in zip(plan.entries, expected.entries) {
        let label = "\(what): \(entry.rule) \(entry.item.reference)"
        #expect(entry.item == other.item, "\(label)")
        #expect(entry.reasons == other.reasons, "\(label)")
        #expect(entry.actions == other.actions, "\(label)")
        #expect(entry.precondition == other.precondition, "\(label)")
    }
    #expect(plan.guards == expected.guards, "\(what): guards")
    #expect(plan == expected, "\(what)")
}

/// `explain ITEM --format json`, live or offline from `snapshot`, decoded with its source left
/// out (the one thing a live and an offline explanation differ in).
///
/// No guard trips, as in the plans: a live explanation reads the item's repository alone, so a
/// tripwire counts that repository's items where an offline one counts every repository's.
private func explanation(
    _ item: String, rules: String, now: String, live simulator: SimulatorProcess? = nil, snapshot: URL? = nil
) async throws -> Explanation {
    let arguments = ["explain", item, rules, "--format", "json", "--force", "--max-actions", "1000"]
    let result =
        if let simulator {
            await runBot(against: simulator, arguments, now: now)
        } else {
            await runBot(arguments + ["--snapshot", snapshot?.path ?? "", "--now", now])
        }
    #expect(result.code == 0, "\(item): \(result.error)")
    var explained = try PlanJSON.decode(Explanation.self, from: Data(result.output.utf8))
    explained.source = ""
    return explained
}

/// Two explanations, field by field: the item, each rule's verdict, conditions with their
/// values, actions, schedule and listing; then whole.
private func expectSame(_ explained: Explanation, _ expected: Explanation, _ what: String) {
    #expect(explained.item == expected.item, "\(what)")
    #expect(explained.rules.map(\.name) == expected.rules.map(\.name), "\(what)")
    for (rule, other) in zip(explained.rules, expected.rules) {
        let label = "\(what): \(rule.name)"
        #expect(rule.verdict == other.verdict, "\(label)")
        #expect(rule.conditions == other.conditions, "\(label)")
        #expect(rule.actions == other.actions, "\(label)")
        #expect(rule.schedule == other.schedule, "\(label)")
    }
    #expect(explained == expected, "\(what)")
}

/// The references of items of the generated forge: an open issue some rule acts on and carries
/// a label no rule names, a closed labelled issue, a merged merge request and an open labelled one.
private func sampleItems(_ forge: URL, acting: Plan) throws -> [String] {
    let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: forge)) as? [String: Any])
    let repositories = try #require(file["repos"] as? [[String: Any]])
    var items: [String] = []
    func first(_ key: String, _ separator: String, where condition: ([String: Any]) -> Bool) {
        for repository in repositories {
            let path = repository["path"] as? String ?? ""
            if let item = (repository[key] as? [[String: Any]])?.first(where: condition) {
                items.append("\(path)\(separator)\(item["number"] as? Int ?? 0)")
                return
            }
        }
    }
    func labels(_ item: [String: Any]) -> [String] { item["labels"] as? [String] ?? [] }
    let actedOn = Set(acting.entries.filter { $0.rule == "office-stale" }.map(\.item.reference))
    for repository in repositories {
        let path = repository["path"] as? String ?? ""
        if let issue = (repository["issues"] as? [[String: Any]])?.first(where: {
            actedOn.contains("\(path)#\($0["number"] as? Int ?? 0)") && !labels($0).isEmpty
        }) {
            items.append("\(path)#\(issue["number"] as? Int ?? 0)")
            break
        }
    }
    first("issues", "#") { $0["state"] as? String == "closed" && !labels($0).isEmpty }
    first("merge_requests", "!") { $0["state"] as? String == "merged" }
    first("merge_requests", "!") { $0["state"] as? String == "open" && labels($0).contains("bug") }
    #expect(items.count == 4, "\(items)")
    return items
}

/// A user's journey on a generated forge, cold and warm, inside and outside a schedule window.
///
/// Plans on a cold read cache (a first run, `--no-cache`) and on a warm one, and explanations of
/// open, closed and merged items before and after plans warmed the cache, each compared field by
/// field, the explanations with the offline ones too. The cache and the window change what is
/// read, never what a plan records or an explanation shows.
@Suite(.serialized) struct ColdWarmJourneyTests {
    @Test func coldAndWarmPlansAreTheSameInsideAndOutsideTheWindow() async throws {
        let (forge, rules) = try await journey()
        try await SimulatorProcess.run(stateFile: forge, options: fastSimulator) { simulator in
            let kept = BotState()
            let cold = try await plan(simulator, rules, now: inside, state: kept)
            let warm = try await plan(simulator, rules, now: inside, state: kept)
            let uncached = try await plan(simulator, rules, now: inside, state: kept, ["--no-cache"])
            // The warm plan's details came from the cache, of both kinds (a merge request's
            // labels, which move no version, are read afresh all the same). Five open issues are
            // never read: their rows bound `quiet` enough to decide it.
            #expect(warm.log.contains("issue details: 42 served from the read cache"), "\(warm.log)")
            #expect(warm.log.contains("merge request details: 19 served from the read cache"), "\(warm.log)")
            expectSame(warm.plan, cold.plan, "inside, warm against cold")
            expectSame(uncached.plan, cold.plan, "inside, --no-cache against cold")
            // Every rule acts inside the window, on labelled items too: the comparison is not empty.
            for rule in ["office-stale", "triage-ping", "office-stale-mrs", "bug-mrs"] {
                #expect(cold.plan.entries.contains { $0.rule == rule && $0.hasPendingActions }, "\(rule)")
            }
            #expect(cold.plan.entries.contains { $0.reasons.contains { $0.observed.hasPrefix("[needs-triage") } })

            let first = try await plan(simulator, rules, now: outside, state: BotState())
            let again = try await plan(simulator, rules, now: outside, state: kept)
            let refreshed = try await plan(simulator, rules, now: outside, state: kept, ["--no-cache"])
            #expect(again.log.contains("issue details: 42 served from the read cache"), "\(again.log)")
            expectSame(again.plan, first.plan, "outside, warm against cold")
            expectSame(refreshed.plan, first.plan, "outside, --no-cache against cold")
            let note = "outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin"
            #expect(
                first.plan.rules.map(\.outsideSchedule) == [note, nil, note, nil],
                "\(first.plan.rules.map(\.outsideSchedule))")
            // Outside, what the listing decides is still held: the merge requests' idle times, and
            // the issues whose rows bound `quiet` enough to decide it (their reasons show the
            // range); an issue that needs its detail matches nothing, cache or no cache.
            #expect(first.plan.entries.contains { $0.rule == "office-stale-mrs" && $0.hasHeldActions })
            let staleIssues = first.plan.entries.filter { $0.rule == "office-stale" }
            #expect(
                !staleIssues.isEmpty
                    && staleIssues.allSatisfy { entry in
                        !entry.hasPendingActions
                            && entry.reasons.contains { $0.field == "quiet" && $0.observed.contains(" to ") }
                    }, "\(staleIssues)")
            #expect(!first.plan.entries.contains { $0.rule == "office-stale-mrs" && $0.hasPendingActions })
        }
    }

    @Test func coldAndWarmExplanationsAreTheOfflineOnesInsideAndOutsideTheWindow() async throws {
        let (forge, rules) = try await journey()
        try await SimulatorProcess.run(stateFile: forge, options: fastSimulator) { simulator in
            // Before any plan made the read cache, then after two did (on the folder explain would use).
            let reference = try await PlanJSON.decodePlan(
                from: Data(
                    runBot(["plan", rules, "--snapshot", forge.path, "--format", "json", "--now", inside]).output.utf8))
            let items = try sampleItems(forge, acting: reference)
            var cold: [String: Explanation] = [:]
            for now in [inside, outside] {
                for item in items {
                    cold["\(item) \(now)"] = try await explanation(item, rules: rules, now: now, live: simulator)
                }
            }
            for _ in 0..<2 {
                let warmed = await runBot(against: simulator, ["plan", rules, "--force"], now: inside)
                #expect(warmed.code == 0, "\(warmed.error)")
            }
            for now in [inside, outside] {
                for item in items {
                    let what = "\(item) at \(now)"
                    let warm = try await explanation(item, rules: rules, now: now, live: simulator)
                    let offline = try await explanation(item, rules: rules, now: now, snapshot: forge)
                    let before = try #require(cold["\(item) \(now)"])
                    expectSame(warm, before, "\(what), warm against cold")
                    expectSame(before, offline, "\(what), live against offline")
                }
            }
            // The closed issue is explained, outside its rules' listings.
            let closed = try await explanation(items[1], rules: rules, now: inside, live: simulator)
            #expect(closed.rules.allSatisfy { $0.verdict == .notMatched })
            #expect(closed.rules.contains { $0.outsideListing?.hasSuffix("and this one's is closed") == true })
        }
    }
}

import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

let registry = BuiltinPlugins.registry
let now = Date(timeIntervalSince1970: 1_790_000_000)

/// Rules compiled from YAML text, failing the test on any diagnostic.
func rules(_ yaml: String) throws -> [Rule] {
    let set = RuleSet.load(files: [("rules.yml", Array(yaml.utf8))], registry: registry)
    try #require(set.diagnostics.isEmpty, "\(set.diagnostics)")
    return set.rules
}

/// A repository `krz/app` with `count` open issues idle for `idleDays`, and `fresh` recent ones.
func forge(idle count: Int, idleDays: Double = 90, fresh: Int = 0) throws -> ForgeState {
    let stale = (1...max(count, 1)).prefix(count).map { number in
        GitbayKit.Issue(
            number: number, title: "Old \(number)", state: .open, author: "alice",
            createdAt: now - 200 * 86_400, updatedAt: now - idleDays * 86_400)
    }
    let recent = (0..<fresh).map { offset in
        GitbayKit.Issue(
            number: count + offset + 1, title: "New", state: .open, author: "alice", createdAt: now - 86_400,
            updatedAt: now - 3_600)
    }
    return try forge(issues: stale + recent)
}

/// A repository `krz/app` holding `issues`, everything about them read.
func forge(issues: [GitbayKit.Issue]) throws -> ForgeState {
    var repository = RepositoryState(
        path: try RepositoryPath("krz/app"), defaultBranch: "main",
        known: Set(BuiltinPlugins.registry.needs))
    repository.dependencies = DependencyStatus(enabled: false)
    repository.issues = issues.map { IssueRecord(issue: $0, known: Set(BuiltinPlugins.registry.needs)) }
    return ForgeState(now: now, me: "triage-bot", repositories: [repository])
}

let markStale = """
    scope: owner:krz
    rules:
      - name: mark-stale
        on: issues
        when:
          - state = open
          - idle > 60d
          - labels lacks [stale]
        do:
          - add-label: stale
          - comment: "Idle for {{ idle }}."
    """

@Suite struct EvaluatorTests {
    @Test func anEntryCarriesTheExactCommandsAndTheReasons() throws {
        let plan = Evaluator(registry: registry).plan(
            rules: try rules(markStale), state: try forge(idle: 1), source: "t")
        let entry = try #require(plan.entries.first)
        #expect(entry.item.reference == "krz/app#1")
        #expect(entry.actions.map(\.status) == [.pending, .pending])
        #expect(entry.actions[0].command?.argv == ["issue", "label", "krz/app", "1", "--add", "stale"])
        #expect(entry.actions[1].command?.argv == ["issue", "comment", "krz/app", "1", "--file", "-"])
        #expect(
            entry.actions[1].command?.stdin
                == "Idle for 90 days.\n<!-- gitbay-bot:rule=mark-stale item=krz/app#1 -->")
        #expect(entry.reasons.map(\.observed) == ["open", "90d", "[] of [stale]"])
        #expect(entry.reasons.allSatisfy { $0.holds == true })
        #expect(plan.rules.first?.considered == 1)
    }

    /// A plan records which of the labels a condition names the item carries, not the whole set.
    ///
    /// Online the labels come from `label:` queries for the names the rules test, and the rest
    /// only from a detail read afresh: an issue labelled `bug` read whole (a cold read cache) and
    /// one known only by its queries (a warm one, or a rule outside its schedule) must record the
    /// same reasons. `explain` shows the whole set.
    @Test func aPlanRecordsTheLabelsAConditionNamesWhateverElseWasRead() throws {
        var whole = try forge(idle: 1)
        whole.repositories[0].issues[0].issue.labels = ["bug", "docs"]
        var queried = whole
        queried.repositories[0].issues[0].issue.labels = []
        let mark = try rules(markStale)
        let evaluator = Evaluator(registry: registry)
        let fromWhole = evaluator.plan(rules: mark, state: whole, source: "t")
        #expect(fromWhole.entries.first?.reasons.last?.observed == "[] of [stale]")
        #expect(
            fromWhole.entries.map(\.reasons)
                == evaluator.plan(rules: mark, state: queried, source: "t").entries.map(\.reasons))
        let several = try rules(
            markStale.replacingOccurrences(of: "labels lacks [stale]", with: "labels has any [docs, bug, docs]"))
        #expect(
            evaluator.plan(rules: several, state: whole, source: "t").entries.first?.reasons.last?.observed
                == "[bug, docs] of [bug, docs]")
        let reference = try #require(registry.reference(parsing: "krz/app#1"))
        let explained = evaluator.explanation(of: reference, rules: mark, state: whole, source: "t")
        #expect(explained?.rules.first?.conditions.last?.observed == "[bug, docs]")
    }

    @Test func theSameInputGivesTheSamePlan() throws {
        let state = try forge(idle: 8, fresh: 30)
        let first = Evaluator(registry: registry).plan(rules: try rules(markStale), state: state, source: "t")
        let second = Evaluator(registry: registry).plan(rules: try rules(markStale), state: state, source: "t")
        #expect(first == second)
        #expect(first.entries.map(\.item.number) == Array(1...8))
    }

    @Test func theTripwireHoldsARuleThatWouldTouchMostItems() throws {
        let plan = Evaluator(registry: registry).plan(
            rules: try rules(markStale), state: try forge(idle: 30, fresh: 10), source: "t")
        #expect(plan.pendingCommandCount == 0)
        #expect(plan.entries.allSatisfy { entry in entry.actions.allSatisfy { $0.status == .held } })
        #expect(plan.guards.first?.hasPrefix("tripwire: rule 'mark-stale' would act on 30 of 40 issues (75%") == true)
        let forced = Evaluator(registry: registry, options: EvaluationOptions(maxActions: 1_000, force: true)).plan(
            rules: try rules(markStale), state: try forge(idle: 30, fresh: 10), source: "t")
        #expect(forced.pendingCommandCount == 60)
    }

    /// A rule's `limit:` bounds what it does in a run, and the tripwire counts that: a backlog
    /// behind `limit: 10` goes 10 a run, where the same rule without a limit is held whole.
    @Test func theTripwireCountsWhatTheRuleWouldDoWithinItsLimit() throws {
        let limited = markStale.replacingOccurrences(of: "    on: issues", with: "    on: issues\n    limit: 10")
        let plan = Evaluator(registry: registry, options: EvaluationOptions(maxActions: 1_000)).plan(
            rules: try rules(limited), state: try forge(idle: 30, fresh: 10), source: "t")
        #expect(plan.entries.filter(\.hasPendingActions).map(\.item.number) == Array(1...10))
        #expect(plan.guards == ["rule 'mark-stale' limit of 10 reached: 20 more issues left for the next run"])
        let eleven = limited.replacingOccurrences(of: "limit: 10", with: "limit: 11")
        let tripped = Evaluator(registry: registry, options: EvaluationOptions(maxActions: 1_000)).plan(
            rules: try rules(eleven), state: try forge(idle: 30, fresh: 10), source: "t")
        #expect(tripped.pendingCommandCount == 0)
        #expect(
            tripped.guards.first?.hasPrefix("tripwire: rule 'mark-stale' would act on 11 of 40 issues (28%, more")
                == true,
            "\(tripped.guards)")
    }

    /// `--force-rule` lets one rule past the tripwire; another tripping in the same plan stays held.
    @Test func forcingOneRuleLeavesTheOthersGuarded() throws {
        let two =
            markStale + "\n"
            + markStale.replacingOccurrences(of: "scope: owner:krz\nrules:\n", with: "")
            .replacingOccurrences(of: "name: mark-stale", with: "name: mark-idle")
            .replacingOccurrences(of: "add-label: stale", with: "add-label: idle")
            .replacingOccurrences(of: "labels lacks [stale]", with: "labels lacks [idle]")
        var options = EvaluationOptions(maxActions: 1_000)
        options.forcedRules = ["mark-idle"]
        let plan = Evaluator(registry: registry, options: options).plan(
            rules: try rules(two), state: try forge(idle: 30, fresh: 10), source: "t")
        #expect(plan.rules.map(\.acting) == [0, 30])
        #expect(plan.guards.count == 1 && plan.guards[0].hasPrefix("tripwire: rule 'mark-stale'"), "\(plan.guards)")
        #expect(plan.guards[0].hasSuffix("check the rule, then use --force-rule mark-stale"))
    }

    @Test func theTripwireHasAFloorForSmallRepositories() throws {
        let plan = Evaluator(registry: registry).plan(
            rules: try rules(markStale), state: try forge(idle: 5), source: "t")
        #expect(plan.pendingCommandCount == 10)
        #expect(plan.guards.isEmpty)
    }

    @Test func aRuleLimitActsOnTheOldestFirstAndHoldsTheRest() throws {
        let limited = markStale.replacingOccurrences(of: "    on: issues", with: "    on: issues\n    limit: 3")
        let plan = Evaluator(registry: registry).plan(
            rules: try rules(limited), state: try forge(idle: 8, fresh: 100), source: "t")
        #expect(plan.entries.filter(\.hasPendingActions).map(\.item.number) == [1, 2, 3])
        #expect(plan.rules.first?.acting == 3)
        #expect(plan.rules.first?.held == 5)
        #expect(plan.guards == ["rule 'mark-stale' limit of 3 reached: 5 more issues left for the next run"])
    }

    @Test func theActionCapCountsCommandsAndNeverSplitsAnEntry() throws {
        let plan = Evaluator(registry: registry, options: EvaluationOptions(maxActions: 7)).plan(
            rules: try rules(markStale), state: try forge(idle: 8, fresh: 100), source: "t")
        // Three whole entries of two commands; the fourth would need an eighth command.
        #expect(plan.pendingCommandCount == 6)
        #expect(plan.entries.filter(\.hasPendingActions).map(\.item.number) == [1, 2, 3])
        #expect(plan.entries.allSatisfy { !($0.hasPendingActions && $0.hasHeldActions) })
        #expect(plan.guards == ["--max-actions 7 reached: 10 more commands left for the next run"])
    }

    /// The plan of the two-action stale rule on three idle issues, the one at `labelled` already
    /// labelled (so its entry sends one command), under `--max-actions maxActions`.
    private func cappedPlan(labelled: Int, maxActions: Int) throws -> Plan {
        var state = try forge(idle: 3)
        state.repositories[0].issues[labelled].issue.labels = ["stale"]
        let rule = markStale.replacingOccurrences(of: "      - labels lacks [stale]\n", with: "")
        return Evaluator(registry: registry, options: EvaluationOptions(maxActions: maxActions)).plan(
            rules: try rules(rule), state: state, source: "t")
    }

    /// With a cap below an entry's size, the entry is held whole (its label alone would make the
    /// rule stop matching, and the notice would never be sent), and smaller entries still run.
    @Test func anEntryLargerThanTheCapIsHeldWholeAndOthersStillRun() throws {
        let plan = try cappedPlan(labelled: 1, maxActions: 1)
        #expect(
            plan.entries.map { $0.actions.map(\.status) } == [
                [.held, .held], [.alreadyDone, .pending], [.held, .held],
            ])
        #expect(plan.entries[0].actions[0].note == "needs 2 commands, more than --max-actions 1 allows in one run")
        #expect(
            plan.guards == [
                "--max-actions 1: 2 entries need 2 commands each, more than one run may send; raise --max-actions "
                    + "to let them run"
            ])
    }

    /// A share just over the limit that rounds to it says so with a decimal, not "25%, more than 25%".
    @Test func aShareThatRoundsToTheTripwiresLimitShowsItsDecimal() throws {
        let plan = Evaluator(registry: registry, options: EvaluationOptions(maxActions: 1_000)).plan(
            rules: try rules(markStale), state: try forge(idle: 89, fresh: 263), source: "t")
        #expect(
            plan.guards.first?.contains("would act on 89 of 352 issues (25.3%, more than 25%)") == true,
            "\(plan.guards)")
    }

    /// The first entry that does not fit holds back every later one, so the next run resumes in order.
    @Test func theFirstEntryThatDoesNotFitHoldsBackTheRest() throws {
        let plan = try cappedPlan(labelled: 0, maxActions: 2)
        #expect(
            plan.entries.map { $0.actions.map(\.status) } == [
                [.alreadyDone, .pending], [.held, .held], [.held, .held],
            ])
        #expect(plan.guards == ["--max-actions 2 reached: 4 more commands left for the next run"])
    }

    @Test func alreadyDoneActionsAreNotPending() throws {
        var state = try forge(idle: 1)
        state.repositories[0].issues[0].issue.labels = ["stale"]
        let rule = markStale.replacingOccurrences(of: "      - labels lacks [stale]\n", with: "")
        let plan = Evaluator(registry: registry).plan(rules: try rules(rule), state: state, source: "t")
        #expect(plan.entries.first?.actions.map(\.status) == [.alreadyDone, .pending])
    }

    /// A rule outside its schedule, on a state read from a server, judges each item as its listing showed it.
    ///
    /// A detail read for another rule, or served by the read cache, must not add entries that a
    /// run without it would not list. A forge-state file (no ``ForgeState/listed``) holds every
    /// item whole and judges on everything.
    @Test func aRuleOutsideItsScheduleJudgesWhatTheListingShowed() throws {
        // 14:13 UTC at `now`: outside a window of one minute after midnight.
        let closed = try rules(
            """
            scope: owner:krz
            rules:
              - name: nudge
                on: issues
                schedule: {hours: ["00:00-00:01"]}
                when: [state = open, comments = 0]
                do: [{add-label: stale}]
            """)
        var state = try forge(idle: 1)
        let offline = Evaluator(registry: registry).plan(rules: closed, state: state, source: "t")
        #expect(offline.rules.first?.matched == 1)
        // As a read leaves it: the repository knows its own facts, the listed issue its row and labels.
        state.repositories[0].known.subtract(ReadNeed.item)
        state.listed = [.issues: [.activity, .labels]]
        let online = Evaluator(registry: registry).plan(rules: closed, state: state, source: "t")
        #expect(online.rules.first?.matched == 0)
        #expect(online.rules.first?.considered == 1)
        #expect(online.rules.first?.outsideSchedule?.hasPrefix("outside its schedule; next window ") == true)
        // A condition the listing answers still matches, held by the schedule.
        let listing = try rules(
            """
            scope: owner:krz
            rules:
              - name: nudge
                on: issues
                schedule: {hours: ["00:00-00:01"]}
                when: [state = open, idle > 60d]
                do: [{add-label: stale}]
            """)
        let held = Evaluator(registry: registry).plan(rules: listing, state: state, source: "t")
        #expect(held.entries.map(\.item.reference) == ["krz/app#1"])
        #expect(held.entries.first?.actions.map(\.status) == [.held])
    }
}

@Suite struct ArchivedRepositoryTests {
    @Test func noRuleActsOnAnArchivedRepository() throws {
        var state = try forge(idle: 3)
        let live = Evaluator(registry: registry).plan(rules: try rules(markStale), state: state, source: "t")
        #expect(live.entries.count == 3)
        state.repositories[0].archived = true
        let plan = Evaluator(registry: registry).plan(rules: try rules(markStale), state: state, source: "t")
        #expect(plan.entries.isEmpty)
        #expect(plan.rules.first?.considered == 0)
    }

    @Test func theForgeStateFileCarriesArchived() throws {
        let json = #"""
            {"format":"gitbay-forge-state/1","now":"2026-11-29T12:00:00.000Z","me":"bot",
             "repos":[{"path":"krz/old","archived":true},{"path":"krz/new"}]}
            """#
        let file = try ForgeStateFile.load(from: Data(json.utf8), registry: BuiltinPlugins.registry)
        let state = file.forgeState()
        #expect(state.repositories.map(\.archived) == [false, true])
        let again = try ForgeStateFile.load(
            from: try ForgeStateFile(state: state, registry: BuiltinPlugins.registry).encoded(),
            registry: BuiltinPlugins.registry
        ).forgeState()
        #expect(again.repositories.map(\.archived) == [false, true])
    }
}

@Suite struct ExplanationTests {
    @Test func everyRuleOfTheKindIsExplainedWithItsVerdict() throws {
        var state = try forge(idle: 1, fresh: 1)
        state.repositories[0].issues[1].issue.labels = ["stale"]
        let evaluator = Evaluator(registry: registry)
        let idle = try #require(registry.reference(parsing: "krz/app#1"))
        let explained = try #require(
            evaluator.explanation(of: idle, rules: try rules(markStale), state: state, source: "t"))
        let rule = try #require(explained.rules.first)
        #expect(rule.verdict == .matched)
        #expect(rule.actions.map(\.status) == [.pending, .pending])
        #expect(rule.conditions.map(\.observed) == ["open", "90d", "[]"])

        let fresh = try #require(registry.reference(parsing: "krz/app#2"))
        let missed = try #require(
            evaluator.explanation(of: fresh, rules: try rules(markStale), state: state, source: "t"))
        #expect(missed.rules.first?.verdict == .notMatched)
        #expect(missed.rules.first?.nearestMiss?.condition == "idle > 60d")
        #expect(missed.rules.first?.actions.isEmpty == true)

        let unknown = try #require(registry.reference(parsing: "krz/app#99"))
        #expect(evaluator.explanation(of: unknown, rules: try rules(markStale), state: state, source: "t") == nil)
    }
}

import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import Timekeeping
import Watch

/// One pass of a watcher: the poll and the probes when the machine asks for them, then the read
/// and the plan of what they name (or of everything), handed to the write drain.
///
/// ``WatchMachine`` chooses the pass and keeps what it learns (the feed's position, what each
/// probe saw); the pass does what it is told and counts it in a ``PassSummary``, which the
/// ``PassReporter`` says.
struct WatchPass {
    let rules: [Rule]
    /// The repositories' own rules as the last full pass read their files: an events pass judges
    /// them beside ``rules`` and reads no file; a full pass reads every file and replaces them.
    var repositoryRules: [Rule]
    let session: BotSession
    /// The account the token belongs to, whose own events trigger nothing.
    let me: String
    let client: GitbayClient
    let registry: PluginRegistry
    let drain: WriteDrain<CommandFailure>
    let dryRun: Bool
    /// Whether to print the pass's reads (`--verbose`).
    let verbose: Bool
    let console: any Console
    let telemetry: WatchTelemetry
    let clock: any MonotonicClock

    /// Reads and acts for the pass `machine` chose: after a poll, on what its events, the probes
    /// and the pushes deliveries announced name (or everything, when the feed has a gap);
    /// otherwise on everything.
    mutating func run(_ machine: inout WatchMachine, poll: Bool, pushes: [FeedEvent]) async throws -> PassSummary {
        let polled = poll ? try await FeedPoll.read(after: machine.feedPosition, reader: client) : nil
        if let polled { machine.polled(polled.events, at: clock.now) }
        if let polled, machine.pass(afterPoll: polled.gap) == .events {
            // What the poll read is who did what: kept, so the pass need not read it again.
            if let newest = polled.newest { try await keep(polled.events, upTo: newest) }
            let unannounced =
                try await probe(&machine, ownEvents: polled.events.filter { $0.actor == me }) + pushes
            let targets = WatchTargets.of(
                polled.events + unannounced, me: me, kinds: (rules + repositoryRules).map(\.kind), registry: registry)
            var pass = PassSummary(kind: targets.isEmpty ? .idle : .events, events: polled.events.count)
            pass.ownEvents = targets.ownEvents
            pass.unannounced = unannounced.count
            if !targets.isEmpty {
                try await act(on: targets, pass: &pass)
            }
            machine.reached(polled.newest)
            return pass
        }
        var start = machine.storedStart(afterPoll: polled != nil)
        if start == nil { start = try await FeedPoll.read(after: nil, reader: client).newest }
        machine.fullPassBegins()
        _ = try await probe(&machine, ownEvents: [])
        var pass = PassSummary(kind: .full, events: polled?.events.count ?? 0)
        try await act(on: nil, pass: &pass)
        machine.reached(start)
        return pass
    }

    /// Looks once with each probe the rules make worth it, and answers the events for what moved
    /// since its last look (none on its first) and not by the bot's `ownEvents`; the machine keeps
    /// what each saw.
    private func probe(_ machine: inout WatchMachine, ownEvents: [FeedEvent]) async throws -> [FeedEvent] {
        let rules = rules + repositoryRules
        let scope = RuleScope(union: rules.map(\.scope))
        var events: [FeedEvent] = []
        for probe in WatchTargets.probes(for: rules.map(\.kind), registry: registry) {
            let look = try await probe.look(in: scope, reader: client)
            if let previous = machine.probeLooked(probe.eventKind, versions: look.versions) {
                events += look.changes(since: previous, ownEvents: ownEvents)
            }
        }
        return events
    }

    /// Reads and plans one pass, everything or only `targets`, and (unless a dry run) hands the
    /// plan to the drain: what the pass judged replaces what waits for the same items; a full pass
    /// reads the feed's activity, an events pass keeps what its poll read (``BotSession/judge(_:reading:now:)``).
    ///
    /// A full pass reads the repositories' own rules files and judges their rules with the
    /// operator's, keeps them for the events passes, says which files have an error on the page
    /// and `/metrics`, and (unless a dry run) sets their statuses and previews the merge requests
    /// that change a file, as `run` does.
    private mutating func act(on targets: WatchTargets?, pass: inout PassSummary) async throws {
        // The repositories whose files this pass reads again (those of the operator's scopes a
        // merge or a push moved) judge the rules it reads, not the kept ones.
        let rules = rules
        let reread = (targets?.ruleFiles ?? []).filter { path in rules.contains { $0.scope.contains(path) } }
        var targets = targets
        targets?.ruleFiles = reread
        let kept = repositoryRules.filter { $0.origin.map { !reread.contains($0) } ?? true }
        let passRules = targets.map { $0.scoped(rules + kept) } ?? rules
        pass.items = targets?.items.count ?? 0
        guard !passRules.isEmpty || !reread.isEmpty else { return }
        let (plan, state, report, judged) = try await session.judge(passRules, reading: .pass(targets), now: Date())
        if targets == nil {
            repositoryRules = judged.rules
            sayBrokenRuleFiles(judged, in: nil)
        } else if !reread.isEmpty {
            repositoryRules = kept + judged.rules
            sayBrokenRuleFiles(judged, in: reread)
        }
        let judgedRules = Set((passRules + judged.rules).map(\.name))
        if verbose {
            console.write(report.steps.map { "  \($0)\n" }.joined(), to: .error)
        }
        if targets == nil {
            pass.items = Self.itemCount(in: state, of: passRules)
            pass.repositories = state.repositories.map(\.path)
        }
        pass.actions = plan.pendingCommandCount
        if targets == nil { sayTripwires(plan.rules) }
        telemetry.commandsWait(in: plan.entries) { item in
            guard let targets else { return true }
            guard let repository = try? RepositoryPath(item.repository) else { return false }
            return targets.contains(item.reference, kind: item.kind, in: repository)
        }
        if dryRun {
            recordPlanned(plan, in: &pass)
            return
        }
        // What a guard holds is counted now; the rest as the drain sends it (the applier reports
        // the held actions of an entry it sends).
        pass.outcomes = plan.entries.filter { !$0.hasPendingActions }.flatMap { entry in
            entry.actions.filter { $0.status == .held }.map { _ in
                WatchStatus.ActionKey(rule: entry.rule, outcome: ApplyOutcome.Status.held.rawValue)
            }
        }
        drain.hand(plan, activity: ActivityHistory(of: state), lane: targets == nil ? .backlog : .prompt) { entry in
            guard judgedRules.contains(entry.rule) else { return false }
            guard let targets else { return true }
            guard let repository = try? RepositoryPath(entry.item.repository) else { return false }
            return targets.contains(entry.item.reference, kind: entry.item.kind, in: repository)
        }
        if targets == nil {
            await session.markBrokenRuleFiles(judged, in: state)
            await session.previewRuleProposals(state, current: judged, operatorRules: rules)
        }
    }

    /// The items a full pass judged: every item of the rules' kinds in the state it read, in
    /// every repository, so its line says how much it looked at (an events pass counts the items
    /// its events named).
    private static func itemCount(in state: ForgeState, of rules: [Rule]) -> Int {
        let kinds = Set(rules.map(\.kind))
        return state.repositories.reduce(0) { total, repository in
            kinds.reduce(total) { $0 + repository.items(of: $1).count }
        }
    }

    /// A dry run's planned actions stand in for the journal's, which it does not write: counted as
    /// `planned`, and shown on the page when there are any.
    private func recordPlanned(_ plan: Plan, in pass: inout PassSummary) {
        let planned = plan.acting.flatMap { entry in
            entry.actions.filter { $0.status == .pending }.compactMap { action in
                action.command.map { command in
                    WatchStatus.ActionRecord(
                        at: plan.evaluatedAt, rule: entry.rule, item: entry.item.reference,
                        command: ShellQuote.line(command.argv), outcome: "planned",
                        reasons: entry.reasons.map(\.reasonDescription))
                }
            }
        }
        pass.outcomes = planned.map { WatchStatus.ActionKey(rule: $0.rule, outcome: $0.outcome) }
        if !planned.isEmpty { telemetry.recentActions(planned) }
    }

    private func keep(_ events: [FeedEvent], upTo position: Int) async throws(CommandFailure) {
        do {
            try await session.store.keepActivity(events, position: position)
        } catch {
            throw CommandFailure("\(error)", code: .ioError)
        }
    }
}

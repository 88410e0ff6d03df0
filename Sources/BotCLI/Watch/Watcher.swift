import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine
import StateDatabase

/// The loop of `gitbay-bot watch`: passes, the feed position, pauses, reloads and stops.
///
/// Each pass reads, plans and applies through one ``BotSession``, as `run` does. Cancelling the
/// task stops it: during a pass after the write in flight, during a pause at once.
struct Watcher {
    var rules: [Rule]
    let settings: Settings
    let client: GitbayClient
    let dryRun: Bool
    let interval: TimeInterval
    let fullEvery: TimeInterval
    let json: Bool
    /// Whether to print each pass's reads (`--verbose`).
    let verbose: Bool
    let registry: PluginRegistry
    let control: CommandControl
    let console: any Console
    /// Where each pass, wait and reload is recorded for `/metrics`, `/healthz` and the page.
    let telemetry: WatchTelemetry
    /// systemd, when it started the watcher as `Type=notify`: told when it is ready and each pass.
    let notifier: (any ServiceNotifier)?

    /// The longest pause after repeated transient failures.
    static let longestPause: TimeInterval = 300

    /// What one pass was and did, for its line.
    struct Pass {
        var kind: String
        var events = 0
        var ownEvents = 0
        /// Changes the feed did not show, found by the plugins' probes (a push, say).
        var unannounced = 0
        var items = 0
        var requests = 0
        var actions = 0
        var applied = 0
        var failed = 0
        /// How long it took, from its start to its line.
        var seconds: TimeInterval = 0
        /// Each action's rule and outcome (`planned` in a dry run), for `actions_total`.
        var outcomes: [WatchStatus.ActionKey] = []
    }

    /// Watches until cancelled (exit 130 or 143, by the signal the control recorded) or a failure
    /// that waiting cannot mend; the control's reloads load `reload()`'s rules.
    mutating func watch(reload: () throws(CommandFailure) -> [Rule]) async throws(CommandFailure) -> BotExitCode {
        telemetry.rulesLoaded(Self.loaded(rules), reloaded: false)
        guard let me = try await account() else { return control.stoppedCode }
        telemetry.account(me)
        // A dry run keeps its cache and feed position in the account's database without its lock,
        // as `plan` does: only forge writes are forbidden.
        let session = try await BotSession.open(
            settings, client: client, account: me, stateUse: dryRun ? .planning : .applying, registry: registry,
            control: control, console: console)
        var position = try await readPosition(session.store)
        telemetry.feedPosition(position)
        await refreshRecentActions(session.store)
        var lastFull: Date?
        var failures = 0
        // What each probe (by the kind of event it raises) saw last; a full pass starts it afresh.
        var probed: [String: [String: String]] = [:]
        while !Task.isCancelled {
            if control.takeReload() {
                do {
                    rules = try reload()
                    telemetry.rulesLoaded(Self.loaded(rules), reloaded: true)
                    note("rules reloaded: \(rules.count) rules")
                } catch {
                    telemetry.reloadFailed(error.message)
                    note("the rules were not reloaded, the old ones stay: \(error.message)")
                }
            }
            do {
                let before = client.metrics.reads + client.metrics.writes
                let started = Date()
                telemetry.passBegins()
                var pass: Pass
                let due = lastFull.map { Date().timeIntervalSince($0) >= fullEvery } ?? true
                let poll = due ? nil : try await FeedPoll.read(after: position, reader: client)
                if let poll, !poll.gap {
                    // What the poll read is who did what: kept, so the pass need not read it again.
                    if let newest = poll.newest { try await keep(poll.events, upTo: newest, in: session.store) }
                    let unannounced = try await probe(&probed, ownEvents: poll.events.filter { $0.actor == me })
                    let targets = WatchTargets.of(
                        poll.events + unannounced, me: me, kinds: rules.map(\.kind), registry: registry)
                    pass = Pass(kind: targets.isEmpty ? "idle" : "events", events: poll.events.count)
                    pass.ownEvents = targets.ownEvents
                    pass.unannounced = unannounced.count
                    if !targets.isEmpty {
                        try await act(on: targets, in: session, pass: &pass, readFeed: false)
                    }
                    position = poll.newest ?? position
                } else {
                    // The first pass of a watcher started again goes on from where the last one
                    // stopped; any other from where the feed stands now, read first. Either way what
                    // happens during the pass is handled by the next one, at worst twice, which
                    // judging again makes harmless.
                    var start = lastFull == nil && poll == nil ? position : nil
                    if start == nil { start = try await FeedPoll.read(after: nil, reader: client).newest }
                    probed = [:]
                    _ = try await probe(&probed, ownEvents: [])
                    pass = Pass(kind: "full", events: poll?.events.count ?? 0)
                    try await act(on: nil, in: session, pass: &pass, readFeed: true)
                    position = start ?? position
                    lastFull = Date()
                }
                if let position { try await record(position, in: session.store) }
                telemetry.feedPosition(position)
                pass.requests = client.metrics.reads + client.metrics.writes - before
                let ended = Date()
                pass.seconds = ended.timeIntervalSince(started)
                let line = report(pass)
                if pass.applied + pass.failed > 0 { await refreshRecentActions(session.store) }
                let becameReady = telemetry.passSucceeded(
                    WatchStatus.PassRecord(
                        kind: pass.kind, started: started, ended: ended, requests: pass.requests,
                        actions: pass.actions, applied: pass.applied, failed: pass.failed),
                    outcomes: pass.outcomes)
                notifier?.notify((becameReady ? ["READY=1"] : []) + ["STATUS=\(line)"])
                failures = 0
            } catch let failure as CommandFailure where failure.code == .unavailable && !Task.isCancelled {
                // The server went out of reach while a pass applied (a read finding it so is the
                // client's error, below): waited out the same way.
                failures += 1
                let waited = await wait(
                    cause: .transport, failures: failures, lead: "pass failed", summary: failure.message,
                    detail: failure.message)
                guard waited else { break }
                continue
            } catch let failure as CommandFailure {
                throw failure
            } catch  where Task.isCancelled {
                break
            } catch let error as GitbayError {
                failures += 1
                guard try await wait(after: error, failures: failures, saying: "pass failed") else { break }
                continue
            } catch {
                throw CommandFailure("\(error)", code: .failure)
            }
            telemetry.idles(for: interval)
            guard await sleep(interval) else { break }
        }
        return control.stoppedCode
    }

    /// The rules as the status page lists them.
    private static func loaded(_ rules: [Rule]) -> [WatchStatus.LoadedRule] {
        rules.map { WatchStatus.LoadedRule(name: $0.name, kind: $0.kind.rawValue) }
    }

    /// The state store's newest actions, for the status page; a store that cannot say leaves the
    /// page as it was (the next pass's journal write will report the trouble).
    private func refreshRecentActions(_ store: any StateStore) async {
        guard let records = try? await store.history(HistoryQuery(limit: WatchStatus.recentLimit)) else { return }
        telemetry.recentActions(
            records.map { record in
                WatchStatus.ActionRecord(
                    at: record.at, rule: record.rule, item: record.item, command: ShellQuote.line(record.argv),
                    outcome: HistoryEntry(record, command: nil, account: "").outcome.rawValue,
                    reasons: (record.reasons ?? []).map(\.reasonDescription))
            })
    }

    /// Looks once with each probe the rules make worth it, and answers the events for what moved
    /// since its last look (none on its first) and not by the bot's `ownEvents`, noting what each
    /// saw in `seen`.
    private func probe(_ seen: inout [String: [String: String]], ownEvents: [FeedEvent]) async throws -> [FeedEvent] {
        let scope = RuleScope(union: rules.map(\.scope))
        var events: [FeedEvent] = []
        for probe in WatchTargets.probes(for: rules.map(\.kind), registry: registry) {
            let look = try await probe.look(in: scope, reader: client)
            if let previous = seen[probe.eventKind] { events += look.changes(since: previous, ownEvents: ownEvents) }
            seen[probe.eventKind] = look.versions
        }
        return events
    }

    /// Whose token this is, asked until the server answers.
    ///
    /// A watcher started while the server or the network is down waits for it as it would in a
    /// pass; `nil` when it was cancelled first.
    private func account() async throws(CommandFailure) -> String? {
        var failures = 0
        while !Task.isCancelled {
            do {
                return try await client.send(WhoAmICommand()).username
            } catch {
                guard !Task.isCancelled else { return nil }
                failures += 1
                guard try await wait(after: error, failures: failures, saying: "the server did not answer") else {
                    return nil
                }
            }
        }
        return nil
    }

    /// Waits out a transient failure, saying so on stderr, to systemd and on the page.
    ///
    /// `error` is the `failures`th in a row; answers `false` when cancelled meanwhile. An error
    /// that waiting cannot mend is the command's failure.
    private func wait(
        after error: GitbayError, failures: Int, saying lead: String
    ) async throws(CommandFailure)
        -> Bool
    {
        guard let cause = WatchStatus.WaitCause(error) else {
            throw CommandFailure(error, server: client.configuration.baseURL)
        }
        // A server out of reach is named by its URL, as `run` names it, so a mistyped one shows.
        let detail =
            error.isUnreachable
            ? CommandFailure.unreachable(client.configuration.baseURL, error.description) : "\(error)"
        return await wait(
            cause: cause, failures: failures, lead: lead, summary: WatchTelemetry.summary(of: error), detail: detail)
    }

    /// Waits out the `failures`th failure in a row, of `cause`: `summary` to systemd and on the
    /// page, `detail` on stderr, each after `lead`; `false` when cancelled meanwhile.
    private func wait(
        cause: WatchStatus.WaitCause, failures: Int, lead: String, summary: String, detail: String
    ) async -> Bool {
        let pause = pause(after: failures)
        telemetry.passFailed(summary, cause: cause, pause: pause)
        notifier?.notify(["STATUS=\(lead), trying again in \(Int(pause)) s: \(summary)"])
        note("\(lead), trying again in \(Int(pause)) s: \(detail)")
        return await sleep(pause)
    }

    /// The pause after `failures` transient failures in a row: the interval, doubling, at most
    /// ``longestPause``.
    private func pause(after failures: Int) -> TimeInterval {
        min(Self.longestPause, interval * pow(2, Double(min(failures, 10) - 1)))
    }

    /// Reads, plans and (unless a dry run) applies one pass: everything, or only `targets`;
    /// `readFeed` for a pass whose feed no poll has kept (``BotSession/read(_:now:guards:trustCache:only:readFeed:)``).
    private func act(
        on targets: WatchTargets?, in session: BotSession, pass: inout Pass, readFeed: Bool
    ) async throws {
        let passRules = targets.map { $0.scoped(rules) } ?? rules
        pass.items = targets?.items.count ?? 0
        guard !passRules.isEmpty else { return }
        let guards = await session.guards()
        let (state, report) = try await session.read(
            passRules, now: Date(), guards: guards, only: targets, readFeed: readFeed)
        if verbose {
            console.write(report.steps.map { "  \($0)\n" }.joined(), to: .error)
        }
        if targets == nil { pass.items = Self.itemCount(in: state, of: passRules) }
        let plan = session.plan(passRules, state: state, only: targets, guards: guards)
        pass.actions = plan.pendingCommandCount
        if dryRun { recordPlanned(plan, in: &pass) }
        guard !dryRun, plan.pendingCommandCount > 0 else { return }
        let (_, applied) = try await session.execute(
            plan, command: "watch", activity: ActivityHistory(of: state), shows: false)
        pass.applied = applied.count(.applied)
        pass.failed = applied.count(.failed)
        pass.outcomes = applied.outcomes.map { WatchStatus.ActionKey(rule: $0.rule, outcome: $0.status.rawValue) }
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
    private func recordPlanned(_ plan: Plan, in pass: inout Pass) {
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

    private func readPosition(_ store: any StateStore) async throws(CommandFailure) -> Int? {
        do {
            return try await store.feedPosition()
        } catch {
            throw CommandFailure("\(error)", code: .ioError)
        }
    }

    private func keep(_ events: [FeedEvent], upTo position: Int, in store: any StateStore) async throws(CommandFailure)
    {
        do {
            try await store.keepActivity(events, position: position)
        } catch {
            throw CommandFailure("\(error)", code: .ioError)
        }
    }

    private func record(_ position: Int, in store: any StateStore) async throws(CommandFailure) {
        do {
            try await store.setFeedPosition(position)
        } catch {
            throw CommandFailure("\(error)", code: .ioError)
        }
    }

    /// Prints one line per pass, text for people or JSON lines for log shippers, and answers the
    /// text line, for the status page and systemd.
    private func report(_ pass: Pass) -> String {
        let at = GitbayTimestamp.format(Date(), precision: .seconds)
        let line =
            "\(at) \(pass.kind) pass: \(pass.events) events (\(pass.ownEvents) own), "
            + "\(pass.unannounced) unannounced changes, \(pass.items) items, "
            + "\(pass.requests) requests, \(pass.actions) actions, \(pass.applied) applied"
            + (pass.failed > 0 ? ", \(pass.failed) failed" : "")
        if json {
            let fields: [String: Any] = [
                "at": at, "pass": pass.kind, "events": pass.events, "own_events": pass.ownEvents,
                "unannounced": pass.unannounced,
                "items": pass.items, "requests": pass.requests, "actions": pass.actions, "applied": pass.applied,
                "failed": pass.failed, "seconds": (pass.seconds * 1000).rounded() / 1000,
            ]
            let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
            console.write(String(decoding: data, as: UTF8.self) + "\n", to: .output)
        } else {
            console.write(line + "\n", to: .output)
        }
        return line
    }

    private func note(_ text: String) {
        console.write("note: \(text)\n", to: .error)
    }

    /// Waits `seconds`; `false` when the task was cancelled meanwhile, which ends the wait at once.
    private func sleep(_ seconds: TimeInterval) async -> Bool {
        do {
            try await Task.sleep(for: .seconds(seconds))
            return true
        } catch {
            return false
        }
    }
}

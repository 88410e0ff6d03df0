import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine
import StateDatabase

/// The loop of `gitbay-bot watch`: passes, the feed position, pauses, reloads and stops.
///
/// Each pass reads and plans through one ``BotSession``, as `run` does, and hands what it acts on
/// to a ``WriteDrain``, which sends it through the session's applier while the next passes read:
/// gitbay's write budget (12 a minute) never holds up hearing what people do. Cancelling the task
/// stops it: the write in flight finishes, nothing after it is sent, a pause ends at once.
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
    /// The monotonic time the watcher's schedule and pauses run on, the telemetry's too.
    let clock: any WatchClock
    /// Where `--listen` puts the webhook deliveries it accepted; `nil` without a webhook secret.
    let inbox: WebhookInbox?

    /// What one pass was and did, for its line.
    struct Pass {
        var kind: WatchMachine.PassKind
        var events = 0
        var ownEvents = 0
        /// Changes the feed did not show, found by the plugins' probes (a push, say).
        var unannounced = 0
        var items = 0
        var requests = 0
        var actions = 0
        /// Writes the drain finished since the last pass's line, applied and failed.
        var applied = 0
        var failed = 0
        /// Commands waiting to be sent after this pass handed its own over.
        var waiting = 0
        /// How long it took, from its start to its line.
        var seconds: TimeInterval = 0
        /// Each action's rule and outcome (`planned` in a dry run), for `actions_total`.
        var outcomes: [WatchStatus.ActionKey] = []
        /// The repositories a full pass read.
        var repositories: [RepositoryPath] = []
    }

    /// Watches until cancelled (exit 130 or 143, by the signal the control recorded) or a failure
    /// that waiting cannot mend; the control's reloads load `reload()`'s rules.
    ///
    /// The loop does what ``WatchMachine/next(at:)`` answers at the clock's reading and tells the
    /// machine what came of it; every choice is the machine's.
    mutating func watch(reload: () throws(CommandFailure) -> [Rule]) async throws(CommandFailure) -> BotExitCode {
        telemetry.rulesLoaded(Self.loaded(rules), reloaded: false)
        inbox?.scope(RuleScope(union: rules.map(\.scope)))
        var machine = WatchMachine(
            interval: .seconds(interval), fullEvery: .seconds(fullEvery), webhooks: inbox != nil)
        guard let me = try await account(&machine) else { return control.stoppedCode }
        telemetry.account(me)
        // A dry run keeps its cache and feed position in the account's database without its lock,
        // as `plan` does: only forge writes are forbidden.
        let session = try await BotSession.open(
            settings, client: client, account: me, stateUse: dryRun ? .planning : .applying, registry: registry,
            control: control, console: console)
        machine.reached(try await readPosition(session.store))
        telemetry.feedPosition(machine.feedPosition)
        await Self.refreshRecentActions(session.store, telemetry)
        let drain = WriteDrain()
        let (send, pause) = (sender(session, drain), drainPause())
        let dryRun = dryRun
        // The hooks are checked beside the passes, once the first full pass listed the repositories.
        let setup = inbox.map { _ in SetupCheck(client: client, console: console, telemetry: telemetry) }
        let ended = await withTaskGroup(of: Void.self, returning: Result<BotExitCode, CommandFailure>.self) { group in
            if !dryRun { group.addTask { await drain.run(send: send, pause: pause) } }
            if let setup { group.addTask { await setup.run() } }
            let ended: Result<BotExitCode, CommandFailure>
            do throws(CommandFailure) {
                ended = .success(
                    try await loop(&machine, in: session, me: me, drain: drain, setup: setup, reload: reload))
            } catch {
                ended = .failure(error)
            }
            group.cancelAll()
            return ended
        }
        return try ended.get()
    }

    /// The passes and waits, until cancelled or a failure that waiting cannot mend, the drain's
    /// included (seen at the next step: a token turned away or a journal that cannot be written
    /// stops the next pass's reads too).
    private mutating func loop(
        _ machine: inout WatchMachine, in session: BotSession, me: String, drain: WriteDrain, setup: SetupCheck?,
        reload: () throws(CommandFailure) -> [Rule]
    ) async throws(CommandFailure) -> BotExitCode {
        // Pushes deliveries announced, which no feed shows: the next poll's pass judges them.
        var pushes: [FeedEvent] = []
        while !Task.isCancelled {
            if let failure = drain.failure { throw failure }
            pushes += try await takeDeliveries(&machine, store: session.store, me: me)
            if let fine = setup?.takeFound() { machine.hooksChecked(fine) }
            if control.takeReload() { machine.reloadRequested() }
            let step = machine.next(at: clock.now)
            telemetry.polling(every: machine.pollInterval.seconds, deliveries: machine.deliveries)
            switch step {
            case .reload:
                reloadRules(reload)
                inbox?.scope(RuleScope(union: rules.map(\.scope)))
            case .idle(let until):
                telemetry.idles(until: until)
                guard await idle(until: until) else { return control.stoppedCode }
            case .pause(let until):
                guard await sleep(until: until) else { return control.stoppedCode }
            case .full, .poll:
                var repositories: [RepositoryPath] = []
                guard
                    try await run(
                        &machine, in: session, me: me, drain: drain, poll: step == .poll, pushes: pushes,
                        repositories: &repositories)
                else {
                    return control.stoppedCode
                }
                pushes = []
                if !repositories.isEmpty { setup?.start(repositories) }
            }
        }
        return control.stoppedCode
    }

    /// Takes what the inbox holds: a spell of refusals begun, then the deliveries, each signed body
    /// once, whatever its id (the state database keeps their digests, ``DeliveryLog``), told to
    /// `machine`; answers the pushes among them, for the next pass.
    private func takeDeliveries(
        _ machine: inout WatchMachine, store: any StateStore, me: String
    ) async throws(CommandFailure) -> [FeedEvent] {
        guard let inbox else { return [] }
        if inbox.takeRefusals() { machine.deliveriesRefused() }
        var pushes: [FeedEvent] = []
        for delivery in inbox.take() {
            let first: Bool
            do {
                first = try await store.takeDelivery(delivery.id, bodyDigest: delivery.bodyDigest, at: Date())
            } catch {
                throw CommandFailure("\(error)", code: .ioError)
            }
            telemetry.deliveryTaken(delivery.event.kind, first: first)
            guard first else { continue }
            let own = delivery.event.actor == me
            machine.deliveryArrived(DeliveryWatch.Key(delivery.event), at: clock.now, own: own)
            if delivery.event.family == "push", !own { pushes.append(delivery.event) }
        }
        return pushes
    }

    /// Waits until `instant`, or until a delivery arrives; `false` when cancelled meanwhile.
    private func idle(until instant: Duration) async -> Bool {
        guard let inbox else { return await sleep(until: instant) }
        let clock = clock
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await Self.sleep(on: clock, until: instant) }
            group.addTask {
                await inbox.arrival()
                return !Task.isCancelled
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first && !Task.isCancelled
        }
    }

    /// How the drain sends one job: through the session's applier, as `run` applies a plan, telling
    /// the page and the metrics what came of it.
    private func sender(
        _ session: BotSession, _ drain: WriteDrain
    ) -> @Sendable (WriteQueue.Job) async throws(CommandFailure) -> ApplyReport {
        let telemetry = telemetry
        return { job throws(CommandFailure) in
            let (_, report) = try await session.execute(
                job.plan, command: "watch", activity: job.activity, facts: job.facts, shows: false)
            telemetry.writesSent(
                report.outcomes.map { WatchStatus.ActionKey(rule: $0.rule, outcome: $0.status.rawValue) },
                waiting: drain.commands - job.plan.pendingCommandCount)
            await Self.refreshRecentActions(session.store, telemetry)
            return report
        }
    }

    /// How the drain waits out a server out of reach: the pauses of a failed pass, said on stderr.
    private func drainPause() -> @Sendable (Int, CommandFailure) async -> Bool {
        let (interval, clock, console) = (interval, clock, console)
        return { failures, failure in
            let pause = WatchMachine.pause(after: failures, interval: .seconds(interval))
            console.write(
                "note: writes stopped, trying again in \(Int(pause.seconds.rounded())) s: \(failure.message)\n",
                to: .error)
            return await Self.sleep(on: clock, until: clock.now + pause)
        }
    }

    /// Loads the rules again; a failure keeps the old ones, as the page and stderr say.
    private mutating func reloadRules(_ reload: () throws(CommandFailure) -> [Rule]) {
        do throws(CommandFailure) {
            rules = try reload()
            telemetry.rulesLoaded(Self.loaded(rules), reloaded: true)
            note("rules reloaded: \(rules.count) rules")
        } catch {
            telemetry.reloadFailed(error.message)
            note("the rules were not reloaded, the old ones stay: \(error.message)")
        }
    }

    /// Runs one pass (a poll first when `poll`), tells `machine` how it ended, and reports it.
    ///
    /// Answers `false` when cancelled meanwhile. A failure that waiting can mend becomes the
    /// machine's pause; any other is the command's.
    private func run(
        _ machine: inout WatchMachine, in session: BotSession, me: String, drain: WriteDrain, poll: Bool,
        pushes: [FeedEvent], repositories: inout [RepositoryPath]
    ) async throws(CommandFailure) -> Bool {
        let before = client.metrics.reads + client.metrics.writes
        let started = clock.now
        telemetry.passBegins()
        do {
            var pass = try await pass(&machine, in: session, me: me, drain: drain, poll: poll, pushes: pushes)
            if let position = machine.feedPosition { try await record(position, in: session.store) }
            telemetry.feedPosition(machine.feedPosition)
            let ended = clock.now
            machine.passEnded(pass.kind, started: started, at: ended)
            pass.requests = client.metrics.reads + client.metrics.writes - before
            pass.seconds = (ended - started).seconds
            let finished = drain.takeFinished()
            pass.applied = finished.filter { $0.status == .applied }.count
            pass.failed = finished.filter { $0.status == .failed }.count
            pass.waiting = drain.commands
            telemetry.writesWaiting(pass.waiting)
            repositories = pass.repositories
            let line = report(pass)
            let becameReady = telemetry.passSucceeded(
                WatchStatus.PassRecord(
                    kind: pass.kind.rawValue, started: telemetry.date(at: started), ended: telemetry.date(at: ended),
                    requests: pass.requests, actions: pass.actions, applied: pass.applied, failed: pass.failed),
                outcomes: pass.outcomes)
            notifier?.notify((becameReady ? ["READY=1"] : []) + ["STATUS=\(line)"])
            return true
        } catch let failure as CommandFailure where failure.code == .unavailable && !Task.isCancelled {
            // The server went out of reach while a pass applied (a read finding it so is the
            // client's error, below): waited out the same way.
            failed(&machine, cause: .transport, lead: "pass failed", summary: failure.message, detail: failure.message)
            return true
        } catch let failure as CommandFailure {
            throw failure
        } catch  where Task.isCancelled {
            return false
        } catch let error as GitbayError {
            try failed(&machine, after: error, saying: "pass failed")
            return true
        } catch {
            throw CommandFailure("\(error)", code: .failure)
        }
    }

    /// Reads and acts for the pass `machine` chose: after a poll, on what its events, the probes
    /// and the pushes deliveries announced name (or everything, when the feed has a gap);
    /// otherwise on everything.
    private func pass(
        _ machine: inout WatchMachine, in session: BotSession, me: String, drain: WriteDrain, poll: Bool,
        pushes: [FeedEvent]
    ) async throws -> Pass {
        let polled = poll ? try await FeedPoll.read(after: machine.feedPosition, reader: client) : nil
        if let polled { machine.polled(polled.events, at: clock.now) }
        if let polled, machine.pass(afterPoll: polled.gap) == .events {
            // What the poll read is who did what: kept, so the pass need not read it again.
            if let newest = polled.newest { try await keep(polled.events, upTo: newest, in: session.store) }
            let unannounced =
                try await probe(&machine, ownEvents: polled.events.filter { $0.actor == me }) + pushes
            let targets = WatchTargets.of(
                polled.events + unannounced, me: me, kinds: rules.map(\.kind), registry: registry)
            var pass = Pass(kind: targets.isEmpty ? .idle : .events, events: polled.events.count)
            pass.ownEvents = targets.ownEvents
            pass.unannounced = unannounced.count
            if !targets.isEmpty {
                try await act(on: targets, in: session, drain: drain, pass: &pass)
            }
            machine.reached(polled.newest)
            return pass
        }
        var start = machine.storedStart(afterPoll: polled != nil)
        if start == nil { start = try await FeedPoll.read(after: nil, reader: client).newest }
        machine.fullPassBegins()
        _ = try await probe(&machine, ownEvents: [])
        var pass = Pass(kind: .full, events: polled?.events.count ?? 0)
        try await act(on: nil, in: session, drain: drain, pass: &pass)
        machine.reached(start)
        return pass
    }

    /// The rules as the status page lists them.
    private static func loaded(_ rules: [Rule]) -> [WatchStatus.LoadedRule] {
        rules.map { WatchStatus.LoadedRule(name: $0.name, kind: $0.kind.rawValue) }
    }

    /// The state store's newest actions, for the status page; a store that cannot say leaves the
    /// page as it was (the next pass's journal write will report the trouble).
    private static func refreshRecentActions(_ store: any StateStore, _ telemetry: WatchTelemetry) async {
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
    /// since its last look (none on its first) and not by the bot's `ownEvents`; the machine keeps
    /// what each saw.
    private func probe(_ machine: inout WatchMachine, ownEvents: [FeedEvent]) async throws -> [FeedEvent] {
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

    /// Whose token this is, asked until the server answers.
    ///
    /// A watcher started while the server or the network is down waits for it as it would in a
    /// pass, by `machine`'s pauses; `nil` when it was cancelled first.
    private func account(_ machine: inout WatchMachine) async throws(CommandFailure) -> String? {
        while !Task.isCancelled {
            if case .pause(let until) = machine.next(at: clock.now) {
                guard await sleep(until: until) else { return nil }
            }
            do {
                return try await client.send(WhoAmICommand()).username
            } catch {
                guard !Task.isCancelled else { return nil }
                try failed(&machine, after: error, saying: "the server did not answer")
            }
        }
        return nil
    }

    /// Tells `machine` of a transient failure, which it pauses for, and says so on stderr, to
    /// systemd and on the page; an error that waiting cannot mend is the command's failure.
    private func failed(
        _ machine: inout WatchMachine, after error: GitbayError, saying lead: String
    ) throws(CommandFailure) {
        guard let cause = WatchStatus.WaitCause(error) else {
            throw CommandFailure(error, server: client.configuration.baseURL)
        }
        // A server out of reach is named by its URL, as `run` names it, so a mistyped one shows.
        let detail =
            error.isUnreachable
            ? CommandFailure.unreachable(client.configuration.baseURL, error.description) : "\(error)"
        failed(&machine, cause: cause, lead: lead, summary: WatchTelemetry.summary(of: error), detail: detail)
    }

    /// Tells `machine` of a failure of `cause`, which it pauses for: `summary` to systemd and on
    /// the page, `detail` on stderr, each after `lead`.
    private func failed(
        _ machine: inout WatchMachine, cause: WatchStatus.WaitCause, lead: String, summary: String, detail: String
    ) {
        let pause = machine.passFailed(at: clock.now)
        telemetry.passFailed(summary, cause: cause, pause: pause.seconds)
        let seconds = Int(pause.seconds.rounded())
        notifier?.notify(["STATUS=\(lead), trying again in \(seconds) s: \(summary)"])
        note("\(lead), trying again in \(seconds) s: \(detail)")
    }

    /// Reads and plans one pass, everything or only `targets`, and (unless a dry run) hands the
    /// plan to `drain`: what the pass judged replaces what waits for the same items; a full pass
    /// reads the feed's activity, an events pass keeps what its poll read (``BotSession/judge(_:reading:now:)``).
    private func act(
        on targets: WatchTargets?, in session: BotSession, drain: WriteDrain, pass: inout Pass
    ) async throws {
        let passRules = targets.map { $0.scoped(rules) } ?? rules
        pass.items = targets?.items.count ?? 0
        guard !passRules.isEmpty else { return }
        let (plan, state, report) = try await session.judge(passRules, reading: .pass(targets), now: Date())
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
        let judgedRules = Set(passRules.map(\.name))
        drain.hand(plan, activity: ActivityHistory(of: state), lane: targets == nil ? .backlog : .prompt) { entry in
            guard judgedRules.contains(entry.rule) else { return false }
            guard let targets else { return true }
            guard let repository = try? RepositoryPath(entry.item.repository) else { return false }
            return targets.contains(entry.item.reference, kind: entry.item.kind, in: repository)
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
            "\(at) \(pass.kind.rawValue) pass: \(pass.events) events (\(pass.ownEvents) own), "
            + "\(pass.unannounced) unannounced changes, \(pass.items) items, "
            + "\(pass.requests) requests, \(pass.actions) actions, \(pass.applied) applied"
            + (pass.failed > 0 ? ", \(pass.failed) failed" : "")
            + (pass.waiting > 0 ? ", \(pass.waiting) waiting" : "")
        if json {
            let fields: [String: Any] = [
                "at": at, "pass": pass.kind.rawValue, "events": pass.events, "own_events": pass.ownEvents,
                "unannounced": pass.unannounced,
                "items": pass.items, "requests": pass.requests, "actions": pass.actions, "applied": pass.applied,
                "failed": pass.failed, "waiting": pass.waiting, "seconds": (pass.seconds * 1000).rounded() / 1000,
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

    /// Waits until `instant` on the watcher's clock; `false` when the task was cancelled
    /// meanwhile, which ends the wait at once.
    private func sleep(until instant: Duration) async -> Bool {
        await Self.sleep(on: clock, until: instant)
    }

    /// Waits until `instant` on `clock`; `false` when the task was cancelled meanwhile.
    private static func sleep(on clock: any WatchClock, until instant: Duration) async -> Bool {
        do {
            try await clock.sleep(until: instant)
            return true
        } catch {
            return false
        }
    }
}

import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine
import StateDatabase
import Timekeeping
import Watch

/// The loop of `gitbay-bot watch`: passes, the feed position, pauses, reloads and stops.
///
/// Each pass (``WatchPass``) reads and plans through one ``BotSession``, as `run` does, and hands
/// what it acts on to a ``WriteDrain``, which sends it through the session's applier while the next passes read:
/// gitbay's write budget (12 a minute) never holds up hearing what people do. Cancelling the task
/// stops it: the write in flight finishes, nothing after it is sent, a pause ends at once. The
/// loop keeps the account, the deliveries taken and the failures waited out; ``PassReporter``
/// says each pass.
struct Watcher {
    var rules: [Rule]
    /// The repositories' own rules as the last full pass read them, for the events passes.
    var repositoryRules: [Rule] = []
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
    let clock: any MonotonicClock
    /// Where `--listen` puts the webhook deliveries it accepted; `nil` without a webhook secret.
    let inbox: WebhookInbox?

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
        let drain = WriteDrain<CommandFailure>()
        let (send, pause) = (sender(session, drain), drainPause())
        let dryRun = dryRun
        // The hooks are checked beside the passes, once the first full pass listed the repositories.
        let setup = inbox.map { _ in SetupCheck(client: client, console: console, telemetry: telemetry) }
        let ended = await withTaskGroup(of: Void.self, returning: Result<BotExitCode, CommandFailure>.self) { group in
            if !dryRun {
                group.addTask { await drain.run(send: send, waitable: { $0.code == .unavailable }, pause: pause) }
            }
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
        // The drain is done (the group waited for it): nothing more goes to the store.
        await session.store.close()
        return try ended.get()
    }

    /// The passes and waits, until cancelled or a failure that waiting cannot mend, the drain's
    /// included (seen at the next step: a token turned away or a journal that cannot be written
    /// stops the next pass's reads too).
    private mutating func loop(
        _ machine: inout WatchMachine, in session: BotSession, me: String, drain: WriteDrain<CommandFailure>,
        setup: SetupCheck?,
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
        _ session: BotSession, _ drain: WriteDrain<CommandFailure>
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
    private mutating func run(
        _ machine: inout WatchMachine, in session: BotSession, me: String, drain: WriteDrain<CommandFailure>,
        poll: Bool,
        pushes: [FeedEvent], repositories: inout [RepositoryPath]
    ) async throws(CommandFailure) -> Bool {
        let before = client.metrics.reads + client.metrics.writes
        let started = clock.now
        telemetry.passBegins()
        do {
            var watchPass = WatchPass(
                rules: rules, repositoryRules: repositoryRules, session: session, me: me, client: client,
                registry: registry, drain: drain, dryRun: dryRun, verbose: verbose, console: console,
                telemetry: telemetry, clock: clock)
            var pass = try await watchPass.run(&machine, poll: poll, pushes: pushes)
            repositoryRules = watchPass.repositoryRules
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
            reporter.passEnded(pass, started: started, ended: ended)
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

    /// The rules as the status page lists them.
    private static func loaded(_ rules: [Rule]) -> [WatchStatus.LoadedRule] {
        rules.map { WatchStatus.LoadedRule(name: $0.name, kind: $0.kind.rawValue) }
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
        reporter.passFailed(
            cause: cause, pause: machine.passFailed(at: clock.now), lead: lead, summary: summary, detail: detail)
    }

    /// How the passes are said.
    private var reporter: PassReporter {
        PassReporter(json: json, console: console, telemetry: telemetry, notifier: notifier)
    }

    private func readPosition(_ store: any StateStore) async throws(CommandFailure) -> Int? {
        do {
            return try await store.feedPosition()
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

    private func note(_ text: String) {
        console.write("note: \(text)\n", to: .error)
    }

    /// Waits until `instant` on the watcher's clock; `false` when the task was cancelled
    /// meanwhile, which ends the wait at once.
    private func sleep(until instant: Duration) async -> Bool {
        await Self.sleep(on: clock, until: instant)
    }

    /// Waits until `instant` on `clock`; `false` when the task was cancelled meanwhile.
    private static func sleep(on clock: any MonotonicClock, until instant: Duration) async -> Bool {
        do {
            try await clock.sleep(until: instant)
            return true
        } catch {
            return false
        }
    }
}

extension Watcher {
    /// Puts the state store's newest actions on the status page; a store that cannot say leaves
    /// the page as it was (the next pass's journal write will report the trouble).
    fileprivate static func refreshRecentActions(_ store: any StateStore, _ telemetry: WatchTelemetry) async {
        guard let records = try? await store.history(HistoryQuery(limit: WatchStatus.recentLimit)) else { return }
        telemetry.recentActions(
            records.map { record in
                WatchStatus.ActionRecord(
                    at: record.at, rule: record.rule, item: record.item, command: ShellQuote.line(record.argv),
                    outcome: HistoryEntry(record, command: nil, account: "").outcome.rawValue,
                    reasons: (record.reasons ?? []).map(\.reasonDescription))
            })
    }
}

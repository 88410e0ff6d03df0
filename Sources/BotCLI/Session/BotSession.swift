import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine

/// One account's work on one server: the plugins' registry, the client, the state store and the
/// control that stops it, with the steps every command that talks to a server takes.
///
/// `plan`, `run`, `explain`, `apply` and each `watch` pass open, read, plan and execute through
/// these same steps, in the order ``evaluate(_:applying:port:)`` and its siblings keep, so a run
/// ends, records and exits the same way whichever command started it. Commands parse their
/// options, hand them to the session with a ``PlanPort`` to show the plan, and report.
struct BotSession {
    let registry: PluginRegistry
    let client: GitbayClient
    /// The account the token belongs to: `@me`, and the owner of the state store.
    let me: String
    /// The account's state: the journal and the read cache.
    let store: any StateStore
    let settings: Settings
    let control: CommandControl
    let console: any Console

    /// What the session does with the account's state database.
    enum StateUse {
        /// It applies: the database is opened (made, upgraded) and locked before anything is read.
        case applying
        /// It only plans: the database's read cache is used (and made when there is none), never
        /// locked; the dry run forbids forge writes, not the bot's own local state.
        case planning
    }

    /// A session of `client`, as the account `account` (asked of the server when `nil`), with that
    /// account's state opened as `stateUse` asks.
    ///
    /// `planFor` is the account a saved plan was made for: a token of another account is refused
    /// (exit 64) before that account's state database is opened, let alone made or locked.
    static func open(
        _ settings: Settings, client: GitbayClient, account: String? = nil, planFor: String? = nil,
        stateUse: StateUse, registry: PluginRegistry, control: CommandControl, console: any Console
    ) async throws(CommandFailure) -> BotSession {
        let me: String
        if let account {
            me = account
        } else {
            me = try await Self.account(of: client)
        }
        if let planFor, planFor != me {
            throw CommandFailure(
                "the plan was made for \(planFor), but the token belongs to \(me); apply it with "
                    + "\(planFor)'s token, or make a new plan with this one", code: .usage)
        }
        let server = client.configuration.baseURL
        let store: any StateStore =
            switch stateUse {
            case .applying: try await StateStoreOpening.open(settings, server: server, account: me, console: console)
            case .planning:
                await StateStoreOpening.openCache(settings, server: server, account: me, console: console)
                    ?? InMemoryStateStore()
            }
        return BotSession(
            registry: registry, client: client, me: me, store: store, settings: settings, control: control,
            console: console)
    }

    /// The account `client`'s token belongs to (`whoami`), which names its database.
    static func account(of client: GitbayClient) async throws(CommandFailure) -> String {
        do {
            return try await client.send(WhoAmICommand()).username
        } catch {
            throw CommandFailure(error, server: client.configuration.baseURL)
        }
    }

    /// Reads what `rules` need at `now`, as `reading` asks under the settings (``RuleEngine/ReadPolicy``),
    /// with `guards` for the detail reads.
    ///
    /// Who did what to the items comes first (``activity(for:readFeed:)``): for the rules that
    /// weigh it, or for all when the policy keeps a sweep, which tells from it where something
    /// changed (one request where a repository read saved is one each); the feed itself unless
    /// a `watch` pass's own poll kept its news.
    func read(
        _ rules: [Rule], reading: CommandReading, guards: EvaluationOptions, now: Date
    ) async throws -> (state: ForgeState, report: ReadPlanner.Report) {
        let policy = ReadPolicy(reading, settings: settings, guards: guards, cache: store)
        let activity = try await activity(for: policy.readsActivityForSweep ? nil : rules, readFeed: policy.readsFeed)
        return try await ReadPlanner(
            registry: registry, commandWindow: settings.commandWindow, automation: settings.bots,
            writers: settings.writers
        ).read(rules, from: client, at: now, policy: policy, basis: ReadBasis(me: me, activity: activity))
    }

    /// Who did what to the items `rules` judge (the feed since the last run, kept in the state
    /// store, and the bot's journal); `nil` when no rule of `rules` consults it (with no rules given, always read).
    func activity(for rules: [Rule]? = nil, readFeed: Bool = true) async throws -> ActivityHistory? {
        if let rules, !ActivityHistory.isNeeded(by: rules, registry: registry) { return nil }
        return try await ActivityHistory.read(
            registry: registry, reader: client, log: store, me: me, readFeed: readFeed)
    }

    /// The settings' guards, with the cap's share kept for the actions earlier runs left half
    /// done, which ``execute(_:command:frozenNow:activity:shows:)`` finishes first: `--max-actions`
    /// counts every command a run sends.
    func guards() async -> EvaluationOptions {
        var options = settings.evaluationOptions
        options.reserved = (try? await store.unfinishedActions().count) ?? 0
        return options
    }

    /// The plan of `rules` on `state`, under `guards` (the settings' when not given).
    func plan(
        _ rules: [Rule], state: ForgeState, only targets: WatchTargets? = nil, guards: EvaluationOptions? = nil
    ) -> Plan {
        Evaluator(registry: registry, options: guards ?? settings.evaluationOptions).plan(
            rules: rules, state: state, source: client.configuration.baseURL.absoluteString, only: targets)
    }

    /// Applies `plan` as `command` (for `history`) and settles the run: the one call that
    /// begins a run in the state store, sends the plan's commands and records how it ended.
    ///
    /// Answers the exit code with the report (for `run --report` and a `watch` pass's line), or
    /// throws the failure that stopped it (a token turned away, a server out of reach, a journal
    /// that cannot be written); the run is recorded as ended either way. With `shows`, each
    /// outcome goes to a terminal's stderr as it comes and the report to stdout.
    ///
    /// Cancelling the task stops it after the write in flight, with 128 + the signal the
    /// ``control`` recorded. Rules' schedules and each entry's conditions are checked again at
    /// `frozenNow` (`run --now`), as the plan judged them, else on the real clock; the journal is
    /// stamped on the same clock. Each entry is re-checked with who did what to its item:
    /// `activity` as the plan was read with, else read now (a saved plan: the feed since it was
    /// made).
    func execute(
        _ plan: Plan, command: String, frozenNow: Date? = nil, activity: ActivityHistory? = nil,
        facts: RepositoryFacts? = nil, shows: Bool = true
    ) async throws(CommandFailure) -> (code: BotExitCode, report: ApplyReport) {
        let history: ActivityHistory?
        do {
            if let activity {
                history = activity
            } else {
                history = try await self.activity()
            }
        } catch let error as GitbayError {
            throw CommandFailure(error, server: client.configuration.baseURL)
        } catch {
            throw CommandFailure("\(error)", code: .failure)
        }
        let (run, unfinished) = try await begin(command)
        let console = console
        let showsProgress = shows && console.isTerminal(.error)
        let progress: @Sendable (ApplyOutcome) -> Void = { outcome in
            guard showsProgress else { return }
            console.write("\(outcome.status.rawValue): \(outcome.action) on \(outcome.item)\n", to: .error)
        }
        let report = await Applier(registry: registry).apply(
            plan, unfinished: unfinished, reader: client, writer: client, journal: store, run: run.id,
            now: { frozenNow ?? Date() }, scheduleNow: { frozenNow ?? Date() }, activity: history, facts: facts,
            progress: progress)
        if shows { console.write(ApplyReportRenderer.text(report), to: .output) }
        let outcome = outcome(of: report, plan: plan)
        let code: BotExitCode
        switch outcome {
        case .success(let success): code = success
        case .failure(let failure): code = failure.code
        }
        await finish(run.id, code: code)
        return (try outcome.get(), report)
    }

    /// Records that `command` starts applying and answers what earlier runs left unfinished.
    private func begin(
        _ command: String
    ) async throws(CommandFailure) -> (
        run: RunRecord, unfinished: [UnfinishedAction]
    ) {
        let run = RunRecord(id: UUID().uuidString, command: command, startedAt: Date())
        do {
            try await store.beginRun(run)
            return (run, try await store.unfinishedActions())
        } catch {
            throw CommandFailure("\(error)", code: .ioError)
        }
    }

    /// Records how the run ended and drops what retention lets go; a failure here is a warning,
    /// since every write of the run is already on record.
    private func finish(_ run: String, code: BotExitCode) async {
        let now = Date()
        do {
            try await store.finishRun(id: run, at: now, exitCode: code.rawValue)
            try await store.prune(resultsBefore: now.addingTimeInterval(-settings.retention))
        } catch {
            console.write("warning: \(error)\n", to: .error)
        }
    }

    /// The exit code of an applied plan, or the failure that stopped it.
    private func outcome(of report: ApplyReport, plan: Plan) -> Result<BotExitCode, CommandFailure> {
        if let rejection = report.tokenRejection {
            return .failure(
                CommandFailure(
                    "stopped: the server turned the token away: \(rejection); check the token (GITBAY_TOKEN or "
                        + "--token-file): it may have been revoked or have expired", code: .failure))
        }
        if let unreachable = report.unreachable {
            return .failure(
                CommandFailure(
                    "stopped: " + CommandFailure.unreachable(client.configuration.baseURL, unreachable)
                        + "; nothing was sent after it, and the next run finishes the rest", code: .unavailable))
        }
        if let failure = report.journalFailure {
            return .failure(
                CommandFailure(
                    "stopped: \(failure); nothing was sent after it, and the next run re-reads every item it touched",
                    code: .ioError))
        }
        if report.interrupted { return .success(control.stoppedCode) }
        if report.outcomes.contains(where: { $0.status == .failed && $0.retryLater }) {
            return .success(.temporaryFailure)
        }
        return .success(report.isComplete && plan.guards.isEmpty ? .ok : .incomplete)
    }
}

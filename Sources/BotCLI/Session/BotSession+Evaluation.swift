import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import RuleEngine

/// The one sequence of every command's work, from its options to its last write: open, guards,
/// read, plan, render through the command's ``PlanPort``, apply, settle.
///
/// Commands parse their options, call one of these and report; a `watch` pass takes the same
/// ``judge(_:reading:now:)`` step, and its write drain the same ``execute(_:command:frozenNow:activity:facts:shows:)``.
extension BotSession {
    /// What an evaluating command's work came to.
    struct Evaluation {
        var settings: Settings
        var rules: [Rule]
        var plan: Plan
        /// The session it was read and applied through; `nil` offline.
        var session: BotSession?
        /// The exit code and report of applying the plan, when it was applied.
        var applied: (code: BotExitCode, report: ApplyReport)?
    }

    /// Does the work of `run` and `plan`: the settings and the rules, the forge state from the
    /// snapshot or a session on the server, the plan, shown through `port`, then, when
    /// `applying` names the command, applied and settled.
    static func evaluate(
        _ planning: PlanningRun, applying command: String?, port: some PlanPort
    ) async throws(CommandFailure) -> Evaluation {
        let settings = try planning.settings()
        let rules = try planning.loadRules(settings)
        if let path = planning.input.snapshot {
            let state = try planning.snapshotState(path, settings: settings)
            // The repositories' own rules as the snapshot recorded their files (`rule_files`).
            let repositoryRules = await repositoryRules(in: state, beside: rules, settings, planning.registry)
            var plan = Evaluator(registry: planning.registry, options: settings.evaluationOptions).plan(
                rules: rules + repositoryRules.rules, state: state, source: "snapshot:\(path)")
            repositoryRules.note(on: &plan)
            port.show(plan, session: nil)
            return Evaluation(settings: settings, rules: rules, plan: plan)
        }
        let session = try await open(
            settings, access: command == nil ? .readOnly : .readWrite,
            stateUse: command == nil ? .planning : .applying, context: planning.context)
        let input = planning.input
        return try await session.closing { () async throws(CommandFailure) -> Evaluation in
            let judged = try await session.judging {
                try await session.judge(
                    rules, reading: .run(readAll: input.readAll, noCache: input.noCache),
                    now: input.now?.date ?? Date())
            }
            if input.verbose { session.sayReads(judged.report) }
            port.show(judged.plan, session: session)
            var evaluation = Evaluation(settings: settings, rules: rules, plan: judged.plan, session: session)
            if let command {
                evaluation.applied = try await session.execute(
                    judged.plan, command: command, frozenNow: input.now != nil ? judged.plan.evaluatedAt : nil,
                    activity: ActivityHistory(of: judged.state))
                await session.markBrokenRuleFiles(judged.repositoryRules, in: judged.state)
                await session.previewRuleProposals(judged.state, current: judged.repositoryRules, operatorRules: rules)
            }
            return evaluation
        }
    }

    /// Does the work of `explain`: the settings and the rules, the item read whole (from the
    /// snapshot, or through a session that plans), and why each rule does or does not act on it;
    /// `nil` when `item` is not among what was read.
    static func explain(
        _ item: ItemReference, planning: PlanningRun
    ) async throws(CommandFailure) -> (explanation: Explanation?, source: String) {
        let settings = try planning.settings()
        let rules = try planning.loadRules(settings)
        let state: ForgeState
        let source: String
        if let path = planning.input.snapshot {
            (state, source) = (try planning.snapshotState(path, settings: settings), "snapshot:\(path)")
        } else {
            // A preview's session: the state database's kept feed and journal say who did what to
            // the item, so `quiet` and `label_age` explain as the run judged them.
            let session = try await open(settings, access: .readOnly, stateUse: .planning, context: planning.context)
            let now = planning.input.now?.date ?? Date()
            state = try await session.closing { () async throws(CommandFailure) -> ForgeState in
                try await session.judging {
                    try await session.read(rules, reading: .item(item), guards: settings.evaluationOptions, now: now)
                        .state
                }
            }
            source = session.client.configuration.baseURL.absoluteString
        }
        // The item's repository's own rules, as the read (or the snapshot) recorded its file.
        let repositoryRules = await repositoryRules(in: state, beside: rules, settings, planning.registry)
        let evaluator = Evaluator(registry: planning.registry, options: settings.evaluationOptions)
        return (
            evaluator.explanation(of: item, rules: rules + repositoryRules.rules, state: state, source: source), source
        )
    }

    /// Does the work of `apply`: a session as the account `plan` was made for, and the plan
    /// applied and settled.
    static func apply(
        _ plan: Plan, settings: Settings, context: CommandContext
    ) async throws(CommandFailure) -> BotExitCode {
        let client = try ForgeConnection.client(
            settings, access: .readWrite, console: context.console, control: context.control)
        let session = try await open(
            settings, client: client, planFor: plan.me, stateUse: .applying, registry: context.registry,
            control: context.control, console: context.console)
        return try await session.closing { () async throws(CommandFailure) -> BotExitCode in
            try await session.execute(plan, command: "apply").code
        }
    }

    /// The guards, the read `reading` asks for at `now`, and the plan of `rules` on what it read,
    /// with that state and what the read took.
    ///
    /// The rules of the repositories' own files the read took (``RuleEngine/RepositoryRules``)
    /// are planned with the operator's, and answered for the status step; a repository whose file
    /// has an error is a note of the plan.
    func judge(
        _ rules: [Rule], reading: CommandReading, now: Date
    ) async throws -> (
        plan: Plan, state: ForgeState, report: ReadPlanner.Report, repositoryRules: RepositoryRules
    ) {
        let guards = await guards()
        let (state, report) = try await read(rules, reading: reading, guards: guards, now: now)
        let repositoryRules = await Self.repositoryRules(in: state, beside: rules, settings, registry)
        var plan = plan(rules + repositoryRules.rules, state: state, only: reading.targets, guards: guards)
        repositoryRules.note(on: &plan)
        let previews = await previewNotes(state)
        if !previews.isEmpty { plan.notes = (plan.notes ?? []) + previews }
        return (plan, state, report, repositoryRules)
    }

    /// Sets the failing `gitbay-bot/rules` status where a repository's file in `rules` has an error,
    /// and a passing one where a file that had one at the last status step is mended.
    ///
    /// Each goes on the tip that does not carry it yet (``RuleEngine/RuleFileStatuses``) and is
    /// said on stderr; a failure is a warning, since the run's own writes are done and on record.
    /// A run that was stopped sends none.
    func markBrokenRuleFiles(_ rules: RepositoryRules, in state: ForgeState) async {
        guard settings.repositoryRules.reads, control.stopSignal == nil, !Task.isCancelled else { return }
        do {
            let (sent, refused, left) = try await RuleFileStatuses.settle(
                rules, state: state, reader: client, writer: client, memory: store)
            var text = ""
            for status in sent {
                text +=
                    "status: \(status.context) \(status.state.rawValue) on \(status.repository) \(status.sha.prefix(7)): "
                    + "\(status.description)\n"
            }
            for (status, reason) in refused {
                text += "warning: \(status.context) on \(status.repository) refused: \(reason)\n"
            }
            if left > 0 { text += "note: \(left) more \(RuleFileStatuses.context) statuses wait for the next runs\n" }
            console.write(text, to: .error)
        } catch {
            console.write("warning: \(RuleFileStatuses.context) statuses not set: \(error)\n", to: .error)
        }
    }

    /// The repositories' own rules as `state` recorded their files, beside the operator's `rules`;
    /// none when `repository_rules: read: false` (a snapshot may still carry the files).
    static func repositoryRules(
        in state: ForgeState, beside rules: [Rule], _ settings: Settings, _ registry: PluginRegistry
    ) async -> RepositoryRules {
        guard settings.repositoryRules.reads else { return RepositoryRules() }
        return await RepositoryRules.load(
            state, policy: settings.repositoryRules, registry: registry, operatorRules: rules)
    }

    /// A session on the server of `settings` for a command of `context`.
    private static func open(
        _ settings: Settings, access: GitbayClientConfiguration.Access, stateUse: StateUse, context: CommandContext
    ) async throws(CommandFailure) -> BotSession {
        try await open(
            settings,
            client: try ForgeConnection.client(
                settings, access: access, console: context.console, control: context.control),
            stateUse: stateUse, registry: context.registry, control: context.control, console: context.console)
    }

    /// What `body` answers, with the store closed after it however it ended: the state lock goes
    /// when the command's work is done, though the command keeps the session for its report.
    func closing<Value>(_ body: () async throws(CommandFailure) -> Value) async throws(CommandFailure) -> Value {
        do {
            let value = try await body()
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }

    /// What `body` judged, its failure the command's: the server's error by its URL.
    private func judging<Value>(_ body: () async throws -> Value) async throws(CommandFailure) -> Value {
        do {
            return try await body()
        } catch let error as GitbayError {
            throw CommandFailure(error, server: client.configuration.baseURL)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(error)", code: .failure)
        }
    }

    /// Says on stderr what the read took (`--verbose`).
    private func sayReads(_ report: ReadPlanner.Report) {
        var text = "reads:\n"
        for step in report.steps { text += "  \(step)\n" }
        let metrics = client.metrics
        text += "requests: \(metrics.reads) reads, \(metrics.retries) retries, "
        text += "\(metrics.rateLimitedResponses) rate-limited, waited \(metrics.totalWait.components.seconds) s\n"
        console.write(text, to: .error)
    }
}

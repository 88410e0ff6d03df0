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
    }

    /// Watches until cancelled (exit 130 or 143, by the signal the control recorded) or a failure
    /// that waiting cannot mend; the control's reloads load `reload()`'s rules.
    mutating func watch(reload: () throws(CommandFailure) -> [Rule]) async throws(CommandFailure) -> BotExitCode {
        guard let me = try await account() else { return control.stoppedCode }
        // A dry run keeps its cache and feed position in the account's database without its lock,
        // as `plan` does: only forge writes are forbidden.
        let session = try await BotSession.open(
            settings, client: client, account: me, stateUse: dryRun ? .planning : .applying, registry: registry,
            control: control, console: console)
        var position = try await readPosition(session.store)
        var lastFull: Date?
        var failures = 0
        // What each probe (by the kind of event it raises) saw last; a full pass starts it afresh.
        var probed: [String: [String: String]] = [:]
        while !Task.isCancelled {
            if control.takeReload() {
                do {
                    rules = try reload()
                    note("rules reloaded: \(rules.count) rules")
                } catch {
                    note("the rules were not reloaded, the old ones stay: \(error.message)")
                }
            }
            do {
                let before = client.metrics.reads + client.metrics.writes
                var pass: Pass
                let due = lastFull.map { Date().timeIntervalSince($0) >= fullEvery } ?? true
                let poll = due ? nil : try await FeedPoll.read(after: position, reader: client)
                if let poll, !poll.gap {
                    let unannounced = try await probe(&probed, ownEvents: poll.events.filter { $0.actor == me })
                    let targets = WatchTargets.of(
                        poll.events + unannounced, me: me, kinds: rules.map(\.kind), registry: registry)
                    pass = Pass(kind: targets.isEmpty ? "idle" : "events", events: poll.events.count)
                    pass.ownEvents = targets.ownEvents
                    pass.unannounced = unannounced.count
                    if !targets.isEmpty {
                        try await act(on: targets, in: session, pass: &pass)
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
                    try await act(on: nil, in: session, pass: &pass)
                    position = start ?? position
                    lastFull = Date()
                }
                if let position { try await record(position, in: session.store) }
                pass.requests = client.metrics.reads + client.metrics.writes - before
                report(pass)
                failures = 0
            } catch let failure as CommandFailure {
                throw failure
            } catch  where Task.isCancelled {
                break
            } catch let error as GitbayError {
                guard Self.isTransient(error) else { throw CommandFailure(error) }
                failures += 1
                let pause = pause(after: failures)
                note("pass failed, trying again in \(Int(pause)) s: \(error)")
                guard await sleep(pause) else { break }
                continue
            } catch {
                throw CommandFailure("\(error)", code: .failure)
            }
            guard await sleep(interval) else { break }
        }
        return control.stoppedCode
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
                guard Self.isTransient(error) else { throw CommandFailure(error) }
                failures += 1
                let pause = pause(after: failures)
                note("the server did not answer, trying again in \(Int(pause)) s: \(error)")
                guard await sleep(pause) else { return nil }
            }
        }
        return nil
    }

    /// The pause after `failures` transient failures in a row: the interval, doubling, at most
    /// ``longestPause``.
    private func pause(after failures: Int) -> TimeInterval {
        min(Self.longestPause, interval * pow(2, Double(min(failures, 10) - 1)))
    }

    /// Reads, plans and (unless a dry run) applies one pass: everything, or only `targets`.
    private func act(on targets: WatchTargets?, in session: BotSession, pass: inout Pass) async throws {
        let passRules = targets.map { $0.scoped(rules) } ?? rules
        pass.items = targets?.items.count ?? 0
        guard !passRules.isEmpty else { return }
        let (state, report) = try await session.read(
            passRules, now: Date(), guards: settings.evaluationOptions, only: targets)
        if verbose {
            console.write(report.steps.map { "  \($0)\n" }.joined(), to: .error)
        }
        let plan = session.plan(passRules, state: state, only: targets)
        pass.actions = plan.pendingCommandCount
        guard !dryRun, plan.pendingCommandCount > 0 else { return }
        let (run, applied) = try await session.apply(plan, command: "watch")
        pass.applied = applied.outcomes.filter { $0.status == .applied }.count
        pass.failed = applied.outcomes.filter { $0.status == .failed }.count
        _ = try await session.settle(applied, plan: plan, run: run)
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

    /// Whether waiting can mend `error`: the server busy or limiting, the network or the server
    /// gone for a while, an answer cut short.
    static func isTransient(_ error: GitbayError) -> Bool {
        switch error.kind {
        case .rateLimited, .busy, .serverError, .transport, .malformedResponse: return true
        default: return false
        }
    }

    /// One line per pass: text for people, JSON lines for log shippers.
    private func report(_ pass: Pass) {
        let at = GitbayTimestamp.format(Date(), precision: .seconds)
        if json {
            let fields: [String: Any] = [
                "at": at, "pass": pass.kind, "events": pass.events, "own_events": pass.ownEvents,
                "unannounced": pass.unannounced,
                "items": pass.items, "requests": pass.requests, "actions": pass.actions, "applied": pass.applied,
                "failed": pass.failed,
            ]
            let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
            console.write(String(decoding: data, as: UTF8.self) + "\n", to: .output)
        } else {
            console.write(
                "\(at) \(pass.kind) pass: \(pass.events) events (\(pass.ownEvents) own), "
                    + "\(pass.unannounced) unannounced changes, \(pass.items) items, "
                    + "\(pass.requests) requests, \(pass.actions) actions, \(pass.applied) applied"
                    + (pass.failed > 0 ? ", \(pass.failed) failed" : "") + "\n", to: .output)
        }
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

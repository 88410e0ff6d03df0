import Foundation
import GitbayTestSupport
import Testing

@testable import BotCLI

/// Twenty open issues nobody has triaged, and a stale one whose last word is the bot's.
private let busyForge: String = {
    let stamp = "\"created_at\": \"2025-01-01T00:00:00.000Z\", \"updated_at\": \"2025-01-02T00:00:00.000Z\""
    let untriaged = (1...20).map { number in
        "{\"number\": \(number), \"title\": \"bug \(number)\", \"state\": \"open\", \"author\": \"alice\", \(stamp)}"
    }
    let stale =
        "{\"number\": 21, \"title\": \"old bug\", \"state\": \"open\", \"author\": \"alice\", "
        + "\"labels\": [\"stale\", \"triaged\"], \(stamp), \"comments\": [{\"author\": \"triage-bot\", "
        + "\"body\": \"stale notice\", \"kind\": \"comment\", \"created_at\": \"2025-01-02T00:00:00.000Z\"}]}"
    return """
        {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
         "users": ["triage-bot", "alice"],
         "repos": [{"path": "krz/app", "default_branch": "main", "branches": {"main": "\(sha("1"))"},
           "labels": [{"name": "stale"}, {"name": "triaged"}],
           "issues": [\((untriaged + [stale]).joined(separator: ",\n"))]}]}
        """
}()

/// A rule with twenty writes due at once (past the tripwire: the test's watchers run with
/// `--force`), and the shipped `unmark-stale`.
private let busyRules =
    """
      - name: triage
        on: issues
        when:
          - state = open
          - not labels has triaged
        do:
          - add-label: triaged
    """ + "\n" + unmarkStaleRule

/// A merge request whose branch was pushed again: three pending builds of its old head, each
/// superseded by the same job's build of the new one.
private let supersededForge = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [{"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(sha("1"))", "feat": "\(sha("d"))"},
       "merge_requests": [{"number": 1, "title": "feature", "state": "open", "author": "alice", "source": "feat",
          "target_ref": "main", "head_sha": "\(sha("d"))", "created_at": "2025-01-01T00:00:00.000Z"}],
       "builds": [
         {"number": 1, "job": "test", "status": "pending", "sha": "\(sha("c"))", "ref": "feat",
          "created_at": "2025-01-01T00:00:00Z"},
         {"number": 2, "job": "lint", "status": "pending", "sha": "\(sha("c"))", "ref": "feat",
          "created_at": "2025-01-01T00:00:00Z"},
         {"number": 3, "job": "docs", "status": "pending", "sha": "\(sha("c"))", "ref": "feat",
          "created_at": "2025-01-01T00:00:00Z"},
         {"number": 4, "job": "test", "status": "pending", "sha": "\(sha("d"))", "ref": "feat",
          "created_at": "2025-01-02T00:00:00Z"},
         {"number": 5, "job": "lint", "status": "pending", "sha": "\(sha("d"))", "ref": "feat",
          "created_at": "2025-01-02T00:00:00Z"},
         {"number": 6, "job": "docs", "status": "pending", "sha": "\(sha("d"))", "ref": "feat",
          "created_at": "2025-01-02T00:00:00Z"}]}]}
    """

/// The argv of every write the bot's account applied, in order.
private func botWrites(_ simulator: SimulatorProcess) throws -> [String] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot" }
        .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
}

/// The write queue of `watch`: passes read and judge while gitbay's write budget drains what
/// they handed over, an answer to a person goes ahead of the backlog, and a stop or a restart
/// loses and doubles nothing.
@Suite struct WatchWriteQueueTests {
    private let options =
        ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"] + ForgeActivity.simulatorOptions

    /// The write queue sends a pass's entries one at a time, but their re-checks read a
    /// repository's facts once, as applying the pass's plan at once would: three cancels of one
    /// repository cost one reading of its branch tips, not three.
    @Test func thePassesEntriesSentOneAtATimeReadTheirRepositorysFactsOnce() async throws {
        try await SimulatorProcess.run(state: supersededForge, options: options) { simulator in
            let watcher = ClockedWatcher(
                simulator, rules: try scopedRuleFolder(cancelSupersededRule), state: BotState(), ["--force"])
            #expect(try await watcher.nextWait() == .seconds(30))
            let cancelled = try await eventually(within: 60) { try botWrites(simulator).count == 3 }
            #expect(cancelled, "\((try? botWrites(simulator)) ?? [])")
            #expect(await watcher.stop() == 130)
            let commands = try await simulator.stats()["commands"] as? [String: Int] ?? [:]
            // Once for the pass's plan, once for the three re-checks before the cancels.
            #expect(commands["repo refs"] == 2, "\(commands)")
        }
    }

    /// A comment made while a paced backlog drains is answered ahead of it.
    ///
    /// At `--rate-limit 120` the bot sends 12 writes a minute after a burst of 12, as gitbay allows
    /// (`RateLimits.writesPerMinute`): the full pass's 20 writes take over 40 s. The comment is read,
    /// judged and answered before the backlog's 13th write is through, waiting at most for the
    /// write in flight.
    @Test func anEventsPassIsJudgedAndAnsweredAheadOfAPacedBacklog() async throws {
        try await SimulatorProcess.run(state: busyForge, options: options) { simulator in
            let state = BotState()
            let watcher = ClockedWatcher(
                simulator, rules: try scopedRuleFolder(busyRules), rateLimit: 120, state: state, ["--force"])
            #expect(try await watcher.nextWait() == .seconds(30))
            #expect(watcher.passes == ["full"])
            let full = try #require(watcher.lines.first)
            #expect(full["actions"] as? Int == 20, "\(full)")
            #expect((full["waiting"] as? Int ?? 0) > 0, "the pass ended before its writes: \(full)")

            let commented = try await simulator.write(
                ["issue", "comment", "krz/app", "21", "--message", "still broken"], token: ForgeActivity.personToken)
            #expect(commented == 200)
            watcher.clock.advance(to: .seconds(30))
            #expect(try await watcher.nextWait() == .seconds(60))
            #expect(watcher.passes == ["full", "events"])
            let sentBeforeJudged = try botWrites(simulator).count
            #expect(sentBeforeJudged < 20, "the events pass waited for the backlog: \(sentBeforeJudged) writes")

            let unmark = "issue label krz/app 21 --remove stale"
            let answered = try await eventually(within: 60) { try botWrites(simulator).contains(unmark) }
            #expect(answered)
            let writes = try botWrites(simulator)
            let position = try #require(writes.firstIndex(of: unmark))
            #expect(position <= sentBeforeJudged + 1, "ahead of the backlog but for the write in flight: \(writes)")
            #expect(writes.count < 21, "the backlog was still draining: \(writes)")
            #expect(await watcher.stop() == 130)

            // Stopped with the backlog unsent; nothing was sent after the stop, and nothing twice.
            let stopped = try botWrites(simulator)
            #expect(Set(stopped).count == stopped.count, "\(stopped)")
            let journaled = try await state.commands(server: simulator.baseURL, outcome: "applied")
            #expect(journaled.sorted() == stopped.sorted(), "the journal holds exactly what gitbay applied")
            // At most the write that waited for the budget when the stop came is on record as not sent.
            let notSent = try await state.commands(server: simulator.baseURL, outcome: "not-sent")
            #expect(notSent.count <= 1, "\(notSent)")

            // A watcher started again judges the rest afresh in its full pass, and doubles nothing.
            let again = ClockedWatcher(
                simulator, rules: try scopedRuleFolder(busyRules), rateLimit: 120, state: state, ["--force"])
            #expect(try await again.nextWait() == .seconds(30))
            let finished = try await eventually(within: 60) { try botWrites(simulator).count == 21 }
            let all = try botWrites(simulator)
            #expect(finished, "\(all)")
            #expect(Set(all).count == all.count, "\(all)")
            #expect(all.filter { $0.hasPrefix("issue label krz/app") && $0.hasSuffix("--add triaged") }.count == 20)
            #expect(await again.stop() == 130)
        }
    }
}

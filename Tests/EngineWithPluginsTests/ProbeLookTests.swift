import Foundation
import GitbayKit
import RuleEngine
import Testing

/// What a probe's look raises: moved versions, less the moves the bot's own writes explain.
@Suite struct ProbeLookTests {
    private func event(
        _ number: Int, kind: String = "mr.updated", actor: String? = nil, at seconds: Double
    ) throws -> FeedEvent {
        FeedEvent(
            id: 0, repo: try RepositoryPath("krz/app"), actor: actor, kind: kind, number: number,
            createdAt: Date(timeIntervalSince1970: seconds))
    }

    private func look(_ versions: [Int: Double]) throws -> ProbeLook {
        ProbeLook(
            entries: try versions.sorted { $0.key < $1.key }.map { number, time in
                ProbeLook.Entry(key: "krz/app!\(number)", version: "\(time)", event: try event(number, at: time))
            })
    }

    @Test func movedAndNewKeysRaiseTheirEventsAndGoneOnesNothing() throws {
        let before = try look([1: 10, 2: 10, 3: 10]).versions
        let now = try look([1: 10, 2: 20, 4: 30])
        #expect(now.changes(since: before).map(\.number) == [2, 4])
        #expect(now.changes(since: now.versions).isEmpty)
    }

    @Test func aMoveTheBotsOwnWriteExplainsRaisesNothingALaterOneDoes() throws {
        let before = try look([1: 10, 2: 10]).versions
        let now = try look([1: 20, 2: 25])
        let own = [
            try event(1, kind: "mr.draft", actor: "triage-bot", at: 20),
            // The bot wrote !2 at 22, and someone pushed to it at 25: that push counts.
            try event(2, kind: "mr.draft", actor: "triage-bot", at: 22),
            // An own event on an issue of the same number explains nothing about a merge request.
            try event(1, kind: "issue.labeled", actor: "triage-bot", at: 30),
        ]
        #expect(now.changes(since: before, ownEvents: own).map(\.number) == [2])
        #expect(now.changes(since: before, ownEvents: Array(own.suffix(1))).map(\.number) == [1, 2])
    }
}

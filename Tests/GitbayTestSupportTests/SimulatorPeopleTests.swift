import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Testing

/// The helpers a journey test acts as people with, against a running simulator: an author who may
/// only read pushes a new head after a writer's `/merge`, and a writer's grant is taken away.
@Suite struct SimulatorPeopleTests {
    private static func sha(_ digit: Character) -> String { String(repeating: digit, count: 40) }

    /// `bob` authored !1 and may only read; `alice` may write; the bot administers the repository.
    private static let forge = """
        {"format": "gitbay-forge-state/1", "now": "2026-12-01T09:00:00.000Z", "me": "triage-bot",
         "users": ["triage-bot", "alice", "bob"],
         "repos": [{"path": "krz/app", "default_branch": "main",
           "branches": {"main": "\(sha("1"))", "feat": "\(sha("2"))"},
           "access": ["triage-bot", {"user": "alice", "role": "write"}, {"user": "bob", "role": "read"}],
           "merge_requests": [{"number": 1, "title": "Bump the parser", "state": "open", "draft": true,
                               "author": "bob", "source": "feat", "target_ref": "main", "head_sha": "\(sha("2"))",
                               "created_at": "2026-12-01T08:00:00.000Z"}]}]}
        """
    private static let aliceToken = "gb_" + String(repeating: "a", count: 64)
    private static let options = ["--clock", "frozen", "--user-token", "alice=\(aliceToken)"]

    @Test func anAuthorsPushAfterAWritersMergeCommentIsAnotherHead() async throws {
        try await SimulatorProcess.run(state: Self.forge, options: Self.options) { simulator in
            let repository = try RepositoryPath("krz/app")
            let queued = ["mr", "merge", "krz/app", "1", "--when-ready"]
            #expect(try await simulator.write(queued, token: Self.aliceToken) == 200, "a draft: stays queued")
            let comment = ["mr", "comment", "krz/app", "1", "--message", "/merge"]
            #expect(try await simulator.write(comment, token: Self.aliceToken) == 200)

            let branch = try await simulator.pushNewHead(
                Self.sha("3"), toMergeRequest: 1, of: "krz/app", by: "bob", advancing: 30)
            #expect(branch == "feat")

            let client = try simulator.client()
            let shown = try await client.send(try MergeRequestShowCommand(repository: repository, number: 1))
            let revisions = try await client.send(try MergeRequestRevisionsCommand(repository: repository, number: 1))
            #expect(revisions.map(\.sha) == [Self.sha("2"), Self.sha("3")])
            #expect(revisions.map(\.isCurrent) == [false, true])
            let written = try #require(shown.comments.first { $0.body == "/merge" })
            let seen = MergeRequestRevision.head(at: written.createdAt, in: revisions)
            #expect(seen == .known(sha: Self.sha("2"), revision: 1))
            #expect(shown.headSHA == Self.sha("3") && !seen.isKnown(toBe: shown.headSHA), "the bot must refuse")
            // bob may not write, so his push takes the queued merge away (mergequeue.go QueuedMergePushed).
            #expect(shown.queued == nil)
            #expect(
                shown.comments.last?.body
                    == "dequeued the merge queued by alice: bob pushed and cannot merge into krz/app")
        }
    }

    @Test func aRevokedWriterLosesTheGrantAndASecondRevokeIsRefused() async throws {
        try await SimulatorProcess.run(state: Self.forge, options: Self.options) { simulator in
            let repository = try RepositoryPath("krz/app")
            let before = try await simulator.client().send(RepoAccessListCommand(repository: repository))
            #expect(before.contains(AccessGrant(user: "alice", role: "write", source: "direct")))

            try await simulator.revokeAccess(of: "alice", on: "krz/app")
            let after = try await simulator.client().send(RepoAccessListCommand(repository: repository))
            #expect(!after.contains { $0.user == "alice" }, "\(after)")

            await #expect {
                try await simulator.revokeAccess(of: "alice", on: "krz/app")
            } throws: { error in
                let refusal = error as? SimulatorRefusal
                return refusal?.exitCode == 3 && refusal?.message == "alice has no grant on krz/app"
            }
            await #expect(throws: SimulatorRefusal.self, "alice administers nothing") {
                try await simulator.revokeAccess(of: "bob", on: "krz/app", token: Self.aliceToken)
            }
            await #expect(throws: SimulatorRefusal.self, "a fork's or unknown merge request has no branch here") {
                try await simulator.pushNewHead(Self.sha("4"), toMergeRequest: 9, of: "krz/app", by: "bob")
            }
        }
    }
}

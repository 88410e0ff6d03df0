import Foundation
import GitbayKit
import Testing

/// `mr revisions` decoded from gitbay's wire shape (`internal/control/mr.go`, `RevisionOut`), and the
/// head a merge request had when a comment was written, read from it.
@Suite struct MergeRequestRevisionTests {
    private func date(_ text: String) throws -> Date {
        try #require(GitbayTimestamp.parse(text))
    }

    private func fixtureRevisions() throws -> [MergeRequestRevision] {
        let envelope = try JSONDecoder().decode(
            Envelope<[MergeRequestRevision]>.self, from: Fixtures.data("mr-revisions"))
        #expect(envelope.exitCode == 0)
        return try #require(envelope.data)
    }

    @Test func theFixtureDecodesOldestFirstWithTheOpeningHeadWithoutABase() throws {
        let revisions = try fixtureRevisions()
        #expect(revisions.map(\.number) == [1, 2, 3])
        #expect(revisions[0].sha == "5d8c2a1f0e9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d")
        #expect(revisions[0].baseSHA == nil, "CreateMR records the opening head without a base")
        #expect(revisions[0].createdAt == (try date("2026-09-02T09:30:12.411Z")))
        #expect(revisions[1].baseSHA == "4b1d0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c")
        #expect(revisions.map(\.isCurrent) == [false, false, true])
        let apart = revisions[2].createdAt.timeIntervalSince(revisions[1].createdAt)
        #expect(abs(apart - 45.875) < 0.000_5, "milliseconds kept: \(apart)")
    }

    @Test func emptyBaseAndAbsentFlagsReadAsNoneAndAreLeftOutAgain() throws {
        let json = #"{"n": 1, "sha": "abc", "base_sha": "", "created_at": "2026-09-02T09:30:12.411Z"}"#
        let revision = try JSONDecoder().decode(MergeRequestRevision.self, from: Data(json.utf8))
        #expect(revision.baseSHA == nil && !revision.isCurrent)
        let encoded = String(decoding: try GitbayJSON.encoder().encode(revision), as: UTF8.self)
        #expect(!encoded.contains("base_sha") && !encoded.contains("current"), "\(encoded)")
        #expect(encoded.contains(#""created_at":"2026-09-02T09:30:12.411Z""#), "\(encoded)")
    }

    @Test func theCommandReadsAndANullReplyIsNoRevision() throws {
        let command = try MergeRequestRevisionsCommand(repository: RepositoryPath("krz/gitbay"), number: 160)
        #expect(command.control.effect == .read)
        #expect(MergeRequestRevisionsCommand.emptyResponse == [])
        #expect(throws: GitbayCommandError.self) {
            try MergeRequestRevisionsCommand(repository: RepositoryPath("krz/gitbay"), number: 0)
        }
    }

    @Test func aCommentWellAfterAPushSawThatPushsHead() throws {
        let revisions = try fixtureRevisions()
        let head = MergeRequestRevision.head(at: try date("2026-09-02T11:06:00.000Z"), in: revisions)
        #expect(head == .known(sha: "9f2c4e1a7b3d5c6e8f90a1b2c3d4e5f6a7b8c9d0", revision: 3))
        #expect(head.isKnown(toBe: "9f2c4e1a7b3d5c6e8f90a1b2c3d4e5f6a7b8c9d0"))
        let between = MergeRequestRevision.head(at: try date("2026-09-02T11:05:00.000Z"), in: revisions)
        #expect(between == .known(sha: "7e0a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a", revision: 2))
        #expect(!between.isKnown(toBe: "9f2c4e1a7b3d5c6e8f90a1b2c3d4e5f6a7b8c9d0"), "the author pushed since")
    }

    @Test(arguments: [
        ("2026-09-02T11:05:40.907Z", 3),  // the same millisecond
        ("2026-09-02T11:05:41.906Z", 3),  // within the second after the push
        ("2026-09-02T11:05:40.100Z", 3),  // just before it: the ref may already have moved
        ("2026-09-02T11:04:54.500Z", 2),
        ("2026-09-02T09:30:12.900Z", 1),  // right after the merge request was opened
    ])
    func aPushAndACommentInTheSameSecondAreNeverOrdered(comment: String, revision: Int) throws {
        let head = MergeRequestRevision.head(at: try date(comment), in: try fixtureRevisions())
        #expect(head == .unknown(.recordedTooClose(revision: revision)))
        #expect(head.sha == nil)
    }

    @Test func theMarginIsTheCallersAndNeverNegative() throws {
        let moment = try date("2026-09-02T11:05:42.000Z")
        let revisions = try fixtureRevisions()
        #expect(MergeRequestRevision.head(at: moment, in: revisions).sha != nil, "1.093 s after the push")
        #expect(
            MergeRequestRevision.head(at: moment, in: revisions, margin: 2) == .unknown(.recordedTooClose(revision: 3)))
        let exact = try date("2026-09-02T11:05:40.907Z")
        #expect(
            MergeRequestRevision.head(at: exact, in: revisions, margin: -5) == .unknown(.recordedTooClose(revision: 3)))
    }

    @Test func withoutARecordBeforeTheCommentTheHeadIsUnknown() throws {
        let revisions = try fixtureRevisions()
        #expect(
            MergeRequestRevision.head(at: try date("2026-09-01T00:00:00Z"), in: revisions)
                == .unknown(.beforeFirstRevision))
        #expect(MergeRequestRevision.head(at: try date("2026-09-03T00:00:00Z"), in: []) == .unknown(.noRevisions))
        var backwards = revisions
        backwards[1].createdAt = try date("2026-09-01T00:00:00Z")
        #expect(MergeRequestRevision.head(at: try date("2026-09-03T00:00:00Z"), in: backwards) == .unknown(.outOfOrder))
    }

    @Test func aHeadPushedBackIsKnownByItsNewestRevision() throws {
        let first = try date("2026-09-02T09:00:00.000Z")
        let revisions = [
            MergeRequestRevision(number: 1, sha: "aaa", createdAt: first, isCurrent: true),
            MergeRequestRevision(number: 2, sha: "bbb", createdAt: first.addingTimeInterval(60)),
            MergeRequestRevision(number: 3, sha: "aaa", createdAt: first.addingTimeInterval(120), isCurrent: true),
        ]
        #expect(
            MergeRequestRevision.head(at: first.addingTimeInterval(90), in: revisions)
                == .known(sha: "bbb", revision: 2))
        #expect(
            MergeRequestRevision.head(at: first.addingTimeInterval(180), in: revisions)
                == .known(sha: "aaa", revision: 3))
    }
}

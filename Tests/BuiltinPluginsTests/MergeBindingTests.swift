import BuiltinPlugins
import Foundation
import GitbayKit
import MergeRequestsPlugin
import Testing

@testable import RuleEngine

/// A `/merge` is bound to the head its comment was written on (`mr revisions`): the plan merges
/// that head only, and refuses, saying why, when the head moved or the revisions cannot tell.
@Suite struct MergeBindingTests {
    static let rules = """
        scope: repo:krz/gitbay
        rules:
          - name: merge-command
            on: merge_requests
            command: /merge
            allowed: [writers]
            when: [state = open]
            do: [merge]
        """

    /// The comment's time: an hour ago.
    let asked = Fixtures.now.addingTimeInterval(-3_600)

    /// The plan of `/merge` by maria an hour ago on a merge request whose head is `head`, with `revisions`.
    func plan(head: String, revisions: [MergeRequestRevision]) throws -> Plan {
        let loaded = RuleSet.load(
            files: [(path: "rules.yml", bytes: Array(Self.rules.utf8))], registry: Fixtures.registry)
        let comment = GitbayKit.Comment(author: "maria", body: "/merge", createdAt: asked, kind: .comment, id: 40)
        let mr = Fixtures.mergeRequest(draft: false, headSHA: head, comments: [comment])
        let known = Set(Fixtures.registry.needs)
        var repository = RepositoryState(path: Fixtures.path, defaultBranch: "main", known: known)
        repository.mergeRequests = [MergeRequestRecord(mergeRequest: mr, known: known, revisions: revisions)]
        repository.writers = CommandWriters(accounts: ["maria"], source: .gitbay)
        let state = ForgeState(now: Fixtures.now, me: Fixtures.me, repositories: [repository])
        return Evaluator(registry: Fixtures.registry).plan(rules: loaded.rules, state: state, source: "test")
    }

    func revision(_ number: Int, _ sha: String, secondsAfterComment: TimeInterval) -> MergeRequestRevision {
        MergeRequestRevision(number: number, sha: sha, createdAt: asked.addingTimeInterval(secondsAfterComment))
    }

    /// The reply the plan sends, or `nil` when it merges.
    func reply(_ plan: Plan) -> String? {
        plan.entries.flatMap(\.actions).first { $0.action == "comment" }?.command?.stdin
    }

    @Test func theHeadTheCommandWasGivenOnIsMerged() throws {
        let plan = try plan(
            head: Fixtures.sha("a"), revisions: [revision(1, Fixtures.sha("a"), secondsAfterComment: -86_400)])
        #expect(plan.entries.flatMap(\.actions).map(\.action) == ["merge", "react"], "\(plan.entries)")
    }

    @Test func aHeadPushedAfterTheCommandIsRefusedNamingBothHeads() throws {
        let plan = try plan(
            head: Fixtures.sha("b"),
            revisions: [
                revision(1, Fixtures.sha("a"), secondsAfterComment: -86_400),
                revision(2, Fixtures.sha("b"), secondsAfterComment: 60),
            ])
        #expect(!plan.entries.flatMap(\.actions).contains { $0.action == "merge" || $0.action == "react" })
        let text = try #require(reply(plan))
        #expect(
            text.hasPrefix(
                "@maria: `/merge` was not done: merge: !160's head moved after the command was given: it was "
                    + "aaaaaaaaaaaa (revision 1), it is bbbbbbbbbbbb, revision 2; give `/merge` again"), "\(text)")
    }

    /// Every doubt reads as another head: a push in the comment's second, a merge request whose
    /// history begins after the comment, no history at all.
    @Test func aHeadTheRevisionsCannotTellIsRefused() throws {
        let doubts: [([MergeRequestRevision], String)] = [
            (
                [
                    revision(1, Fixtures.sha("a"), secondsAfterComment: -86_400),
                    revision(2, Fixtures.sha("a"), secondsAfterComment: 0.4),
                ], "revision 2 was pushed within a second of the comment"
            ),
            (
                [revision(1, Fixtures.sha("a"), secondsAfterComment: 10)],
                "the comment is older than gitbay's record of its heads"
            ),
            ([], "gitbay lists no revisions of it"),
        ]
        for (revisions, why) in doubts {
            let plan = try plan(head: Fixtures.sha("a"), revisions: revisions)
            #expect(!plan.entries.flatMap(\.actions).contains { $0.action == "merge" })
            let text = try #require(reply(plan))
            #expect(text.contains("cannot tell which head of !160 the command was given on: \(why)"), "\(text)")
        }
    }

    /// An offline plan binds alike: the forge-state file's `revisions` of a merge request (as the
    /// simulator keeps them) say a push came after the comment, so the plan refuses the merge.
    @Test func aForgeStateFilesRevisionsBindTheMergeOffline() throws {
        let head3 = String(repeating: "3", count: 40)
        let head4 = String(repeating: "4", count: 40)
        func file(revisions: String) -> String {
            """
            {"format": "gitbay-forge-state/1", "now": "2026-12-02T12:00:00.000Z", "me": "bot",
             "repos": [{"path": "krz/gitbay", "access": ["bot", {"user": "maria", "role": "write"}],
               "merge_requests": [{"number": 3, "title": "t", "state": "open", "author": "bob", "source": "feat",
                 "target_ref": "main", "head_sha": "\(head4)", "created_at": "2026-11-30T09:00:00.000Z",
                 \(revisions)
                 "comments": [{"id": 9, "author": "maria", "body": "/merge",
                               "created_at": "2026-12-02T11:00:00.000Z"}]}]}]}
            """
        }
        let loaded = RuleSet.load(
            files: [(path: "rules.yml", bytes: Array(Self.rules.utf8))], registry: Fixtures.registry)
        func plan(_ json: String) throws -> Plan {
            var state = try ForgeStateFile.load(from: Data(json.utf8), registry: Fixtures.registry).forgeState()
            state.repositories[0].writers = CommandWriters(accounts: ["maria"], source: .gitbay)
            return Evaluator(registry: Fixtures.registry).plan(rules: loaded.rules, state: state, source: "test")
        }
        let pushed = try plan(
            file(
                revisions: """
                    "revisions": [{"sha": "\(head3)", "created_at": "2026-11-30T09:00:00.000Z"},
                                  {"sha": "\(head4)", "created_at": "2026-12-02T11:30:00.000Z"}],
                    """))
        #expect(reply(pushed)?.contains("it was 333333333333 (revision 1), it is 444444444444, revision 2") == true)
        let opened = try plan(file(revisions: ""))
        #expect(opened.entries.flatMap(\.actions).map(\.action) == ["merge", "react"], "\(opened.entries)")
    }
}

import BuildsPlugin
import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// A forge-state file's comments read offline as the bot reads them live: gitbay sends no `kind`
/// (`internal/control/thread.go` `commentOut`, `json:"-"`), so the author `system` alone marks a
/// system comment, whatever `kind` the file stores for the simulator.
@Suite struct StateFileCommentTests {
    private let file = """
        {"format": "gitbay-forge-state/1", "now": "2026-12-02T12:00:00.000Z", "me": "bot",
         "repos": [{"path": "krz/gitbay",
           "issues": [{"number": 1, "title": "t", "state": "open", "author": "bob",
             "created_at": "2026-11-30T09:00:00.000Z",
             "comments": [{"author": "system", "body": "referenced in commit", "created_at": "2026-12-01T00:00:00.000Z"},
                          {"author": "alice", "kind": "system", "body": "hm", "created_at": "2026-12-01T01:00:00.000Z"},
                          {"author": "bob", "body": "still broken", "created_at": "2026-12-01T02:00:00.000Z"}]}],
           "merge_requests": [{"number": 3, "title": "t", "state": "open", "author": "bob", "source": "feat",
             "target_ref": "main", "head_sha": "\(String(repeating: "4", count: 40))",
             "created_at": "2026-11-30T09:00:00.000Z",
             "comments": [{"author": "system", "kind": "system", "body": "retargeted from a to main: !2 merged",
                           "created_at": "2026-12-01T00:00:00.000Z"},
                          {"author": "alice", "kind": "comment", "body": "lgtm",
                           "created_at": "2026-12-01T01:00:00.000Z"}]}]}]}
        """

    @Test func theAuthorSystemAloneMarksASystemComment() throws {
        let state = try ForgeStateFile.load(from: Data(file.utf8), registry: Fixtures.registry).forgeState()
        let issue = try #require(state.repositories.first?.issues.first?.issue)
        #expect(issue.comments.map(\.isSystem) == [true, false, false])
        #expect(issue.comments.allSatisfy { $0.kind == nil })
        let mergeRequest = try #require(state.repositories.first?.mergeRequests.first?.mergeRequest)
        #expect(mergeRequest.comments.map(\.isSystem) == [true, false])
        #expect(mergeRequest.comments.allSatisfy { $0.kind == nil })
    }
}

/// The merge-request events gitbay added to its webhook list (`mr.labeled`, `mr.review_requested`:
/// `internal/control/mr.go` `runMRLabel`, `runMRReviewRequest`), as its feed and deliveries send
/// them: each names its merge request, and neither moves a head, so no build is read again.
@Suite struct NewMergeRequestEventTests {
    @Test func labelsAndReviewRequestsNameTheirMergeRequestAndNoBuild() throws {
        for (kind, data) in [
            ("mr.labeled", #"{"number":7,"labels":["bug"]}"#), ("mr.review_requested", #"{"number":7}"#),
        ] {
            let row =
                #"{"id":41,"repo":"krz/gitbay","actor":"alice","kind":"\#(kind)","data":\#(data),"#
                + #""created_at":"2026-12-02T11:00:00.000Z"}"#
            let event = try GitbayJSON.decoder().decode(FeedEvent.self, from: Data(row.utf8))
            #expect(Fixtures.registry.watching(of: .mergeRequests)?.watchEffect(of: event) == .item(7), "\(kind)")
            #expect(Fixtures.registry.watching(of: .builds)?.watchEffect(of: event) == WatchEffect.none, "\(kind)")
            #expect(Fixtures.registry.watching(of: .issues)?.watchEffect(of: event) == WatchEffect.none, "\(kind)")
        }
    }
}

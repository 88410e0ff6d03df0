import Foundation
import Testing

@testable import GitbayKit

/// A comment's id and reactions as a newer gitbay shows them, and an older one's comment without.
@Suite struct CommentReactionTests {
    private func decode(_ json: String) throws -> GitbayKit.Comment {
        try GitbayJSON.decoder().decode(GitbayKit.Comment.self, from: Data(json.utf8))
    }

    @Test func aCommentCarriesItsIdAndWhoReactedWithTheBotsOwnMarked() throws {
        let comment = try decode(
            """
            {"id": 7, "author": "alice", "body": "/label bug", "created_at": "2026-12-01T10:00:00.000Z",
             "reactions": [{"reaction": "+1", "count": 2, "me": true}, {"reaction": "eyes", "count": 1, "me": false}]}
            """)
        #expect(comment.id == 7)
        #expect(
            comment.reactions == [
                ReactionCount(reaction: "+1", count: 2, me: true), .init(reaction: "eyes", count: 1, me: false),
            ])
        let again = try GitbayJSON.decoder().decode(
            GitbayKit.Comment.self, from: try GitbayJSON.encoder().encode(comment))
        #expect(again == comment, "kept in the read cache as read")
    }

    @Test func anOlderServersCommentHasNeither() throws {
        let comment = try decode(#"{"author": "alice", "body": "hi", "created_at": "2026-12-01T10:00:00Z"}"#)
        #expect(comment.id == nil && comment.reactions.isEmpty)
        let encoded = String(decoding: try GitbayJSON.encoder().encode(comment), as: UTF8.self)
        #expect(!encoded.contains("reactions") && !encoded.contains("\"id\""))
    }
}

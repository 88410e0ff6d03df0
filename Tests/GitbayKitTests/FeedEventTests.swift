import Foundation
import GitbayKit
import Testing

/// Feed rows as gitbay's `FeedOut` sends them: the item's number when `data` names one, nothing
/// when it does not or holds a shape the bot does not know.
@Suite struct FeedEventTests {
    private func decode(_ json: String) throws -> FeedEvent {
        try JSONDecoder().decode(FeedEvent.self, from: Data(json.utf8))
    }

    @Test func anIssueEventNamesItsIssue() throws {
        let event = try decode(
            #"{"id":91,"repo":"krz/gitbay","actor":"alice","kind":"issue.commented","data":{"number":214},"#
                + #""created_at":"2026-11-29T12:00:01.500Z"}"#)
        #expect(event.id == 91 && event.repo.description == "krz/gitbay" && event.actor == "alice")
        #expect(event.kind == "issue.commented" && event.number == 214)
        #expect(event.createdAt == GitbayTimestamp.parse("2026-11-29T12:00:01.500Z"))
    }

    @Test(arguments: [
        #"{"id":3,"repo":"krz/gitbay","kind":"push","created_at":"2026-11-29T12:00:00Z"}"#,
        #"{"id":3,"repo":"krz/gitbay","kind":"push","data":{"ref":"main"},"created_at":"2026-11-29T12:00:00Z"}"#,
        #"{"id":3,"repo":"krz/gitbay","kind":"push","data":[1,2],"created_at":"2026-11-29T12:00:00Z"}"#,
        #"{"id":3,"repo":"krz/gitbay","kind":"push","data":{"number":"x"},"created_at":"2026-11-29T12:00:00Z"}"#,
    ])
    func anEventWithoutANumberNamesNoItem(json: String) throws {
        let event = try decode(json)
        #expect(event.number == nil && event.actor == nil && event.kind == "push")
    }
}

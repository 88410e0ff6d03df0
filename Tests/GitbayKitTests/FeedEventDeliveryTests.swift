import Foundation
import GitbayKit
import Testing

/// A webhook delivery as the feed row of its event, read from the delivery's parsed fields: the
/// rules a row's `data` is read by, and nothing lost on the way.
@Suite struct FeedEventDeliveryTests {
    /// A delivery of `event` in krz/app by alice at `createdAt`, with `data`.
    private func delivery(
        _ event: String, data: JSONValue, actor: String? = "alice", createdAt: String = "2026-11-29T12:00:01.500Z"
    ) throws -> GitbayDelivery {
        GitbayDelivery(
            id: 77, event: event, repo: try RepositoryPath("krz/app"), actor: actor,
            createdAt: try #require(GitbayTimestamp.parse(createdAt)), data: data, bodyDigest: [1, 2, 3])
    }

    /// One delivery of each kind the watcher acts on, and the item and labels its row names.
    struct Kind: Sendable, CustomTestStringConvertible {
        var event: String
        var data: JSONValue
        var number: Int?
        var labels: [String]?
        var testDescription: String { event }
    }

    @Test(arguments: [
        Kind(event: "issue.commented", data: .object(["number": .number(7), "comment_id": .number(31)]), number: 7),
        Kind(
            event: "mr.labeled", data: .object(["number": .number(12), "labels": .array([.string("ready")])]),
            number: 12, labels: ["ready"]),
        Kind(
            event: "issue.labeled", data: .object(["number": .number(3), "labels": .array([])]), number: 3, labels: []),
        Kind(event: "mr.merged", data: .object(["number": .number(5), "strategy": .string("ff")]), number: 5),
        Kind(
            event: "build.finished", data: .object(["number": .number(41), "status": .string("success")]), number: 41),
        Kind(event: "push", data: .object(["ref": .string("refs/heads/topic"), "after": .string("c0ffee")])),
        Kind(event: "repo.created", data: .null),
    ])
    func eachKindIsTheRowOfItsEvent(kind: Kind) throws {
        let delivery = try delivery(kind.event, data: kind.data)
        let event = FeedEvent(delivery: delivery)
        #expect(
            event
                == FeedEvent(
                    id: 0, repo: delivery.repo, actor: "alice", kind: kind.event, number: kind.number,
                    createdAt: delivery.createdAt, labels: kind.labels))
    }

    /// What a feed row's `data` does not name an item or labels by names none here either.
    @Test(arguments: [
        JSONValue.object(["number": .number(7.5)]),
        .object(["number": .string("7")]),
        .object(["number": .null]),
        .object(["number": .number(1e300)]),
        .array([.number(7)]),
        .string("7"),
    ])
    func dataThatNamesNoWholeNumberNamesNoItem(data: JSONValue) throws {
        #expect(FeedEvent(delivery: try delivery("issue.commented", data: data)).number == nil)
    }

    @Test func labelsThatAreNotAllStringsAreNone() throws {
        let data = JSONValue.object(["number": .number(4), "labels": .array([.string("bug"), .number(1)])])
        let event = FeedEvent(delivery: try delivery("issue.labeled", data: data))
        #expect(event.number == 4 && event.labels == nil)
    }

    @Test func aDeliveryWithoutAnActorIsTheServers() throws {
        #expect(FeedEvent(delivery: try delivery("mr.merged", data: .null, actor: nil)).actor == nil)
    }

    /// The intake takes a time with an offset whose UTC year has five digits; written out as a row
    /// and read back, as the watcher once made its event, it could not be read, and gitbay's signed
    /// delivery was refused with 400.
    @Test func aTimeWrittenOutAsNoRowCanCarryIsKept() throws {
        let delivery = try delivery(
            "issue.commented", data: .object(["number": .number(7)]), createdAt: "9999-12-31T23:30:00-01:00")
        #expect(FeedEvent(delivery: delivery).createdAt == delivery.createdAt)
        let written = GitbayTimestamp.format(delivery.createdAt, precision: .milliseconds)
        #expect(written == "10000-01-01T00:30:00.000Z")
        let row = #"{"id":0,"repo":"krz/app","kind":"issue.commented","data":{"number":7},"created_at":"\#(written)"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FeedEvent.self, from: Data(row.utf8)) }
    }

    /// A time finer than a millisecond keeps its digits: written out, this one became the next
    /// second, the one the watcher matches a delivery to the feed's row by.
    @Test func aTimeFinerThanAMillisecondKeepsItsSecond() throws {
        let delivery = try delivery(
            "issue.commented", data: .object(["number": .number(7)]), createdAt: "2026-11-29T12:00:00.9996Z")
        let event = FeedEvent(delivery: delivery)
        #expect(event.createdAt == delivery.createdAt)
        #expect(Int(event.createdAt.timeIntervalSince1970) % 60 == 0)
        #expect(GitbayTimestamp.format(delivery.createdAt, precision: .milliseconds) == "2026-11-29T12:00:01.000Z")
    }
}

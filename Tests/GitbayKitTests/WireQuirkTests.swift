import Foundation
import GitbayKit
import Testing

/// The server behaviours the models must absorb: nulls, unknown values and keys, odd envelopes.
///
/// Each case is one line of JSON the real server can send and that once broke a naive decoder.
@Suite struct WireQuirkTests {
    private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(json.utf8))
    }

    @Test func nullLabelsAfterRemovingTheLastOneDecodeAsEmpty() throws {
        let envelope = try decode(
            Envelope<LabelsReply>.self, #"{"protocol_version":1,"data":{"number":7,"labels":null}}"#)
        #expect(envelope.data == LabelsReply(number: 7, labels: []))
        let assignees = try decode(AssigneesReply.self, #"{"number":7,"assignees":null}"#)
        #expect(assignees.assignees.isEmpty)
    }

    @Test func nullArraysOnShowRepliesDecodeAsEmpty() throws {
        let issue = try decode(
            GitbayKit.Issue.self,
            #"{"number":1,"title":"t","state":"open","author":"a","created_at":"2026-09-01T00:00:00.000Z","labels":null,"assignees":null,"comments":null}"#
        )
        #expect(issue.labels.isEmpty)
        #expect(issue.assignees.isEmpty)
        #expect(issue.comments.isEmpty)
        let refs = try decode(RepositoryRefs.self, #"{"branches":null}"#)
        #expect(refs == RepositoryRefs())
    }

    @Test func unknownEnumerationValuesAreKeptAndEncodedBack() throws {
        let json =
            #"{"number":9,"job":"test","status":"stalled","sha":"abc","ref":"main","created_at":"2026-09-02T14:03:11Z"}"#
        let build = try decode(Build.self, json)
        #expect(build.status.rawValue == "stalled")
        #expect(!build.status.isKnown)
        #expect(BuildStatus.running.isKnown)
        #expect(try JSONValue.parse(JSONEncoder().encode(build)) == JSONValue.parse(Data(json.utf8)))
        let review = try decode(
            Review.self, #"{"reviewer":"a","verdict":"block","stale":true,"created_at":"2026-09-02T09:55:02.118Z"}"#)
        #expect(review.verdict == "block")
        #expect(review.counts == nil)
        let comment = try decode(
            GitbayKit.Comment.self,
            #"{"author":"bot","body":"x","kind":"automation","created_at":"2026-09-02T09:55:02.118Z"}"#)
        #expect(comment.kind == "automation")
        #expect(!comment.isSystem)
        let repo = try decode(RepositorySummary.self, #"{"path":"o/n","visibility":"internal"}"#)
        #expect(repo.visibility.rawValue == "internal")
        let item = try decode(
            QueryItem.self,
            #"{"kind":"epic","repo":"o/n","number":1,"title":"t","state":"triaged","author":"a","created_at":"2026-09-01T00:00:00.000Z","updated_at":"2026-09-01T00:00:00.000Z"}"#
        )
        #expect(item.kind == "epic")
        #expect(item.issueState == "triaged")
        #expect(try decode(MergeRequestState.self, #""draft_state""#).rawValue == "draft_state")
        #expect(try decode(CheckState.self, #""neutral""#) == "neutral")
    }

    @Test func unknownKeysAreIgnored() throws {
        let identity = try decode(
            Identity.self, #"{"username":"bot","admin":true,"key_scope":"full","avatar":"x","teams":[1,2]}"#)
        #expect(identity == Identity(username: "bot", admin: true, keyScope: "full"))
        let envelope = try decode(
            Envelope<NumberReply>.self, #"{"protocol_version":1,"data":{"number":4},"trace":"x"}"#)
        #expect(envelope.data?.number == 4)
    }

    @Test func commentKindDecidesOverAuthor() throws {
        let marked = try decode(
            GitbayKit.Comment.self,
            #"{"author":"system","body":"x","kind":"comment","created_at":"2026-09-02T09:55:02.118Z"}"#)
        #expect(!marked.isSystem)
        let legacy = try decode(
            GitbayKit.Comment.self, #"{"author":"system","body":"x","created_at":"2026-09-02T09:55:02.118Z"}"#)
        #expect(legacy.isSystem)
    }

    @Test func emptyOptionalTimesDecodeAsNil() throws {
        let build = try decode(
            Build.self,
            #"{"number":1,"job":"j","status":"pending","sha":"s","ref":"r","created_at":"2026-09-02T14:03:11Z","finished_at":"","started_at":""}"#
        )
        #expect(build.finishedAt == nil)
        #expect(build.startedAt == nil)
        #expect(throws: DecodingError.self) {
            try decode(
                Build.self, #"{"number":1,"job":"j","status":"pending","sha":"s","ref":"r","created_at":"yesterday"}"#)
        }
    }

    @Test func bothTimestampFormsAndNanosecondsDecode() throws {
        let issue = try decode(
            GitbayKit.Issue.self,
            #"{"number":1,"title":"t","state":"open","author":"a","created_at":"2026-09-23T23:26:00.570Z","updated_at":"2026-09-24T01:02:03.123456789+02:00"}"#
        )
        #expect(issue.createdAt.timeIntervalSince1970 == 1_790_205_960.57)
        let updated = try #require(issue.updatedAt)
        #expect(abs(updated.timeIntervalSince1970 - 1_790_204_523.123_456_789) < 0.000_01)
        let build = try decode(
            Build.self,
            #"{"number":1,"job":"j","status":"success","sha":"s","ref":"r","created_at":"2026-09-02T14:03:11Z"}"#)
        #expect(build.createdAt.timeIntervalSince1970 == 1_788_357_791)
    }

    @Test func errorEnvelopeWithoutExitCode() throws {
        let envelope = try decode(
            Envelope<GitbayKit.Issue>.self,
            #"{"error":"missing bearer token; mint one over SSH: token create --name <n>","protocol_version":1}"#)
        #expect(envelope.exitCode == nil)
        #expect(envelope.data == nil)
        #expect(envelope.error?.hasPrefix("missing bearer token") == true)
    }

    @Test func envelopeWithRawOutputAndStderr() throws {
        let envelope = try decode(
            Envelope<Empty>.self,
            #"{"protocol_version":1,"output":"diff --git a/x b/x\n","stderr":"build 4211: failure","exit_code":0}"#)
        #expect(envelope.output == "diff --git a/x b/x\n")
        #expect(envelope.stderr == "build 4211: failure")
        #expect(envelope.exitCode == 0)
        #expect(envelope.data == nil)
    }

    @Test func snapshotTimesAreWrittenInTheirFieldsPrecision() throws {
        let created = try #require(GitbayTimestamp.parse("2026-09-23T23:26:00.570Z"))
        let issue = GitbayKit.Issue(
            number: 1, title: "t", state: .open, author: "a", createdAt: created, updatedAt: created)
        let json = try JSONValue.parse(JSONEncoder().encode(issue))
        #expect(
            json
                == .object([
                    "number": .number(1), "title": .string("t"), "state": .string("open"), "author": .string("a"),
                    "created_at": .string("2026-09-23T23:26:00.570Z"),
                    "updated_at": .string("2026-09-23T23:26:00.570Z"),
                ]))
        let build = Build(number: 2, job: "j", status: .running, sha: "s", ref: "r", createdAt: created)
        let buildJSON = try JSONValue.parse(JSONEncoder().encode(build))
        guard case .object(let members) = buildJSON else {
            Testing.Issue.record("build did not encode as an object")
            return
        }
        #expect(members["created_at"] == .string("2026-09-23T23:26:01Z"))
    }
}

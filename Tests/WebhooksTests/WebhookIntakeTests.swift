import Foundation
import GitbayKit
import HTTPServer
import MessageAuthentication
import Testing
import Webhooks

/// The intake's judgement of one request, without a socket.
@Suite struct WebhookIntakeTests {
    private let intake = WebhookIntake(path: SampleDelivery.path, secret: SampleDelivery.secret)

    @Test func aSignedDeliveryIsAcceptedWithEveryField() throws {
        let decision = intake.decide(SampleDelivery().request)
        let expected = GitbayDelivery(
            id: 42, event: "issue.commented", repo: try RepositoryPath("acme/widgets"), actor: "ana",
            createdAt: try #require(GitbayTimestamp.parse("2026-12-03T08:15:00.250Z")),
            data: .object([
                "number": .number(7), "comment_id": .number(31), "labels": .array([.string("bug")]),
                "draft": .bool(false), "note": .null,
            ]), bodyDigest: SHA256Digest.of(Array(SampleDelivery.body.utf8)))
        #expect(decision == .accepted(expected))
        #expect(decision.status == 202)
        #expect(decision.response.status == 202)
        #expect(decision.response.body == Array("accepted delivery 42\n".utf8))
    }

    /// gitbay omits `actor` when no one acted; `data` may be any JSON, `null` included.
    @Test func aDeliveryWithoutAnActorAndWithDataOfAnyShapeIsAccepted() throws {
        var push = SampleDelivery()
        push.event = "push"
        push.id = "9007199254740993"
        push.body = #"{"event":"push","repo":"acme/widgets","created_at":"2026-12-03T08:15:00Z","data":[1,"two"]}"#
        guard case .accepted(let delivery) = intake.decide(push.request) else {
            Issue.record("a push was refused: \(intake.decide(push.request))")
            return
        }
        #expect(delivery.id == 9_007_199_254_740_993)
        #expect(delivery.actor == nil)
        #expect(delivery.data == .array([.number(1), .string("two")]))
        var nothing = SampleDelivery()
        nothing.body = #"{"event":"issue.commented","repo":"acme/widgets","created_at":"2026-12-03T08:15:00Z"}"#
        guard case .accepted(let bare) = intake.decide(nothing.request) else {
            Issue.record("a delivery without data was refused")
            return
        }
        #expect(bare.data == .null)
    }

    /// The intake keeps no ids: taking a retry once is the state database's work.
    @Test func aRetriedDeliveryIsAcceptedEachTimeWithTheSameID() {
        let first = intake.decide(SampleDelivery().request)
        let retry = intake.decide(SampleDelivery().request)
        #expect(first == retry)
        #expect(first.status == 202)
    }

    @Test func anotherPathIsNotFoundAndAnotherMethodIsNotAllowed() {
        let elsewhere = HTTPServer.Request(
            method: "POST", target: "/hooks/other", headers: SampleDelivery().headers,
            body: Array(SampleDelivery.body.utf8))
        #expect(intake.decide(elsewhere) == .refused(.notFound))
        for method in ["GET", "HEAD", "PUT", "post"] {
            var delivery = SampleDelivery()
            delivery.method = method
            let decision = intake.decide(delivery.request)
            #expect(decision == .refused(.methodNotAllowed), "\(method)")
            #expect(decision.response.status == 405)
            #expect(decision.response.headers.contains(HTTPServer.Header("Allow", "POST")))
        }
    }

    /// The query is no part of the path: gitbay posts to the URL the hook was added with.
    @Test func aQueryOnTheHooksPathIsTheHooksPath() {
        let sample = SampleDelivery().request
        let request = HTTPServer.Request(
            method: "POST", target: SampleDelivery.path + "?from=gitbay", headers: sample.headers, body: sample.body)
        #expect(intake.decide(request).status == 202)
    }

    @Test func aBodyOverTheLimitIsRefusedBeforeItsSignatureIsLookedAt() {
        let small = WebhookIntake(path: SampleDelivery.path, secret: SampleDelivery.secret, maxBodyBytes: 64)
        let decision = small.decide(SampleDelivery().request)
        #expect(decision == .refused(.bodyTooLarge(limit: 64)))
        #expect(decision.status == 413)
        let fitting = WebhookIntake(
            path: SampleDelivery.path, secret: SampleDelivery.secret, maxBodyBytes: SampleDelivery.body.utf8.count)
        #expect(fitting.decide(SampleDelivery().request).status == 202)
        #expect(small.bodyRoute == HTTPServer.BodyRoute(path: SampleDelivery.path, maxBodyBytes: 64))
    }

    @Test func anUnsignedOrWronglySignedDeliveryIsRefused() {
        var unsigned = SampleDelivery()
        unsigned.unsigned = true
        #expect(intake.decide(unsigned.request) == .refused(.missingSignature))
        let body = SampleDelivery.body
        let good = SampleDelivery.signature(of: body, secret: SampleDelivery.secret)
        let digits = String(good.dropFirst("sha256=".count))
        let spoiled = [
            "", "sha256=", digits, "sha1=" + digits, "SHA256=" + digits, "sha256=" + digits.uppercased(),
            "sha256=" + digits.dropLast(), good + "0", " " + good, "sha256=" + String(repeating: "0", count: 64),
            SampleDelivery.signature(of: body, secret: []),
            SampleDelivery.signature(of: body, secret: SampleDelivery.secret + [1]),
            SampleDelivery.signature(of: body + " ", secret: SampleDelivery.secret),
        ]
        for signature in spoiled {
            var delivery = SampleDelivery()
            delivery.signature = signature
            #expect(intake.decide(delivery.request) == .refused(.badSignature), "signature '\(signature)'")
        }
    }

    /// A second signature field could be the one another reader checks.
    @Test func twoSignatureFieldsAreRefusedThoughOneIsGood() {
        var request = SampleDelivery().request
        request.headers.append(HTTPServer.Header("x-gitbay-signature-256", "sha256=00"))
        #expect(intake.decide(request) == .refused(.badSignature))
        var first = SampleDelivery().request
        first.headers.insert(HTTPServer.Header("X-Gitbay-Signature-256", "sha256=00"), at: 0)
        #expect(intake.decide(first) == .refused(.badSignature))
    }

    /// HMAC with an empty key is a code anyone can compute: an intake without a secret takes nothing.
    @Test func anIntakeWithoutASecretRefusesEveryDeliveryEvenOneSignedWithTheEmptyKey() {
        let keyless = WebhookIntake(path: SampleDelivery.path, secret: [])
        var delivery = SampleDelivery()
        delivery.signature = SampleDelivery.signature(of: SampleDelivery.body, secret: [])
        let decision = keyless.decide(delivery.request)
        #expect(decision == .refused(.noSecret))
        #expect(decision.status == 401)
        #expect(keyless.decide(SampleDelivery().request).status == 401)
    }

    @Test(arguments: [nil, "", "0", "-1", "+42", "42.0", "4 2", "0x2a", "abc", "99999999999999999999"])
    func aDeliveryIDThatIsNotOnePositiveDecimalIsRefused(id: String?) {
        var delivery = SampleDelivery()
        delivery.id = id
        let decision = intake.decide(delivery.request)
        #expect(decision.status == 400)
        #expect(decision == .refused(.notADelivery("X-Gitbay-Delivery is not one positive decimal id")))
    }

    @Test func twoDeliveryIDsAreRefused() {
        var request = SampleDelivery().request
        request.headers.append(HTTPServer.Header("X-Gitbay-Delivery", "42"))
        #expect(intake.decide(request).status == 400)
    }

    @Test(arguments: [nil, "issue.closed", "Issue.Commented", ""])
    func anEventHeaderThatDoesNotNameTheBodysEventIsRefused(event: String?) {
        var delivery = SampleDelivery()
        delivery.event = event
        #expect(
            intake.decide(delivery.request) == .refused(.notADelivery("X-Gitbay-Event does not name the body's event")))
    }

    /// Each body is signed, so only its shape is wrong.
    @Test(
        arguments: [
            ("not json", "the body is not JSON"),
            ("", "the body is not JSON"),
            (#"["issue.commented"]"#, "the body is not a JSON object"),
            (#"{"repo":"acme/widgets","created_at":"2026-12-03T08:15:00Z"}"#, "the body has no event"),
            (#"{"event":"issue.commented","created_at":"2026-12-03T08:15:00Z"}"#, "the body has no repo"),
            (#"{"event":"issue.commented","repo":"acme/widgets"}"#, "the body has no created_at"),
            (#"{"event":7,"repo":"acme/widgets","created_at":"2026-12-03T08:15:00Z"}"#, "event is not a string"),
            (#"{"event":null,"repo":"acme/widgets","created_at":"2026-12-03T08:15:00Z"}"#, "event is not a string"),
            (
                #"{"event":"issue.commented","repo":"acme/widgets","actor":1,"created_at":"2026-12-03T08:15:00Z"}"#,
                "actor is not a string"
            ),
            (
                #"{"event":"issue.commented","repo":"widgets","created_at":"2026-12-03T08:15:00Z"}"#,
                "the repo is not owner/name"
            ),
            (
                #"{"event":"issue.commented","repo":"acme/widgets","created_at":"yesterday"}"#,
                "created_at is not a timestamp"
            ),
            (#"{"event":"","repo":"acme/widgets","created_at":"2026-12-03T08:15:00Z"}"#, "the event is empty"),
        ])
    func aSignedBodyThatIsNotADeliveryIsRefused(body: String, reason: String) {
        var delivery = SampleDelivery()
        delivery.body = body
        let decision = intake.decide(delivery.request)
        #expect(decision == .refused(.notADelivery(reason)))
        #expect(decision.response.status == 400)
    }

    /// A request claims to be a delivery by gitbay's headers alone, signed or not: one positive
    /// decimal `X-Gitbay-Delivery` and one `X-Gitbay-Event` that is not empty.
    @Test func aRequestClaimsToBeADeliveryByGitbaysHeaders() {
        var forged = SampleDelivery()
        forged.signature = "sha256=00"
        #expect(WebhookIntake.claimsDelivery(SampleDelivery().request))
        #expect(WebhookIntake.claimsDelivery(forged.request), "the headers are not signed")
        var spoiled: [SampleDelivery] = []
        for (id, event) in [(nil, "push"), ("42", nil), ("0", "push"), ("4x", "push"), ("+42", "push"), ("42", "")] {
            var request = SampleDelivery()
            (request.id, request.event) = (id, event)
            spoiled.append(request)
        }
        for request in spoiled {
            #expect(!WebhookIntake.claimsDelivery(request.request), "\(request.headers)")
        }
        var twice = SampleDelivery().request
        twice.headers.append(HTTPServer.Header("X-Gitbay-Delivery", "43"))
        #expect(!WebhookIntake.claimsDelivery(twice))
    }

    /// The secret is in no answer and in no description of the intake.
    @Test func theSecretIsNeverShown() {
        let secret = String(decoding: SampleDelivery.secret, as: UTF8.self)
        var answers = [intake.decide(SampleDelivery().request).response]
        var unsigned = SampleDelivery()
        unsigned.unsigned = true
        answers.append(intake.decide(unsigned.request).response)
        var spoiled = SampleDelivery()
        spoiled.signature = "sha256=00"
        answers.append(intake.decide(spoiled.request).response)
        let good = SampleDelivery.signature(of: SampleDelivery.body, secret: SampleDelivery.secret)
        for answer in answers {
            let text = String(decoding: answer.body, as: UTF8.self) + answer.headers.map(\.value).joined()
            #expect(!text.contains(secret))
            #expect(!text.contains(good.dropFirst(7)))
        }
        var dumped = ""
        dump(intake, to: &dumped)
        for shown in [String(describing: intake), String(reflecting: intake), dumped] {
            #expect(!shown.contains(secret), "\(shown)")
            #expect(!shown.contains(String(describing: SampleDelivery.secret)), "\(shown)")
        }
    }
}

import Foundation
import GitbayKit
import GitbayTestSupport
import HTTPServer
import Synchronization
import Testing
import Webhooks

/// Attacks on the hook through a real server: each is refused and nothing is taken, and the one
/// good delivery is taken, so every test can fail.
@Suite(.timeLimit(.minutes(1))) struct WebhookSecurityTests {
    /// The deliveries a server's handler took.
    final class Taken: Sendable {
        private let deliveries = Mutex<[GitbayDelivery]>([])

        var all: [GitbayDelivery] { deliveries.withLock { $0 } }

        func take(_ delivery: GitbayDelivery) {
            deliveries.withLock { $0.append(delivery) }
        }
    }

    /// A server whose only route is the hook, taking what the intake accepts.
    private func hook(
        _ intake: WebhookIntake = WebhookIntake(path: SampleDelivery.path, secret: SampleDelivery.secret),
        readTimeout: Duration = .seconds(60), taken: Taken
    ) throws -> HTTPServer {
        try HTTPServer.start(
            on: ListenAddress.parse("127.0.0.1:0"), limits: HTTPServer.Limits(readTimeout: readTimeout),
            bodyRoutes: [intake.bodyRoute]
        ) { request in
            let decision = intake.decide(request)
            if case .accepted(let delivery) = decision { taken.take(delivery) }
            return decision.response
        }
    }

    /// Sends `delivery` to a fresh hook and answers the status and what was taken.
    private func send(_ delivery: SampleDelivery) async throws -> (status: Int?, taken: [GitbayDelivery]) {
        let taken = Taken()
        let server = try hook(taken: taken)
        defer { server.stop() }
        let port = server.port
        let exchange = try await offPool { try RawClient.exchange(delivery.wire, port: port) }
        return (exchange.response?.status, taken.all)
    }

    @Test func aGoodDeliveryIsTaken() async throws {
        let (status, taken) = try await send(SampleDelivery())
        #expect(status == 202)
        #expect(taken.map(\.id) == [42])
        #expect(taken.map(\.event) == ["issue.commented"])
    }

    @Test func aDeliveryWithoutASignatureIsNotTaken() async throws {
        var delivery = SampleDelivery()
        delivery.unsigned = true
        let (status, taken) = try await send(delivery)
        #expect(status == 401)
        #expect(taken.isEmpty)
    }

    @Test func aDeliveryWithABadSignatureIsNotTaken() async throws {
        var delivery = SampleDelivery()
        delivery.signature = "sha256=" + String(repeating: "ab", count: 32)
        let (status, taken) = try await send(delivery)
        #expect(status == 401)
        #expect(taken.isEmpty)
    }

    /// The signature of the real body, on a body changed on the way (another repository).
    @Test func aGoodSignatureOverAChangedBodyIsNotTaken() async throws {
        var delivery = SampleDelivery()
        delivery.signature = SampleDelivery.signature(of: SampleDelivery.body, secret: SampleDelivery.secret)
        delivery.body = SampleDelivery.body.replacingOccurrences(of: "acme/widgets", with: "acme/payroll")
        #expect(delivery.body != SampleDelivery.body)
        let (status, taken) = try await send(delivery)
        #expect(status == 401)
        #expect(taken.isEmpty)
    }

    @Test func aDeliverySignedWithAnotherSecretIsNotTaken() async throws {
        var delivery = SampleDelivery()
        delivery.signature = SampleDelivery.signature(of: SampleDelivery.body, secret: Array("another-secret".utf8))
        let (status, taken) = try await send(delivery)
        #expect(status == 401)
        #expect(taken.isEmpty)
    }

    /// The server refuses from the declared length, before the body; the intake's own bound holds
    /// behind a server whose route allows more.
    @Test func anOversizeBodyIsNotTaken() async throws {
        let taken = Taken()
        let small = WebhookIntake(path: SampleDelivery.path, secret: SampleDelivery.secret, maxBodyBytes: 64)
        let server = try hook(small, taken: taken)
        defer { server.stop() }
        let port = server.port
        let refused = try await offPool { try RawClient.exchange(SampleDelivery().wire, port: port) }
        #expect(refused.response?.status == 413)
        #expect(small.decide(SampleDelivery().request).status == 413)
        #expect(taken.all.isEmpty)
    }

    /// A good delivery whose head comes at once and whose body comes a byte every 100 ms never
    /// arrives whole within the read timeout.
    @Test func aTricklingDeliveryIsCutAndNotTaken() async throws {
        let taken = Taken()
        let server = try hook(readTimeout: .seconds(1), taken: taken)
        defer { server.stop() }
        let port = server.port
        let delivery = SampleDelivery()
        let head = String(delivery.wire.dropLast(delivery.body.count))
        let body = Array(delivery.body.utf8)
        let (cut, sent) = try await offPool { () -> (Bool, Int) in
            let client = try RawClient(port: port)
            client.write(head)
            for sent in body.indices {
                if client.readable(within: .milliseconds(100)) || !client.write([body[sent]]) { return (true, sent) }
            }
            return (false, body.count)
        }
        #expect(cut, "a body trickled whole (\(sent) bytes) was never cut")
        #expect(sent < body.count)
        #expect(taken.all.isEmpty)
    }

    @Test(arguments: ["GET", "PUT", "DELETE"])
    func aDeliveryByAnotherMethodIsNotTaken(method: String) async throws {
        var delivery = SampleDelivery()
        delivery.method = method
        let (status, taken) = try await send(delivery)
        #expect(status == 405)
        #expect(taken.isEmpty)
    }

    /// Signed as gitbay would, but a JSON document that is no delivery.
    @Test func aSignedBodyThatIsNotADeliveryIsNotTaken() async throws {
        var delivery = SampleDelivery()
        delivery.body = #"{"hello":"world"}"#
        let (status, taken) = try await send(delivery)
        #expect(status == 400)
        #expect(taken.isEmpty)
    }
}

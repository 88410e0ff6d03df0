import Foundation
import GitbayTestSupport
import Testing

@testable import GitbayClient

/// The shared redirect rules, checked without a network.
@Suite struct RedirectPolicyTests {
    static let origin = URL(string: "https://forge.example/api/v1/read?argv=x")!

    static func redirect(_ status: Int, to location: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("location", location)])
    }

    static let post = HTTPRequest(
        method: .post, url: origin,
        headers: [HTTPHeader("Authorization", "Bearer t"), HTTPHeader("content-type", "application/json")],
        body: Data("{}".utf8), timeout: .seconds(5))

    @Test func relativeLocationResolvesAgainstTheRequest() throws {
        let next = try #require(
            try RedirectPolicy.nextRequest(after: Self.post, response: Self.redirect(307, to: "/b")))
        #expect(next.url.absoluteString == "https://forge.example/b")
        #expect(next.method == .post)
        #expect(next.body == Data("{}".utf8))
        #expect(next.headers == Self.post.headers)
    }

    @Test(arguments: [301, 302, 303])
    func postBecomesGetWithoutBodyOrContentHeaders(status: Int) throws {
        let next = try #require(
            try RedirectPolicy.nextRequest(after: Self.post, response: Self.redirect(status, to: "/b")))
        #expect(next.method == .get)
        #expect(next.body == nil)
        #expect(next.headers == [HTTPHeader("Authorization", "Bearer t")])
    }

    @Test(arguments: [200, 304, 404])
    func nonRedirectStatusesAreFinal(status: Int) throws {
        #expect(try RedirectPolicy.nextRequest(after: Self.post, response: Self.redirect(status, to: "/b")) == nil)
    }

    @Test func redirectWithoutLocationIsFinal() throws {
        #expect(try RedirectPolicy.nextRequest(after: Self.post, response: HTTPResponse(status: 302)) == nil)
    }

    @Test(arguments: [
        ("http://forge.example/b", "forge.example"),
        ("https://other.example/b?token=x", "other.example"),
        ("https://forge.example:8443/b", "forge.example"),
    ])
    func leavingTheOriginIsRefusedNamingOnlyTheHost(location: String, host: String) {
        #expect(throws: TransportError.redirectRefused(host)) {
            try RedirectPolicy.nextRequest(after: Self.post, response: Self.redirect(302, to: location))
        }
    }

    @Test func explicitDefaultPortIsTheSameOrigin() {
        #expect(RedirectPolicy.isSameOrigin(Self.origin, URL(string: "HTTPS://Forge.Example:443/x")!))
        #expect(!RedirectPolicy.isSameOrigin(Self.origin, URL(string: "https://forge.example:444/x")!))
    }

    @Test func eachHopGetsOnlyTheTimeLeft() async throws {
        let request = HTTPRequest(method: .get, url: Self.origin, timeout: .seconds(30))
        let clock = ManualClock()
        var timeouts: [Duration] = []
        let response = try await RedirectPolicy.send(request, clock: clock) { (hop) throws(TransportError) in
            timeouts.append(hop.timeout)
            clock.advance(by: .milliseconds(100))
            return timeouts.count < 3 ? Self.redirect(302, to: "/again") : HTTPResponse(status: 200)
        }
        #expect(response.status == 200)
        #expect(timeouts == [.seconds(30), .milliseconds(29_900), .milliseconds(29_800)])
    }

    @Test func deadlinePassedDuringAHopStopsTheChain() async {
        let request = HTTPRequest(method: .get, url: Self.origin, timeout: .milliseconds(200))
        let clock = ManualClock()
        var hops = 0
        let result: Result<HTTPResponse, TransportError>
        do {
            let response = try await RedirectPolicy.send(request, clock: clock) { (_) throws(TransportError) in
                hops += 1
                clock.advance(by: .milliseconds(300))
                return Self.redirect(302, to: "/again")
            }
            result = .success(response)
        } catch {
            result = .failure(error)
        }
        #expect(throws: TransportError.timedOut) { try result.get() }
        #expect(hops == 1)
    }
}

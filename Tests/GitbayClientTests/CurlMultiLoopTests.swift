#if canImport(CCurl)
import CCurl
import Foundation
import GitbayTestSupport
import Synchronization
import Testing

@testable import GitbayClient

/// The curl loop when libcurl's engine fails under a transfer, checked through a failing driver.
@Suite(.testHTTPServer) struct CurlMultiLoopTests {
    static func get(_ url: URL) -> HTTPRequest {
        HTTPRequest(method: .get, url: url, timeout: .seconds(5))
    }

    @Test(arguments: [
        (FailingMultiDriver.Call.perform, CURLM_OUT_OF_MEMORY, "curl_multi_perform"),
        (FailingMultiDriver.Call.poll, CURLM_UNRECOVERABLE_POLL, "curl_multi_poll"),
    ])
    func aFailedEngineCallEndsTheTransferInFlightAndTheLoopGoesOn(
        call: FailingMultiDriver.Call, code: CURLMcode, name: String
    ) async throws {
        let server = try TestHTTPServer.shared()
        let loop = CurlMultiLoop(connectTimeout: .seconds(5), driver: FailingMultiDriver(failing: call, code: code))
        defer { loop.stop() }
        let stalled: Result<HTTPResponse, TransportError>
        do {
            stalled = .success(try await loop.perform(Self.get(server.url("/stall"))))
        } catch {
            stalled = .failure(error)
        }
        // Were the result ignored, the stalled transfer would run on to its deadline (`.timedOut`).
        let reason = String(cString: curl_multi_strerror(code))
        #expect(throws: TransportError.other("libcurl's \(name) failed: \(reason)")) { try stalled.get() }
        #expect(try await loop.perform(Self.get(server.url("/small"))).status == 200)
    }

    /// A request handed to a loop whose thread has left (its transport closed) fails at once;
    /// before, it waited for an answer nothing would ever give.
    @Test func aRequestAfterTheLoopLeftFailsInsteadOfWaitingForever() async throws {
        let server = try TestHTTPServer.shared()
        let loop = CurlMultiLoop(connectTimeout: .seconds(5))
        loop.stop()
        // The thread leaves at its next turn, which the stop's wakeup starts.
        try #require(try await eventually(within: 10) { loop.hasLeft }, "the loop thread never left")
        // Not awaited: were the request to wait forever, the test fails instead of hanging with it.
        let outcome = Mutex<String?>(nil)
        Task {
            let text: String
            do {
                _ = try await loop.perform(Self.get(server.url("/small")))
                text = "answered"
            } catch {
                text = "\(error)"
            }
            outcome.withLock { $0 = text }
        }
        _ = try await eventually(within: 10) { outcome.withLock { $0 } != nil }
        #expect(outcome.withLock { $0 } == "\(TransportError.other("the transport was closed"))")
    }
}
#endif

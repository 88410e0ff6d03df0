#if canImport(CCurl)
import CCurl
import Foundation
import GitbayTestSupport
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
}
#endif

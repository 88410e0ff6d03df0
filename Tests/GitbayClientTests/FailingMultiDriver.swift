#if canImport(CCurl)
import CCurl
import Synchronization

@testable import GitbayClient

/// A ``CurlMultiDriver`` that calls libcurl but fails one call with a given code.
///
/// It fails the first call of its kind made after libcurl reported a running transfer, so the
/// failure strikes a transfer in flight, as a real engine failure would.
final class FailingMultiDriver: CurlMultiDriver {
    /// The libcurl call to fail.
    enum Call: Sendable, CaseIterable {
        case perform, poll
    }

    let failing: Call
    let code: CURLMcode
    private let libcurl = LibcurlMultiDriver()
    /// Whether a transfer was running at the last perform, and whether the failure has struck.
    private let state = Mutex((running: false, failed: false))

    init(failing: Call, code: CURLMcode) {
        self.failing = failing
        self.code = code
    }

    func perform(_ multi: UnsafeMutableRawPointer, running: inout Int32) -> CURLMcode {
        if failing == .perform && strikes() { return code }
        let result = libcurl.perform(multi, running: &running)
        let isRunning = running > 0
        state.withLock { $0.running = isRunning }
        return result
    }

    func poll(_ multi: UnsafeMutableRawPointer, timeoutMilliseconds: Int32) -> CURLMcode {
        if failing == .poll && strikes() { return code }
        return libcurl.poll(multi, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Whether this call is the one to fail: the first once a transfer runs.
    private func strikes() -> Bool {
        state.withLock { state in
            guard state.running && !state.failed else { return false }
            state.failed = true
            return true
        }
    }
}
#endif

#if canImport(CCurl)
import CCurl

/// The two libcurl calls that move a multi handle's transfers, behind a seam so tests can fail them.
///
/// libcurl reports trouble in its transfer engine (memory exhausted, a `poll` that cannot be
/// recovered) only through the results of these calls, and nothing from outside provokes it.
/// ``CurlMultiLoop`` must end the transfers in flight when one fails; tests check that with a
/// driver that fails on demand.
protocol CurlMultiDriver: Sendable {
    /// `curl_multi_perform`: moves every transfer along and sets `running` to how many still run.
    func perform(_ multi: UnsafeMutableRawPointer, running: inout Int32) -> CURLMcode
    /// `curl_multi_poll`: sleeps until a transfer can move, a wakeup arrives or the timeout passes.
    func poll(_ multi: UnsafeMutableRawPointer, timeoutMilliseconds: Int32) -> CURLMcode
}

/// The driver that calls libcurl.
struct LibcurlMultiDriver: CurlMultiDriver {
    func perform(_ multi: UnsafeMutableRawPointer, running: inout Int32) -> CURLMcode {
        curl_multi_perform(multi, &running)
    }

    func poll(_ multi: UnsafeMutableRawPointer, timeoutMilliseconds: Int32) -> CURLMcode {
        curl_multi_poll(multi, nil, 0, timeoutMilliseconds, nil)
    }
}
#endif

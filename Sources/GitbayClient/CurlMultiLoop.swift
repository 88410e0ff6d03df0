#if canImport(CCurl)
import CCurl
import Foundation
import Synchronization

/// One thread running a curl multi handle: the engine under ``CurlTransport``.
///
/// `curl_easy_perform` blocks its thread for the whole transfer, which would starve the Swift
/// cooperative pool (two threads on a two-core runner). Instead, callers hand a request to this
/// loop and suspend on a continuation; the loop thread adds an easy handle to its multi handle,
/// sleeps in `curl_multi_poll` (no CPU while waiting) and resumes the continuation when libcurl
/// reports the transfer done. The multi handle owns the connection and DNS caches, so sequential
/// requests to the forge reuse one keep-alive connection.
///
/// Only the loop thread touches the multi handle and the transfers; other threads talk to it
/// through the `inbox` and `curl_multi_wakeup`, which libcurl documents as thread-safe.
///
/// When libcurl's engine itself fails (`curl_multi_perform` or `curl_multi_poll` does not answer
/// `CURLM_OK`), no transfer in flight can be trusted to finish: each ends at once with
/// ``TransportError/other(_:)`` naming the call, and the loop goes on with the next requests.
final class CurlMultiLoop: Sendable {
    /// A request waiting for the loop thread to start it.
    private struct Submission: Sendable {
        var request: HTTPRequest
        var cancellation: CancellationFlag
        var continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
    }

    /// What other threads leave for the loop thread.
    private struct Inbox {
        var submissions: [Submission] = []
        var stopping = false
        /// Set by the loop thread as it leaves: a submission after that would wait forever.
        var finished = false
    }

    /// Set by a cancelled task; the loop thread aborts the transfer once it sees it.
    final class CancellationFlag: Sendable {
        private let value = Atomic<Bool>(false)

        var isSet: Bool { value.load(ordering: .acquiring) }

        func set() { value.store(true, ordering: .releasing) }
    }

    /// How long the loop sleeps when nothing is in flight; a wakeup cuts it short.
    private static let idlePollMilliseconds: Int32 = 60_000
    /// The longest sleep while transfers run, so cancellation flags are checked at least this often.
    private static let busyPollMilliseconds: Int32 = 1000
    /// The pause after a failed `curl_multi_poll`, so a poll that keeps failing cannot spin a core.
    private static let failedPollPause: TimeInterval = 0.1

    /// Runs `curl_global_init` once per process, before the first handle exists.
    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// The multi handle; used only on the loop thread, except for the thread-safe `curl_multi_wakeup`.
    private nonisolated(unsafe) let multi: UnsafeMutableRawPointer
    private let connectTimeout: Duration
    private let driver: any CurlMultiDriver
    private let inbox = Mutex(Inbox())

    init(connectTimeout: Duration, driver: any CurlMultiDriver = LibcurlMultiDriver()) {
        Self.globalInit
        multi = curl_multi_init()
        self.connectTimeout = connectTimeout
        self.driver = driver
        let thread = Thread { [self] in run() }
        thread.name = "gitbay-curl"
        thread.start()
    }

    /// Performs one HTTP exchange without following redirects.
    func perform(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let cancellation = CancellationFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let accepted = inbox.withLock { inbox in
                    guard !inbox.finished else { return false }
                    inbox.submissions.append(
                        Submission(request: request, cancellation: cancellation, continuation: continuation))
                    return true
                }
                guard accepted else {
                    continuation.resume(returning: .failure(.other("the transport was closed")))
                    return
                }
                curl_multi_wakeup(multi)
            }
        } onCancel: {
            cancellation.set()
            curl_multi_wakeup(multi)
        }
        return try result.get()
    }

    /// Asks the loop thread to exit; called when the transport goes away, so nothing is in flight.
    func stop() {
        inbox.withLock { $0.stopping = true }
        curl_multi_wakeup(multi)
    }

    /// Whether the loop thread has left, after which every request fails at once.
    ///
    /// A test of a closed transport waits for this before it sends: until then the thread may
    /// still take a request and answer it.
    var hasLeft: Bool { inbox.withLock { $0.finished } }

    /// The loop thread's body: start submissions, drive transfers, finish them, sleep, repeat.
    private func run() {
        var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            // Leaving is decided under the lock that takes submissions, so none can come after it.
            let (submissions, leaving) = inbox.withLock { inbox in
                defer { inbox.submissions.removeAll() }
                inbox.finished = inbox.stopping && transfers.isEmpty && inbox.submissions.isEmpty
                return (inbox.submissions, inbox.finished)
            }
            if leaving { break }
            for submission in submissions {
                start(submission, into: &transfers)
            }
            for (easy, transfer) in transfers where transfer.cancellation.isSet {
                curl_multi_remove_handle(multi, easy)
                transfers[easy] = nil
                transfer.finish(.failure(.cancelled))
            }

            var running: Int32 = 0
            let performed = driver.perform(multi, running: &running)
            if performed != CURLM_OK {
                abandon(&transfers, because: "curl_multi_perform", failed: performed)
            }
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = transfers.removeValue(forKey: easy)
                else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, easy)
                transfer.finish(code)
            }
            let timeout = transfers.isEmpty ? Self.idlePollMilliseconds : Self.busyPollMilliseconds
            let polled = driver.poll(multi, timeoutMilliseconds: timeout)
            if polled != CURLM_OK {
                abandon(&transfers, because: "curl_multi_poll", failed: polled)
                Thread.sleep(forTimeInterval: Self.failedPollPause)
            }
        }
        curl_multi_cleanup(multi)
    }

    /// Ends every transfer in flight with a transport error naming the libcurl call that failed.
    private func abandon(
        _ transfers: inout [UnsafeMutableRawPointer: CurlTransfer], because call: String, failed code: CURLMcode
    ) {
        let failure = TransportError.other("libcurl's \(call) failed: \(String(cString: curl_multi_strerror(code)))")
        for (easy, transfer) in transfers {
            curl_multi_remove_handle(multi, easy)
            transfer.finish(.failure(failure))
        }
        transfers.removeAll()
    }

    /// Creates the easy handle for a submission and adds it to the multi handle.
    private func start(_ submission: Submission, into transfers: inout [UnsafeMutableRawPointer: CurlTransfer]) {
        guard !submission.cancellation.isSet else {
            submission.continuation.resume(returning: .failure(.cancelled))
            return
        }
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(
                request: submission.request, connectTimeout: connectTimeout,
                cancellation: submission.cancellation, continuation: submission.continuation)
        } catch {
            submission.continuation.resume(returning: .failure(error))
            return
        }
        let added = curl_multi_add_handle(multi, transfer.easy)
        guard added == CURLM_OK else {
            transfer.finish(.failure(.other(String(cString: curl_multi_strerror(added)))))
            return
        }
        transfers[transfer.easy] = transfer
    }
}
#endif

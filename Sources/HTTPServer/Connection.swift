#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted connection, served on a thread of its own: one request head read, one response
/// written, then the connection is closed.
struct Connection {
    /// What reading the request head came to.
    private enum HeadRead {
        /// The head, up to and including the empty line that ends it.
        case head([UInt8])
        /// `maxHeadBytes` arrived without the empty line.
        case tooLarge
        /// `readTimeout` passed since the accept without the whole head.
        case timedOut
        /// The client closed the connection, or it failed.
        case closed
    }

    /// The bytes of a read; also the most a lingering close reads at once.
    private static let chunkSize = 4096
    /// The longest a lingering close waits for the client's end of file (and at most the write timeout).
    private static let lingerTime = Duration.seconds(1)
    /// The most a lingering close reads and discards.
    private static let lingerBytes = 65_536

    let descriptor: Int32
    let acceptedAt: ContinuousClock.Instant
    let limits: HTTPServer.Limits
    let handler: HTTPServer.Handler

    /// Serves the connection and answers the most bytes of its head it held at once; the caller
    /// closes the descriptor.
    func serve() -> Int {
        let (read, held) = readHead()
        switch read {
        case .head(let head):
            respond(to: head)
        case .tooLarge:
            let limit = limits.maxHeadBytes
            respond(with: .text("the request head is longer than \(limit) bytes\n", status: 431), withBody: true)
        case .timedOut:
            let refusal = HTTPServer.Response.text(
                "the request head did not arrive within \(limits.readTimeout)\n", status: 408)
            Self.sendAtOnce(refusal.encoded(withBody: true), to: descriptor)
        case .closed:
            break
        }
        return held
    }

    /// Sends `bytes` with one non-blocking `send` and gives up on what does not fit: for refusals
    /// not worth a wait (the accept thread's 503, the 408 to a client whose time is up).
    static func sendAtOnce(_ bytes: [UInt8], to descriptor: Int32) {
        #if os(Linux)
        let flags = POSIX.sendFlags | Int32(MSG_DONTWAIT)
        #else
        let flags = POSIX.sendFlags | MSG_DONTWAIT
        #endif
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
    }

    /// Reads until the empty line that ends the head, holding never more than `maxHeadBytes`, until
    /// `readTimeout` after the accept; answers the outcome and the most bytes held.
    ///
    /// The deadline is the whole head's, not each read's: a client trickling a byte a second is
    /// cut at the same time as one that sends nothing.
    private func readHead() -> (HeadRead, held: Int) {
        let deadline = acceptedAt + limits.readTimeout
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(Self.chunkSize, limits.maxHeadBytes))
        var searchFrom = 0
        while true {
            if let end = RequestHead.end(in: buffer, from: searchFrom) {
                return (.head(Array(buffer[..<end])), buffer.count)
            }
            // The empty line may begin in the last two bytes read ("\n\r" before the next "\n").
            searchFrom = max(0, buffer.count - 2)
            guard buffer.count < limits.maxHeadBytes else { return (.tooLarge, buffer.count) }
            switch POSIX.wait(descriptor, for: Int32(POLLIN), until: deadline) {
            case .ready: break
            case .timedOut: return (.timedOut, buffer.count)
            case .failed: return (.closed, buffer.count)
            }
            let room = min(chunk.count, limits.maxHeadBytes - buffer.count)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, room, 0) }
            if count > 0 {
                buffer += chunk[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return (.closed, buffer.count)
            }
        }
    }

    /// Answers the request `head` spells: the handler's response to GET and HEAD, 405 to any other
    /// method (its body, if any, is never read), 400 or 505 to a head that does not parse.
    private func respond(to head: [UInt8]) {
        switch RequestHead.parse(head) {
        case .failure(let failure):
            respond(with: .text(failure.reason + "\n", status: failure.status), withBody: true)
        case .success(let request) where request.method == "GET" || request.method == "HEAD":
            respond(with: handler(request), withBody: request.method == "GET")
        case .success(let request):
            var refusal = HTTPServer.Response.text(
                "\(request.method) is not allowed here: only GET and HEAD\n", status: 405)
            refusal.headers.append(HTTPServer.Header("Allow", "GET, HEAD"))
            respond(with: refusal, withBody: true)
        }
    }

    /// Writes `response` within `writeTimeout`, then closes its side with a lingering close.
    private func respond(with response: HTTPServer.Response, withBody: Bool) {
        let deadline = ContinuousClock.now + limits.writeTimeout
        guard write(response.encoded(withBody: withBody), until: deadline) else { return }
        linger()
    }

    /// Writes all of `bytes` unless the client stops taking them until `deadline` or goes away;
    /// answers whether all were written.
    private func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, POSIX.sendFlags)
            }
            if count > 0 {
                offset += count
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                guard POSIX.wait(descriptor, for: Int32(POLLOUT), until: deadline) == .ready else { return false }
            } else {
                return false
            }
        }
        return true
    }

    /// Ends the server's side and reads what the client still sends, until its end of file, for at
    /// most `lingerTime` (and the write timeout) and `lingerBytes`.
    ///
    /// Closing a socket with unread bytes (a request body, pipelined requests, the rest of an
    /// oversized head) makes the kernel reset the connection, and a reset can destroy the response
    /// before the client has read it; after the end of file the close is clean.
    private func linger() {
        shutdown(descriptor, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + min(Self.lingerTime, limits.writeTimeout)
        var discarded = 0
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while discarded < Self.lingerBytes, POSIX.wait(descriptor, for: Int32(POLLIN), until: deadline) == .ready {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                discarded += count
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return
            }
        }
    }
}

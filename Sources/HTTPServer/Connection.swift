#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted connection, served on a thread of its own: one request head (and, for a POST to a
/// body route, its body) read, one response written, then the connection is closed.
struct Connection {
    /// What reading the request head came to.
    private enum HeadRead {
        /// The head, up to and including the empty line that ends it, and the bytes read after it
        /// (the start of a body).
        case head([UInt8], after: [UInt8])
        /// `maxHeadBytes` arrived without the empty line.
        case tooLarge
        /// `readTimeout` passed since the accept without the whole head.
        case timedOut
        /// The client closed the connection, or it failed.
        case closed
    }

    /// What reading a request body came to.
    private enum BodyRead {
        /// All of it.
        case body([UInt8])
        /// `readTimeout` passed since the accept without the whole body.
        case timedOut
        /// The client ended its side after `received` bytes, short of the length it declared.
        case cutShort(received: Int)
        /// The connection failed.
        case closed
    }

    /// The bytes of a read of the head or body.
    private static let chunkSize = 4096
    /// The longest a lingering close waits for the client's next bytes; the whole close takes at
    /// most the write timeout.
    private static let lingerPause = Duration.seconds(1)
    /// The most a lingering close reads and discards: more than a sender that writes a whole
    /// oversized body before it reads (gitbay's deliveries, curl without `Expect`) sends, so the 413
    /// reaches it instead of a reset; the time bounds, not this, are what stop a flood.
    private static let lingerBytes = 16 << 20
    /// The bytes a lingering close reads at once.
    private static let lingerChunkSize = 65_536

    let descriptor: Int32
    let acceptedAt: ContinuousClock.Instant
    let limits: HTTPServer.Limits
    let bodyRoutes: [HTTPServer.BodyRoute]
    let handler: HTTPServer.Handler

    /// Serves the connection and answers the most bytes of its head it held at once; the caller
    /// closes the descriptor.
    func serve() -> Int {
        let (read, held) = readHead()
        switch read {
        case .head(let head, let after):
            respond(to: head, after: after)
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
                return (.head(Array(buffer[..<end]), after: Array(buffer[end...])), buffer.count)
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

    /// Answers the request `head` spells (`after` holds the bytes read past it): the handler's
    /// response to GET and HEAD, and to POST on a body route once its body is read; 405 to any
    /// other method (its body, if any, is never read), 400 or 505 to a head that does not parse.
    private func respond(to head: [UInt8], after: [UInt8]) {
        let request: HTTPServer.Request
        switch RequestHead.parse(head) {
        case .failure(let failure):
            respond(with: .text(failure.reason + "\n", status: failure.status), withBody: true)
            return
        case .success(let parsed):
            request = parsed
        }
        if let route = bodyRoutes.first(where: { $0.path == request.path }) {
            guard request.method == "POST" else { return refuse(request.method, allowing: ["POST"]) }
            receive(request, on: route, after: after)
        } else if request.method == "GET" || request.method == "HEAD" {
            respond(with: handler(request), withBody: request.method == "GET")
        } else {
            refuse(request.method, allowing: ["GET", "HEAD"])
        }
    }

    /// Answers 405 to `method`, naming the `allowed` ones.
    private func refuse(_ method: String, allowing allowed: [String]) {
        let only = allowed.dropLast().joined(separator: ", ") + (allowed.count > 1 ? " and " : "") + allowed.last!
        var refusal = HTTPServer.Response.text("\(method) is not allowed here: only \(only)\n", status: 405)
        refusal.headers.append(HTTPServer.Header("Allow", allowed.joined(separator: ", ")))
        respond(with: refusal, withBody: true)
    }

    /// Reads the body of a POST to `route` (`after` holds its first bytes, read with the head) and
    /// answers the handler's response to the whole request; refuses a body with no length or too
    /// long a one before reading it, and one that is late or cut short without the handler.
    private func receive(_ request: HTTPServer.Request, on route: HTTPServer.BodyRoute, after: [UInt8]) {
        let length: Int
        switch BodyLength.of(request.headers, limit: route.maxBodyBytes) {
        case .failure(let refusal):
            respond(with: .text(refusal.reason + "\n", status: refusal.status), withBody: true)
            return
        case .success(let declared):
            length = declared
        }
        switch readBody(length: length, after: after) {
        case .body(let body):
            var request = request
            request.body = body
            respond(with: handler(request), withBody: true)
        case .timedOut:
            let refusal = HTTPServer.Response.text(
                "the request body did not arrive within \(limits.readTimeout)\n", status: 408)
            Self.sendAtOnce(refusal.encoded(withBody: true), to: descriptor)
        case .cutShort(let received):
            let reason = "the body ended after \(received) of its \(length) bytes\n"
            respond(with: .text(reason, status: 400), withBody: true)
        case .closed:
            break
        }
    }

    /// Reads until `length` bytes of body are held (`after` holds those read with the head), never
    /// more, until `readTimeout` after the accept, as for the head: the deadline is the whole
    /// request's.
    private func readBody(length: Int, after: [UInt8]) -> BodyRead {
        let deadline = acceptedAt + limits.readTimeout
        var body: [UInt8] = []
        body.reserveCapacity(length)
        body += after.prefix(length)
        var chunk = [UInt8](repeating: 0, count: min(Self.chunkSize, max(length, 1)))
        while body.count < length {
            switch POSIX.wait(descriptor, for: Int32(POLLIN), until: deadline) {
            case .ready: break
            case .timedOut: return .timedOut
            case .failed: return .closed
            }
            let room = min(chunk.count, length - body.count)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, room, 0) }
            if count > 0 {
                body += chunk[..<count]
            } else if count == 0 {
                return .cutShort(received: body.count)
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return .closed
            }
        }
        return .body(body)
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

    /// Ends the server's side and reads what the client still sends, until its end of file, a pause
    /// longer than `lingerPause`, the write timeout or `lingerBytes`, whichever comes first.
    ///
    /// Closing a socket with unread bytes (a request body, pipelined requests, the rest of an
    /// oversized head) makes the kernel reset the connection, and a reset can destroy the response
    /// before the client has read it; after the end of file the close is clean.
    private func linger() {
        shutdown(descriptor, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + limits.writeTimeout
        var discarded = 0
        var chunk = [UInt8](repeating: 0, count: Self.lingerChunkSize)
        while discarded < Self.lingerBytes,
            POSIX.wait(descriptor, for: Int32(POLLIN), until: min(deadline, ContinuousClock.now + Self.lingerPause))
                == .ready
        {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                discarded += count
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return
            }
        }
    }
}

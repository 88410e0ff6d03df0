#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on POSIX sockets for `gitbay-bot watch --listen`: /metrics, /healthz and
/// a status page, which a synchronous handler renders from an in-memory snapshot, and the POSTs of
/// gitbay's webhooks to the paths given as ``BodyRoute``s.
///
/// It may face a network that is not friendly, so everything a client can hold is bounded
/// (``Limits``):
/// - **The request head** (request line and header fields): at most `maxHeadBytes` (8 KiB) of it
///   is ever held; a longer one gets 431. GET and HEAD reach the handler; so does POST to a body
///   route, which is served nothing else. Any other method gets 405 with `Allow: GET, HEAD` (or
///   `Allow: POST` on a route's path), its body unread.
/// - **The request body**: only a POST to a ``BodyRoute`` has one read, of exactly its
///   `Content-Length`, at most the route's `maxBodyBytes` (413 before any of it is read when the
///   length is more; 411 without a length or with `Transfer-Encoding`); the handler sees only a
///   whole body.
/// - **The time to send the request**: `readTimeout` (5 s) from the accept for the whole head and
///   body, not for each read, so a client trickling a byte a second (slowloris) is cut as surely
///   as a silent one.
/// - **The time to take the response**: `writeTimeout` (5 s), so a client that never reads a large
///   page does not keep its thread.
/// - **Connections**: at most `maxConnections` (4) are served at once, each on a thread of its own.
///   One more gets 503 with `Retry-After: 1` from the accept thread, written without waiting, and
///   is closed: a flood costs a refusal each, never a thread.
/// - **Requests per connection**: one. Every response has `Content-Length` and `Connection: close`,
///   and the connection is closed after it: enough for a scraper, and no idle connection to bound.
///
/// The server runs on threads of its own, never on Swift's cooperative pool (two threads on two
/// cores), where the bot's passes run: its waits and the handler block their thread. One accept
/// thread `poll`s the listening socket and a wake-up pipe that ``stop()`` writes; stopping never
/// blocks the caller's thread, and ``stopAndWait()`` awaits the threads' end by suspending. Every descriptor
/// is close-on-exec, so a child process started meanwhile never holds a connection open, and no
/// write raises SIGPIPE.
///
/// The handler runs on a connection's thread, so it must be quick: ``stopAndWait()`` waits for it.
public final class HTTPServer: Sendable {
    /// The bounds on what one client can hold: see ``HTTPServer``.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of the request line and header fields.
        public var maxHeadBytes: Int
        /// The deadline for the whole request, head and body, from the accept.
        public var readTimeout: Duration
        /// The deadline for writing the response, from its first byte.
        public var writeTimeout: Duration
        /// The most connections served at once.
        public var maxConnections: Int

        public init(
            maxHeadBytes: Int = 8192, readTimeout: Duration = .seconds(5), writeTimeout: Duration = .seconds(5),
            maxConnections: Int = 4
        ) {
            self.maxHeadBytes = maxHeadBytes
            self.readTimeout = readTimeout
            self.writeTimeout = writeTimeout
            self.maxConnections = maxConnections
        }

        /// What is wrong with these limits, or nil when they can be served.
        fileprivate var problem: String? {
            if maxHeadBytes < 1 { return "maxHeadBytes must be at least 1, not \(maxHeadBytes)" }
            if readTimeout <= .zero { return "readTimeout must be positive, not \(readTimeout)" }
            if writeTimeout <= .zero { return "writeTimeout must be positive, not \(writeTimeout)" }
            if maxConnections < 1 { return "maxConnections must be at least 1, not \(maxConnections)" }
            return nil
        }
    }

    /// Answers one GET or HEAD request (for HEAD, the server sends the headers only), or a POST to
    /// a ``BodyRoute`` with its body; runs on a connection's thread.
    public typealias Handler = @Sendable (Request) -> Response

    /// The bound port: the one asked for, or the one the system chose for port 0.
    public let port: Int
    /// The address asked for.
    public let address: ListenAddress
    /// The threads and descriptors; they never hold the server, so releasing it stops them.
    let loop: ServerLoop

    private init(port: Int, address: ListenAddress, loop: ServerLoop) {
        self.port = port
        self.address = address
        self.loop = loop
    }

    /// A server on `address`, serving on threads of its own when this returns; `bodyRoutes` are
    /// the paths that take a POST with a body (none: no body is ever read).
    public static func start(
        on address: ListenAddress, limits: Limits = Limits(), bodyRoutes: [BodyRoute] = [],
        handler: @escaping Handler
    ) throws(HTTPServerError) -> HTTPServer {
        if let problem = limits.problem ?? BodyRoute.problem(in: bodyRoutes) {
            throw HTTPServerError("cannot listen on \(address): \(problem)")
        }
        let (listener, port) = try ListeningSocket.open(on: address)
        guard let wake = POSIX.pipe() else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw HTTPServerError("cannot listen on \(address): no wake-up pipe: \(reason)")
        }
        let loop = ServerLoop(
            listener: listener, wake: wake, limits: limits, bodyRoutes: bodyRoutes, handler: handler)
        loop.start()
        return HTTPServer(port: port, address: address, loop: loop)
    }

    /// Stops serving and returns once the server's threads have ended; idempotent.
    ///
    /// Suspends rather than blocks, so it may be awaited on Swift's cooperative pool: the server's
    /// last thread to end resumes it. Connections are shut down, so only a handler still running
    /// delays it.
    public func stopAndWait() async {
        loop.stop()
        await loop.stopped()
    }

    /// Starts stopping without waiting; idempotent.
    ///
    /// Stops accepting and shuts every open connection down; the threads then close their
    /// descriptors and end, and ``stopped()`` awaits that. For a `defer` and for `deinit`, which
    /// cannot await.
    public func stop() {
        loop.stop()
    }

    /// Returns once every thread of the server has ended; only after ``stop()``.
    ///
    /// Suspends rather than blocks (the last thread to end resumes it); returns at once when they
    /// have ended.
    public func stopped() async {
        await loop.stopped()
    }

    /// A server released without ``stop()`` stops as it goes, without waiting: its threads hold the
    /// loop, not the server, and end on their own.
    deinit {
        loop.stop()
    }
}

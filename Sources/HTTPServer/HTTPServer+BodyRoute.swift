extension HTTPServer {
    /// A path that takes POST with a body of at most `maxBodyBytes`: the one way a body reaches
    /// the handler (gitbay's webhook deliveries).
    ///
    /// The server serves a route's path to POST only (any other method there gets 405 with
    /// `Allow: POST`), and reads a body only for a route, so a server started without one reads
    /// none, as before routes existed. A body is framed by `Content-Length` alone: without one the
    /// answer is 411, with `Transfer-Encoding` 411 too (whatever else the head says, so a request
    /// can never be read two ways), with one above `maxBodyBytes` 413 before a byte of the body is
    /// read. The whole request, head and body, must arrive within `readTimeout` from the accept
    /// (408 after it), and a body that ends short of its length gets 400: the handler sees only
    /// whole bodies.
    public struct BodyRoute: Sendable, Hashable {
        /// The path, matched exactly (before any '?', not percent-decoded), such as "/hooks/gitbay".
        public var path: String
        /// The most bytes of body a request may send.
        public var maxBodyBytes: Int

        public init(path: String, maxBodyBytes: Int) {
            self.path = path
            self.maxBodyBytes = maxBodyBytes
        }

        /// What is wrong with these routes, or nil when they can be served.
        static func problem(in routes: [BodyRoute]) -> String? {
            for route in routes {
                if !route.path.hasPrefix("/") {
                    return "a body route's path must begin with '/', not \(HTTPServerError.quoted(route.path))"
                }
                if route.maxBodyBytes < 1 {
                    return "a body route's maxBodyBytes must be at least 1, not \(route.maxBodyBytes)"
                }
            }
            let paths = routes.map(\.path)
            if let repeated = paths.first(where: { path in paths.count { $0 == path } > 1 }) {
                return "two body routes for \(HTTPServerError.quoted(repeated))"
            }
            return nil
        }
    }
}

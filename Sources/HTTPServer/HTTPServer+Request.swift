extension HTTPServer {
    /// One request as the handler sees it: its request line, header fields and, for a POST to a
    /// ``BodyRoute``, its whole body.
    public struct Request: Sendable, Hashable {
        /// The method as sent, such as "GET".
        public var method: String
        /// The request-target as sent, such as "/metrics?x=1".
        public var target: String
        /// The target before its '?', not percent-decoded.
        public var path: String
        /// The target after its first '?', or nil when it has none.
        public var query: String?
        /// The header fields in the order sent, their names as sent.
        public var headers: [Header]
        /// The body, exactly `Content-Length` bytes, for a POST to a ``BodyRoute``; nil for every
        /// other request, whose body (if any) is never read.
        public var body: [UInt8]?

        /// A request for `target`, its path and query taken from it.
        public init(method: String, target: String, headers: [Header] = [], body: [UInt8]? = nil) {
            self.method = method
            self.target = target
            if let mark = target.firstIndex(of: "?") {
                path = String(target[..<mark])
                query = String(target[mark...].dropFirst())
            } else {
                path = target
                query = nil
            }
            self.headers = headers
            self.body = body
        }

        /// The value of the first header field named `name`, compared without regard to case.
        public func header(_ name: String) -> String? {
            let name = name.lowercased()
            return headers.first { $0.name.lowercased() == name }?.value
        }
    }

    /// One header field of a request or a response.
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }
}

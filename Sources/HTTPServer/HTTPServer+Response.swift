extension HTTPServer {
    /// What the handler answers: a status, header fields and a body.
    ///
    /// The server owns the framing: it sets `Content-Length` and `Connection: close` itself and
    /// drops the handler's own `Content-Length`, `Transfer-Encoding` and `Connection` fields.
    public struct Response: Sendable, Hashable {
        public var status: Int
        public var headers: [Header]
        public var body: [UInt8]

        public init(status: Int, headers: [Header] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A response whose body is `text` in UTF-8.
        public static func text(
            _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8"
        ) -> Response {
            Response(status: status, headers: [Header("Content-Type", contentType)], body: Array(text.utf8))
        }

        /// The fields only the server sets, because they frame the message on the connection.
        private static let framingFields: Set<String> = ["content-length", "transfer-encoding", "connection"]

        /// The bytes on the wire: the status line, the header fields and, unless `withBody` is
        /// false (the answer to HEAD), the body.
        ///
        /// A status outside 200...599 becomes 500: the server answers once and closes, so an
        /// interim (1xx) status would leave the client waiting. A header field whose name is no
        /// token or whose value holds a control character is dropped, so no handler can split the
        /// response. `Cache-Control: no-store` and `X-Content-Type-Options: nosniff` are added
        /// unless the handler set them: the pages are live readings, and their type is the one
        /// the handler says.
        func encoded(withBody: Bool) -> [UInt8] {
            let status = (200...599).contains(status) ? status : 500
            var fields = headers.filter { field in
                !field.name.isEmpty && field.name.utf8.allSatisfy(RequestHead.isTokenByte)
                    && !Self.framingFields.contains(field.name.lowercased())
                    && !field.value.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
            }
            let names = Set(fields.map { $0.name.lowercased() })
            if !names.contains("cache-control") { fields.append(Header("Cache-Control", "no-store")) }
            if !names.contains("x-content-type-options") { fields.append(Header("X-Content-Type-Options", "nosniff")) }
            fields.append(Header("Content-Length", String(body.count)))
            fields.append(Header("Connection", "close"))
            var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
            for field in fields { head += "\(field.name): \(field.value)\r\n" }
            head += "\r\n"
            return Array(head.utf8) + (withBody ? body : [])
        }

        /// The reason phrase of `status`, or "" for one this server has no name for (the phrase is
        /// informative only).
        static func reason(for status: Int) -> String {
            switch status {
            case 200: "OK"
            case 201: "Created"
            case 202: "Accepted"
            case 204: "No Content"
            case 301: "Moved Permanently"
            case 302: "Found"
            case 303: "See Other"
            case 304: "Not Modified"
            case 307: "Temporary Redirect"
            case 308: "Permanent Redirect"
            case 400: "Bad Request"
            case 401: "Unauthorized"
            case 403: "Forbidden"
            case 404: "Not Found"
            case 405: "Method Not Allowed"
            case 408: "Request Timeout"
            case 410: "Gone"
            case 429: "Too Many Requests"
            case 431: "Request Header Fields Too Large"
            case 500: "Internal Server Error"
            case 501: "Not Implemented"
            case 502: "Bad Gateway"
            case 503: "Service Unavailable"
            case 504: "Gateway Timeout"
            case 505: "HTTP Version Not Supported"
            default: ""
            }
        }
    }
}

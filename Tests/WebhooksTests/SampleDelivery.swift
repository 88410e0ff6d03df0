import HTTPServer
import MessageAuthentication

/// A delivery as gitbay sends it, and the ways tests spoil one.
struct SampleDelivery {
    static let secret = Array("s3cret-of-the-hook".utf8)
    static let path = "/hooks/gitbay"

    /// The body of a comment on issue 7, as gitbay's `json.Marshal` writes it.
    static let body =
        #"{"event":"issue.commented","repo":"acme/widgets","actor":"ana","created_at":"2026-12-03T08:15:00.250Z","#
        + #""data":{"number":7,"comment_id":31,"labels":["bug"],"draft":false,"note":null}}"#

    var body = SampleDelivery.body
    var event: String? = "issue.commented"
    var id: String? = "42"
    /// The whole `X-Gitbay-Signature-256` value; nil signs `body` with ``secret``.
    var signature: String?
    var unsigned = false
    var method = "POST"

    /// The signature gitbay sends for `body` under `secret`.
    static func signature(of body: String, secret: [UInt8]) -> String {
        "sha256=" + HMACSHA256.code(for: Array(body.utf8), key: secret).lowercaseHex
    }

    /// The header fields gitbay sends, spoiled as asked.
    var headers: [HTTPServer.Header] {
        var headers = [
            HTTPServer.Header("Host", "bot.example"), HTTPServer.Header("User-Agent", "gitbay-webhook"),
            HTTPServer.Header("Content-Type", "application/json"),
        ]
        if let event { headers.append(HTTPServer.Header("X-Gitbay-Event", event)) }
        if let id { headers.append(HTTPServer.Header("X-Gitbay-Delivery", id)) }
        if !unsigned {
            let value = signature ?? Self.signature(of: body, secret: Self.secret)
            headers.append(HTTPServer.Header("X-Gitbay-Signature-256", value))
        }
        return headers
    }

    /// The request as the server hands it to the intake.
    var request: HTTPServer.Request {
        HTTPServer.Request(method: method, target: Self.path, headers: headers, body: Array(body.utf8))
    }

    /// The request's bytes on the wire, with its `Content-Length`.
    var wire: String {
        var text = "\(method) \(Self.path) HTTP/1.1\r\n"
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        return text + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }
}

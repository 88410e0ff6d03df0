import Foundation
import GitbayKit

/// Turns a control command into the HTTP request gitbay expects: reads as
/// `GET /api/v1/read?argv=...`, writes as `POST /api/v1/cmd` with `{"argv":[...],"stdin":"..."}`.
struct RequestBuilder: Sendable {
    let baseURL: URL
    let token: BearerToken
    let userAgent: String
    let timeout: Duration
    let maxResponseSize: ByteCount

    /// Characters left as they are in a query value.
    ///
    /// Everything else is percent-encoded: gitbay parses the query with Go's `url.ParseQuery`, which turns `+` into a space and treats `&`, `;`
    /// and `=` as separators, while `URLComponents` would leave some of them alone.
    private static let queryValueAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/:@")

    func request(for command: ControlCommand) -> HTTPRequest {
        var headers = [
            HTTPHeader("Authorization", "Bearer \(token.secret)"),
            HTTPHeader("User-Agent", userAgent),
            HTTPHeader("Accept", "application/json"),
        ]
        switch command.effect {
        case .read:
            let query = command.argv.map { "argv=" + Self.encodeQueryValue($0) }.joined(separator: "&")
            return HTTPRequest(
                method: .get, url: endpoint("read", query: query), headers: headers, timeout: timeout,
                maxResponseSize: maxResponseSize)
        case .write:
            headers.append(HTTPHeader("Content-Type", "application/json"))
            return HTTPRequest(
                method: .post, url: endpoint("cmd", query: nil), headers: headers, body: Self.body(for: command),
                timeout: timeout, maxResponseSize: maxResponseSize)
        }
    }

    static func encodeQueryValue(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? ""
    }

    private static func body(for command: ControlCommand) -> Data {
        struct Body: Encodable {
            var argv: [String]
            var stdin: String?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding an array of strings and an optional string cannot fail.
        return (try? encoder.encode(Body(argv: command.argv, stdin: command.stdin))) ?? Data()
    }

    private func endpoint(_ name: String, query: String?) -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += "/api/v1/" + name
        if let query { text += "?" + query }
        return URL(string: text) ?? baseURL
    }
}

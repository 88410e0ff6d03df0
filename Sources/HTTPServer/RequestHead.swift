/// The parser of a request head (the request line and the header fields), kept pure so every
/// refusal can be tested without a socket.
///
/// It is strict where leniency lets a request mean two things to two readers (RFC 9112 §2.2,
/// §3, §5): one space between the parts of the request line, no whitespace before a field's
/// colon, no obsolete line folding, no control characters, and exactly one `Host` in an HTTP/1.1
/// request. A line may end in CRLF or in a bare LF.
enum RequestHead {
    /// Why a head was refused, and the status that says so.
    enum Failure: Error, Hashable {
        /// Not HTTP/1.x syntax: 400.
        case malformed(String)
        /// A well-formed request of an HTTP version other than 1.0 and 1.1: 505.
        case unsupportedVersion(String)

        var status: Int {
            switch self {
            case .malformed: 400
            case .unsupportedVersion: 505
            }
        }

        /// The reason, for the body of the refusal.
        var reason: String {
            switch self {
            case .malformed(let reason): reason
            case .unsupportedVersion(let version): "HTTP version \(version) is not supported; use HTTP/1.1"
            }
        }
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// The index just past the empty line that ends the head in `bytes`, looking from `start`
    /// (where the last look left off), or nil when the head has not ended yet.
    static func end(in bytes: [UInt8], from start: Int) -> Int? {
        var index = max(start, 0)
        while let feed = bytes[index...].firstIndex(of: lineFeed) {
            let next = feed + 1
            if next < bytes.count, bytes[next] == lineFeed { return next + 1 }
            if next + 1 < bytes.count, bytes[next] == carriageReturn, bytes[next + 1] == lineFeed { return next + 2 }
            index = next
        }
        return nil
    }

    /// The request that `head` (the request line and header fields, with or without the empty line
    /// that ends them) spells.
    static func parse(_ head: some Collection<UInt8>) -> Result<HTTPServer.Request, Failure> {
        var lines = head.split(separator: lineFeed, omittingEmptySubsequences: false).map { line in
            line.last == carriageReturn ? line.dropLast() : line[...]
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { return .failure(.malformed("empty request")) }
        if lines.contains(where: { $0.contains(carriageReturn) }) {
            return .failure(.malformed("a carriage return inside a line"))
        }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, let method = parts.first, let target = parts.dropFirst().first,
            let version = parts.last
        else {
            return .failure(.malformed("the request line is not METHOD TARGET HTTP-VERSION"))
        }
        guard !method.isEmpty, method.allSatisfy(isTokenByte) else {
            return .failure(.malformed("the method is not a token"))
        }
        let isAsteriskForm = method.elementsEqual("OPTIONS".utf8) && target.elementsEqual("*".utf8)
        guard target.first == UInt8(ascii: "/") || isAsteriskForm, target.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            return .failure(.malformed("the request target is not a path such as /metrics"))
        }
        let versionText = String(decoding: version, as: UTF8.self)
        switch versionText {
        case "HTTP/1.0", "HTTP/1.1":
            break
        default:
            let digit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
            let number = Array(version.dropFirst(5))
            guard version.starts(with: "HTTP/".utf8), number.count == 3, digit(number[0]),
                number[1] == UInt8(ascii: "."), digit(number[2])
            else {
                return .failure(.malformed("the request line ends in no HTTP version"))
            }
            return .failure(.unsupportedVersion(versionText))
        }
        var headers: [HTTPServer.Header] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(.malformed("a header line without a colon"))
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                return .failure(.malformed("a header name that is not a token (or a folded line)"))
            }
            let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            let value = line[line.index(after: colon)...].drop(while: isWhitespace).reversed().drop(while: isWhitespace)
                .reversed()
            guard !value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                return .failure(.malformed("a control character in a header value"))
            }
            headers.append(
                HTTPServer.Header(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        let hosts = headers.count { $0.name.lowercased() == "host" }
        guard hosts <= 1, hosts == 1 || versionText == "HTTP/1.0" else {
            return .failure(.malformed("an HTTP/1.1 request needs exactly one Host header"))
        }
        return .success(
            HTTPServer.Request(
                method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
                headers: headers))
    }

    /// Whether `byte` may be part of a token (a method or a header name): RFC 9110's tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

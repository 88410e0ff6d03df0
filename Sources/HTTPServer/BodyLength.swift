/// The length of a request's body from its header fields, kept pure so every refusal can be
/// tested without a socket.
///
/// Only `Content-Length` frames a body here (RFC 9112 §6.2): a request with `Transfer-Encoding`
/// is refused whatever it also says, since one that has both can be read two ways by two readers
/// (RFC 9112 §6.3, request smuggling), and gitbay sends every delivery with its length.
enum BodyLength {
    /// Why a body will not be read, and the status that says so.
    enum Refusal: Error, Hashable {
        /// No `Content-Length`: 411.
        case lengthRequired
        /// A `Transfer-Encoding` field: 411, since the server frames bodies by length only.
        case transferEncoding
        /// A `Content-Length` that is not one decimal number, or more than one of them: 400.
        case malformed(String)
        /// A `Content-Length` above the route's limit: 413.
        case tooLarge(limit: Int)

        var status: Int {
            switch self {
            case .lengthRequired, .transferEncoding: 411
            case .malformed: 400
            case .tooLarge: 413
            }
        }

        /// The reason, for the body of the refusal.
        var reason: String {
            switch self {
            case .lengthRequired: "a body needs a Content-Length"
            case .transferEncoding: "send the body with a Content-Length, not a Transfer-Encoding"
            case .malformed(let reason): reason
            case .tooLarge(let limit): "the body is longer than \(limit) bytes"
            }
        }
    }

    /// The body's length in bytes as `headers` declare it, at most `limit`.
    static func of(_ headers: [HTTPServer.Header], limit: Int) -> Result<Int, Refusal> {
        let named = { (name: String) in headers.filter { $0.name.lowercased() == name } }
        guard named("transfer-encoding").isEmpty else { return .failure(.transferEncoding) }
        let lengths = named("content-length")
        guard let declared = lengths.first else { return .failure(.lengthRequired) }
        guard lengths.count == 1 else { return .failure(.malformed("more than one Content-Length")) }
        let digits = declared.value.utf8
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return .failure(.malformed("the Content-Length is not a number of bytes"))
        }
        // Digits only: a number too large for an Int is too large for any limit.
        guard let length = Int(declared.value), length <= limit else { return .failure(.tooLarge(limit: limit)) }
        return .success(length)
    }
}

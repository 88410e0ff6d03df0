/// Why the server could not start, or why a `--listen` value was refused: one line fit for a user.
public struct HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line, such as "cannot listen on 127.0.0.1:9464: Address already in use".
    public var message: String

    public var description: String { message }

    init(_ message: String) {
        self.message = message
    }

    /// `text` in quotes with its control characters escaped, so a message quoting it stays one line.
    static func quoted(_ text: some StringProtocol) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return "'\(escaped)'"
    }
}

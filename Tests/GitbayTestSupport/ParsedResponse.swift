import Foundation

/// A response as a client reads it off the wire: the tests' view, parsed independently of the
/// server's encoder.
public struct ParsedResponse: Sendable {
    public var statusLine: String
    public var status: Int
    /// The header fields in order, names as sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    /// The response in `bytes`, or nil when they hold no complete head.
    public init?(_ bytes: [UInt8]) {
        let terminator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: terminator) }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        statusLine = lines[0]
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        self.status = status
        headers = lines.dropFirst().map { line in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            return (String(line[..<colon]), line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
        }
        body = Array(bytes[(end + terminator.count)...])
    }

    /// The values of the fields named `name`, compared without regard to case.
    public func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The value of the only field named `name`, or nil when there is none or more than one.
    public func header(_ name: String) -> String? {
        let values = values(name)
        return values.count == 1 ? values[0] : nil
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

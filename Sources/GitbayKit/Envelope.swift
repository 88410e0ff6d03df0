/// The body of every gitbay API reply: `{"protocol_version":1,"data"|"error",...,"exit_code":N}`.
///
/// `exit_code` is absent on errors raised before dispatch (401, 429, GET 404 "unknown command",
/// GET 400 "changes state"), so it is optional; callers key on it, never on the `error` text.
public struct Envelope<Payload: Decodable & Sendable>: Decodable, Sendable {
    /// The protocol major version; a client refuses a major it does not know.
    public var protocolVersion: Int?
    /// The command's payload on success.
    public var data: Payload?
    /// A human-readable failure message.
    public var error: String?
    /// The command's exit code, when the request reached the dispatcher.
    public var exitCode: Int?
    /// Diagnostics the command wrote to stderr (trimmed).
    public var stderr: String?
    /// Raw stdout, when it was not one JSON object (`mr diff`, `build log`).
    public var output: String?

    public init(
        protocolVersion: Int? = 1, data: Payload? = nil, error: String? = nil, exitCode: Int? = nil,
        stderr: String? = nil, output: String? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.data = data
        self.error = error
        self.exitCode = exitCode
        self.stderr = stderr
        self.output = output
    }

    private enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol_version"
        case data
        case error
        case exitCode = "exit_code"
        case stderr
        case output
    }
}

/// The envelope's `exit_code` values, documented by gitbay as stable.
public enum GitbayExitCode: Int, Sendable, Hashable, Codable {
    /// Success (HTTP 200).
    case ok = 0
    /// A refusal due to state, or a store or IO error (HTTP 500).
    case failure = 1
    /// Bad invocation: unknown command or flag, bad value or cursor (HTTP 400).
    case usage = 2
    /// Missing, or not visible to the caller (HTTP 404).
    case notFound = 3
    /// Denied: permissions, read-only token, archived repository, per-account write limit (HTTP 403).
    case denied = 4
    /// A server or protocol error (HTTP 500).
    case `protocol` = 5
}

extension Envelope: Encodable where Payload: Encodable {
    /// Writes the envelope back (for simulators and recorded replies), omitting absent fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(protocolVersion, forKey: .protocolVersion)
        try container.encodeIfPresent(data, forKey: .data)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(exitCode, forKey: .exitCode)
        try container.encodeIfPresent(stderr, forKey: .stderr)
        try container.encodeIfPresent(output, forKey: .output)
    }
}

extension Envelope: Equatable where Payload: Equatable {}
extension Envelope: Hashable where Payload: Hashable {}

import GitbayClient
import GitbayKit

/// The writes the engine makes, behind a protocol so tests can fake them.
public protocol ForgeWriter: Sendable {
    /// Sends one write; throws the client's error, whose `mayHaveApplied` says whether it may
    /// have taken effect anyway.
    func write(_ command: ControlCommand) async throws(GitbayError)
}

extension GitbayClient: ForgeWriter {
    public func write(_ command: ControlCommand) async throws(GitbayError) {
        _ = try await send(command, expecting: IgnoredReply.self)
    }
}

/// A write's reply, read only to know it succeeded.
private struct IgnoredReply: Decodable, Sendable {
    init(from decoder: any Decoder) throws {}
}

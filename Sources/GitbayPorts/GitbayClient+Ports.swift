import GitbayClient
import GitbayKit
import RuleEngine

/// The HTTP client is the engine's reader as it is: its commands and listings are the ones the
/// engine sends.
extension GitbayClient: ForgeReader {}

/// The HTTP client writes for the engine, its errors read as the engine's ``ForgeFailure``.
extension GitbayClient: ForgeWriter {
    public func write(_ command: ControlCommand) async throws(ForgeFailure) {
        do {
            _ = try await send(command, expecting: IgnoredReply.self)
        } catch {
            throw error.forgeFailure
        }
    }
}

/// A write's reply, read only to know it succeeded.
private struct IgnoredReply: Decodable, Sendable {
    init(from decoder: any Decoder) throws {}
}

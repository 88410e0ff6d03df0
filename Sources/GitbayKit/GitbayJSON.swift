import Foundation

/// Coders configured for gitbay payloads and for the bot's own snapshot files.
///
/// Every model decodes with a plain `JSONDecoder` (times and defaults are handled in the models), so
/// the decoder is plain; the encoder sorts keys as gitbay does, so files diff stably.
public enum GitbayJSON {
    /// A decoder for gitbay replies.
    public static func decoder() -> JSONDecoder {
        JSONDecoder()
    }

    /// An encoder writing keys sorted, like gitbay's re-marshalled replies.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

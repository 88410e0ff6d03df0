import Foundation

/// Decoding helpers that apply gitbay's wire conventions in one place.
///
/// gitbay emits a nil nested slice as `null`, drops omitempty keys, and writes unset times as `""`;
/// these helpers turn all of that into empty arrays, `false` and `nil` so every model agrees.
extension KeyedDecodingContainer {
    /// An array that means "none" when absent or `null`.
    func decodeList<Element: Decodable>(_ type: Element.Type, forKey key: Key) throws -> [Element] {
        try decodeIfPresent([Element].self, forKey: key) ?? []
    }

    /// An omitempty boolean: absent or `null` means `false`.
    func decodeFlag(forKey key: Key) throws -> Bool {
        try decodeIfPresent(Bool.self, forKey: key) ?? false
    }

    /// A timestamp the server always sends.
    func decodeTimestamp(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = GitbayTimestamp.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "not a gitbay timestamp: \(text)")
        }
        return date
    }

    /// An optional timestamp: absent, `null` or `""` (gitbay's unset time) decode as `nil`.
    func decodeTimestampIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key), !text.isEmpty else { return nil }
        guard let date = GitbayTimestamp.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "not a gitbay timestamp: \(text)")
        }
        return date
    }
}

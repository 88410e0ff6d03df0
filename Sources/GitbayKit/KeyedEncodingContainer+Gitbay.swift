import Foundation

/// Encoding helpers that write gitbay's shapes back: omitempty keys left out, times in their form.
///
/// Encoding mirrors Go's `omitempty`, so `encode(decode(x))` reproduces a server reply and snapshot
/// files read like what the server sends.
extension KeyedEncodingContainer {
    /// Writes a timestamp in the precision gitbay uses for that field.
    mutating func encodeTimestamp(_ date: Date, precision: GitbayTimestamp.Precision, forKey key: Key) throws {
        try encode(GitbayTimestamp.format(date, precision: precision), forKey: key)
    }

    /// Writes an optional timestamp, leaving the key out when it is `nil`.
    mutating func encodeTimestampIfPresent(
        _ date: Date?, precision: GitbayTimestamp.Precision, forKey key: Key
    ) throws {
        if let date {
            try encodeTimestamp(date, precision: precision, forKey: key)
        }
    }

    /// Writes an omitempty array, leaving the key out when it is empty.
    mutating func encodeListIfNotEmpty<Element: Encodable>(_ list: [Element], forKey key: Key) throws {
        if !list.isEmpty {
            try encode(list, forKey: key)
        }
    }

    /// Writes an omitempty boolean, leaving the key out when it is `false`.
    mutating func encodeFlag(_ flag: Bool, forKey key: Key) throws {
        if flag {
            try encode(true, forKey: key)
        }
    }
}

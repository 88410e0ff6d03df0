extension KeyedDecodingContainer {
    /// `key`'s value, or `nil` when it is absent or null, or wrong: then its diagnostics are added
    /// to `problems` and the caller goes on with the mapping's other keys.
    ///
    /// For a type whose keys stand alone (a configuration file), so a file with many mistakes is
    /// reported whole in one pass rather than one mistake a run. The unknown-key check passes over
    /// whatever the wrong value holds: in a mapping read only in part, a key not yet asked for
    /// cannot be told from an unknown one. With a decoder other than ``YAMLDecoder`` the error is
    /// thrown as usual.
    public func decodeIfPresent<T: Decodable>(
        _ type: T.Type = T.self, forKey key: Key, gathering problems: inout [Diagnostic]
    ) throws -> T? {
        guard contains(key) else { return nil }
        guard let decoder = try superDecoder(forKey: key) as? NodeDecoder else {
            return try decodeIfPresent(type, forKey: key)
        }
        guard !decoder.node.isNull else { return nil }
        do {
            return try decoder.context.decode(type, with: decoder)
        } catch {
            decoder.context.abandon(decoder.codingPath)
            problems += error.diagnostics
            return nil
        }
    }
}

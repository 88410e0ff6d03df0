/// HMAC-SHA256 (RFC 2104 with SHA-256, the MAC of RFC 4231): what gitbay signs a webhook's body with.
///
/// gitbay's `X-Gitbay-Signature-256` is this code of the exact body bytes, keyed by the hook's
/// secret, so a receiver that recomputes it knows the body came from someone holding the secret
/// and was not changed on the way.
public enum HMACSHA256 {
    /// The bytes of an authentication code.
    public static let codeByteCount = SHA256.digestByteCount

    /// The authentication code of `message` under `key`: 32 bytes.
    ///
    /// A key longer than a block (64 bytes) is hashed first and a shorter one padded with zeros,
    /// as RFC 2104 §2 says; every key, the empty one included, gives a code.
    public static func code(for message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        var block = key.count > SHA256.blockByteCount ? SHA256.hash(key) : Array(key)
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalized())
        return outer.finalized()
    }
}

/// HMAC-SHA256 (RFC 2104 with SHA-256, the MAC of RFC 4231): what gitbay signs a webhook's body with.
///
/// gitbay's `X-Gitbay-Signature-256` is this code of the exact body bytes, keyed by the hook's
/// secret, so a receiver that recomputes it knows the body came from someone holding the secret
/// and was not changed on the way. The code comes from the platform's cryptography library
/// (``SystemCrypto``), not from code of our own.
public enum HMACSHA256 {
    /// The bytes of an authentication code.
    public static let codeByteCount = SystemCrypto.outputByteCount

    /// The authentication code of `message` under `key`: 32 bytes.
    ///
    /// A key longer than a block (64 bytes) is hashed first and a shorter one padded with zeros,
    /// as RFC 2104 §2 says; every key, the empty one included, gives a code.
    public static func code(for message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        SystemCrypto.hmacSHA256(Array(message), key: Array(key))
    }
}

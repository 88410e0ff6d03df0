/// SHA-256 digests (FIPS 180-4), from the platform's cryptography library.
///
/// The watcher keys each webhook body it took by its digest, so a body gitbay redelivers, or a
/// captured one replayed under another id, acts once.
public enum SHA256Digest {
    /// The bytes of a digest.
    public static let byteCount = SystemCrypto.outputByteCount

    /// The digest of `bytes`: 32 bytes.
    public static func of(_ bytes: some Collection<UInt8>) -> [UInt8] {
        SystemCrypto.sha256(Array(bytes))
    }
}

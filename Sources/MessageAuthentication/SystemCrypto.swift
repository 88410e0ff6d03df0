#if canImport(CCrypto)
import CCrypto
#elseif canImport(CommonCrypto)
import CommonCrypto
import Darwin
#endif

/// The platform's audited cryptography, behind the three one-shot calls the bot needs: libcrypto
/// on Linux (already in the process: libcurl links it), CommonCrypto and libc on Darwin.
///
/// Secrets go through a library reviewed and tested far beyond what one project can do; this
/// enum only passes contiguous bytes in and out, so nothing here decides a result.
enum SystemCrypto {
    /// The bytes of a SHA-256 digest and of an HMAC-SHA256 code.
    static let outputByteCount = 32

    /// The SHA-256 digest of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: outputByteCount)
        bytes.withUnsafeBytes { data in
            digest.withUnsafeMutableBufferPointer { out in
                #if canImport(CCrypto)
                let made = ccrypto_sha256(data.baseAddress, data.count, out.baseAddress)
                precondition(made == 1, "libcrypto could not compute a SHA-256 digest")
                #else
                _ = CC_SHA256(data.baseAddress, CC_LONG(data.count), out.baseAddress)
                #endif
            }
        }
        return digest
    }

    /// The HMAC-SHA256 code of `message` under `key`.
    ///
    /// A failure can only be the library's own (a key past 2 GiB, which no secret file holds),
    /// so it stops the process rather than hand back a code that is not one.
    static func hmacSHA256(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: outputByteCount)
        key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { data in
                code.withUnsafeMutableBufferPointer { out in
                    #if canImport(CCrypto)
                    let made = ccrypto_hmac_sha256(
                        keyBytes.baseAddress, keyBytes.count, data.baseAddress, data.count, out.baseAddress)
                    precondition(made == 1, "libcrypto could not compute an HMAC-SHA256 code")
                    #else
                    CCHmac(
                        CCHmacAlgorithm(kCCHmacAlgSHA256), keyBytes.baseAddress, keyBytes.count,
                        data.baseAddress, data.count, out.baseAddress)
                    #endif
                }
            }
        }
        return code
    }

    /// Whether two byte arrays of the same length hold the same bytes, compared in a time that
    /// depends on the length alone (`CRYPTO_memcmp`, `timingsafe_bcmp`).
    static func equalInConstantTime(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        precondition(left.count == right.count, "a constant-time comparison takes bytes of one length")
        guard !left.isEmpty else { return true }
        return left.withUnsafeBytes { leftBytes in
            right.withUnsafeBytes { rightBytes in
                #if canImport(CCrypto)
                ccrypto_equal(leftBytes.baseAddress, rightBytes.baseAddress, leftBytes.count) == 1
                #else
                timingsafe_bcmp(leftBytes.baseAddress, rightBytes.baseAddress, leftBytes.count) == 0
                #endif
            }
        }
    }
}

import MessageAuthentication
import Testing

/// SHA-256, as libcrypto (CommonCrypto on Darwin) computes it for the bot, against the examples of FIPS 180-4 (NIST's "Examples with intermediate values" and the
/// long message of its test vectors).
@Suite struct SHA256DigestTests {
    /// The 448-bit message is 56 bytes, so its padding takes a second block: the case a length
    /// check one byte off gets wrong; the 896-bit one fills a block and a half.
    @Test(
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                    + "mnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func theNISTExamplesHashToTheirDigests(message: String, digest: String) {
        #expect(SHA256Digest.of(Array(message.utf8)).lowercaseHex == digest)
    }

    /// One million 'a's: a message of many blocks.
    @Test func theMillionAsHashToTheirDigest() {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let digest = SHA256Digest.of(million)
        #expect(digest.count == SHA256Digest.byteCount)
        #expect(digest.lowercaseHex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// A slice hashes as the bytes it holds, not as the array it was cut from.
    @Test func aSliceHashesAsItsOwnBytes() {
        let message = Array("xabcx".utf8)
        #expect(
            SHA256Digest.of(message[1..<4]).lowercaseHex
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

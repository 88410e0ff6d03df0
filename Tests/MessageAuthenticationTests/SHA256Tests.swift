import MessageAuthentication
import Testing

/// SHA-256 against the examples of FIPS 180-4 (NIST's "Examples with intermediate values" and the
/// long message of its test vectors).
@Suite struct SHA256Tests {
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
        #expect(SHA256.hash(Array(message.utf8)).lowercaseHex == digest)
    }

    /// One million 'a's, hashed at once and fed in pieces that end before, on and after block
    /// boundaries.
    @Test func theMillionAsHashToTheirDigestWholeAndInUnevenPieces() {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let digest = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hash(million).lowercaseHex == digest)
        var pieces = SHA256()
        var start = 0
        for size in [1, 63, 64, 65, 127, 1000] where start < million.count {
            pieces.update(million[start..<start + size])
            start += size
        }
        pieces.update(million[start...])
        #expect(pieces.finalized().lowercaseHex == digest)
    }

    /// Every length around a block's end pads to the digest of the whole message fed at once,
    /// and reading the digest leaves the hash able to take more.
    @Test func aMessageFedAByteAtATimeHashesAsOneFedWhole() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        var bytewise = SHA256()
        for byte in message.prefix(20) { bytewise.update([byte]) }
        #expect(bytewise.finalized() == SHA256.hash(message.prefix(20)))
        for byte in message.dropFirst(20) { bytewise.update([byte]) }
        #expect(bytewise.finalized().lowercaseHex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hash(message).count == SHA256.digestByteCount)
    }
}

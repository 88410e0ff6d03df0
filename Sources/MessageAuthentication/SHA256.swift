/// SHA-256 (FIPS 180-4 §6.2) in pure Swift, fed in pieces and read once at the end.
///
/// The toolchain here has no CryptoKit and no swift-crypto, and a webhook's signature is an
/// HMAC-SHA256, so the bot carries its own: a few dozen lines checked against NIST's examples,
/// rather than one more C library to install. Its time depends on the input's length only: no
/// branch and no table index depends on the bytes, so hashing a secret key reveals nothing of it.
public struct SHA256: Sendable {
    /// The bytes of a digest.
    public static let digestByteCount = 32
    /// The bytes of one block the compression function takes.
    public static let blockByteCount = 64

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (§4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The hash value so far: at first the fractional parts of the square roots of the first eight
    /// primes (§5.3.3).
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// The bytes fed since the last whole block: fewer than ``blockByteCount``.
    private var pending: [UInt8] = []
    /// The bytes fed in all, for the length the padding ends with.
    private var byteCount: UInt64 = 0

    /// A hash of nothing yet.
    public init() {}

    /// The digest of `message`: 32 bytes.
    public static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        var hash = SHA256()
        hash.update(message)
        return hash.finalized()
    }

    /// Feeds `bytes`, after those fed before.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        byteCount &+= UInt64(bytes.count)
        pending.reserveCapacity(Self.blockByteCount)
        for byte in bytes {
            pending.append(byte)
            if pending.count == Self.blockByteCount {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The digest of every byte fed: 32 bytes.
    ///
    /// The hash itself is left as it was, so more may be fed. The padding (§5.1.1): a one bit,
    /// zeros up to 56 bytes into a block, and the message's length in bits as a big-endian 64-bit
    /// number.
    public func finalized() -> [UInt8] {
        var last = self
        let bitCount = byteCount &* 8
        var padding: [UInt8] = [0x80]
        let used = (pending.count + 1) % Self.blockByteCount
        padding += [UInt8](repeating: 0, count: (Self.blockByteCount + 56 - used) % Self.blockByteCount)
        padding += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bitCount >> (8 * $0)) }
        last.update(padding)
        return last.state.flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    /// Mixes one 64-byte block into the hash value (§6.2.2).
    private mutating func compress(_ block: [UInt8]) {
        var schedule = [UInt32](repeating: 0, count: 64)
        for index in 0..<16 {
            schedule[index] = block[4 * index..<4 * index + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        for index in 16..<64 {
            let early = schedule[index - 15]
            let late = schedule[index - 2]
            let sigma0 = rotated(early, 7) ^ rotated(early, 18) ^ (early >> 3)
            let sigma1 = rotated(late, 17) ^ rotated(late, 19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var (a, b, c, d) = (state[0], state[1], state[2], state[3])
        var (e, f, g, h) = (state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let bigSigma1 = rotated(e, 6) ^ rotated(e, 11) ^ rotated(e, 25)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ bigSigma1 &+ choice &+ Self.roundConstants[index] &+ schedule[index]
            let bigSigma0 = rotated(a, 2) ^ rotated(a, 13) ^ rotated(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let second = bigSigma0 &+ majority
            (h, g, f, e) = (g, f, e, d &+ first)
            (d, c, b, a) = (c, b, a, first &+ second)
        }
        for (index, word) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= word }
    }

    /// `word` rotated right by `count` bits.
    private func rotated(_ word: UInt32, _ count: UInt32) -> UInt32 {
        word >> count | word << (32 - count)
    }
}

/// Comparisons whose time does not tell where two byte sequences differ.
///
/// A comparison that stops at the first differing byte lets a client that can time the answers
/// guess a valid signature a byte at a time; this one copies every byte of both and leaves the
/// comparison to the platform's constant-time routine (``SystemCrypto/equalInConstantTime(_:_:)``).
public enum ConstantTime {
    /// Whether `left` and `right` hold the same bytes, in a time that depends on their lengths
    /// only.
    ///
    /// Sequences of different lengths are unequal; their bytes are still all read, so no content
    /// decides when the reading ends. The lengths themselves are not hidden: a signature's length
    /// is public.
    ///
    /// Generic so a test can count the bytes it reads: every one of both, wherever they differ.
    public static func isEqual<Bytes: RandomAccessCollection<UInt8>>(_ left: Bytes, _ right: Bytes) -> Bool {
        let leftBytes = Array(left)
        let rightBytes = Array(right)
        guard leftBytes.count == rightBytes.count else { return false }
        return SystemCrypto.equalInConstantTime(leftBytes, rightBytes)
    }
}

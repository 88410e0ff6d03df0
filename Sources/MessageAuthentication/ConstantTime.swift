/// Comparisons whose time does not tell where two byte sequences differ.
///
/// A comparison that stops at the first differing byte lets a client that can time the answers
/// guess a valid signature a byte at a time; this one looks at every byte whatever it finds.
public enum ConstantTime {
    /// Whether `left` and `right` hold the same bytes, in a time that depends on their lengths
    /// only.
    ///
    /// Sequences of different lengths are unequal, and their bytes are still all compared (the
    /// shorter one read as zeros past its end), so no content decides when the loop ends. The
    /// lengths themselves are not hidden: a signature's length is public.
    ///
    /// Generic so a test can count the bytes it reads: every one of both, wherever they differ.
    public static func isEqual<Bytes: RandomAccessCollection<UInt8>>(_ left: Bytes, _ right: Bytes) -> Bool
    where Bytes.Index == Int {
        var difference: UInt8 = left.count == right.count ? 0 : 1
        for offset in 0..<max(left.count, right.count) {
            let leftByte = offset < left.count ? left[left.startIndex + offset] : 0
            let rightByte = offset < right.count ? right[right.startIndex + offset] : 0
            difference |= leftByte ^ rightByte
        }
        return difference == 0
    }
}

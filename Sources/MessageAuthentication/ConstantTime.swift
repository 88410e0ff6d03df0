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
    public static func isEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        var difference: UInt8 = left.count == right.count ? 0 : 1
        for index in 0..<max(left.count, right.count) {
            let leftByte = index < left.count ? left[index] : 0
            let rightByte = index < right.count ? right[index] : 0
            difference |= leftByte ^ rightByte
        }
        return difference == 0
    }
}

extension Array where Element == UInt8 {
    /// The bytes `text` spells as lowercase hexadecimal digits, two a byte, or nil if it is anything
    /// else (an odd count, an uppercase digit, any other character).
    ///
    /// Strict because gitbay writes only lowercase digits: a signature it did not write is
    /// refused before any comparison, and the comparison is of raw codes.
    public init?(lowercaseHex text: some StringProtocol) {
        let digits = [UInt8](text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.value(ofDigit: digits[index]), let low = Self.value(ofDigit: digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }

    /// The value of one lowercase hexadecimal digit.
    private static func value(ofDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

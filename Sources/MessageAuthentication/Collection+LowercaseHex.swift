extension Collection<UInt8> {
    /// The bytes as lowercase hexadecimal digits, two a byte: how gitbay writes a signature
    /// (`sha256=` and the code's digits) and NIST writes a digest.
    public var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

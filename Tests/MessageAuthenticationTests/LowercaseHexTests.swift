import MessageAuthentication
import Testing

/// Bytes to lowercase hex and back, strictly: the form of gitbay's signatures.
@Suite struct LowercaseHexTests {
    @Test func bytesRoundTripThroughTheirDigits() {
        let bytes: [UInt8] = [0x00, 0x0f, 0xa5, 0xff]
        #expect(bytes.lowercaseHex == "000fa5ff")
        #expect([UInt8](lowercaseHex: "000fa5ff") == bytes)
        #expect([UInt8](lowercaseHex: "") == [])
    }

    /// Uppercase digits, an odd count and any other character spell no bytes.
    @Test(arguments: ["000FA5FF", "0", "abc", "0g", " 00", "00 ", "0x00", "+0", "٠٠"])
    func anythingButLowercaseDigitPairsIsRefused(_ text: String) {
        #expect([UInt8](lowercaseHex: text) == nil)
    }
}

import GitbayClient
import Testing

/// Sizes as settings spell them and as errors name them.
@Suite struct ByteCountTests {
    @Test(arguments: [
        ("33554432", 33_554_432), ("32MiB", 33_554_432), ("32 MiB", 33_554_432), ("512KiB", 524_288),
        ("1GiB", 1_073_741_824), ("0", 0), (" 7 ", 7),
    ])
    func sizesAreReadInBytesOrBinaryUnits(text: String, bytes: Int) {
        #expect(ByteCount(parsing: text) == ByteCount(bytes: bytes))
    }

    @Test(arguments: ["", "MiB", "32MB", "32 mib", "-1", "1.5MiB", "0x20", "9999999999GiB", "32 MiBs"])
    func anythingElseIsNotASize(text: String) {
        #expect(ByteCount(parsing: text) == nil)
    }

    @Test(arguments: [
        (ByteCount.mebibytes(32), "32 MiB"), (.kibibytes(1536), "1536 KiB"), (.kibibytes(1024 * 1024), "1 GiB"),
        (ByteCount(bytes: 1000), "1000 bytes"), (ByteCount(bytes: 1), "1 byte"), (ByteCount(bytes: 0), "0 bytes"),
    ])
    func sizesAreWrittenInTheLargestUnitThatDividesThem(size: ByteCount, text: String) {
        #expect(size.description == text)
    }
}

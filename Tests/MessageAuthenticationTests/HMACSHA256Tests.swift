import MessageAuthentication
import Testing

/// HMAC-SHA256 against every test case of RFC 4231 §4.
@Suite struct HMACSHA256Tests {
    /// One case of RFC 4231: a key, a message and the code, all but case 5 whole.
    struct Case: Sendable, CustomTestStringConvertible {
        var number: Int
        var key: [UInt8]
        var message: [UInt8]
        var code: String

        var testDescription: String { "RFC 4231 test case \(number)" }
    }

    static let cases: [Case] = [
        Case(
            number: 1, key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8),
            code: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Case(
            number: 2, key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8),
            code: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Case(
            number: 3, key: [UInt8](repeating: 0xaa, count: 20), message: [UInt8](repeating: 0xdd, count: 50),
            code: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Case(
            number: 4, key: Array(1...25), message: [UInt8](repeating: 0xcd, count: 50),
            code: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Case(
            number: 6, key: [UInt8](repeating: 0xaa, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            code: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Case(
            number: 7, key: [UInt8](repeating: 0xaa, count: 131),
            message: Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. The key needs"
                    + " to be hashed before being used by the HMAC algorithm.").utf8),
            code: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: cases)
    func theRFC4231CasesGiveTheirCodes(_ testCase: Case) {
        let code = HMACSHA256.code(for: testCase.message, key: testCase.key)
        #expect(code.count == HMACSHA256.codeByteCount)
        #expect(code.lowercaseHex == testCase.code)
    }

    /// Case 5 gives only the first 128 bits of its code.
    @Test func theTruncatedCaseGivesTheCodeItsPrefixIsOf() {
        let code = HMACSHA256.code(for: Array("Test With Truncation".utf8), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(code.prefix(16).lowercaseHex == "a3b6167473100ee06e0c796c2955552b")
    }

    /// A key of exactly one block (SHA-256's 64 bytes) is used as it is, one byte longer is hashed
    /// first: the boundary of RFC 2104's rule.
    @Test func aKeyOfOneBlockIsUsedAsItIsAndALongerOneAsItsHash() {
        let message = Array("gitbay".utf8)
        let block = [UInt8](repeating: 0x61, count: 64)
        let longer = block + [0x61]
        #expect(
            HMACSHA256.code(for: message, key: longer) == HMACSHA256.code(for: message, key: SHA256Digest.of(longer)))
        #expect(HMACSHA256.code(for: message, key: block) != HMACSHA256.code(for: message, key: SHA256Digest.of(block)))
    }

    /// The empty key and the empty message are inputs like any other.
    ///
    /// OpenSSL 3 reads a null key as "the previous key", which the platform layer must not pass;
    /// the codes are Python's `hmac`'s.
    @Test func theEmptyKeyAndTheEmptyMessageGiveTheirCodes() {
        #expect(
            HMACSHA256.code(for: [UInt8](), key: [UInt8]()).lowercaseHex
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        #expect(
            HMACSHA256.code(for: Array("gitbay".utf8), key: [UInt8]()).lowercaseHex
                == HMACSHA256.code(for: Array("gitbay".utf8), key: [0]).lowercaseHex)
        #expect(
            HMACSHA256.code(for: [UInt8](), key: Array("key".utf8)).lowercaseHex
                == "5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0")
    }
}

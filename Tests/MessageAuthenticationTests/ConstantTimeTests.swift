import Foundation
import MessageAuthentication
import Testing

/// The comparison of signatures: right answers, and a time that does not follow the first
/// difference.
@Suite struct ConstantTimeTests {
    @Test func equalSequencesAreEqualAndAnyDifferenceIsNot() {
        let code = Array("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7".utf8)
        #expect(ConstantTime.isEqual(code, code))
        #expect(ConstantTime.isEqual([], []))
        for index in [0, 31, 63] {
            var changed = code
            changed[index] ^= 0x01
            #expect(!ConstantTime.isEqual(code, changed), "a difference at byte \(index) went unseen")
        }
    }

    /// A prefix, an extension with zeros (what the shorter one reads as past its end) and the
    /// empty sequence are all unequal.
    @Test func sequencesOfDifferentLengthsAreUnequal() {
        let code: [UInt8] = [1, 2, 3, 4]
        #expect(!ConstantTime.isEqual(code, [1, 2, 3]))
        #expect(!ConstantTime.isEqual([1, 2, 3], code))
        #expect(!ConstantTime.isEqual(code, code + [0]))
        #expect(!ConstantTime.isEqual([], [0]))
        #expect(!ConstantTime.isEqual(code, []))
    }

    /// A comparison that stopped at the first difference would read one byte of each for a
    /// difference in the first byte and all of them for one in the last: this one reads every byte
    /// of both whatever it finds (counted, not timed, so a loaded machine cannot fail it).
    @Test(arguments: [0, 17, 63])
    func everyByteIsReadWhereverTheSequencesDiffer(at index: Int) {
        let reference = [UInt8](repeating: 0x5a, count: 64)
        var other = reference
        other[index] ^= 0xff
        let reads = ReadCounter()
        #expect(!ConstantTime.isEqual(CountedBytes(reference, reads), CountedBytes(other, reads)))
        #expect(reads.count == 128, "read \(reads.count) of 128 bytes for a difference at \(index)")
        #expect(ConstantTime.isEqual(CountedBytes(reference, reads), CountedBytes(reference, reads)))
        #expect(reads.count == 256)
    }
}

/// How many bytes a comparison read.
private final class ReadCounter {
    var count = 0
}

/// Bytes that count each read of them.
private struct CountedBytes: RandomAccessCollection {
    let bytes: [UInt8]
    let reads: ReadCounter

    init(_ bytes: [UInt8], _ reads: ReadCounter) {
        self.bytes = bytes
        self.reads = reads
    }

    var startIndex: Int { 0 }
    var endIndex: Int { bytes.count }

    subscript(position: Int) -> UInt8 {
        reads.count += 1
        return bytes[position]
    }
}

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

    /// A comparison that stopped at the first difference would take a millionth of the time for a
    /// difference in the first byte that it takes for one in the last; the bound is a factor of
    /// four between the fastest of several tries each, far from that and from a loaded machine's
    /// noise.
    @Test func theTimeDoesNotDependOnWhereTheSequencesDiffer() {
        let size = 1 << 20
        let reference = [UInt8](repeating: 0x5a, count: size)
        var first = reference
        first[0] ^= 0xff
        var last = reference
        last[size - 1] ^= 0xff
        let clock = ContinuousClock()
        var equal = false
        func fastest(_ other: [UInt8]) -> Duration {
            (0..<7).map { _ in clock.measure { equal = equal || ConstantTime.isEqual(reference, other) } }.min()!
        }
        let early = fastest(first)
        let late = fastest(last)
        #expect(!equal)
        #expect(early * 4 > late && late * 4 > early, "first byte: \(early), last byte: \(late)")
    }
}

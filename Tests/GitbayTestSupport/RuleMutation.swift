/// One random edit of a rule file's bytes, of the kinds that break YAML, the rule format and the
/// condition language in the ways people and tools do.
///
/// Shared by the mutation tests, which check what the checker reports on mutants, and the
/// `hostile` benchmark, which times it on the same mutants.
public enum RuleMutation: CaseIterable, Sendable {
    case flipBit
    case deleteBytes
    case duplicateLine
    case deleteLine
    case insertToken

    /// What `insertToken` inserts: YAML indicators, a tab, bytes that are not UTF-8 text, an open
    /// template, and a negation.
    static let tokens: [[UInt8]] = [
        Array("[".utf8), Array("{".utf8), Array("*".utf8), Array("&".utf8), Array(":".utf8), Array("\"".utf8),
        Array("'".utf8), Array("\t".utf8), [0x00], [0xFF], Array("{{".utf8), Array("not ".utf8), Array("- ".utf8),
        Array("\n".utf8), Array("---\n".utf8),
    ]

    /// `count` mutants of `originals`, taken in turn, each with one to three random edits drawn from `seed`.
    public static func mutants(of originals: [[UInt8]], count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            var bytes = originals[index % originals.count]
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes = apply(to: bytes, using: &generator)
            }
            return bytes
        }
    }

    /// `bytes` with one random edit applied.
    public static func apply(to bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        guard !bytes.isEmpty, let mutation = allCases.randomElement(using: &generator) else { return bytes }
        var result = bytes
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        switch mutation {
        case .flipBit:
            result[position] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        case .deleteBytes:
            let end = min(bytes.count, position + Int.random(in: 1...8, using: &generator))
            result.removeSubrange(position..<end)
        case .duplicateLine, .deleteLine:
            let line = lineRange(around: position, in: bytes)
            if mutation == .duplicateLine {
                result.insert(contentsOf: bytes[line], at: line.lowerBound)
            } else {
                result.removeSubrange(line)
            }
        case .insertToken:
            result.insert(contentsOf: tokens.randomElement(using: &generator) ?? [], at: position)
        }
        return result
    }

    /// The bytes of the line holding `position`, with its line feed.
    private static func lineRange(around position: Int, in bytes: [UInt8]) -> Range<Int> {
        let start = bytes[..<position].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let end = bytes[position...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        return start..<end
    }
}

/// Random byte edits of a valid rules file, aimed at the YAML layer: flipped bits, cut and doubled
/// spans, stray indicators, tabs, NUL and non-UTF-8 bytes, and runs of up to 400 `[`.
///
/// Shared by the YAML mutation test, which checks that every mutant decodes or fails with located
/// errors, and the `hostile` benchmark, which times the same mutants.
public enum YAMLMutation {
    /// The rules file the mutations start from: anchors, merge keys, flow and block styles, escapes.
    public static let source = """
        # gitbay-bot rules
        version: 1
        x-defaults: &defaults
          days: 30
          labels: [stale, "needs info"]
        rules:
          - name: stale issues
            <<: *defaults
            when: {kind: issues, idle: 30d, label: {none: [pinned, security]}}
            comment: |
              This issue has been idle for a while.
              It will be closed in 7 days.
          - name: 'close stale'
            when:
              kind: issues
              label: {all: [stale]}
            close: true
            days: 0x10
          - name: "ready stacks \\u00e9"
            when: {kind: merge_requests, stack.landed: true}
            labels: &l [ready]
          - {name: flow, when: {kind: builds}, labels: *l}

        """

    /// What the insert edit inserts.
    private static let inserts: [[UInt8]] = [
        [0x5B], [0x2A], [0x26], [0x09], Array("&a ".utf8), Array("*a".utf8), [0x00], [0xFF],
    ]

    /// `count` mutants of ``source``, each with one to four random edits drawn from `seed`.
    public static func mutants(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededGenerator(seed: seed)
        let original = Array(source.utf8)
        return (0..<count).map { _ in
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
                case 1:
                    bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
                case 2:
                    let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                    bytes.insert(contentsOf: bytes[position..<end], at: position)
                case 3: bytes.insert(contentsOf: inserts.randomElement(using: &random) ?? [], at: position)
                default:
                    bytes.insert(
                        contentsOf: repeatElement(0x5B, count: Int.random(in: 1...400, using: &random)), at: position)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            return bytes
        }
    }
}

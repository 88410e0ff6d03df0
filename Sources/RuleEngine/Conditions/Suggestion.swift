/// Finds the known name closest to a mistyped one, for "did you mean" hints.
enum Suggestion {
    /// The closest candidate within edit distance 3 (and less than the word's length), if any.
    static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(target, Array(candidate.unicodeScalars))
            if distance <= 3, distance < max(target.count, 2), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

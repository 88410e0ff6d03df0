/// "Did you mean" suggestions for misspelt keys, as swift-argument-parser makes for options.
enum EditDistance {
    /// The closest candidate within 3 edits of `word`, ties going to the alphabetically first.
    static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        candidates
            .map { (candidate: $0, distance: distance(word, $0)) }
            .filter { $0.distance <= 3 && $0.candidate != word }
            .min { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }?
            .candidate
    }

    /// The Levenshtein distance between two strings, over Characters.
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        var previous = Array(0...right.count)
        for (i, leftCharacter) in left.enumerated() {
            var current = [i + 1]
            for (j, rightCharacter) in right.enumerated() {
                let substitution = previous[j] + (leftCharacter == rightCharacter ? 0 : 1)
                current.append(min(substitution, previous[j + 1] + 1, current[j] + 1))
            }
            previous = current
        }
        return previous[right.count]
    }
}

/// "Did you mean" suggestions for a misspelt name, as swift-argument-parser makes for options.
///
/// One implementation for the whole bot, so an unknown YAML key, an unknown condition field and
/// an unknown command-line option are all matched the same way.
public enum Suggestion {
    /// The closest candidate within `maxDistance` edits of `word`; never `word` itself.
    ///
    /// Among those as few edits away, the one keeping more of the word's letters in order wins
    /// (`wdn` is two edits from both `mon` and `wed`, and `wed` keeps its `w` and `d`), then the
    /// alphabetically first.
    public static func closest(
        to word: String, among candidates: some Sequence<String>, maxDistance: Int = 3
    ) -> String? {
        candidates
            .map { (candidate: $0, distance: editDistance($0, word), kept: commonSubsequence($0, word)) }
            .filter { $0.distance <= maxDistance && $0.candidate != word }
            .min { ($0.distance, -$0.kept, $0.candidate) < ($1.distance, -$1.kept, $1.candidate) }?
            .candidate
    }

    /// The length of the longest sequence of Characters both strings hold in the same order.
    public static func commonSubsequence(_ lhs: String, _ rhs: String) -> Int {
        let right = Array(rhs)
        var previous = Array(repeating: 0, count: right.count + 1)
        for leftCharacter in lhs {
            var current = [0]
            for (j, rightCharacter) in right.enumerated() {
                current.append(leftCharacter == rightCharacter ? previous[j] + 1 : max(previous[j + 1], current[j]))
            }
            previous = current
        }
        return previous[right.count]
    }

    /// The Levenshtein distance between two strings, over Characters.
    public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
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

extension String {
    /// Word-wraps the text to `width` columns, indenting every non-empty line by `indent` spaces.
    ///
    /// Lines break at spaces and keep explicit newlines. Like argument-parser, a line that is not the last of
    /// its paragraph stays one column short of the width, so help text wraps where users of its tools expect.
    func wrapped(to width: Int, indent: Int = 0) -> String {
        let available = width - indent
        let padding = String(repeating: " ", count: indent)
        guard available > 1 else {
            return split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : padding + $0 }
                .joined(separator: "\n")
        }
        var lines: [String] = []
        for paragraph in split(separator: "\n", omittingEmptySubsequences: false) {
            var words = paragraph.split(separator: " ")[...]
            if words.isEmpty {
                lines.append("")
                continue
            }
            while !words.isEmpty {
                if words.joined(separator: " ").count <= available {
                    lines.append(padding + words.joined(separator: " "))
                    break
                }
                var line = String(words.removeFirst())
                while let word = words.first, line.count + 1 + word.count <= available - 1 {
                    line += " " + word
                    words.removeFirst()
                }
                lines.append(padding + line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The Levenshtein distance to `other`, used to suggest the option the user probably meant.
    func editDistance(to other: String) -> Int {
        let source = Array(self)
        let target = Array(other)
        guard !source.isEmpty else { return target.count }
        guard !target.isEmpty else { return source.count }
        var previous = Array(0...target.count)
        for (row, sourceCharacter) in source.enumerated() {
            var current = [row + 1] + Array(repeating: 0, count: target.count)
            for (column, targetCharacter) in target.enumerated() {
                let substitution = previous[column] + (sourceCharacter == targetCharacter ? 0 : 1)
                current[column + 1] = Swift.min(previous[column + 1] + 1, current[column] + 1, substitution)
            }
            previous = current
        }
        return previous[target.count]
    }
}

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
}

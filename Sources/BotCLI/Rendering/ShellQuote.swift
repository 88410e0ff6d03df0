import Foundation

/// Quotes argv words for a POSIX shell, so a rendered command can be pasted and runs exactly that argv.
///
/// Plans show the real argv (no shell is ever involved when the bot sends it), but people copy the
/// line into a terminal: plain words stay bare for readability, anything else is single-quoted, and
/// words holding control or invisible formatting characters use bash's `$'…'` form so that neither
/// the terminal nor the reader is fooled by what the word contains.
enum ShellQuote {
    /// The argv as one shell line.
    static func line(_ argv: [String]) -> String {
        argv.map(word).joined(separator: " ")
    }

    /// One word, bare when that is safe, quoted otherwise.
    static func word(_ word: String) -> String {
        if !word.isEmpty, word.unicodeScalars.allSatisfy(isBare) {
            return word
        }
        if word.unicodeScalars.contains(where: DisplayText.isHidden) {
            return ansiQuoted(word)
        }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Characters no POSIX shell gives a meaning to anywhere in a word.
    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "@", "%", "+", "=", ":", ",", ".", "/", "-": return true
        default: return false
        }
    }

    /// The `$'…'` form, with every hidden character spelt as an escape.
    private static func ansiQuoted(_ word: String) -> String {
        var text = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": text += #"\\"#
            case "'": text += #"\'"#
            case "\n": text += #"\n"#
            case "\t": text += #"\t"#
            case "\r": text += #"\r"#
            case _ where scalar.value < 0x80 && DisplayText.isHidden(scalar):
                text += #"\x"# + hex(scalar.value, digits: 2)
            case _ where DisplayText.isHidden(scalar):
                text +=
                    scalar.value > 0xFFFF
                    ? #"\U"# + hex(scalar.value, digits: 8) : #"\u"# + hex(scalar.value, digits: 4)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "'"
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Makes forge text safe and short enough for a terminal line.
///
/// Titles, notes and comment bodies come from other people: an escape sequence in an issue title
/// must not recolour or rewrite the reader's terminal, and a bidirectional override must not make a
/// line read differently from what it holds, so such characters are shown as visible stand-ins.
enum DisplayText {
    /// Whether a character is a control character or an invisible formatting one (Cc or Cf).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }

    /// The text with every hidden character replaced by a visible stand-in.
    ///
    /// C0 controls become their control pictures (`␛`, `␊`), the rest `�`; the zero-width joiner
    /// stays, since emoji need it.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isHidden($0) && $0 != zeroWidthJoiner }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isHidden(scalar) || scalar == zeroWidthJoiner {
                result.append(scalar)
            } else if scalar.value < 0x20, let picture = Unicode.Scalar(0x2400 + scalar.value) {
                result.append(picture)
            } else if scalar.value == 0x7F {
                result.append("\u{2421}")
            } else {
                result.append("\u{FFFD}")
            }
        }
        return String(result)
    }

    /// The text cut to at most `width` characters, ending in `…` when it was cut.
    static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        return String(text.prefix(max(0, width - 1))) + "…"
    }

    /// `1 line`, `2 lines`: a count with its noun in the right number.
    static func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    private static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"
}

/// The source text of a scalar written on one line, kept so positions inside it can be located.
///
/// The rule layer reports errors inside strings (a bad regex, an unknown field in a condition) at
/// the offending character, so it needs to map value offsets back through quotes and escapes.
struct ScalarSpan: Sendable, Hashable {
    /// The raw characters from the scalar's first character (its opening quote, if any) to its end.
    var raw: [Unicode.Scalar]
    /// How the scalar was written; only plain, single- and double-quoted spans are recorded.
    var style: ScalarStyle
    /// The location of `raw[0]`.
    var start: SourceLocation

    /// Maps a value offset to a source location by stepping over quotes and escapes.
    func location(ofScalarOffset offset: Int, valueLength: Int) -> SourceLocation {
        let target = min(max(offset, 0), valueLength)
        var rawIndex = style == .plain ? 0 : 1
        for _ in 0..<target where rawIndex < raw.count {
            rawIndex += width(at: rawIndex)
        }
        var location = start
        location.column += min(rawIndex, raw.count)
        return location
    }

    /// How many raw characters produce the one value character that starts at `index`.
    private func width(at index: Int) -> Int {
        switch style {
        case .singleQuoted where raw[index] == "'":
            return 2
        case .doubleQuoted where raw[index] == "\\" && index + 1 < raw.count:
            switch raw[index + 1] {
            case "x": return 4
            case "u": return 6
            case "U": return 10
            default: return 2
            }
        default:
            return 1
        }
    }
}

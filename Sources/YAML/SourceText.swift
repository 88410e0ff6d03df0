/// The source file split into lines of Unicode scalars, in the coordinates libyaml reports.
///
/// libyaml detects UTF-8 and UTF-16 from the byte-order mark, skips the mark without counting a
/// column, counts columns in Unicode scalars and breaks lines at LF, CR LF, CR, NEL, LS and PS.
/// This type mirrors those rules so a caret or a computed location lands where libyaml meant.
struct SourceText: Sendable {
    /// The lines without their line breaks; index 0 is line 1.
    let lines: [[Unicode.Scalar]]

    /// Decodes `bytes` the way libyaml does; invalid sequences become U+FFFD, which is harmless
    /// because this text is only used for snippets and positions before the first invalid byte.
    init(bytes: [UInt8]) {
        lines = Self.split(Self.decode(bytes[...]))
    }

    /// The scalars of 1-based line `number`, or nil past the end of the file.
    func line(_ number: Int) -> [Unicode.Scalar]? {
        number >= 1 && number <= lines.count ? lines[number - 1] : nil
    }

    /// The location of a raw byte offset, for libyaml reader errors that carry only an offset.
    static func location(ofByteOffset offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
        let prefixLines = split(decode(bytes[..<min(max(offset, 0), bytes.count)]))
        return SourceLocation(file: file, line: prefixLines.count, column: (prefixLines.last?.count ?? 0) + 1)
    }

    /// Decodes bytes in the encoding their byte-order mark announces (UTF-8 without one).
    private static func decode(_ bytes: ArraySlice<UInt8>) -> [Unicode.Scalar] {
        let start = bytes.startIndex
        if bytes.count >= 2, bytes[start] == 0xFF || bytes[start] == 0xFE,
            bytes[start + 1] == (bytes[start] == 0xFF ? 0xFE : 0xFF)
        {
            let littleEndian = bytes[start] == 0xFF
            var units: [UInt16] = []
            var index = start + 2
            while index + 1 < bytes.endIndex {
                let low = UInt16(bytes[littleEndian ? index : index + 1])
                let high = UInt16(bytes[littleEndian ? index + 1 : index])
                units.append(high << 8 | low)
                index += 2
            }
            return Array(String(decoding: units, as: UTF16.self).unicodeScalars)
        }
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        return Array(String(decoding: bytes.dropFirst(hasBOM ? 3 : 0), as: UTF8.self).unicodeScalars)
    }

    /// Splits scalars into lines at every break libyaml recognises; always returns at least one line.
    private static func split(_ scalars: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\r":
                if index + 1 < scalars.count, scalars[index + 1] == "\n" { index += 1 }
                fallthrough
            case "\n", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append(current)
                current = []
            default:
                current.append(scalar)
            }
            index += 1
        }
        lines.append(current)
        return lines
    }
}

internal import CLibYAML

/// The only code that touches libyaml: a pull loop over `yaml_parser_parse`.
///
/// It owns every C resource for exactly one call: the parser lives at one stable heap address,
/// the input buffer stays pinned for the whole parse, each event is copied out and deleted
/// immediately, and the parser is deleted on every path. Events are handed to `handle` as they
/// stream, so a handler that throws (too deep, a second document) stops libyaml right there,
/// before it scans further.
enum EventReader {
    /// Parses `bytes` (raw file contents: libyaml detects UTF-8 and UTF-16 from the BOM) and calls
    /// `handle` for each event until the stream ends, a syntax error occurs, or `handle` throws.
    static func read(
        bytes: [UInt8],
        file: String,
        _ handle: (Event) throws(YAMLError) -> Void
    ) throws(YAMLError) {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            yaml_parser_delete(parser)
            throw YAMLError("libyaml could not allocate a parser", at: SourceLocation(file: file, line: 1, column: 1))
        }
        defer { yaml_parser_delete(parser) }
        // libyaml asserts on a null input pointer, which an empty array may give; any one byte
        // with a length of zero is read as the empty stream.
        let storage = bytes.isEmpty ? [0] : bytes
        try storage.withUnsafeBufferPointer { (buffer) throws(YAMLError) in
            yaml_parser_set_input_string(parser, buffer.baseAddress, bytes.count)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) == 1 else {
                    throw error(from: parser.pointee, bytes: bytes, file: file)
                }
                let isStreamEnd = event.type == YAML_STREAM_END_EVENT
                let converted = convert(event, file: file)
                yaml_event_delete(&event)
                if isStreamEnd { return }
                if let converted { try handle(converted) }
            }
        }
    }

    /// Copies one event into Swift values, reading only the union member its type selects.
    private static func convert(_ event: yaml_event_t, file: String) -> Event? {
        let start = location(event.start_mark, file: file)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(start)
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(string(event.data.alias.anchor) ?? "", start)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            // value + length, never strlen: a scalar may legally contain NUL.
            let value = String(
                decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.value == nil ? 0 : scalar.length),
                as: UTF8.self
            )
            return .scalar(
                value: value,
                anchor: string(scalar.anchor),
                tag: string(scalar.tag),
                style: style(scalar.style),
                start: start,
                end: location(event.end_mark, file: file)
            )
        case YAML_SEQUENCE_START_EVENT:
            let sequence = event.data.sequence_start
            return .sequenceStart(anchor: string(sequence.anchor), tag: string(sequence.tag), start: start)
        case YAML_SEQUENCE_END_EVENT:
            return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let mapping = event.data.mapping_start
            return .mappingStart(anchor: string(mapping.anchor), tag: string(mapping.tag), start: start)
        case YAML_MAPPING_END_EVENT:
            return .mappingEnd
        default:
            return nil
        }
    }

    /// A byte as people write it in messages: `0x0A`, `0xFF`.
    private static func hex(_ value: Int32) -> String {
        let digits = String(UInt32(max(value, 0)), radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 2 - digits.count)) + digits
    }

    /// The offset of the byte that starts the UTF-8 character a bad trailing byte at `offset` cuts short.
    ///
    /// libyaml reports the byte that fails to continue a character; the character to fix (a Latin-1
    /// `é`, say) starts at the leading byte before it, after any valid continuation bytes.
    private static func leadingByte(before offset: Int, in bytes: [UInt8]) -> Int? {
        var lead = min(offset, bytes.count) - 1
        while lead > 0, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        return lead >= 0 && bytes[lead] >= 0xC0 ? lead : nil
    }

    /// Anchors and tags cannot contain NUL, so a C string copy is exact for them.
    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// libyaml's 0-based mark as a 1-based location.
    private static func location(_ mark: yaml_mark_t, file: String) -> SourceLocation {
        SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
    }

    /// Maps libyaml's scalar style; "any" only occurs when emitting, so it reads as plain.
    private static func style(_ style: yaml_scalar_style_t) -> ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }

    /// Turns libyaml's error state into a diagnostic, with its context as a note.
    ///
    /// Reader errors (bad encoding) leave the mark at 0:0 and carry only a byte offset, so their
    /// location is computed from the bytes.
    private static func error(from parser: yaml_parser_t, bytes: [UInt8], file: String) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown libyaml error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return YAMLError("libyaml ran out of memory", at: SourceLocation(file: file, line: 1, column: 1))
        case YAML_READER_ERROR:
            let value = parser.problem_value
            let byte = value >= 0 ? " (\(hex(value)))" : ""
            var offset = parser.problem_offset
            var message = problem + byte
            if problem == "invalid trailing UTF-8 octet", let lead = leadingByte(before: offset, in: bytes) {
                message =
                    "invalid UTF-8: byte \(hex(Int32(bytes[lead]))) starts a character that byte \(hex(value)) does not "
                    + "continue (save the file as UTF-8)"
                offset = lead
            }
            let at = SourceText.location(ofByteOffset: offset, in: bytes, file: file)
            return YAMLError(message, at: at)
        default:
            let at = location(parser.problem_mark, file: file)
            var message = problem
            if let line = SourceText(bytes: bytes).line(at.line), at.column - 1 < line.count,
                line[at.column - 1] == "\t", !problem.contains("tab")
            {
                message += " (a tab; YAML indentation must use spaces)"
            } else if problem == "mapping values are not allowed in this context" {
                message += " (quote a value that contains ': ', or check this line's indentation)"
            }
            let notes = parser.context.map {
                [Diagnostic.note(String(cString: $0), at: location(parser.context_mark, file: file))]
            }
            return YAMLError(message, at: at, notes: notes ?? [])
        }
    }
}

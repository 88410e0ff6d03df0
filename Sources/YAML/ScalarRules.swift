/// The YAML 1.2 core-schema reading of a scalar, chosen by the Swift type the caller asks for.
///
/// libyaml never types scalars, so this is where the YAML 1.1 traps are closed: a `String` field
/// takes `NO`, `on`, `010` and `12:30` verbatim; a `Bool` field takes only `true`/`false` in their
/// three spellings; integers are decimal unless written `0x`/`0o`, and `1:30` is not a number.
/// Only plain (unquoted, untagged) scalars are typed; quoted scalars are always text.
enum ScalarRules {
    /// Any non-null scalar, verbatim.
    static func string(_ node: Node) throws(YAMLError) -> String {
        guard case .scalar(let value, _) = node.content, !node.isNull else {
            throw mismatch(node, expected: "a string")
        }
        return value
    }

    /// `true`/`True`/`TRUE`/`false`/`False`/`FALSE`, and nothing else.
    static func bool(_ node: Node) throws(YAMLError) -> Bool {
        let text = try typedText(node, expected: "a boolean", tag: CoreTag.bool)
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default:
            if ["yes", "no", "on", "off", "y", "n"].contains(text.lowercased()) {
                throw YAMLError("'\(text)' is not a boolean in YAML 1.2; write true or false", at: node.location)
            }
            throw mismatch(node, expected: "a boolean")
        }
    }

    /// A decimal, `0x` hexadecimal or `0o` octal integer that fits `T`.
    static func integer<T: FixedWidthInteger>(_ node: Node, as type: T.Type) throws(YAMLError) -> T {
        let text = try typedText(node, expected: "an integer", tag: CoreTag.int)
        let digits: Substring
        let radix: Int
        if text.hasPrefix("0x") {
            (digits, radix) = (text.dropFirst(2), 16)
        } else if text.hasPrefix("0o") {
            (digits, radix) = (text.dropFirst(2), 8)
        } else {
            (digits, radix) = (text.drop { $0 == "-" || $0 == "+" }, 10)
            guard text.count - digits.count <= 1 else { throw mismatch(node, expected: "an integer") }
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.hexDigitValue ?? radix) < radix }) else {
            throw mismatch(node, expected: "an integer")
        }
        let signed = radix == 10 ? Substring(text) : digits
        guard let value = T(signed, radix: radix) else {
            throw YAMLError("'\(text)' is out of range for \(T.self)", at: node.location)
        }
        return value
    }

    /// A core-schema float (`1`, `-2.5`, `1e3`, `.5`) or `.inf`, `-.inf`, `.nan` in their spellings.
    static func float<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ node: Node,
        as type: T.Type
    ) throws(YAMLError) -> T {
        let text = try typedText(node, expected: "a number", tag: CoreTag.float)
        let unsigned = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        if [".inf", ".Inf", ".INF"].contains(unsigned) { return text.first == "-" ? -T.infinity : T.infinity }
        if [".nan", ".NaN", ".NAN"].contains(text) { return T.nan }
        guard isCoreFloat(unsigned), let value = T(text) else { throw mismatch(node, expected: "a number") }
        return value
    }

    /// Whether `text` (without a sign) is `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
    private static func isCoreFloat(_ text: Substring) -> Bool {
        let isDigit = { (character: Character) in character.isASCII && character.isNumber }
        let mantissaEnd = text.firstIndex { $0 == "e" || $0 == "E" } ?? text.endIndex
        let mantissa = text[..<mantissaEnd]
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : nil
        guard whole.allSatisfy(isDigit), fraction?.allSatisfy(isDigit) ?? true,
            !whole.isEmpty || !(fraction?.isEmpty ?? true)
        else { return false }
        guard mantissaEnd < text.endIndex else { return true }
        var exponent = text[text.index(after: mantissaEnd)...]
        if exponent.first == "-" || exponent.first == "+" { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && exponent.allSatisfy(isDigit)
    }

    /// The text of a scalar that may be typed: plain and untagged, or carrying the requested tag.
    private static func typedText(_ node: Node, expected: String, tag: String) throws(YAMLError) -> String {
        guard case .scalar(let value, let style) = node.content, !node.isNull else {
            throw mismatch(node, expected: expected)
        }
        guard node.tag == tag || (node.tag == nil && style == .plain) else {
            throw YAMLError(
                "expected \(expected), found the string \(display(value)) (quoted or tagged scalars are always strings)",
                at: node.location
            )
        }
        return value
    }

    /// "expected X, found Y" describing what the node actually is.
    static func mismatch(_ node: Node, expected: String) -> YAMLError {
        let found: String
        switch node.content {
        case .mapping: found = "a mapping"
        case .sequence: found = "a list"
        case .scalar(let value, _):
            found = node.isNull ? (value.isEmpty ? "an empty value" : "null") : display(value)
        }
        return YAMLError("expected \(expected), found \(found)", at: node.location)
    }

    /// A scalar quoted for a message: `'text'` when short and printable, else an escaped prefix.
    static func display(_ value: String) -> String {
        let printable = !value.unicodeScalars.contains { $0.properties.generalCategory == .control }
        if printable && value.count <= 60 && !value.contains("'") { return "'\(value)'" }
        let shortened = value.count > 60 ? String(value.prefix(57)) + "..." : value
        return shortened.debugDescription
    }
}

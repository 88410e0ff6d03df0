import YAML

/// The file name every test source is composed under.
let testFile = "t.yml"

/// Composes `text` as `t.yml`.
func compose(_ text: String, limits: YAMLLimits = .default) throws(YAMLError) -> Node {
    try YAML.compose(bytes: Array(text.utf8), file: testFile, limits: limits)
}

/// The diagnostics `body` throws, as their one-line-per-diagnostic description, or nil if it succeeds.
func failure(_ body: () throws(YAMLError) -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return error.description
    }
}

/// A location in `t.yml`.
func at(_ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(file: testFile, line: line, column: column)
}

/// Decodes `T` from `text` composed as `t.yml`.
func decode<T: Decodable>(_ type: T.Type, _ text: String) throws(YAMLError) -> T {
    try YAMLDecoder().decode(type, from: Array(text.utf8), file: testFile)
}

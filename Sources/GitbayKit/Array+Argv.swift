/// Argv-building helpers shared by the typed commands.
///
/// gitbay reads flags as `--name value` (two words; `--name=value` is an unknown flag), so every
/// option is appended as two separate words, and repeatable flags once per value, in order.
extension Array where Element == String {
    /// Appends `flag value` when a value is given.
    mutating func appendOption(_ flag: String, _ value: String?) {
        if let value {
            append(flag)
            append(value)
        }
    }

    /// Appends `flag value` once per value, keeping their order.
    mutating func appendRepeated(_ flag: String, _ values: [String]) {
        for value in values {
            append(flag)
            append(value)
        }
    }
}

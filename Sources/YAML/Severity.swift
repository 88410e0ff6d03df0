/// How serious a ``Diagnostic`` is; the raw value is the word printed after the location.
public enum Severity: String, Sendable, Hashable {
    /// The file cannot be used as it is.
    case error
    /// The file works, but probably not as its author meant.
    case warning
    /// Extra context attached to another diagnostic, such as where a duplicate key was first defined.
    case note
}

/// The stream a message belongs on: help and version go to standard output, errors to standard error.
public enum StandardStream: Equatable, Sendable {
    /// Standard output.
    case output
    /// Standard error.
    case error
}

/// Where the command line writes: standard output and standard error, and whether each is a terminal.
///
/// Commands write only through this, so tests run the whole CLI in-process and read what it printed.
public protocol Console: Sendable {
    func write(_ text: String, to stream: StandardStream)
    /// Whether the stream is an interactive terminal (colour and progress only go to one).
    func isTerminal(_ stream: StandardStream) -> Bool
}

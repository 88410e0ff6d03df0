import GitbayKit

/// The writes the engine makes, behind a protocol so tests can fake them and the engine does not
/// depend on the HTTP client (the `GitbayPorts` module makes the client one).
public protocol ForgeWriter: Sendable {
    /// Sends one write; a failure's ``ForgeFailure/mayHaveApplied`` says whether it may have taken
    /// effect anyway.
    func write(_ command: ControlCommand) async throws(ForgeFailure)
}

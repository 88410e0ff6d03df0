import GitbayKit

/// The writes the engine makes, behind a protocol so tests can fake them and the engine does not
/// depend on the HTTP client (the `GitbayPorts` module makes the client one).
public protocol ForgeWriter: Sendable {
    /// Sends one write; a failure's ``ForgeFailure/mayHaveApplied`` says whether it may have taken
    /// effect anyway.
    ///
    /// Cancelling the task is a stop: a write not yet sent (waiting for a budget, a `Retry-After`
    /// or a backoff) is not sent, and fails at once as ``ForgeFailure/Kind/stopped``; a write
    /// already on its way runs to its answer whatever happens to the task, so its outcome is known.
    func write(_ command: ControlCommand) async throws(ForgeFailure)
}

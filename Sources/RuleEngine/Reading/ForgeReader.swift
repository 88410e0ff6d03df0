import GitbayKit

/// The reads the engine makes, behind a protocol so tests can count or fake them and the engine
/// does not depend on the HTTP client (the `GitbayPorts` module makes the client one).
///
/// A read-only client makes a dry run that cannot write. A reader's errors reach the caller as
/// they are; those the applier must tell apart are ``ForgeFailureConvertible``.
public protocol ForgeReader: Sendable {
    /// Runs one read command.
    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response
    /// Every row of a paged listing.
    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item]
}

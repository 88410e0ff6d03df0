import GitbayClient
import GitbayKit

/// The reads the engine makes, behind a protocol so tests can count or fake them.
///
/// ``GitbayClient`` is the real one; a read-only client makes a dry run that cannot write.
public protocol ForgeReader: Sendable {
    /// Runs one read command.
    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response
    /// Every row of a paged listing.
    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item]
}

extension GitbayClient: ForgeReader {}

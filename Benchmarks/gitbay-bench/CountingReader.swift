import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine

/// A reader that counts the requests each kind of command took (`issue list`, `build list`...),
/// from the client's own count, so a benchmark shows where a run's budget goes.
final class CountingReader: ForgeReader, @unchecked Sendable {
    let client: GitbayClient
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    init(_ client: GitbayClient) {
        self.client = client
    }

    /// The requests by command, as counted so far.
    var requests: [String: Int] {
        lock.withLock { counts }
    }

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        let before = client.metrics.reads
        defer { count(command.argv, client.metrics.reads - before) }
        return try await client.send(command)
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        let before = client.metrics.reads
        defer { count(command.argv, client.metrics.reads - before) }
        return try await client.all(command)
    }

    /// The command's name: its words before the first positional or flag (`repo deps status`),
    /// with `mr list --q` told apart from the per-repository `mr list`.
    private func count(_ argv: [String], _ requests: Int) {
        var words = Array(argv.prefix { !$0.contains("/") && !$0.hasPrefix("-") })
        if argv.contains("--q") { words.append("--q") }
        lock.withLock { counts[words.joined(separator: " "), default: 0] += requests }
    }
}

import Foundation
import GitbayKit
import Synchronization

/// A reader that counts the requests sent through it, so that a run's read budget can be
/// judged while it reads (``ReadContext/mayRead(_:in:)``).
///
/// A paged listing counts its pages as the planner's notes do: one per 200 rows, and at least one.
final class MeteredReader: ForgeReader {
    private let inner: any ForgeReader
    private let count = Mutex(0)

    init(_ inner: any ForgeReader) {
        self.inner = inner
    }

    /// The requests sent so far.
    var requests: Int { count.withLock { $0 } }

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        count.withLock { $0 += 1 }
        return try await inner.send(command)
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        let rows = try await inner.all(command)
        count.withLock { $0 += ReadPlanner.pages(rows.count) }
        return rows
    }
}

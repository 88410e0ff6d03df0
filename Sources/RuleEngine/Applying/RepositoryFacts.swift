import GitbayKit
import Synchronization

/// The repository-wide facts the applier read to re-check entries (branch tips, open merge
/// requests, builds, the tracking issue), kept across applier runs that belong together.
///
/// One applier run reads each repository's facts once and keeps them for its plan. A watcher sends
/// a pass's plan an entry at a time, so that an answer to someone can go between two entries of a
/// backlog; the entries of one pass share one of these, so they read a repository's facts once,
/// as the whole plan would have.
public final class RepositoryFacts: Sendable {
    private let facts = Mutex<[RepositoryPath: RepositoryState]>([:])

    public init() {}

    /// The facts kept.
    var repositories: [RepositoryPath: RepositoryState] {
        facts.withLock { $0 }
    }

    /// Keeps `repositories` in place of what was kept: what a run read, and what it forgot.
    func keep(_ repositories: [RepositoryPath: RepositoryState]) {
        facts.withLock { $0 = repositories }
    }
}

import GitbayKit
import RuleEngine

/// Whether a build is superseded, and if not, why not; gitbay itself never cancels them.
///
/// A pending or running build with ref R and job J is superseded when a newer build (higher
/// number) of the same R and J exists and its sha is no longer R's tip. Being R's tip is itself a
/// ``BuildProtection`` (a branch tip, or for `refs/merge-requests/<n>/head` the open MR's head), so
/// the build is superseded exactly when it is unfinished, has a newer twin, and nothing protects it.
public enum Supersession: Sendable, Hashable {
    /// The build has finished; there is nothing to cancel.
    case finished
    /// Something still needs the build's commit.
    case protected(BuildProtection)
    /// No newer build of the same ref and job exists.
    case newest
    /// The newest build of the same ref and job has this number.
    case superseded(by: Int)

    public var isSuperseded: Bool {
        if case .superseded = self { return true }
        return false
    }

    /// Evaluates `build` against its repository's builds, refs, default branch and open MRs.
    public static func evaluate(_ build: Build, in repository: RepositoryState) -> Supersession {
        guard build.status == .pending || build.status == .running else { return .finished }
        if let protection = BuildProtection.find(for: build, in: repository) { return .protected(protection) }
        let key = BuildIndex.RefAndJob(ref: build.ref, job: build.job)
        guard let newest = BuildIndex.of(repository).newestBuild[key], newest > build.number else { return .newest }
        return .superseded(by: newest)
    }
}

/// What a kind takes from, and gives back to, a repository of a forge-state file beyond a list of
/// its own: what gitbay derives on every read (a merge request's stack and gates, the counts
/// `label list` and `milestone list` give) and what the file records of a run's read.
///
/// A kind whose items the file keeps elsewhere (milestones, in the repository's own
/// `milestones`) conforms to this alone.
public protocol StateFileDerivation: Sendable {
    /// Fills in what gitbay derives on every read of the file's repository once every kind is
    /// decoded.
    func derive(_ repository: inout RepositoryState, file: ForgeStateRepository)

    /// Adds this kind's items of `repository` to the counts `label list` and `milestone list`
    /// give for `file`.
    func count(_ repository: RepositoryState, into file: inout ForgeStateRepository)

    /// What a repository's forge-state file records of this kind, taken from what a run read (the
    /// merge gates the merge requests echo).
    func record(_ repository: RepositoryState, into file: inout ForgeStateRepository)
}

extension StateFileDerivation {
    /// No item of this kind counts towards labels or milestones.
    public func count(_ repository: RepositoryState, into file: inout ForgeStateRepository) {}

    /// Nothing recorded beyond the kind's own list.
    public func record(_ repository: RepositoryState, into file: inout ForgeStateRepository) {}
}

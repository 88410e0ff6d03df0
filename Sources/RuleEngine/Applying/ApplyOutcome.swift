/// What became of one planned action when it was applied.
public struct ApplyOutcome: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// The write was sent and succeeded.
        case applied
        /// A fresh read showed nothing left to do (someone got there first, or the write landed
        /// although its reply was lost).
        case alreadyDone = "already-done"
        /// The entry's conditions no longer hold on a fresh read, or a plugin refuses it now.
        case skipped
        /// The write failed; the detail says why.
        case failed
        /// A limit or guard held it back when planning.
        case held
        /// Its rule is outside its schedule: the first run in the window does it. Not a shortfall,
        /// so it leaves a run complete (exit 0), as a scheduled CI job outside working hours must be.
        case waiting
        /// The run was interrupted before it.
        case notRun = "not-run"
    }

    public var rule: String
    public var item: String
    public var action: String
    public var status: Status
    public var detail: String?
    /// For a failure: the server was rate-limiting or busy past the client's patience, so running
    /// again later is the remedy.
    public var retryLater: Bool
    /// For a failure: gitbay ran the command and refused it (``ForgeFailure/isRefusal``), which
    /// running again does not change.
    public var refused = false

    public init(
        rule: String, item: String, action: String, status: Status, detail: String? = nil, retryLater: Bool = false
    ) {
        self.rule = rule
        self.item = item
        self.action = action
        self.status = status
        self.detail = detail
        self.retryLater = retryLater
    }
}

/// The outcome of applying a plan.
public struct ApplyReport: Sendable, Hashable, Codable {
    public var outcomes: [ApplyOutcome] = []
    /// Whether a stop came (a signal, the task's cancellation): nothing was sent after it, and the
    /// write in flight, if one was, finished and was recorded.
    public var interrupted = false
    /// The failure with which the server turned the token away mid-run (401: revoked, expired);
    /// the run stops there, because every later request would be refused the same way.
    public var tokenRejection: String?
    /// The failure with which the forge could not be reached mid-run (a refused connection, a
    /// name that no longer resolves, TLS refused); the run stops there, because every later
    /// request would fail the same way after its retries.
    public var unreachable: String?
    /// Why the journal could not record an entry (a full disk, a read-only or corrupt file); the
    /// run sends nothing after it, because a write whose intent is not on record could be doubled.
    public var journalFailure: String?

    public init() {}

    /// Why the run sends nothing more, as the note of each action it leaves unsent; `nil` while
    /// it goes on.
    public var haltReason: String? {
        if let tokenRejection { return "not sent: \(tokenRejection)" }
        if let unreachable { return "not sent: the server cannot be reached: \(unreachable)" }
        if let journalFailure { return "not sent: the journal failed: \(journalFailure)" }
        return interrupted ? "interrupted" : nil
    }

    public func count(_ status: ApplyOutcome.Status) -> Int {
        outcomes.filter { $0.status == status }.count
    }

    /// Whether nothing is left undone: every action was applied, found done, or no longer wanted
    /// (its entry stopped matching, which is the rules' answer, not a failure).
    public var isComplete: Bool {
        !interrupted && tokenRejection == nil && unreachable == nil && journalFailure == nil
            && outcomes.allSatisfy { [.applied, .alreadyDone, .skipped, .waiting].contains($0.status) }
    }
}

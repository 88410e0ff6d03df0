import GitbayKit
import RuleEngine

/// What gitbay computes on every read of a merge request instead of storing it: the stack both
/// ways, the combined check state and the merge gates.
///
/// Offline mode must answer exactly what the server (and the simulator, `gitbay_sim.py`) would
/// serve for the same forge, or a rule would act differently offline than live; these functions
/// follow the simulator's `stack_parent`, `stack_children`, `checks_combined` and `compute_gates`.
enum ForgeDerivation {
    /// How bad each check state is when combining; an unknown state counts as pending.
    static func rank(_ state: CheckState) -> Int {
        switch state {
        case .error: return 5
        case .failure: return 4
        case .success: return 2
        case .skipped: return 1
        default: return 3
        }
    }

    /// Whether a source cannot be stacked on: a fork's `owner/name:branch`, or gone (`""`).
    static func isForkOrGone(_ source: String) -> Bool {
        source.contains(":") || source.isEmpty
    }

    /// The merge requests of one repository with every derived field recomputed.
    ///
    /// - Parameter mergeRequests: the repository's merge requests, numbers descending (the order in
    ///   which gitbay picks the parent when two open MRs share a source branch).
    static func derive(
        _ mergeRequests: [MergeRequest], path: RepositoryPath, settings: MergeGateSettings
    ) -> [MergeRequest] {
        mergeRequests.map { original in
            var mergeRequest = original
            // By context, as gitbay lists a commit's statuses (store/statuses.go ListCommitStatuses).
            mergeRequest.checks.sort { $0.context.utf8.lexicographicallyPrecedes($1.context.utf8) }
            mergeRequest.checksCombined = checksCombined(original)
            mergeRequest.stackedOn = stackParent(of: original, among: mergeRequests).map(reference)
            mergeRequest.stacked = stackChildren(of: original, among: mergeRequests).map(reference)
            mergeRequest.gates = gates(of: mergeRequest, path: path, settings: settings)
            return mergeRequest
        }
    }

    /// The open MR whose source branch this open MR targets; the highest number wins a tie.
    static func stackParent(of child: MergeRequest, among mergeRequests: [MergeRequest]) -> MergeRequest? {
        guard child.state == .open else { return nil }
        return mergeRequests.first { parent in
            parent.number != child.number && parent.state == .open && !isForkOrGone(parent.source)
                && parent.source == child.targetRef
        }
    }

    /// The open MRs targeting this open MR's source branch, numbers ascending.
    static func stackChildren(of parent: MergeRequest, among mergeRequests: [MergeRequest]) -> [MergeRequest] {
        guard parent.state == .open, !isForkOrGone(parent.source) else { return [] }
        return mergeRequests.filter { child in
            child.number != parent.number && child.state == .open && child.targetRef == parent.source
        }
        .sorted { $0.number < $1.number }
    }

    /// The recorded combined state, or else the worst check state (the first of equally bad ones).
    ///
    /// gitbay's own folds `error` into `failure` and `skipped` into `success` (docs/gitbay/domain.md#checks).
    static func checksCombined(_ mergeRequest: MergeRequest) -> CheckState? {
        if let recorded = mergeRequest.checksCombined, !recorded.rawValue.isEmpty { return recorded }
        var worst: CheckState?
        for check in mergeRequest.checks where worst.map({ rank(check.state) > rank($0) }) ?? true {
            worst = check.state
        }
        return worst
    }

    /// The merge gates of an open or `source_gone` MR, a sentence for each unmet one (worded as gitbay words
    /// it for a draft only: docs/gitbay/domain.md#merge-requests).
    static func gates(of mergeRequest: MergeRequest, path: RepositoryPath, settings: MergeGateSettings) -> MergeGates? {
        guard mergeRequest.state == .open || mergeRequest.state == .sourceGone else { return nil }
        let number = mergeRequest.number
        let latest = latestReviews(mergeRequest.reviews)
        let counting = latest.filter { !$0.value.stale && $0.value.counts != false }
        let approvals = counting.filter { $0.value.verdict == .approve }.keys.sorted()
        let changes = counting.filter { $0.value.verdict == .requestChanges }.keys.sorted()
        let combined = mergeRequest.checksCombined
        let threads = mergeRequest.unresolvedThreads ?? 0
        var unmet: [String] = []
        if mergeRequest.draft {
            unmet.append("!\(number) is a draft; `gitbay mr ready \(path) \(number)` first")
        }
        if approvals.count < settings.requireApprovals {
            let plural = settings.requireApprovals == 1 ? "" : "s"
            unmet.append(
                "\(path) needs \(settings.requireApprovals) approval\(plural); !\(number) has \(approvals.count)")
        }
        if !changes.isEmpty {
            unmet.append("changes requested by \(changes.joined(separator: ", "))")
        }
        if settings.requireChecks, combined != .success {
            let state = combined.map { "checks \($0.rawValue)" } ?? "no checks"
            unmet.append("\(path) requires green checks; \(mergeRequest.headSHA.prefix(10)) has \(state)")
        }
        if settings.requireResolved, threads > 0 {
            unmet.append("\(threads) unresolved thread\(threads == 1 ? "" : "s")")
        }
        return MergeGates(
            draft: mergeRequest.draft, approvalsRequired: settings.requireApprovals, approvals: approvals,
            changesRequested: changes, codeownersRequired: settings.requireCodeowners,
            resolvedRequired: settings.requireResolved, openThreads: threads, checksRequired: settings.requireChecks,
            checks: combined, fastForward: true, unmet: unmet)
    }

    /// Each reviewer's newest review; of two at the same instant the later-listed one wins.
    private static func latestReviews(_ reviews: [Review]) -> [String: Review] {
        var latest: [String: Review] = [:]
        let ordered = reviews.enumerated().sorted {
            ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset)
        }
        for (_, review) in ordered {
            latest[review.reviewer] = review
        }
        return latest
    }

    private static func reference(_ mergeRequest: MergeRequest) -> MergeRequestRef {
        MergeRequestRef(number: mergeRequest.number, title: mergeRequest.title)
    }
}

import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine
import YAML

extension BotSession {
    /// The most merge requests previewed in one run; the rest go in the next runs.
    ///
    /// Anyone who may open a merge request can ask for a preview, so this bounds what they can make the bot write.
    static let maximumPreviewsPerRun = 5

    /// Previews each open merge request of `state` that changes its repository's rules file.
    ///
    /// For each (``RuleEngine/RuleProposal``): a comment with the proposed file's errors or what its
    /// rules would start and stop doing (``RulePreviewComment``), and a `gitbay-bot/rules` status on
    /// its head. Nothing the proposed rules would do is done.
    ///
    /// A head that carries the status was previewed; one whose answer is already the bot's newest
    /// preview comment gets the status alone, so a push that leaves the answer as it was adds no
    /// comment. The status goes last: a run stopped between the two finds the comment's digest
    /// and sends the status alone. Said on stderr; a failure is a warning, since the run's own
    /// writes are done and on record.
    ///
    /// The heads previewed are kept in the state database (``previewedKind``), so a merge request
    /// that stays open costs no read a run once its head was previewed; at most
    /// ``maximumPreviewLooksPerRun`` others are looked at (`mr show`) in one run.
    func previewRuleProposals(_ state: ForgeState, current: RepositoryRules, operatorRules: [Rule]) async {
        let done = await previewedHeads()
        var (previewed, looked) = (0, 0)
        for repository in state.repositories.sorted(by: { $0.path < $1.path }) {
            for proposal in repository.proposals {
                let key = Self.previewedItem(repository.path, proposal.number)
                guard done[key] != proposal.head else { continue }
                guard control.stopSignal == nil, !Task.isCancelled else { return }
                guard previewed < Self.maximumPreviewsPerRun, looked < Self.maximumPreviewLooksPerRun else {
                    console.write("note: more rules previews wait for the next runs\n", to: .error)
                    return
                }
                looked += 1
                do {
                    let outcome = try await preview(
                        proposal, in: repository, state: state, current: current, operatorRules)
                    if outcome == .sent { previewed += 1 }
                    if outcome != .moved { await remember(proposal.head, as: key, at: state.now) }
                } catch {
                    console.write(
                        "warning: rules preview on \(repository.path)!\(proposal.number) not sent: \(error)\n",
                        to: .error)
                }
            }
        }
    }

    /// One plan note per merge request of `state` whose head changes its repository's rules file
    /// and is not known to be previewed: the writes `run` makes for it beyond the plan's entries,
    /// so a dry run tells them too, and a plan after the run that made them does not.
    func previewNotes(_ state: ForgeState) async -> [String] {
        let done = await previewedHeads()
        return state.repositories.sorted { $0.path < $1.path }.flatMap { repository in
            repository.proposals.filter { done[Self.previewedItem(repository.path, $0.number)] != $0.head }.map {
                proposal in
                "\(repository.path)!\(proposal.number) changes \(repository.path)'s rules file: run previews it there "
                    + "(a comment and a \(RuleFileStatuses.context) status on \(proposal.head.prefix(7))) unless that "
                    + "head was previewed; its rules are not used before it is merged"
            }
        }
    }

    /// The most merge requests whose head is not known to be previewed are looked at in one run.
    static let maximumPreviewLooksPerRun = 20
    /// The read cache's kind for the heads previewed, one entry per merge request.
    static let previewedKind = ItemKind(rawValue: "rule-previews")

    /// The entry of `number` of `path`: not the merge request's reference, which a journaled write
    /// to it drops from the cache.
    static func previewedItem(_ path: RepositoryPath, _ number: Int) -> String {
        "rule-previews/\(path)!\(number)"
    }

    /// The head previewed of each merge request, by entry; none when the store cannot say.
    private func previewedHeads() async -> [String: String] {
        let entries = (try? await store.cachedDetails(of: Self.previewedKind)) ?? []
        return Dictionary(entries.map { ($0.item, $0.payload) }) { first, _ in first }
    }

    /// Keeps `head` as previewed; a store that cannot keep it costs one `mr show` next run.
    private func remember(_ head: String, as item: String, at date: Date) async {
        let entry = CachedDetail(item: item, kind: Self.previewedKind, format: 1, version: head, payload: head)
        try? await store.storeDetails([entry], at: date)
    }

    /// What came of one preview.
    private enum PreviewOutcome {
        /// The comment (when the answer changed) and the status were sent.
        case sent
        /// The head carries the status already: previewed before.
        case standing
        /// The merge request is closed, or its head moved since the look: the next look decides.
        case moved
    }

    /// Previews `proposal` unless its head carries the status already or moved since it was
    /// looked at (the next run looks again).
    private func preview(
        _ proposal: RuleProposal, in repository: RepositoryState, state: ForgeState, current: RepositoryRules,
        _ operatorRules: [Rule]
    ) async throws -> PreviewOutcome {
        let path = repository.path
        let mergeRequest = try await client.send(MergeRequestShowCommand(repository: path, number: proposal.number))
        guard mergeRequest.state == .open, mergeRequest.headSHA == proposal.head else { return .moved }
        guard !mergeRequest.checks.contains(where: { $0.context == RuleFileStatuses.context }) else {
            return .standing
        }
        let comment = try await RulePreviewComment(
            repository: path, preview: answer(proposal, in: repository, state: state, current, operatorRules),
            current: currentNote(current, path))
        let standing = mergeRequest.comments.last { $0.author == me && RulePreviewComment.digest(in: $0.body) != nil }
        var text = ""
        if standing.flatMap({ RulePreviewComment.digest(in: $0.body) }) != comment.digest {
            try await client.write(
                MergeRequestCommentCommand(repository: path, number: proposal.number, body: comment.body).control)
            text += "comment: rules preview on \(path)!\(proposal.number)\n"
        }
        let (stateOfHead, description) = comment.status
        let status = try StatusSetCommand(
            repository: path, sha: proposal.head, context: RuleFileStatuses.context, state: stateOfHead,
            description: description)
        try await client.write(status.control)
        text +=
            "status: \(status.context) \(stateOfHead.rawValue) on \(path) \(proposal.head.prefix(7)): \(description)\n"
        console.write(text, to: .error)
        return .sent
    }

    /// The proposed file's errors, or the difference between the plans of the repository's current
    /// rules and the proposed ones, both on one read of the repository made for both.
    private func answer(
        _ proposal: RuleProposal, in repository: RepositoryState, state: ForgeState, _ currentRules: RepositoryRules,
        _ operatorRules: [Rule]
    ) async throws -> RulePreview {
        var proposed = RepositoryState(path: repository.path)
        proposed.ruleFiles = proposal.files
        let loaded = await RepositoryRules.load(
            ForgeState(now: state.now, me: state.me, repositories: [proposed]), policy: settings.repositoryRules,
            registry: registry, operatorRules: operatorRules)
        let set = loaded.sets[repository.path]
        let errors = set?.diagnostics.filter { $0.severity == .error } ?? []
        if !errors.isEmpty { return .invalid(errors) }
        let current =
            currentRules.sets[repository.path].flatMap { set in
                set.diagnostics.contains { $0.severity == .error } ? nil : set.rules
            } ?? []
        let proposedRules = set?.rules ?? []
        let both = current + proposedRules
        guard !both.isEmpty else { return .changes(added: [], removed: []) }
        let guards = await guards()
        let (read, _) = try await ReadPlanner(
            registry: registry, commandWindow: settings.commandWindow, automation: settings.bots,
            writers: settings.writers
        ).read(
            both, from: client, at: state.now, policy: ReadPolicy(.guarded(guards), cache: .trusts(store)),
            basis: ReadBasis(me: me, activity: ActivityHistory(of: state)))
        return RulePreview.compare(
            current: plan(current, state: read, guards: guards),
            proposed: plan(proposedRules, state: read, guards: guards))
    }

    /// What the current rules of `path` are when not its file's: none, or none used.
    private func currentNote(_ current: RepositoryRules, _ path: RepositoryPath) -> String? {
        guard let set = current.sets[path] else {
            return "The repository has no rules file yet: every command below would be new."
        }
        guard set.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        return "The current rules file has an error, so its rules are not used now: every command below would be new."
    }
}

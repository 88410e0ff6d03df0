import Foundation
import GitbayKit

extension ReadSession {
    /// What a rule would do to one item, judged from what is read so far.
    enum Acting: Equatable {
        /// The conditions hold and at least `commands` actions are pending; `complete` when every
        /// action could be judged, so the count is exact.
        case yes(commands: Int, complete: Bool)
        /// The conditions fail, or they hold and no action is pending.
        case no
        /// Only a detail read can tell.
        case unknown

        var needsRead: Bool {
            switch self {
            case .yes(_, let complete): return !complete
            case .no: return false
            case .unknown: return true
            }
        }

        var isActing: Bool {
            if case .yes = self { return true }
            return false
        }
    }

    /// One item a rule may act on, in the order the plan lists it.
    private struct Candidate {
        let path: RepositoryPath
        let number: Int
        var acting: Acting
    }

    /// Reads details only where they can change what the run does, given its guards.
    ///
    /// Rules are taken in plan order, as the evaluator applies the guards: a rule's tripwire is
    /// settled first (details are read, oldest first, until the items known to act trip it or the
    /// items that might act cannot), then its limit and the run's `--max-actions` budget, reading
    /// each candidate in order until the guards hold back the rest. An entry that acts is always
    /// read whole, so its commands (a comment's marker check, say) are those of a full read; what
    /// is left unread is what a guard holds back whatever it says, and ``ForgeState/unread`` says so.
    mutating func readDetails(rules: [Rule], now: Date, me: String, guards: EvaluationOptions) async throws {
        let evaluator = Evaluator(registry: registry, options: guards)
        let considered = self.considered(rules, evaluator: evaluator, now: now, me: me)
        var budget = guards.budget
        var reads: [ItemKind: Int] = [:]
        for (index, rule) in rules.enumerated() {
            // A rule outside its schedule holds every entry, so nothing it matches needs its details.
            if rule.schedule?.verdict(at: now).open == false { continue }
            let condition = CompiledCondition(rule.condition, kind: rule.kind, registry: registry)
            var candidates = self.candidates(of: rule, condition: condition, evaluator: evaluator, now: now, me: me)
            func trips(_ acting: Int) -> Bool {
                guards.trips(acting: acting, considered: considered[index], rule: rule)
            }
            if budget <= 0 {
                noteUnread(candidates, rule: rule, heldBy: "--max-actions \(guards.maxActions)")
                continue
            }
            // The tripwire counts the acting entries up to the limit, so it is settled before the
            // limit cuts the list.
            while true {
                let known = candidates.filter(\.acting.isActing).count
                let possible = known + candidates.filter { $0.acting == .unknown }.count
                guard !trips(known), trips(possible),
                    let next = candidates.firstIndex(where: { $0.acting == .unknown })
                else { break }
                if try await read(
                    &candidates[next], rule: rule, condition: condition, evaluator: evaluator, now: now, me: me)
                {
                    reads[rule.kind, default: 0] += 1
                }
            }
            let known = candidates.filter(\.acting.isActing).count
            if trips(known) {
                noteUnread(candidates, rule: rule, heldBy: "the tripwire (\(known) known to act)")
                continue
            }
            var acting = 0
            for position in candidates.indices {
                let limitReached = rule.limit.map { acting >= $0 } ?? false
                if limitReached || budget <= 0 {
                    noteUnread(
                        Array(candidates[position...]), rule: rule,
                        heldBy: limitReached
                            ? "the rule's limit of \(rule.limit ?? 0)" : "--max-actions \(guards.maxActions)")
                    break
                }
                if candidates[position].acting.needsRead {
                    if try await read(
                        &candidates[position], rule: rule, condition: condition, evaluator: evaluator, now: now, me: me)
                    {
                        reads[rule.kind, default: 0] += 1
                    }
                }
                // As the evaluator caps them: an entry runs whole or not at all, the first that does
                // not fit holds back the rest, and one larger than the whole cap is held alone.
                if case .yes(let commands, _) = candidates[position].acting {
                    acting += 1
                    if guards.exceedsCap(commands) { continue }
                    budget = commands > budget ? 0 : budget - commands
                }
            }
        }
        for kind in registry.kinds(ordering: Array(reads.keys)) {
            guard let naming = registry.naming(of: kind), let requests = reads[kind], requests > 0 else { continue }
            context.note(naming.detailStep, requests: requests)
        }
    }

    /// Records the candidates a guard holds back that still lack their details.
    private mutating func noteUnread(_ candidates: [Candidate], rule: Rule, heldBy guard: String) {
        let unread = candidates.filter(\.acting.needsRead).count
        guard unread > 0 else { return }
        let noun = registry.noun(of: rule.kind)
        unreadNotes.append(
            "rule '\(rule.name)': details of \(unread) \(noun)\(unread == 1 ? "" : "s") not read: held by \(`guard`)")
    }

    /// Reads one candidate's details (once per run, whichever rule asks first) and judges it
    /// again; answers whether that took a request.
    private mutating func read(
        _ candidate: inout Candidate, rule: Rule, condition: CompiledCondition, evaluator: Evaluator, now: Date,
        me: String
    ) async throws -> Bool {
        var sent = false
        if let item = self.item(rule.kind, candidate.number, in: candidate.path), !item.known.contains(.freshDetail) {
            try await readFreshDetail(rule.kind, number: candidate.number, in: candidate.path)
            sent = true
        }
        var actionNeeds = rule.actionNeeds(registry: registry)
        // A command's reply names the condition that fails, so its conditions are read whole too.
        if rule.command != nil { actionNeeds.formUnion(rule.condition.needs(registry: registry, kind: rule.kind)) }
        if try await readBeyondDetail(actionNeeds, of: rule.kind, number: candidate.number, in: candidate.path) {
            sent = true
        }
        candidate.acting = judge(
            rule, condition: condition, number: candidate.number, in: candidate.path, evaluator: evaluator, now: now,
            me: me)
        // A detail read answers everything it can; what is still open cannot be learnt.
        if candidate.acting == .unknown { candidate.acting = .no }
        return sent
    }

    /// The item of `kind` numbered `number` in `path`, as read so far.
    private func item(_ kind: ItemKind, _ number: Int, in path: RepositoryPath) -> Item? {
        registry.items(of: kind, in: context.repository(path)).first { $0.number == number }
    }

    /// How many items each rule looks at, as the evaluator counts them for its tripwire: the
    /// listing decides it, so it is counted once.
    private func considered(_ rules: [Rule], evaluator: Evaluator, now: Date, me: String) -> [Int] {
        var slots: [ItemKind: FieldSlots] = [:]
        let prepared = rules.map {
            Evaluator.PreparedRule($0, registry: registry, slots: &slots[$0.kind, default: FieldSlots()])
        }
        var state = ForgeState(now: now, me: me, repositories: Array(context.repositories.values))
        state.automation = automation
        return evaluator.match(prepared, slots: slots, state: state, only: only).summaries.map(\.considered)
    }

    /// The items `rule` may act on, in the order the plan lists them (repositories in path order,
    /// then as the kind orders its items), each judged from what is read so far.
    private func candidates(
        of rule: Rule, condition: CompiledCondition, evaluator: Evaluator, now: Date, me: String
    ) -> [Candidate] {
        var candidates: [Candidate] = []
        for path in context.repositories.keys.sorted() where rule.scope.contains(path) {
            guard let repository = context.repositories[path], !repository.archived else { continue }
            for item in registry.items(of: rule.kind, in: repository) {
                if let only, !only.contains(registry.reference(to: item, in: path), kind: rule.kind, in: path) {
                    continue
                }
                let acting = judge(
                    rule, condition: condition, item: item, repository: repository, evaluator: evaluator, now: now,
                    me: me)
                if acting != .no { candidates.append(Candidate(path: path, number: item.number, acting: acting)) }
            }
        }
        return candidates
    }

    private func judge(
        _ rule: Rule, condition: CompiledCondition, number: Int, in path: RepositoryPath, evaluator: Evaluator,
        now: Date, me: String
    ) -> Acting {
        let repository = context.repository(path)
        guard let item = registry.items(of: rule.kind, in: repository).first(where: { $0.number == number }) else {
            return .no
        }
        return judge(
            rule, condition: condition, item: item, repository: repository, evaluator: evaluator, now: now, me: me)
    }

    /// Whether `rule` acts on `item` as far as what is read can tell, with the evaluator's own
    /// verdicts on each action.
    private func judge(
        _ rule: Rule, condition: CompiledCondition, item: Item, repository: RepositoryState, evaluator: Evaluator,
        now: Date, me: String
    ) -> Acting {
        let context = ItemContext(
            item: item, repository: repository, now: now, me: me, registry: registry, automation: automation)
        if rule.command != nil {
            // Acting or not is known only from the comments: each command's entry says.
            guard mayHoldCommands(rule, item: item, now: now) else {
                return .no
            }
            guard let commented = registry.commented(rule.kind), context.knows(commented.commandNeeds) else {
                return .unknown
            }
            let needs = rule.condition.needs(registry: registry, kind: rule.kind).union(
                rule.actionNeeds(registry: registry))
            // A refusal's reply counts toward no guard (the evaluator's ``PlanEntry/isRefusal``).
            let entries = evaluator.commandEntries(rule, context: context).filter { !$0.isRefusal }
            let commands = entries.reduce(0) { $0 + $1.pendingCommandCount }
            // A detail from the read cache is not the fresh one an uncached action needs.
            let complete = context.knows(needs)
            if commands > 0 { return .yes(commands: commands, complete: complete) }
            return complete ? .no : .unknown
        }
        guard let verdict = condition.decide(context) else { return .unknown }
        guard verdict else { return .no }
        let reference = registry.reference(to: item, in: repository.path)
        var commands = 0
        var complete = true
        for action in rule.actions {
            let definition = registry.action(action.name, for: rule.kind)
            let needs = registry.mask(action.needs(for: rule.kind, registry: registry))
            guard definition == nil || context.knows(needs) else {
                complete = false
                continue
            }
            let planned = evaluator.plannedAction(
                action, definition: definition, needs: needs, rule: rule, context: context, reference: reference)
            if planned.status == .pending { commands += 1 }
        }
        if commands > 0 { return .yes(commands: commands, complete: complete) }
        return complete ? .no : .unknown
    }
}

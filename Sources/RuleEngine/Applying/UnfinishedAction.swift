import Foundation
import GitbayKit

/// An action a previous run left undone after doing an earlier action of the same entry.
///
/// Such an entry often no longer matches its rule (the bot's own comment reset `idle`, its own
/// label changed `labels`), so without this the rest of it would never happen; the journal says
/// what is missing, and the next run finishes it if nobody else has touched the item since.
public struct UnfinishedAction: Sendable, Hashable {
    public var rule: String
    /// The item as the journal names it (`owner/name#12`); the applier reads it with the
    /// registry, which knows each kind's form.
    public var item: String
    public var action: String
    public var command: ControlCommand
    public var argument: ActionArgument
    /// When the entry's first write landed: activity by others after it means people have moved
    /// on, and the rules decide afresh instead.
    public var since: Date

    /// The actions that some run started an entry with but did not finish, and no later run did.
    public static func find(in journal: [JournalEntry]) -> [UnfinishedAction] {
        struct Key: Hashable {
            var run: String
            var rule: String
            var item: String
        }
        var order: [Key] = []
        var groups: [Key: [JournalEntry]] = [:]
        for entry in journal {
            let key = Key(run: entry.run, rule: entry.rule, item: entry.item)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(entry)
        }
        var unfinished: [String: UnfinishedAction] = [:]
        for key in order {
            let entries = groups[key] ?? []
            let intents = entries.filter { $0.phase == .intent }
            let planned = entries.filter { $0.phase == .planned }
            // A command gitbay refused is answered, not finished: nothing of its entry is left
            // for a later run, nor of the same command's entries in earlier runs.
            if entries.contains(where: { $0.phase == .result && $0.outcome == JournalEntry.refusedOutcome }) {
                unfinished = unfinished.filter { $0.value.rule != key.rule || $0.value.item != key.item }
                continue
            }
            func done(_ intent: JournalEntry) -> Bool {
                entries.contains {
                    $0.phase == .result && $0.action == intent.action && $0.argv == intent.argv
                        && ($0.outcome == "applied" || $0.outcome == "already-done")
                }
            }
            func unsettled(_ intent: JournalEntry) -> Bool {
                !entries.contains { $0.phase == .result && $0.action == intent.action && $0.argv == intent.argv }
            }
            // A write sent without a result may have landed: with the entry's plan on record, the
            // rest of the entry is as unfinished as after a write known to have landed.
            let maybeLanded = !planned.isEmpty && intents.contains(where: unsettled)
            let candidates =
                intents
                + planned.filter { plan in
                    !intents.contains { $0.action == plan.action && $0.argv == plan.argv }
                }
            for intent in candidates {
                let identity = "\(key.rule)|\(key.item)|\(intent.action)|\(intent.argv.joined(separator: " "))"
                if done(intent) {
                    unfinished[identity] = nil
                    continue
                }
                let partlyDone = maybeLanded || intents.contains { $0 != intent && done($0) }
                guard partlyDone, let first = intents.first else { continue }
                unfinished[identity] = UnfinishedAction(
                    rule: key.rule, item: key.item, action: intent.action,
                    command: ControlCommand(argv: intent.argv, stdin: intent.stdin, effect: .write),
                    argument: intent.argument ?? .none, since: first.at)
            }
        }
        return unfinished.values.sorted {
            ($0.since, $0.item, $0.action) < ($1.since, $1.item, $1.action)
        }
    }
}

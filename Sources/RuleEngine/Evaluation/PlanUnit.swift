/// What a guard takes or holds whole, the applier sends in one go and a watcher queues as one job:
/// one entry of a rule without a command, or a ``CommentAnswer``.
public struct PlanUnit: Sendable, Hashable {
    /// What stands for the unit in a watcher's queue: a later judgement of the same replaces it.
    public enum Key: Sendable, Hashable {
        case entry(rule: String, item: String)
        case comment(CommentAnswer.Key)
    }

    public let key: Key
    /// The indices of its entries in the plan, in plan order.
    public let entries: [Int]

    /// The plan's units, each at the place of its first entry.
    public static func all(in entries: [PlanEntry]) -> [PlanUnit] {
        let answers = CommentAnswer.all(in: entries)
        var first: [Int: CommentAnswer] = [:]
        for answer in answers {
            first[answer.entries[0]] = answer
        }
        var units: [PlanUnit] = []
        for index in entries.indices {
            if let key = entries[index].answerKey {
                guard let answer = first[index] else { continue }
                units.append(PlanUnit(key: .comment(key), entries: answer.entries))
            } else {
                units.append(
                    PlanUnit(
                        key: .entry(rule: entries[index].rule, item: entries[index].item.reference), entries: [index]))
            }
        }
        return units
    }
}

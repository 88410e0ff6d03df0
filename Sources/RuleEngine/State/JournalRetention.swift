import Foundation

/// Which journal entries a store may forget without changing what later runs find unfinished.
///
/// ``UnfinishedAction/find(in:)`` reads each rule and item on its own, a run's entries about it (a
/// group) in the order they began, and for each action lets the last group that says anything
/// about it decide. So dropping the oldest groups of a rule and item changes nothing when none of
/// them is the one an unfinished action comes from, which holds whenever the rule and item have
/// nothing unfinished. Dropping a later group alone could: its "done" may be what cleared an older
/// run's leftover.
public enum JournalRetention {
    /// One entry as retention sees it: the group it belongs to and when it was written.
    public struct Stamp: Sendable, Hashable {
        /// The run, rule and item that make its group.
        public var run: String
        /// The rule of its group.
        public var rule: String
        /// The item of its group, as the journal writes it.
        public var item: String
        /// When it was written.
        public var at: Date

        public init(run: String, rule: String, item: String, at: Date) {
            self.run = run
            self.rule = rule
            self.item = item
            self.at = at
        }
    }

    /// The positions in `journal` (in the order it was written) of the entries to drop: for each
    /// rule and item with nothing in `unfinished`, the longest run of its oldest groups whose every
    /// entry is older than `date`.
    ///
    /// Items are compared as the journal spells them, as ``UnfinishedAction/find(in:)`` groups them.
    public static func droppable(_ journal: [Stamp], before date: Date, unfinished: [UnfinishedAction]) -> [Int] {
        struct Pair: Hashable {
            var rule: String
            var item: String
        }
        struct Group: Hashable {
            var run: String
            var pair: Pair
        }
        let kept = Set(unfinished.map { Pair(rule: $0.rule, item: $0.item) })
        var positions: [Group: [Int]] = [:]
        var latest: [Group: Date] = [:]
        var order: [Pair: [Group]] = [:]
        for (position, stamp) in journal.enumerated() {
            let group = Group(run: stamp.run, pair: Pair(rule: stamp.rule, item: stamp.item))
            if positions[group] == nil { order[group.pair, default: []].append(group) }
            positions[group, default: []].append(position)
            latest[group] = max(latest[group] ?? stamp.at, stamp.at)
        }
        var dropped: [Int] = []
        for (pair, pairGroups) in order {
            guard !kept.contains(pair) else { continue }
            for group in pairGroups {
                guard let groupLatest = latest[group], groupLatest < date else { break }
                dropped += positions[group] ?? []
            }
        }
        return dropped.sorted()
    }
}

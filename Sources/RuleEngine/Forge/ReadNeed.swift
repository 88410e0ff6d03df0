/// A piece of forge state beyond the list rows that a field or action needs before it can answer.
///
/// The read planner fetches a need only for items that still match once everything cheaper has
/// been decided, which is how a run stays within gitbay's request budget.
public enum ReadNeed: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// An issue's or merge request's labels (learnt from `label:` queries or `show`).
    case labels
    /// An issue's `updated_at` (learnt from `issue list --q` rows).
    case activity
    /// The whole item (`issue show`, `mr show`): body, comments, assignees, checks, reviews.
    case detail
    /// Branch and tag tips (`repo refs`).
    case refs
    /// The dependency checker's state, with its tracking issue (`repo deps status`).
    case dependencies
    /// The repository's open merge requests (their heads and sources).
    case openMergeRequests
    /// The repository's merge requests in every state (to tell whether a stack's parent merged).
    case allMergeRequests
    /// The detail as the server gives it in this run, not restored from the read cache: what a
    /// field or action needs when what it reads can change without moving the version the cache
    /// is checked against (an assignee, a merge request's comments). ``FieldDefinition`` and
    /// ``ActionDefinition`` add it to every `.detail` need unless declared `cached()`.
    case freshDetail = "fresh"
    /// The statuses of the commit an item stands on, with their descriptions (`status list` of a
    /// merge request's head), which its detail read does not give.
    case statuses

    /// What an item's own reads answer besides its detail, each read only for items a rule that
    /// needs it may act on (``ItemKindReading/readBeyondDetail(_:of:in:into:)``).
    public static let beyondDetail: Set<ReadNeed> = [.statuses]

    public static func < (lhs: ReadNeed, rhs: ReadNeed) -> Bool {
        lhs.ordinal < rhs.ordinal
    }

    /// The need's place in the declaration order: its sort key and its bit in a ``Mask``.
    fileprivate var ordinal: Int {
        switch self {
        case .labels: return 0
        case .activity: return 1
        case .detail: return 2
        case .refs: return 3
        case .dependencies: return 4
        case .openMergeRequests: return 5
        case .allMergeRequests: return 6
        case .freshDetail: return 7
        case .statuses: return 8
        }
    }
}

extension ReadNeed {
    /// A set of needs as one bit each, which evaluation tests per condition without hashing.
    ///
    /// 64 bits leave room for needs to come. A need past the last bit would shift to no bit at all,
    /// which every context seems to know, so it would never be read: building its mask stops the
    /// program instead.
    public struct Mask: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64

        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        public init(_ needs: Set<ReadNeed>) {
            self = []
            for need in needs {
                insert(Mask(need: need))
            }
        }

        init(need: ReadNeed) {
            precondition(need.ordinal < RawValue.bitWidth, "read need '\(need.rawValue)' has no bit in ReadNeed.Mask")
            self.init(rawValue: 1 << need.ordinal)
        }
    }
}

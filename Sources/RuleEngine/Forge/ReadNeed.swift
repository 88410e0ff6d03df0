/// A piece of forge state beyond the list rows that a field or action needs before it can answer.
///
/// The read planner fetches a need only for items that still match once everything cheaper has
/// been decided, which is how a run stays within gitbay's request budget. The needs of an item
/// (its labels, its activity, its detail) are the engine's own, since every kind's listing and
/// detail read answer them; the facts of a repository (branch tips, the dependency checker) only
/// the plugin that reads them knows, so that plugin declares them (``ReadNeedDefinition``) and the
/// engine carries them by name. A need is open like ``ItemKind``: its name is its identity.
public struct ReadNeed: RawRepresentable, Sendable, Hashable, Codable {
    /// The need as the reference names it (`labels`, `refs`), and as it is coded.
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ name: String) {
        rawValue = name
    }

    /// The name, unique among the needs declared.
    public var name: String { rawValue }

    /// The needs of an item that the engine itself understands, by their Swift names.
    private enum ItemNeed: String {
        case labels
        case activity
        case detail
        case freshDetail = "fresh"
    }

    /// An issue's or merge request's labels (learnt from `label:` queries or `show`).
    public static let labels = ReadNeed(ItemNeed.labels.rawValue)
    /// An issue's `updated_at` (learnt from `issue list --q` rows).
    public static let activity = ReadNeed(ItemNeed.activity.rawValue)
    /// The whole item (`issue show`, `mr show`): body, comments, assignees, checks, reviews.
    public static let detail = ReadNeed(ItemNeed.detail.rawValue)
    /// The detail as the server gives it in this run, not restored from the read cache.
    ///
    /// What a field or action needs when what it reads can change without moving the version the
    /// cache is checked against (an assignee, a merge request's comments). ``FieldDefinition`` and
    /// ``ActionDefinition`` add it to every `.detail` need unless declared `cached()`.
    public static let freshDetail = ReadNeed(ItemNeed.freshDetail.rawValue)

    /// Every need of an item, in the engine's order: what a record whose rows are whole (a build,
    /// a milestone), or one read in full, knows of itself.
    public static let item: [ReadNeed] = [.labels, .activity, .detail, .freshDetail]
}

extension ReadNeed {
    /// A set of needs as one bit each, which evaluation tests per condition without hashing.
    ///
    /// The bits are the registry's (``Bits``): a need it gives no bit to would shift to no bit at
    /// all, which every context seems to know, so it would never be read; building its mask stops
    /// the program instead.
    public struct Mask: OptionSet, Sendable, Hashable {
        public let rawValue: UInt64

        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }
    }

    /// Each declared need's bit in a ``Mask``, in the order the registry declares them.
    ///
    /// The registry makes it once from the needs the engine and the plugins declare (``PluginRegistry/needs``),
    /// so that a plugin's need has a bit without the engine naming it.
    public struct Bits: Sendable, Hashable {
        /// The needs with a bit, the first need's the lowest: a few, searched in order.
        ///
        /// A search comparing names beats a dictionary here: every ``ItemContext`` turns its
        /// item's and its repository's needs into bits, and hashing each name took a tenth of
        /// evaluating a plan; comparing them with a few short names costs a third of that.
        private let needs: [ReadNeed]

        /// The bits of `needs`, the first need's lowest; needs past the mask's width get none.
        init(_ needs: [ReadNeed]) {
            var distinct: [ReadNeed] = []
            for need in needs.prefix(Mask.RawValue.bitWidth) where !distinct.contains(need) {
                distinct.append(need)
            }
            self.needs = distinct
        }

        /// Whether `need` has a bit of its own.
        public func covers(_ need: ReadNeed) -> Bool {
            needs.contains(need)
        }

        /// The bit of `need`; `nil` when it has none.
        private func bit(of need: ReadNeed) -> Mask? {
            needs.firstIndex(of: need).map { Mask(rawValue: 1 << $0) }
        }

        /// `needs`, which something asks for, as bits; stops the program for a need without a
        /// bit, which would otherwise seem known to every context and never be read.
        public func mask(_ needs: Set<ReadNeed>) -> Mask {
            var mask: Mask = []
            for need in needs {
                guard let bit = bit(of: need) else {
                    preconditionFailure("read need '\(need.name)' has no bit in ReadNeed.Mask: no plugin declares it")
                }
                mask.insert(bit)
            }
            return mask
        }

        /// `needs`, which have been read, as bits: one without a bit is left out, since nothing
        /// can ask for it (a record of another registry's run may know more than this one declares).
        public func mask(read needs: Set<ReadNeed>) -> Mask {
            var mask: Mask = []
            for need in needs {
                if let bit = bit(of: need) { mask.insert(bit) }
            }
            return mask
        }
    }
}

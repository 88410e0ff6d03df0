/// How people, messages and references name one kind of item: what every kind declares, and all
/// that references, `explain` and `history` need of it.
public protocol ItemKindNaming: Sendable {
    /// The kind it names.
    var kind: ItemKind { get }

    /// The singular noun, for messages ("issue", "merge request").
    var noun: String { get }

    /// What stands between the repository and the number in a reference to an item (`#` for
    /// `owner/name#12`), as people and gitbay's web write it.
    var referenceSeparator: String { get }

    /// Whether its items are named by number (`#12`); otherwise by their ``ItemRecord/key``, a title.
    var numbered: Bool { get }

    /// How `--verbose` names this kind's detail reads (`issue details: issue show ...`).
    var detailStep: String { get }
}

extension ItemKindNaming {
    public var numbered: Bool { true }
}

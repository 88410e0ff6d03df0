import Foundation
import GitbayKit
import RuleEngine

/// A build row is complete in itself: every need of an item is known of it (the repository's
/// tips and open merge requests are the repository's to know).
extension Build: ItemRecord {
    public var title: String { subject.map { "\(job): \($0)" } ?? job }
    public var updatedAt: Date? { nil }
    public var known: Set<ReadNeed> { Self.everything }

    /// Every need of an item, built once: `known` is consulted for each condition of each build.
    private static let everything = Set(ReadNeed.item)
}

extension ItemKind {
    /// Builds, as rules name them (`on: builds`).
    public static let builds = ItemKind(rawValue: "builds")
}

extension Item {
    /// A build as an item.
    public static func build(_ build: Build) -> Item {
        Item(kind: .builds, record: build)
    }
}

extension RepositoryState {
    /// The repository's builds as read.
    public var builds: [Build] {
        get { records(.builds) }
        set { setRecords(newValue, .builds) }
    }
}

extension ForgeStateRepository {
    /// The repository's builds as the file holds them.
    public var builds: [Build] {
        (collections[.builds] as? Records<Build>)?.all ?? []
    }
}

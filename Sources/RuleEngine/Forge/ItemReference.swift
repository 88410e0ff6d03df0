import Foundation
import GitbayKit

/// An item named the way people write it: a repository, the separator its kind declares, its key
/// (`owner/name#12`, `owner/name!12`, `owner/name/builds/4213`, `owner/name/milestones/v1.2`).
///
/// Read and written through ``PluginRegistry/reference(parsing:)`` and
/// ``PluginRegistry/reference(to:in:kind:)``, which know each kind's separator.
public struct ItemReference: Sendable, Hashable, CustomStringConvertible {
    public var repository: RepositoryPath
    public var kind: ItemKind
    /// The item's number, or its title for a kind whose items have none (``ItemRecord/key``).
    public var key: String
    /// What stands between the repository and the key (``ItemKindNaming/referenceSeparator``).
    public var separator: String

    public init(repository: RepositoryPath, kind: ItemKind, key: String, separator: String) {
        self.repository = repository
        self.kind = kind
        self.key = key
        self.separator = separator
    }

    /// The item's number; 0 for a kind named by title.
    public var number: Int { Int(key) ?? 0 }

    public var description: String {
        "\(repository)\(separator)\(key)"
    }
}

extension PluginRegistry {
    /// Reads a reference in any declared kind's form; `nil` when it is none of them.
    public func reference(parsing text: String) -> ItemReference? {
        for kind in kinds {
            guard let naming = naming(of: kind),
                let range = text.range(of: naming.referenceSeparator, options: naming.numbered ? .backwards : []),
                let repository = try? RepositoryPath(String(text[..<range.lowerBound]))
            else { continue }
            let key = String(text[range.upperBound...])
            guard naming.numbered ? (Int(key) ?? 0) > 0 : !key.isEmpty else { continue }
            return ItemReference(
                repository: repository, kind: kind, key: naming.numbered ? String(Int(key) ?? 0) : key,
                separator: naming.referenceSeparator)
        }
        return nil
    }

    /// The reference to the item of `kind` named `key` in `repository`; `nil` for a kind no plugin declares.
    public func reference(to key: String, in repository: RepositoryPath, kind: ItemKind) -> ItemReference? {
        naming(of: kind).map {
            ItemReference(repository: repository, kind: kind, key: key, separator: $0.referenceSeparator)
        }
    }

    /// How people write `item` of `repository`; its bare key when no plugin declares its kind.
    public func reference(to item: Item, in repository: RepositoryPath) -> String {
        reference(to: item.key, in: repository, kind: item.kind)?.description ?? "\(repository) \(item.key)"
    }
}

import Foundation
import GitbayKit

/// An item named the way people write it: a repository, the separator its kind declares, a
/// number (`owner/name#12`, `owner/name!12`, `owner/name/builds/4213` for the built-in kinds).
///
/// Read and written through ``PluginRegistry/reference(parsing:)`` and
/// ``PluginRegistry/reference(to:in:kind:)``, which know each kind's separator.
public struct ItemReference: Sendable, Hashable, CustomStringConvertible {
    public var repository: RepositoryPath
    public var kind: ItemKind
    public var number: Int
    /// What stands between the repository and the number (``ItemKindDefinition/referenceSeparator``).
    public var separator: String

    public init(repository: RepositoryPath, kind: ItemKind, number: Int, separator: String) {
        self.repository = repository
        self.kind = kind
        self.number = number
        self.separator = separator
    }

    public var description: String {
        "\(repository)\(separator)\(number)"
    }
}

extension PluginRegistry {
    /// Reads a reference in any declared kind's form; `nil` when it is none of them.
    public func reference(parsing text: String) -> ItemReference? {
        for kind in kinds {
            guard let separator = definition(of: kind)?.referenceSeparator,
                let range = text.range(of: separator, options: .backwards),
                let number = Int(text[range.upperBound...]), number > 0,
                let repository = try? RepositoryPath(String(text[..<range.lowerBound]))
            else { continue }
            return ItemReference(repository: repository, kind: kind, number: number, separator: separator)
        }
        return nil
    }

    /// The reference to item `number` of `kind` in `repository`; `nil` for a kind no plugin declares.
    public func reference(to number: Int, in repository: RepositoryPath, kind: ItemKind) -> ItemReference? {
        definition(of: kind).map {
            ItemReference(repository: repository, kind: kind, number: number, separator: $0.referenceSeparator)
        }
    }

    /// How people write `item` of `repository`; its bare number when no plugin declares its kind.
    public func reference(to item: Item, in repository: RepositoryPath) -> String {
        reference(to: item.number, in: repository, kind: item.kind)?.description ?? "\(repository) \(item.number)"
    }
}

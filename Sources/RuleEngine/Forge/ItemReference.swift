import Foundation
import GitbayKit

/// An item named the way people write it: `owner/name#12` (issue), `owner/name!12` (merge
/// request) or `owner/name/builds/4213` (build).
public struct ItemReference: Sendable, Hashable, CustomStringConvertible {
    public var repository: RepositoryPath
    public var kind: ItemKind
    public var number: Int

    public init(repository: RepositoryPath, kind: ItemKind, number: Int) {
        self.repository = repository
        self.kind = kind
        self.number = number
    }

    /// Reads a reference; `nil` when it is none of the three forms.
    public init?(parsing text: String) {
        let kind: ItemKind
        let path: Substring
        let number: Substring
        if let hash = text.lastIndex(of: "#") {
            (kind, path, number) = (.issues, text[..<hash], text[text.index(after: hash)...])
        } else if let bang = text.lastIndex(of: "!") {
            (kind, path, number) = (.mergeRequests, text[..<bang], text[text.index(after: bang)...])
        } else if let range = text.range(of: "/builds/", options: .backwards) {
            (kind, path, number) = (.builds, text[..<range.lowerBound], text[range.upperBound...])
        } else {
            return nil
        }
        guard let value = Int(number), value > 0, let repository = try? RepositoryPath(String(path)) else {
            return nil
        }
        self.init(repository: repository, kind: kind, number: value)
    }

    public var description: String {
        switch kind {
        case .issues: return "\(repository)#\(number)"
        case .mergeRequests: return "\(repository)!\(number)"
        case .builds: return "\(repository)/builds/\(number)"
        }
    }
}

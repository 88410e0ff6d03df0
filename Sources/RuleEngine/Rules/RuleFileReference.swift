import GitbayKit

/// A rules file in a repository, as `extends:` names it: `owner/name:path`, optionally `@ref`
/// (a branch, a tag or a commit; the default branch when left out).
public struct RuleFileReference: Sendable, Hashable, CustomStringConvertible {
    /// Where a repository keeps its own rules, on its default branch.
    public static let repositoryFile = ".gitbay/bot.yml"

    public var repository: RepositoryPath
    public var path: String
    public var ref: String?

    public init(repository: RepositoryPath, path: String, ref: String? = nil) {
        self.repository = repository
        self.path = path
        self.ref = ref
    }

    /// Reads `owner/name:path[@ref]`; `nil` for anything else (no colon, an empty path or ref, a
    /// repository gitbay would not name).
    public init?(parsing text: String) {
        guard let colon = text.firstIndex(of: ":"),
            let repository = try? RepositoryPath(String(text[..<colon]))
        else { return nil }
        var path = String(text[text.index(after: colon)...])
        var ref: String?
        if let at = path.lastIndex(of: "@") {
            ref = String(path[path.index(after: at)...])
            path = String(path[..<at])
            guard ref?.isEmpty == false else { return nil }
        }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
        self.init(repository: repository, path: path, ref: ref)
    }

    public var description: String {
        "\(repository):\(path)" + (ref.map { "@\($0)" } ?? "")
    }
}

/// Where the files a repository's rules extend are read: the forge (`repo cat`), or for `check`
/// a local checkout.
public protocol RuleFileFetcher: Sendable {
    /// The file's bytes, or why they cannot be had, in words for a diagnostic.
    func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure>
}

/// Why a file `extends:` names could not be read.
public struct RuleFileFetchFailure: Error, Sendable, Hashable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}

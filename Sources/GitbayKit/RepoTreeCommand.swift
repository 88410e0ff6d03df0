/// Lists one level of a repository's tree: `repo tree <repo> [<path>] [--ref <ref>]`.
///
/// Each entry carries git's object id, so the bot can tell that a file (a repository's own rules)
/// changed between two tips without reading it (`internal/control/read.go`, `runRepoTree`:
/// `entryOut` keeps the sha for clients that cache by object).
public struct RepoTreeCommand: GitbayCommand, Hashable {
    public typealias Response = RepositoryTree

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath
    /// The folder listed; empty for the root.
    public let path: String
    /// A branch, tag or commit; `nil` for the default branch.
    public let ref: String?

    /// Refuses a path gitbay would refuse or read as a flag, and an empty ref.
    public init(repository: RepositoryPath, path: String = "", ref: String? = nil) throws(GitbayCommandError) {
        self.repository = repository
        self.path = try CommandValidation.filePath(path, allowingRoot: true)
        self.ref = try ref.map { ref throws(GitbayCommandError) in try CommandValidation.ref(ref) }
    }

    public var argv: [String] {
        ["repo", "tree", repository.description] + (path.isEmpty ? [] : [path]) + (ref.map { ["--ref", $0] } ?? [])
    }
}

/// One level of a tree as `repo tree` answers it, in git's order.
public struct RepositoryTree: Decodable, Sendable, Hashable {
    /// One entry: a file (`blob`), a folder (`tree`) or a submodule (`commit`).
    public struct Entry: Decodable, Sendable, Hashable {
        public var name: String
        public var type: String
        /// git's mode: `100644`, `100755`, `120000` for a symbolic link, `040000` for a tree.
        public var mode: String
        /// The object id: equal ids, equal contents.
        public var sha: String
        /// A blob's bytes; absent for trees and for an empty file.
        public var size: Int?
    }

    /// The repository, `owner/name`.
    public var repository: String
    public var ref: String
    /// The folder listed, cleaned; empty for the root.
    public var dir: String
    public var entries: [Entry]

    private enum CodingKeys: String, CodingKey {
        case repository = "path"
        case ref, dir, entries
    }
}

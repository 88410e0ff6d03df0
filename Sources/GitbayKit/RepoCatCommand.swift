import Foundation

/// Reads one file of a repository: `repo cat <repo> <path> [--ref <ref>]`.
///
/// How the bot reads a repository's own rules file and the bases it extends. Read access is
/// enough; without `--ref` gitbay reads the default branch (`internal/control/read.go`,
/// `runRepoCat`).
public struct RepoCatCommand: GitbayCommand, Hashable {
    public typealias Response = RepositoryBlob

    public static var effect: CommandEffect { .read }

    public let repository: RepositoryPath
    public let path: String
    /// A branch, tag or commit; `nil` for the default branch.
    public let ref: String?

    /// Refuses a path gitbay would refuse or read as a flag, and an empty ref.
    public init(repository: RepositoryPath, path: String, ref: String? = nil) throws(GitbayCommandError) {
        self.repository = repository
        self.path = try CommandValidation.filePath(path)
        self.ref = try ref.map { ref throws(GitbayCommandError) in try CommandValidation.ref(ref) }
    }

    public var argv: [String] {
        ["repo", "cat", repository.description, path] + (ref.map { ["--ref", $0] } ?? [])
    }
}

/// One file as `repo cat` answers it.
///
/// gitbay cuts a blob at its `max_blob_bytes` (100 MiB by default) and says so with `truncated`;
/// a blob with a NUL byte among those returned is `binary` and comes as `base64`, any other as
/// `content`; an empty file has neither.
public struct RepositoryBlob: Decodable, Sendable, Hashable {
    /// The repository, `owner/name`.
    public var repository: String
    /// The ref as asked, or the default branch's name.
    public var ref: String
    /// The path, cleaned as gitbay cleans it.
    public var file: String
    /// The bytes returned.
    public var size: Int
    public var binary: Bool
    public var truncated: Bool
    public var content: String?
    public var base64: String?

    private enum CodingKeys: String, CodingKey {
        case repository = "path"
        case ref, file, size, binary, truncated, content, base64
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        repository = try keys.decode(String.self, forKey: .repository)
        ref = try keys.decode(String.self, forKey: .ref)
        file = try keys.decode(String.self, forKey: .file)
        size = try keys.decode(Int.self, forKey: .size)
        binary = try keys.decode(Bool.self, forKey: .binary)
        truncated = try keys.decodeIfPresent(Bool.self, forKey: .truncated) ?? false
        content = try keys.decodeIfPresent(String.self, forKey: .content)
        base64 = try keys.decodeIfPresent(String.self, forKey: .base64)
    }

    /// The bytes returned: `base64` decoded, else `content`'s UTF-8 (where gitbay has already turned
    /// bytes that are no UTF-8 into U+FFFD), else none; `nil` for base64 that does not decode.
    public var bytes: [UInt8]? {
        if let base64 { return Data(base64Encoded: base64).map { [UInt8]($0) } }
        return Array((content ?? "").utf8)
    }
}

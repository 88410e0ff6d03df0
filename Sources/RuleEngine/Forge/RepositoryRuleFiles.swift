import YAML

/// A repository's own rules file and the files its `extends:` reached, as one read found them.
///
/// The read records what it met, and the rules are always built from the record
/// (``RepositoryRules``), never from the server directly: a run, the plan after it, the read
/// cache's copy and a snapshot then build the same rules from the same bytes, and a mistake is
/// said the same way whether the file was read this run or a week ago.
public struct RepositoryRuleFiles: Sendable, Hashable, Codable {
    /// A file as read: its text, or why it could not be used (gitbay's refusal, too large, binary);
    /// `{"text": "..."}` or `{"refused": "..."}` in a forge-state file.
    public enum Content: Sendable, Hashable, Codable {
        case text(String)
        case refused(String)

        private enum CodingKeys: String, CodingKey {
            case text
            case refused
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try container.decodeIfPresent(String.self, forKey: .text) {
                self = .text(text)
            } else {
                self = .refused(try container.decode(String.self, forKey: .refused))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .text(let text): try container.encode(text, forKey: .text)
            case .refused(let reason): try container.encode(reason, forKey: .refused)
            }
        }
    }

    /// `.gitbay/bot.yml`'s object id on the default branch (`repo tree`), which says without
    /// reading it whether the file changed; `nil` when the repository has no such file.
    public var blob: String?
    /// The file itself; `nil` when there is none.
    public var own: Content?
    /// The files `extends:` reached, by reference (`krz/.gitbay:base.yml@v1`).
    public var bases: [String: Content]
    /// The branch the file was read from (`repo tree`'s ref: the default branch), whose tip the
    /// failing `gitbay-bot/rules` status goes on when the file has an error.
    public var branch: String?

    public init(
        blob: String? = nil, own: Content? = nil, bases: [String: Content] = [:], branch: String? = nil
    ) {
        self.blob = blob
        self.own = own
        self.bases = bases
        self.branch = branch
    }

    /// A repository without a rules file of its own.
    public static let noFile = RepositoryRuleFiles()

    /// `bytes` as a rules file may be kept: text when ``RepositoryRuleChain`` would admit it, else
    /// its reason, so that a file of 10 MB is kept as one line.
    static func content(_ bytes: [UInt8], name: String) -> Content {
        if let problem = RepositoryRuleChain.admissionProblem((name, bytes)) { return .refused(problem.message) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .refused("\(name) is not UTF-8 text; a rules file is YAML text")
        }
        return .text(text)
    }
}

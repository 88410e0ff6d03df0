/// The checks typed commands share, each matching a rule gitbay enforces server-side.
///
/// Kept in one place so the limits (50-character labels, 64 KiB bodies, 1–200 page sizes) are stated
/// once and every command refuses the same values the server would.
enum CommandValidation {
    /// gitbay reads at most 64 KiB of stdin for a body.
    static let maximumBodyBytes = 65_536

    /// The longest label name gitbay accepts.
    static let maximumLabelLength = 50

    static func number(_ value: Int, field: String) throws(GitbayCommandError) -> Int {
        guard value >= 1 else { throw .invalidNumber(field: field, value: value) }
        return value
    }

    /// A commit as `status set` and `status list` resolve it: 4 to 40 hex digits.
    static func commit(_ sha: String) throws(GitbayCommandError) -> String {
        guard (4...40).contains(sha.utf8.count), sha.allSatisfy(\.isHexDigit) else {
            throw .invalidCommit(sha)
        }
        return sha
    }

    static func limit(_ value: Int) throws(GitbayCommandError) -> Int {
        guard (1...Page<Int>.maximumLimit).contains(value) else { throw .invalidLimit(value) }
        return value
    }

    /// Clamps a limit set after construction, so a paged command never holds one gitbay refuses.
    static func clampedLimit(_ value: Int) -> Int {
        min(max(value, 1), Page<Int>.maximumLimit)
    }

    static func labelName(_ name: String) throws(GitbayCommandError) -> String {
        let length = name.unicodeScalars.count
        guard length >= 1, length <= maximumLabelLength, !name.allSatisfy(\.isWhitespace) else {
            throw .invalidLabelName(name)
        }
        return name
    }

    static func labelNames(_ names: [String]) throws(GitbayCommandError) -> [String] {
        for name in names {
            _ = try labelName(name)
        }
        return names
    }

    static func username(_ name: String) throws(GitbayCommandError) -> String {
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else { throw .invalidUsername(name) }
        return name
    }

    static func commentBody(_ body: String) throws(GitbayCommandError) -> String {
        guard !body.allSatisfy(\.isWhitespace) else { throw .blankCommentBody }
        let bytes = body.utf8.count
        guard bytes <= maximumBodyBytes else { throw .commentBodyTooLarge(bytes: bytes) }
        return body
    }

    static func title(_ title: String) throws(GitbayCommandError) -> String {
        guard !title.allSatisfy(\.isWhitespace) else { throw .blankTitle }
        return title
    }

    static func search(_ text: String?) throws(GitbayCommandError) -> String? {
        guard let text else { return nil }
        guard (2...200).contains(text.utf8.count) else { throw .invalidSearch(text) }
        return text
    }

    static func query(_ text: String) throws(GitbayCommandError) -> String {
        guard !text.allSatisfy(\.isWhitespace) else { throw .blankQuery }
        return text
    }

    static func filter(_ value: String?, flag: String) throws(GitbayCommandError) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty else { throw .emptyFilter(flag: flag) }
        return value
    }

    static func milestoneTitle(_ title: String) throws(GitbayCommandError) -> String {
        guard !title.allSatisfy(\.isWhitespace), title != "none" else { throw .invalidMilestoneTitle(title) }
        return title
    }

    /// Normalises a label colour to six lowercase hex digits, or `""` to clear it.
    static func color(_ color: String) throws(GitbayCommandError) -> String {
        let digits = color.hasPrefix("#") ? String(color.dropFirst()) : color
        if color.isEmpty {
            return ""
        }
        guard digits.utf8.count == 6, digits.allSatisfy(\.isHexDigit) else { throw .invalidColor(color) }
        return digits.lowercased()
    }

    /// A path in a repository as `repo cat` and `repo tree` take it (`cleanRepoPath` in gitbay's
    /// `internal/control/read.go`): no `..` step, and no leading `--`, which `readArgs` reads as
    /// an unknown flag; empty only where `allowingRoot` (the tree's root).
    static func filePath(_ path: String, allowingRoot: Bool = false) throws(GitbayCommandError) -> String {
        let steps = path.split(separator: "/")
        guard allowingRoot || !steps.filter({ $0 != "." }).isEmpty, !steps.contains(".."), !path.hasPrefix("--")
        else { throw .invalidFilePath(path) }
        return path
    }

    /// A ref `--ref` takes: any word git resolves, but not empty and not one a parser could take for
    /// a flag.
    static func ref(_ ref: String) throws(GitbayCommandError) -> String {
        guard !ref.isEmpty, !ref.hasPrefix("-") else { throw .invalidRef(ref) }
        return ref
    }
}

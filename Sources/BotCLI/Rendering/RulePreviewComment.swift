import GitbayKit
import RuleEngine
import YAML

/// The comment that previews a merge request's change to its repository's rules file, and the
/// `gitbay-bot/rules` status that goes on its head.
///
/// gitbay has no command that edits a comment (docs/gitbay/domain.md, "Comments are never
/// edited"), so a changed answer is a new comment; the answer's digest rides in a hidden marker,
/// and a head whose answer is the bot's newest preview's gets the status alone. The file is the
/// merge request author's text, so every part of it shown here (rule names, conditions, error
/// messages) is escaped: nothing in it can mention, link or format. At most ``shown`` commands
/// of each side are listed.
struct RulePreviewComment {
    /// The marker's start; the digest follows it.
    static let markerPrefix = "<!-- gitbay-bot:rules-preview digest="
    /// The most commands listed on each side, and errors listed.
    static let shown = 20

    let repository: RepositoryPath
    let preview: RulePreview
    /// What the current rules are, when they are not simply the default branch's file (it has an
    /// error, or there is none), said before the difference.
    let current: String?

    /// The answer as people read it, without the marker: what the digest covers.
    var answer: String {
        var text = "**gitbay-bot: preview of `.gitbay/bot.yml`**\n\n"
        switch preview {
        case .invalid(let errors):
            text +=
                "The proposed rules file has \(errors.count) error\(errors.count == 1 ? "" : "s"), which would keep "
            text += "rules of it from acting once merged (every rule, unless the errors only refuse single rules):\n\n"
            for error in errors.prefix(Self.shown) {
                text += "- \(error.location.line):\(error.location.column): \(MarkdownText.escape(error.message))\n"
            }
            text += more(errors.count)
            text += "\nCheck it locally with "
            text += MarkdownText.code("gitbay-bot check --repository \(repository) --read-bases") + ".\n"
        case .changes(let added, let removed):
            if let current { text += MarkdownText.escape(current) + "\n\n" }
            if added.isEmpty && removed.isEmpty {
                text += "The proposed rules would send the same commands as the current ones today.\n"
            }
            text += section("Would start", added)
            text += section("Would stop", removed)
            text += "\nNothing here is applied before the change is merged. "
            text += "After the merge, " + MarkdownText.code("gitbay-bot explain <item>")
            text += " says why each rule acts on an item or not.\n"
        }
        return text
    }

    /// A hex digest of ``answer`` (64-bit FNV-1a): the same answer, the same digest, on any machine.
    var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in answer.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The comment as posted: the marker, then the answer.
    var body: String {
        Self.markerPrefix + digest + " -->\n" + answer
    }

    /// The digest a comment's body carries, when it is a preview's.
    static func digest(in body: String) -> String? {
        guard body.hasPrefix(markerPrefix) else { return nil }
        return String(body.dropFirst(markerPrefix.count).prefix { $0.isHexDigit })
    }

    /// The status the head gets: failing with the first error, else passing with the counts.
    var status: (state: CheckState, description: String) {
        switch preview {
        case .invalid(let errors):
            return (.failure, errors.first.map { RuleFileStatuses.description(of: $0, in: repository) } ?? "invalid")
        case .changes(let added, let removed):
            return (
                .success,
                "valid: \(added.count) command\(added.count == 1 ? "" : "s") would start, \(removed.count) stop"
            )
        }
    }

    /// One side's commands, at most ``shown``.
    private func section(_ title: String, _ lines: [RulePreview.Line]) -> String {
        guard !lines.isEmpty else { return "" }
        var text = "\n\(title) (\(lines.count)):\n\n"
        for line in lines.prefix(Self.shown) {
            text += "- \(MarkdownText.code(ShellQuote.line(line.argv))) on \(MarkdownText.escape(line.item)), "
            text += "rule \(MarkdownText.escape(line.rule))"
            if !line.reasons.isEmpty { text += ": " + MarkdownText.escape(line.reasons.joined(separator: ", ")) }
            text += "\n"
        }
        return text + more(lines.count)
    }

    /// The line saying how many were left out, if any.
    private func more(_ count: Int) -> String {
        count > Self.shown ? "- and \(count - Self.shown) more\n" : ""
    }
}

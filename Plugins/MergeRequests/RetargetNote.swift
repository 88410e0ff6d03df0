import Foundation
import GitbayKit
import RuleEngine

/// The system comment gitbay writes on a stacked merge request when the MR below it merges:
/// `retargeted from <A-source> to <A-target>: !<A> merged`.
///
/// gitbay records no event for these automatic retargets, so this comment is the only durable
/// trace on the child that its parent landed.
public struct RetargetNote: Sendable, Hashable {
    /// The parent's source branch, which the child targeted until the parent merged.
    public var from: String
    /// The parent's target branch, which the child targets since.
    public var to: String
    /// The parent merge request's number.
    public var parent: Int
    /// When the server wrote the comment.
    public var at: Date

    public init(from: String, to: String, parent: Int, at: Date) {
        self.from = from
        self.to = to
        self.parent = parent
        self.at = at
    }

    /// The note a comment carries; `nil` unless it is a system comment of exactly that form.
    public init?(_ comment: GitbayKit.Comment) {
        guard comment.isSystem else { return nil }
        // Trimming goes through Foundation; server-written notes need none, so skip it when it would do nothing.
        let untrimmed = comment.body.unicodeScalars
        let spaces = CharacterSet.whitespacesAndNewlines
        let trimmed =
            untrimmed.first.map(spaces.contains) == false && untrimmed.last.map(spaces.contains) == false
            ? comment.body : comment.body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let (from, to, parent) = Self.parse(trimmed)
        else { return nil }
        self.init(from: from, to: to, parent: parent, at: comment.createdAt)
    }

    /// Reads `retargeted from A to B: !N merged` as the regex `retargeted from (.+) to (.+): !(\d+) merged`
    /// would, greedy groups included (A ends at the last ` to ` that leaves B non-empty).
    ///
    /// Written by hand over the UTF-8 bytes because a regex literal is compiled on every call and
    /// walking characters is several times slower, and conditions parse every stacked MR's notes.
    /// The markers are ASCII, so a byte match starts and ends on a character boundary; git
    /// forbids spaces in branch names, so ` to ` never falls inside a combining sequence.
    private static func parse(_ body: String) -> (String, String, Int)? {
        let prefix = "retargeted from ".utf8
        let suffix = " merged".utf8
        let bytes = Array(body.utf8)
        guard bytes.count > prefix.count + suffix.count, bytes.starts(with: prefix),
            bytes[(bytes.count - suffix.count)...].elementsEqual(suffix),
            !body.unicodeScalars.contains(where: isNewline)
        else { return nil }
        let middle = bytes[prefix.count..<(bytes.count - suffix.count)]
        // The number follows the last ": !"; an earlier one would leave ": !" among the digits.
        guard let start = lastRange(of: Array(": !".utf8), in: middle, from: middle.endIndex) else { return nil }
        let digits = middle[(start + 3)...]
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            let parent = Int(String(decoding: digits, as: UTF8.self))
        else { return nil }
        // Both branches need at least one character: ` to ` may start no earlier than the
        // second byte and must end before the last.
        let branches = middle[..<start]
        let separator = Array(" to ".utf8)
        guard branches.count >= separator.count + 2,
            let split = lastRange(of: separator, in: branches.dropFirst(), from: branches.endIndex - 1)
        else { return nil }
        return (
            String(decoding: branches[..<split], as: UTF8.self),
            String(decoding: branches[(split + separator.count)...], as: UTF8.self), parent
        )
    }

    /// The start of the last occurrence of `needle` in `haystack` that ends by `end`.
    private static func lastRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>, from end: Int) -> Int? {
        var start = end - needle.count
        while start >= haystack.startIndex {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return start }
            start -= 1
        }
        return nil
    }

    /// Whether a scalar ends a line, as `Character.isNewline` counts them.
    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// The newest retarget note among `comments`; `nil` when the MR was never retargeted by a merge.
    ///
    /// Newest by creation time, the later in the server's order of two with equal times; one
    /// pass, parsing only notes that could be newer than the one already found.
    public static func newest(in comments: [GitbayKit.Comment]) -> RetargetNote? {
        var newest: RetargetNote?
        for comment in comments where comment.isSystem && newest.map({ $0.at <= comment.createdAt }) ?? true {
            if let note = RetargetNote(comment) { newest = note }
        }
        return newest
    }
}

import Foundation
import GitbayKit

/// Which repositories rules look at, written as gitbay query terms: `owner:krz`,
/// `repo:krz/gitbay`, `repo:krz/gitbay-*`, `repo:*`; several terms widen the scope.
public struct RuleScope: Sendable, Hashable, CustomStringConvertible {
    /// One term of the scope.
    public enum Term: Sendable, Hashable {
        /// `owner:NAME`: every repository of the owner.
        case owner(String)
        /// `repo:OWNER/NAME`, or a pattern whose only wildcard is `*`.
        case repository(String)
    }

    public var terms: [Term]

    public init(terms: [Term]) {
        self.terms = terms
    }

    /// The union of `scopes`: each term once, in the order first seen.
    public init(union scopes: [RuleScope]) {
        var terms: [Term] = []
        for scope in scopes {
            for term in scope.terms where !terms.contains(term) { terms.append(term) }
        }
        self.init(terms: terms)
    }

    /// Reads a scope; throws with the offset of the term that is wrong.
    public init(parsing text: String) throws(ConditionSyntaxError) {
        var terms: [Term] = []
        var offset = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            defer { offset += word.unicodeScalars.count + 1 }
            guard !word.isEmpty else { continue }
            let span = SourceSpan(start: offset, length: word.unicodeScalars.count)
            if word.hasPrefix("owner:") {
                let owner = word.dropFirst("owner:".count)
                guard Self.isName(owner) else {
                    throw ConditionSyntaxError("'\(word)' names no owner; write owner:NAME", at: span)
                }
                terms.append(.owner(String(owner)))
            } else if word.hasPrefix("repo:") {
                let pattern = word.dropFirst("repo:".count)
                guard pattern == "*" || Self.isRepositoryPattern(pattern) else {
                    throw ConditionSyntaxError(
                        "'\(word)' is not a repository; write repo:OWNER/NAME (with * as the only wildcard)",
                        at: span)
                }
                terms.append(.repository(String(pattern)))
            } else {
                throw ConditionSyntaxError(
                    "a scope takes only repo: and owner: terms, not '\(word)'", at: span)
            }
        }
        guard !terms.isEmpty else {
            throw ConditionSyntaxError(
                "empty scope; write owner:NAME or repo:OWNER/NAME", at: SourceSpan(start: 0, length: 1))
        }
        self.terms = terms
    }

    public var description: String {
        terms.map { term in
            switch term {
            case .owner(let owner): return "owner:\(owner)"
            case .repository(let pattern): return "repo:\(pattern)"
            }
        }.joined(separator: " ")
    }

    /// Whether a repository is in scope.
    public func contains(_ path: RepositoryPath) -> Bool {
        terms.contains { term in
            switch term {
            case .owner(let owner): return path.owner == owner
            case .repository(let pattern): return Self.matches(pattern, path.description)
            }
        }
    }

    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && !text.contains("/") && !text.contains("*") && !text.hasPrefix("-")
    }

    private static func isRepositoryPattern(_ text: Substring) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") }
    }

    /// Glob matching where `*` stands for any run of characters.
    private static func matches(_ pattern: String, _ text: String) -> Bool {
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
        guard pieces.count > 1 else { return pattern == text }
        var rest = Substring(text)
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for piece in pieces.dropFirst().dropLast() {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(pieces[pieces.count - 1])
    }
}

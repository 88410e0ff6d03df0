import Foundation
import GitbayKit

/// One item a rule may act on.
public enum Item: Sendable, Hashable {
    case issue(IssueRecord)
    case mergeRequest(MergeRequestRecord)
    case build(Build)

    public var kind: ItemKind {
        switch self {
        case .issue: return .issues
        case .mergeRequest: return .mergeRequests
        case .build: return .builds
        }
    }

    /// The item's number: issue and merge-request numbers, or the build number.
    public var number: Int {
        switch self {
        case .issue(let record): return record.issue.number
        case .mergeRequest(let record): return record.mergeRequest.number
        case .build(let build): return build.number
        }
    }

    /// A title for people: the issue or merge-request title, or the build's job and subject.
    public var title: String {
        switch self {
        case .issue(let record): return record.issue.title
        case .mergeRequest(let record): return record.mergeRequest.title
        case .build(let build): return build.subject.map { "\(build.job): \($0)" } ?? build.job
        }
    }

    /// When it last changed, as far as read (builds have no such time).
    public var updatedAt: Date? {
        switch self {
        case .issue(let record): return record.issue.updatedAt
        case .mergeRequest(let record): return record.mergeRequest.updatedAt
        case .build: return nil
        }
    }

    /// What the bot has read of it; a build row is complete in itself.
    public var known: Set<ReadNeed> {
        switch self {
        case .issue(let record): return record.known
        case .mergeRequest(let record): return record.known
        case .build: return Self.everything
        }
    }

    /// Every need, built once: `known` is consulted for each condition of each build.
    private static let everything = Set(ReadNeed.allCases)

}

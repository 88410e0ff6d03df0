import Foundation
import GitbayKit

/// One fixture with the model it decodes into and the keys gitbay may omit from it.
///
/// Drives the parameterised decode, strip and round-trip tests so every fixture gets all three.
struct FixtureCase: Sendable, CustomStringConvertible {
    /// The fixture file name without `.json`.
    let name: String
    /// Keys that are omitempty (or optional on the envelope) somewhere in this fixture.
    let optionalKeys: Set<String>
    /// Decodes the bytes through `Envelope<Payload>` and encodes the envelope back.
    let reencode: @Sendable (Data) throws -> Data

    var description: String { name }

    static func make<Payload: Codable & Sendable>(
        _ name: String, _ payload: Payload.Type, optional: Set<String> = []
    ) -> FixtureCase {
        FixtureCase(name: name, optionalKeys: optional) { data in
            try JSONEncoder().encode(JSONDecoder().decode(Envelope<Payload>.self, from: data))
        }
    }

    static let all: [FixtureCase] = [
        make("issue-list", Page<IssueRow>.self, optional: ["milestone", "next"]),
        make("issue-query", Page<QueryItem>.self, optional: ["milestone", "next"]),
        make(
            "mr-list", Page<MergeRequestRow>.self,
            optional: ["draft", "stacked_on", "queued", "strategy", "reason", "next"]),
        make(
            "mr-show", MergeRequest.self,
            optional: [
                "draft", "body", "body_format", "labels", "checks", "url", "duration", "checks_combined",
                "comments", "reviews", "gates", "approvals", "unmet",
            ]),
        make(
            "build-list", Page<Build>.self,
            optional: ["finished_at", "subject", "failed_step", "failed_reason", "duration_s", "next"]),
        make("build-cancel", BuildCancelReply.self),
        make("mr-ready", DraftReply.self),
        make("mr-merge", MergeReply.self, optional: ["sha"]),
        make("mr-merge-queued", MergeReply.self, optional: ["strategy", "reason"]),
        make("mr-revisions", [MergeRequestRevision].self, optional: ["base_sha", "current", "exit_code"]),
        make("issue-label", LabelsReply.self),
        make("build-cancel-refused", Empty.self, optional: ["exit_code"]),
        make(
            "issue-show", Issue.self,
            optional: ["milestone", "labels", "assignees", "body", "body_format", "comments"]),
        make("label-list", [IssueLabel].self, optional: ["color", "org", "issues", "mrs"]),
        make("milestone-list", [Milestone].self, optional: ["description", "due", "org"]),
        make("repo-list", Page<RepositorySummary>.self, optional: ["description", "archived", "next"]),
        make(
            "repo-show", Repository.self,
            optional: [
                "description", "website", "protected_branches", "topics", "domains", "mirrors", "last_sync", "fork_of",
                "watch", "bookmarked",
            ]),
        make("repo-refs", RepositoryRefs.self),
        make("deps-status", DependencyStatus.self, optional: ["last_check", "last_error", "issue_number", "behind"]),
        make("deps-disabled", DependencyStatus.self),
        make("whoami", Identity.self),
    ]
}

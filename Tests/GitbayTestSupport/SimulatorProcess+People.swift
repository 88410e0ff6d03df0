import Foundation
import GitbayClient

/// What people do to a simulated forge that the bot's control API cannot: push to a branch, and
/// take a grant away, for journeys such as "the author pushes after a writer's `/merge`".
///
/// A push is git's, not the API's, so it goes through the simulator's `push` control with the
/// pusher named; a revoke is gitbay's own `repo access revoke`, sent as an administrator.
extension SimulatorProcess {
    /// Pushes `sha` to `branch` of `repository` as `pusher`, as `git push` would
    /// (`internal/control/refsupdated.go`, `RefsUpdated`; docs/forge-state.md, the `push` control).
    ///
    /// Every open or `source_gone` merge request from that branch moves to `sha` and records a
    /// revision (`mr revisions`), whoever `pusher` is; the `push` event names `pusher`; a merge
    /// queued on such a merge request is dequeued when `pusher` may not write to `repository`.
    /// `advancing` moves the simulator's clock first, so that the push is stamped that many seconds
    /// after whatever came before (a comment, say), in the same control request.
    ///
    /// - Parameter sha: the new tip, 40 lowercase hex digits.
    public func push(
        _ sha: String, to branch: String, of repository: String, by pusher: String, forced: Bool = false,
        advancing seconds: TimeInterval = 0
    ) async throws {
        var request: [String: Any] = [
            "push": ["repo": repository, "branch": branch, "sha": sha, "actor": pusher, "forced": forced]
        ]
        if seconds > 0 {
            request["advance_seconds"] = seconds
        }
        let body = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
        try await control(String(decoding: body, as: UTF8.self))
    }

    /// Pushes a new head, `sha`, to merge request `number` of `repository` as `pusher` (its author,
    /// typically, who may lack write access): a force-push of the merge request's source branch.
    ///
    /// The source branch is read from the forge the simulator holds now. A fork's merge request
    /// (`owner/name:branch`) and one whose source is gone cannot be pushed to: the simulator
    /// matches pushes to branches of the repository itself only.
    ///
    /// - Returns: the source branch pushed to.
    @discardableResult
    public func pushNewHead(
        _ sha: String, toMergeRequest number: Int, of repository: String, by pusher: String,
        advancing seconds: TimeInterval = 0
    ) async throws -> String {
        let repositories = try await forge()["repos"] as? [[String: Any]] ?? []
        let mergeRequests = repositories.first { $0["path"] as? String == repository }?["merge_requests"]
        let mergeRequest = (mergeRequests as? [[String: Any]] ?? []).first { $0["number"] as? Int == number }
        guard let source = mergeRequest?["source"] as? String, !source.isEmpty, !source.contains(":") else {
            throw SimulatorRefusal(
                argv: ["push", repository, "!\(number)"], status: 0, exitCode: nil,
                message: "no merge request !\(number) of \(repository) with a branch of its own to push to")
        }
        try await push(sha, to: source, of: repository, by: pusher, forced: true, advancing: seconds)
        return source
    }

    /// Takes `user`'s own grant on `repository` away, as gitbay's `repo access revoke` does
    /// (`internal/control/repo.go`, `runAccessRevoke`): team grants, org roles and ownership stay.
    ///
    /// Sent with `token`, an administrator's; by default the bot's, which administers every
    /// repository whose forge-state file names no `admins`. A merge `user` queued is dequeued at its
    /// next attempt, not now (`internal/control/mergequeue.go`, `attemptLocked`).
    ///
    /// - Throws: ``SimulatorRefusal`` when gitbay's answer is not a success, such as exit 3
    ///   `<user> has no grant on <repository>`.
    public func revokeAccess(of user: String, on repository: String, token other: String? = nil) async throws {
        let argv = ["repo", "access", "revoke", repository, user]
        let request = HTTPRequest(
            method: .post, url: baseURL.appendingPathComponent("api/v1/cmd"),
            headers: [
                HTTPHeader("Authorization", "Bearer \(other ?? token)"), HTTPHeader("Content-Type", "application/json"),
            ],
            body: try JSONSerialization.data(withJSONObject: ["argv": argv]), timeout: .seconds(10))
        let response = try await PlatformTransport.make().send(request)
        let envelope = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        guard response.status == 200, envelope?["exit_code"] as? Int == 0 else {
            throw SimulatorRefusal(
                argv: argv, status: response.status, exitCode: envelope?["exit_code"] as? Int,
                message: envelope?["error"] as? String ?? "")
        }
    }
}

/// A person's action the simulator refused, with gitbay's answer.
public struct SimulatorRefusal: Error, CustomStringConvertible, Sendable {
    /// What was asked: the argv of a command, or a description of a push.
    public let argv: [String]
    /// The HTTP status, 0 when nothing was sent.
    public let status: Int
    /// gitbay's exit code, when the reply carried one.
    public let exitCode: Int?
    /// gitbay's `error`, or why nothing was sent.
    public let message: String

    public var description: String {
        "\(argv.joined(separator: " ")): HTTP \(status), exit \(exitCode.map(String.init) ?? "none"): \(message)"
    }
}

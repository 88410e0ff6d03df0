import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import MessageAuthentication
import Testing

/// A watcher taking the simulator's webhook deliveries, on a clock that never moves unless the
/// test moves it: what it does without the clock moving, it did because a delivery came.
struct HookedWatcher {
    /// A branch pushed with no merge request, one pending build of its head, and a stale issue
    /// whose last word is the bot's; CI runs `test` on every push.
    static let forge = """
        {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
         "users": ["triage-bot", "alice"],
         "repos": [{"path": "krz/app", "default_branch": "main",
           "branches": {"main": "\(sha("1"))", "topic": "\(sha("c"))"},
           "labels": [{"name": "stale"}], "ci_jobs": ["test"],
           "issues": [{"number": 1, "title": "old bug", "state": "open", "author": "alice", "labels": ["stale"],
                       "created_at": "2025-01-01T00:00:00.000Z", "updated_at": "2025-01-02T00:00:00.000Z",
                       "comments": [{"author": "triage-bot", "body": "stale notice", "kind": "comment",
                                     "created_at": "2025-01-02T00:00:00.000Z"}]}],
           "builds": [{"number": 1, "job": "test", "status": "pending", "sha": "\(sha("c"))", "ref": "topic",
                       "created_at": "2025-01-01T00:00:00Z"}]}]}
        """

    /// The shipped rules that judge no time: `unmark-stale` and `cancel-superseded`.
    static let rules = unmarkStaleRule + "\n" + cancelSupersededRule

    /// The secret in the watcher's `--webhook-secret-file`.
    static let secret = "a webhook secret of the test's own"

    /// The simulator's options for these journeys: a frozen clock, budgets no test reaches, hooks
    /// to loopback allowed, and a person who acts.
    static let simulatorOptions =
        ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000", "--webhook-allow-local"]
        + ForgeActivity.simulatorOptions

    /// The argv of every write the bot's account applied, in order, but the tests' own `webhook`
    /// commands.
    static func botWrites(_ simulator: SimulatorProcess) throws -> [String] {
        try simulator.journalEntries().filter {
            $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot"
        }
        .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }.filter { !$0.hasPrefix("webhook ") }
    }

    let watcher: ClockedWatcher
    /// The status server's address, which the hook posts to.
    let endpoint: URL
    /// The status server's root.
    let base: URL

    /// A watcher of `folder` (the suite's own rules when `nil`) on `simulator`, whose hook signs
    /// with `hookSecret` (the watcher's own ``secret`` when `nil`).
    init(
        _ simulator: SimulatorProcess, state: BotState = BotState(), rules folder: String? = nil,
        hookSecret: String? = nil
    ) async throws {
        let secretFile = Scratch.url("webhook-secret-\(UUID().uuidString)")
        try (Self.secret + "\n").write(to: secretFile, atomically: true, encoding: .utf8)
        // The hook goes in before the watcher starts, so the start's check finds it: on a port free
        // now, which the watcher then listens on. The bot's account administers krz/app (the
        // simulator's default), so it adds the hook.
        let port = try FreePort.pick()
        base = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        endpoint = base.appendingPathComponent("hooks/gitbay")
        let added = try await simulator.write(
            ["webhook", "add", "krz/app", endpoint.absoluteString, "--secret", "-"], stdin: hookSecret ?? Self.secret)
        try #require(added == 200)
        watcher = ClockedWatcher(
            simulator, rules: try folder ?? scopedRuleFolder(Self.rules), state: state,
            ["--listen", "127.0.0.1:\(port)", "--webhook-secret-file", secretFile.path])
    }

    /// Makes gitbay sign the hook's deliveries with `secret` from now on.
    ///
    /// The way gitbay allows: it has no command that changes a hook (`internal/control/webhook.go`
    /// registers `add`, `list`, `remove`, `deliveries` and `redeliver`), so the hook is removed and
    /// added again. Its pending deliveries go with it (`webhook_deliveries.webhook_id` is ON DELETE
    /// CASCADE).
    func rekey(_ simulator: SimulatorProcess, secret: String) async throws {
        let repository = try RepositoryPath("krz/app")
        let hooks = try await simulator.client().send(WebhookListCommand(repository: repository))
        for hook in hooks where hook.url == endpoint.absoluteString {
            try #require(try await simulator.write(["webhook", "remove", "krz/app", "\(hook.id)"]) == 200)
        }
        let added = try await simulator.write(
            ["webhook", "add", "krz/app", endpoint.absoluteString, "--secret", "-"], stdin: secret)
        try #require(added == 200)
    }

    /// The signature gitbay sends for `body`.
    func sign(_ body: String) -> String {
        "sha256=" + HMACSHA256.code(for: Array(body.utf8), key: Array(Self.secret.utf8)).lowercaseHex
    }

    /// POSTs `body` to the hook's path as gitbay does, as delivery `id` of `event`, with
    /// `signature` (none when `nil`); answers the status.
    func post(_ body: String, signature: String?, event: String = "issue.commented", id: Int = 990) async throws -> Int
    {
        var headers = [
            HTTPHeader("Content-Type", "application/json"), HTTPHeader("User-Agent", "gitbay-webhook"),
            HTTPHeader("X-Gitbay-Event", event), HTTPHeader("X-Gitbay-Delivery", "\(id)"),
        ]
        if let signature { headers.append(HTTPHeader("X-Gitbay-Signature-256", signature)) }
        let response = try await PlatformTransport.make().send(
            HTTPRequest(method: .post, url: endpoint, headers: headers, body: Data(body.utf8), timeout: .seconds(10)))
        return response.status
    }

    /// GET `path` of the status server: the status and the body as text.
    func get(_ path: String) async throws -> (status: Int, body: String) {
        let response = try await PlatformTransport.make().send(
            HTTPRequest(
                method: .get, url: base.appendingPathComponent(path), headers: [], body: nil, timeout: .seconds(10)))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// `/metrics` as text.
    func metrics() async throws -> String {
        try await get("metrics").body
    }
}

import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot

/// Each pending action of a plan printed with `--format json`, as `action on reference`.
func pendingActions(_ json: String) throws -> Set<String> {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    var pending = Set<String>()
    for entry in object["entries"] as? [[String: Any]] ?? [] {
        let reference = (entry["item"] as? [String: Any])?["reference"] as? String ?? "?"
        for action in entry["actions"] as? [[String: Any]] ?? [] where action["status"] as? String == "pending" {
            pending.insert("\(action["action"] as? String ?? "?") on \(reference)")
        }
    }
    return pending
}

/// One repository where the shipped rules have three things to do, none of which moves another's
/// copy: a milestone to close (gitbay records no event for it), a superseded build to cancel and
/// a quiet issue to label.
private let forge = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [
      {"path": "krz/app", "default_branch": "main", "branches": {"main": "\(sha("1"))", "feat": "\(sha("d"))"},
       "milestones": [{"title": "v0.8", "state": "open", "due": "2026-11-01"}],
       "issues": [
        {"number": 1, "title": "quiet", "state": "open", "author": "alice", "created_at": "2026-06-01T00:00:00Z",
         "updated_at": "2026-06-01T00:00:00Z"}],
       "builds": [
        {"number": 1, "job": "test", "status": "pending", "sha": "\(sha("c"))", "ref": "feat",
         "created_at": "2026-11-28T00:00:00Z"},
        {"number": 2, "job": "test", "status": "pending", "sha": "\(sha("d"))", "ref": "feat",
         "created_at": "2026-11-28T01:00:00Z"}]}]}
    """

/// The bot's own writes reach the copies it keeps between runs: a plan right after a run plans
/// none of what the run did, though gitbay records no event for some of it (a milestone closed).
@Suite struct OwnWritesJourneyTests {
    @Test func aPlanRightAfterARunPlansNothingTheRunDid() async throws {
        let rules = root.appendingPathComponent("rules").path
        let state = BotState()
        try await SimulatorProcess.run(
            state: forge, options: ["--clock", "frozen", "--api-rate", "1000000", "--write-rate", "1000000"]
        ) { simulator in
            func plan() async throws -> Set<String> {
                let result = await runBot(
                    against: simulator, ["plan", rules, "--state-dir", state.folder, "--format", "json"])
                #expect(result.code == 0 || result.code == 2, "\(result.error)")
                return try pendingActions(result.output)
            }
            // The first plan reads everything and keeps its copies; the run after takes them.
            let before = try await plan()
            #expect(
                before == [
                    "close on krz/app/milestones/v0.8", "cancel on krz/app/builds/1", "add-label on krz/app#1",
                    "comment on krz/app#1",
                ], "\(before)")
            let run = await runBot(against: simulator, ["run", rules, "--state-dir", state.folder])
            #expect(run.code == 0, "\(run.output)\n\(run.error)")
            let applied = try await state.commands(server: simulator.baseURL, outcome: "applied")
            #expect(applied.count == 4, "\(applied)")
            let after = try await plan()
            #expect(after.isEmpty, "planned again: \(after.sorted())")
        }
    }
}

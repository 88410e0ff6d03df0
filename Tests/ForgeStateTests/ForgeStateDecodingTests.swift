import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// Reading the simulator's fixture and the demo forge into the engine's ``ForgeState``.
@Suite struct ForgeStateDecodingTests {
    @Test func theSimulatorFixtureDecodes() throws {
        let file = try ForgeFiles.load(ForgeFiles.smallForge)
        #expect(file.me == "triage-bot")
        #expect(file.now == GitbayTimestamp.parse("2026-11-29T12:00:00.000Z"))
        #expect(file.users == ["triage-bot", "alice", "cmc", "gitbay"])
        let repo = try #require(file.repos.first)
        #expect(repo.path.description == "krz/gitbay")
        #expect(repo.settings == MergeGateSettings(requireApprovals: 1, requireChecks: true))
        #expect(repo.tags == ["v1.37.0": "0000000000000000000000000000000000000137"])
        #expect(repo.issues.count == 5 && repo.mergeRequests.count == 4 && repo.builds.count == 7)
        #expect(repo.labels.first { $0.name == "bug" }.map { ($0.issues, $0.mergeRequests) } ?? (nil, nil) == (2, 0))
        let milestone = try #require(repo.milestones.first { $0.title == "v1.37.0" })
        #expect(milestone.state == "closed" && milestone.openCount == 0 && milestone.closedCount == 1)
        #expect(repo.deps?.issueNumber == 16)
    }

    /// `milestone list` counts merge requests too: an open one keeps a milestone from looking done.
    @Test func milestonesCountMergeRequestsAsGitbayDoes() throws {
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: ForgeFiles.smallForge)) as? [String: Any])
        var repos = try #require(json["repos"] as? [[String: Any]])
        var mergeRequests = try #require(repos[0]["merge_requests"] as? [[String: Any]])
        for index in mergeRequests.indices {
            mergeRequests[index]["milestone"] = "v1.37.0"
        }
        repos[0]["merge_requests"] = mergeRequests
        json["repos"] = repos
        let file = try ForgeStateFile.load(
            from: JSONSerialization.data(withJSONObject: json), registry: BuiltinPlugins.registry)
        let milestone = try #require(file.repos.first?.milestones.first { $0.title == "v1.37.0" })
        // Three open merge requests; one closed issue and one merged merge request.
        #expect(milestone.openCount == 3 && milestone.closedCount == 2)
    }

    @Test func everythingIsKnownOffline() throws {
        for url in ForgeFiles.all {
            let state = try ForgeFiles.load(url).forgeState()
            let everything = Set(BuiltinPlugins.registry.needs)
            let wholeItem = Set(ReadNeed.item)
            for repository in state.repositories {
                #expect(repository.known == everything)
                #expect(repository.refs != nil && repository.dependencies != nil && repository.defaultBranch != nil)
                #expect(repository.issues.allSatisfy { $0.known == wholeItem && $0.issue.updatedAt != nil })
                // A merge request's head statuses come with the file too (`statuses`, then `checks`).
                #expect(repository.mergeRequests.allSatisfy { $0.known == wholeItem.union([.statuses, .revisions]) })
            }
        }
    }

    @Test func theDemoForgeDerivesWhatTheServerWould() throws {
        let state = try ForgeFiles.load(ForgeFiles.demoForge).forgeState()
        #expect(state.repositories.map(\.path.description) == ["krz/gitbay", "krz/runner"])
        let gitbay = state.repositories[0]
        let runner = state.repositories[1]
        #expect(
            gitbay.dependencies
                == DependencyStatus(
                    enabled: true, lastCheck: GitbayTimestamp.parse("2026-11-29T06:00:00.000Z"), issueNumber: 40,
                    behind: [
                        OutdatedDependency(
                            ecosystem: "go", name: "golang.org/x/crypto", current: "v0.28.0", latest: "v0.31.0")
                    ]))
        #expect(runner.dependencies == DependencyStatus(enabled: false))
        #expect(runner.refs?.branches.map(\.name) == ["feat-cache", "feat-logs", "feat-logs-wip", "main"])
        let fresh = try #require(runner.issues.first { $0.issue.number == 4 })
        #expect(fresh.issue.updatedAt == fresh.issue.createdAt)
        #expect(gitbay.issues.map(\.issue.number) == [40, 37, 36, 35, 34, 33, 32, 31, 30])

        let parent = try #require(gitbay.mergeRequest(52)?.mergeRequest)
        let child = try #require(gitbay.mergeRequest(53)?.mergeRequest)
        #expect(child.stackedOn == MergeRequestRef(number: 52, title: parent.title))
        #expect(parent.stacked == [MergeRequestRef(number: 53, title: child.title)])
        #expect(parent.checksCombined == .failure)
        #expect(
            parent.gates?.unmet == [
                "krz/gitbay needs 1 approval; !52 has 0", "changes requested by cmc",
                "krz/gitbay requires green checks; b1b1b1b1b1 has checks failure",
            ])
        // A closed parent is no parent: !58 still targets stack-d-1, but !57 is not open.
        #expect(gitbay.mergeRequest(58)?.mergeRequest.stackedOn == nil)
        // A fork's branch cannot be stacked on, and a merged MR has no gates.
        #expect(gitbay.mergeRequest(56)?.mergeRequest.stacked == [])
        #expect(gitbay.mergeRequest(50)?.mergeRequest.gates == nil)
        #expect(gitbay.mergeRequest(51)?.mergeRequest.comments.first?.isSystem == true)
    }
}

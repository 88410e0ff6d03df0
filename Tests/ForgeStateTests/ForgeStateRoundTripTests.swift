import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// What `gitbay-bot snapshot` saves reads back as the same forge.
@Suite struct ForgeStateRoundTripTests {
    @Test(arguments: ForgeFiles.all)
    func loadWriteLoadKeepsTheForgeState(_ url: URL) throws {
        let state = try ForgeFiles.load(url).forgeState()
        let written = try ForgeStateFile(state: state, registry: BuiltinPlugins.registry).encoded()
        let reread = try ForgeStateFile.load(from: written, registry: BuiltinPlugins.registry).forgeState()
        #expect(reread == state)
        #expect(try ForgeStateFile.load(from: written, registry: BuiltinPlugins.registry).encoded() == written)
    }

    /// A merge request's heads survive a snapshot: an offline plan binds a `/merge` to the head
    /// its giver saw as a live one does, and a file that lost them would let it merge a head
    /// pushed after the command.
    @Test func aMergeRequestsRevisionsAreWrittenAndReadBack() throws {
        var state = try ForgeFiles.load(ForgeFiles.demoForge).forgeState()
        let repository = try #require(state.repositories.firstIndex { !$0.mergeRequests.isEmpty })
        var record = state.repositories[repository].mergeRequests[0]
        let opened = record.mergeRequest.createdAt
        record.revisions = [
            MergeRequestRevision(number: 1, sha: String(repeating: "1", count: 40), createdAt: opened),
            MergeRequestRevision(
                number: 2, sha: record.mergeRequest.headSHA, baseSHA: String(repeating: "b", count: 40),
                createdAt: opened.addingTimeInterval(3600), isCurrent: true),
        ]
        state.repositories[repository].mergeRequests[0] = record
        let written = try ForgeStateFile(state: state, registry: BuiltinPlugins.registry).encoded()
        let reread = try ForgeStateFile.load(from: written, registry: BuiltinPlugins.registry).forgeState()
        let number = record.number
        #expect(reread.repositories[repository].mergeRequest(number)?.revisions == record.revisions)
    }

    @Test func theWrittenFileLeavesDerivedFieldsOutAndUsesGitbaysTimeForms() throws {
        let state = try ForgeFiles.load(ForgeFiles.demoForge).forgeState()
        let text = String(
            decoding: try ForgeStateFile(state: state, registry: BuiltinPlugins.registry).encoded(), as: UTF8.self)
        #expect(text.contains(#""format" : "gitbay-forge-state/1""#))
        #expect(!text.contains("stacked_on") && !text.contains("\"gates\""))
        #expect(text.contains(#""created_at" : "2026-11-29T11:00:00Z""#))
        #expect(text.contains(#""created_at" : "2026-06-10T08:00:00.000Z""#))
        #expect(text.contains(#""require_approvals" : 1"#))
    }
}

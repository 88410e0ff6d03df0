import BuildsPlugin
import BuiltinPlugins
import Foundation
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

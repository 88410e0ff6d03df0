import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine

/// The forge-state files the suites read, found from the repository root.
enum ForgeFiles {
    static let smallForge = SimulatorProcess.repositoryRoot.appendingPathComponent(
        "Tests/Simulator/fixtures/small-forge.json")
    static let demoForge = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/demo-forge.json")
    static let all = [smallForge, demoForge]

    /// Reads and loads one file.
    static func load(_ url: URL) throws -> ForgeStateFile {
        try ForgeStateFile.load(from: Data(contentsOf: url), registry: BuiltinPlugins.registry)
    }

    /// Loads forge-state JSON given as text, for the error cases.
    static func load(text: String) throws(ForgeStateFileError) -> ForgeStateFile {
        try ForgeStateFile.load(from: Data(text.utf8), registry: BuiltinPlugins.registry)
    }
}

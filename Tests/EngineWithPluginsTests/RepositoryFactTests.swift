import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import IssuesPlugin
import RuleEngine
import Testing

/// The facts plugins keep in a repository's state, which the engine carries without naming them.
@Suite struct RepositoryFactTests {
    private let refs = RepositoryRefs(
        branches: [RepositoryRef(name: "main", sha: "aa")], tags: [RepositoryRef(name: "v1.0", sha: "e1")])

    @Test func aFactTakesPartInEquality() throws {
        let empty = RepositoryState(path: try RepositoryPath("krz/app"))
        var tipped = empty
        tipped.refs = refs
        #expect(tipped != empty)
        var other = empty
        other.refs = RepositoryRefs(branches: [RepositoryRef(name: "main", sha: "bb")])
        #expect(tipped != other)
        other.refs = refs
        #expect(tipped == other && tipped.hashValue == other.hashValue)
        other.refs = nil
        #expect(other == empty)
    }

    /// A fact is read back only as the type it was kept as.
    @Test func aFactIsKeptUnderItsNeedAsItsType() throws {
        var state = RepositoryState(path: try RepositoryPath("krz/app"))
        state.dependencies = DependencyStatus(enabled: true, issueNumber: 188)
        #expect(state[.dependencies, as: DependencyStatus.self]?.issueNumber == 188)
        #expect(state[.dependencies, as: RepositoryRefs.self] == nil)
        #expect(state.refs == nil)
    }

    /// What a run read goes into the file under gitbay's own keys, and comes back the same.
    @Test func theFileRecordsTheFactsItsPluginsKeep() throws {
        var state = RepositoryState(path: try RepositoryPath("krz/app"), defaultBranch: "main")
        state.refs = refs
        state.dependencies = DependencyStatus(enabled: true, issueNumber: 188)
        let file = ForgeStateRepository(state: state, registry: BuiltinPlugins.registry)
        #expect(file.branches == ["main": "aa"] && file.tags == ["v1.0": "e1"])
        #expect(file.deps == DependencyStatus(enabled: true, issueNumber: 188))
        let read = file.repositoryState(registry: BuiltinPlugins.registry)
        #expect(read.refs == refs && read.dependencies == state.dependencies)
    }
}

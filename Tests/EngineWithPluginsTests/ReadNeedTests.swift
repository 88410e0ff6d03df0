import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// A plugin that declares the repository needs it is given and offers one field per need in
/// `uses`, for registries the built-in plugins would never make.
private struct NeedsPlugin: BotPlugin {
    var name = "Needs"
    var declared: [ReadNeed] = []
    var uses: [ReadNeed] = []

    var needs: [ReadNeedDefinition] {
        declared.map { ReadNeedDefinition($0, cost: "`\($0.name)`", rank: 0) }
    }

    func fields(for kind: ItemKind) -> [FieldDefinition] {
        guard kind == .issues else { return [] }
        return uses.map { need in
            FieldDefinition("reads_\(need.name)", .boolean, needs: [need], doc: "") { _ in .absent }
        }
    }

    func actions(for kind: ItemKind) -> [ActionDefinition] { [] }
}

@Suite struct ReadNeedTests {
    private static let registry = BuiltinPlugins.registry

    /// The reference has always listed the needs in this order; the plugins' ranks keep it.
    @Test func theRegistryListsTheItemsNeedsThenThePluginsThenFresh() {
        #expect(
            Self.registry.needs == [
                .labels, .activity, .detail, .refs, .dependencies, .openMergeRequests, .allMergeRequests,
                .statuses, .revisions, .freshDetail,
            ])
        // The reads an item's kind makes beyond its detail, for the items its rules may act on.
        #expect(Self.registry.beyondDetail == [.revisions, .statuses])
        #expect(Self.registry.conflicts.isEmpty)
    }

    @Test func eachNeedHasABitOfItsOwn() {
        let bits = Self.registry.needs.map { Self.registry.mask([$0]).rawValue }
        #expect(Set(bits).count == Self.registry.needs.count)
        #expect(bits.allSatisfy { $0 != 0 && $0 & ($0 - 1) == 0 })
        #expect(Self.registry.mask(Set(Self.registry.needs)).rawValue.nonzeroBitCount == Self.registry.needs.count)
    }

    /// A need is its name, on the wire as in memory.
    @Test func aNeedIsCodedAsItsName() throws {
        let data = try JSONEncoder().encode([ReadNeed.refs, .freshDetail])
        #expect(String(decoding: data, as: UTF8.self) == #"["refs","fresh"]"#)
        #expect(try JSONDecoder().decode([ReadNeed].self, from: data) == [.refs, .freshDetail])
    }

    /// A need nobody reads would leave its field "not read" in every run.
    @Test func aFieldNeedingWhatNoPluginDeclaresIsAConflict() {
        let registry = PluginRegistry(plugins: BuiltinPlugins.all + [NeedsPlugin(uses: [ReadNeed("nowhere")])])
        #expect(registry.conflicts == ["issues: field 'reads_nowhere' needs 'nowhere', which no plugin declares"])
        #expect(!registry.needs.contains(ReadNeed("nowhere")))
    }

    @Test func aNeedDeclaredTwiceIsAConflictAndTheFirstWins() {
        let registry = PluginRegistry(
            plugins: BuiltinPlugins.all + [NeedsPlugin(declared: [.refs, .labels, ReadNeed("notes")])])
        #expect(
            registry.conflicts == [
                "read need 'refs' from Builds and Needs", "read need 'labels' from the engine and Needs",
            ])
        #expect(registry.definition(of: .refs)?.cost == "`repo refs`")
        #expect(registry.needs.filter { $0 == .refs }.count == 1)
        #expect(registry.needs.contains(ReadNeed("notes")))
    }

    /// Past the mask's 64 bits a need would seem known to every context: the registry says so,
    /// and the needs declared last are the ones left without a bit, whatever their rank.
    @Test func aNeedPastTheMasksWidthIsAConflict() {
        let many = (0..<61).map { ReadNeed("need\($0)") }
        let registry = PluginRegistry(plugins: BuiltinPlugins.all + [NeedsPlugin(declared: many)])
        #expect(registry.needs.count == 71)
        #expect(
            registry.conflicts == (54..<61).map { "read need 'need\($0)' has no bit: ReadNeed.Mask holds 64" })
        #expect(registry.mask(Set(registry.needs.filter(registry.bits.covers))).rawValue == .max)
    }

    /// Building the mask of a need without a bit stops the program rather than read nothing.
    @Test func theMaskOfANeedWithoutABitStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = BuiltinPlugins.registry.mask([ReadNeed("nowhere")])
        }
    }

    /// What a context knows is what its item and its repository know together, for every way of
    /// splitting up to two needs each between them, asked of every set of up to three needs.
    ///
    /// Three asked cover a need only the item knows, one only the repository knows and one neither
    /// knows at once; every set of needs (1,024 of them) cost 3.2 million questions and 17 s of
    /// CPU in a debug build for no case those leave out.
    @Test func aContextKnowsWhatItsItemOrItsRepositoryKnows() throws {
        let all = Self.registry.needs
        let subsets = (0..<(1 << all.count)).map { bits in
            Set(all.indices.filter { bits & (1 << $0) != 0 }.map { all[$0] })
        }.filter { $0.count <= 3 }
        let path = try RepositoryPath("krz/app")
        let issue = GitbayKit.Issue(number: 1, title: "t", state: .open, author: "a", createdAt: now, updatedAt: now)
        var checked = 0
        // Each split that answers wrongly, gathered: an `#expect` per case would be most of the
        // test's time (hundreds of thousands of them).
        var wrong: [String] = []
        for itemKnows in subsets where itemKnows.count <= 2 {
            for repositoryKnows in subsets where repositoryKnows.count <= 2 {
                let context = ItemContext(
                    item: .issue(IssueRecord(issue: issue, known: itemKnows)),
                    repository: RepositoryState(path: path, known: repositoryKnows), now: now, me: "bot",
                    registry: Self.registry)
                for needs in subsets {
                    if context.knows(needs) != needs.isSubset(of: itemKnows.union(repositoryKnows)) {
                        wrong.append("item \(itemKnows), repository \(repositoryKnows), asked \(needs)")
                    }
                    checked += 1
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(3))")
        #expect(checked > 10_000)
    }
}

import BuiltinPlugins
import GitbayKit
import RuleEngine
import Testing
import YAML

/// Files in repositories, by `owner/name:path`, for a chain to extend; any other is unreadable.
private struct InMemoryFetcher: RuleFileFetcher {
    var files: [String: String]

    func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure> {
        guard let text = files["\(reference.repository):\(reference.path)"] else {
            return .failure(RuleFileFetchFailure("no such file"))
        }
        return .success(Array(text.utf8))
    }
}

/// A repository's own rules built on shared bases: what a later file keeps, replaces and switches
/// off, and every way a chain can go wrong, each said at the `extends:` or the place that caused it.
@Suite struct RepositoryRuleChainTests {
    private static let base = """
        rules:
          - name: mark-stale
            on: issues
            when: [state = open, quiet > 60d]
            do: [{add-label: stale}]
          - name: close-stale
            on: issues
            when: [labels has stale]
            do: [close]
          - name: welcome
            on: issues
            when: [state = open]
            do: [{add-label: new}]

        """

    private func load(
        _ text: String, bases: [String: String] = [:], forbidding: Set<String> = []
    ) async throws
        -> RuleSet
    {
        await RepositoryRuleChain.load(
            (".gitbay/bot.yml", Array(text.utf8)),
            confinement: RepositoryConfinement(repository: try RepositoryPath("krz/app"), forbiddenActions: forbidding),
            registry: Fixtures.registry, fetcher: InMemoryFetcher(files: bases))
    }

    @Test func aLaterFileReplacesByNameSwitchesOffByDisableAndAddsItsOwn() async throws {
        let set = try await load(
            """
            extends: krz/.gitbay:base.yml
            disable: [close-stale]
            rules:
              - name: welcome
                on: issues
                when: [state = open]
                do: [{add-label: hello}]
              - name: triage
                on: issues
                when: [labels lacks triage]
                do: [{add-label: triage}]

            """, bases: ["krz/.gitbay:base.yml": Self.base])
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
        #expect(set.rules.map(\.name) == ["krz/app:mark-stale", "krz/app:welcome", "krz/app:triage"])
        #expect(set.rules.map(\.location.file) == ["krz/.gitbay:base.yml", ".gitbay/bot.yml", ".gitbay/bot.yml"])
        #expect(set.rules.allSatisfy { $0.scope.description == "repo:krz/app" }, "the bases act on the repository too")
    }

    @Test func switchingOneBaseRuleOffRemovesExactlyIt() async throws {
        let all = try await load("extends: krz/.gitbay:base.yml\n", bases: ["krz/.gitbay:base.yml": Self.base])
        let less = try await load(
            "extends: krz/.gitbay:base.yml\ndisable: [welcome]\n", bases: ["krz/.gitbay:base.yml": Self.base])
        #expect(all.rules.map(\.name) == ["krz/app:mark-stale", "krz/app:close-stale", "krz/app:welcome"])
        #expect(less.rules.map(\.name) == ["krz/app:mark-stale", "krz/app:close-stale"])
    }

    @Test func disablingARuleNoBaseHasIsAnErrorWithTheClosestName() async throws {
        let set = try await load(
            "extends: krz/.gitbay:base.yml\ndisable: [close-stal]\n", bases: ["krz/.gitbay:base.yml": Self.base])
        #expect(
            set.diagnostics.map(\.description) == [
                ".gitbay/bot.yml:2:11: error: disable: no rule 'close-stal' in the files this one extends; "
                    + "did you mean 'close-stale'?"
            ])
        #expect(set.rules.isEmpty)
    }

    @Test func disablingWithoutExtendsSaysThereIsNothingToSwitchOff() async throws {
        let set = try await load("disable: [x]\nrules: []\n")
        #expect(
            set.diagnostics.filter { $0.severity == .error }.map(\.description) == [
                ".gitbay/bot.yml:1:11: error: disable: switches off rules of the files this one extends, and it "
                    + "extends none (add 'extends: owner/name:path', or drop 'x')"
            ])
    }

    @Test func aBaseIsHeldToTheRepositoryAndTheOperatorsForbidsAtItsOwnPlaces() async throws {
        let set = try await load(
            "extends: krz/.gitbay:base.yml\n",
            bases: ["krz/.gitbay:base.yml": "scope: owner:krz\n" + Self.base], forbidding: ["close"])
        #expect(
            set.diagnostics.map(\.location.description) == ["krz/.gitbay:base.yml:1:8", "krz/.gitbay:base.yml:10:10"])
    }

    @Test(arguments: [
        ("extends: krz/.gitbay\n", "extends: takes owner/name:path, optionally @ref, not 'krz/.gitbay'"),
        ("extends: krz/.gitbay:nothere.yml\n", "extends: cannot read krz/.gitbay:nothere.yml: no such file"),
        (
            "extends: krz/.gitbay:../x.yml\n",
            "extends: takes owner/name:path, optionally @ref, not 'krz/.gitbay:../x.yml'"
        ),
    ])
    func aMalformedOrUnreadableExtendsIsAnErrorAtIt(text: String, message: String) async throws {
        let set = try await load(text)
        #expect(set.diagnostics.map(\.description) == [".gitbay/bot.yml:1:10: error: \(message)"])
        #expect(set.rules.isEmpty)
    }

    @Test func aCycleIsSaidAtTheExtendsThatClosesItWithTheWholeChain() async throws {
        let set = try await load(
            "extends: krz/a:one.yml\n",
            bases: ["krz/a:one.yml": "extends: krz/b:two.yml\n", "krz/b:two.yml": "extends: krz/a:one.yml\n"])
        #expect(
            set.diagnostics.map(\.description) == [
                "krz/b:two.yml:1:10: error: extends: krz/a:one.yml is already in this chain "
                    + "(.gitbay/bot.yml → krz/a:one.yml → krz/b:two.yml → krz/a:one.yml)"
            ])
    }

    @Test func aBaseExtendingTheRepositorysOwnFileIsACycle() async throws {
        let set = try await load(
            "extends: krz/a:one.yml\n", bases: ["krz/a:one.yml": "extends: krz/app:.gitbay/bot.yml\n"])
        #expect(set.diagnostics.map(\.location.description) == ["krz/a:one.yml:1:10"])
    }

    @Test func aChainDeeperThanFiveFilesStops() async throws {
        var bases: [String: String] = [:]
        for level in 1...6 { bases["krz/a:\(level).yml"] = "extends: krz/a:\(level + 1).yml\n" }
        let set = try await load("extends: krz/a:1.yml\n", bases: bases)
        #expect(
            set.diagnostics.map(\.description) == [
                "krz/a:4.yml:1:10: error: extends: a chain holds at most 5 files, and krz/a:5.yml would be one more"
            ])
    }

    @Test func aTenMegabyteOrBinaryFileIsRefusedBeforeItIsParsed() async throws {
        let large = try await load("# " + String(repeating: "x", count: 10 << 20) + "\n")
        #expect(
            large.diagnostics.map(\.description) == [
                ".gitbay/bot.yml:1:1: error: .gitbay/bot.yml is 10485763 bytes; a rules file holds at most 1024 KiB"
            ])
        let binary = try await load("extends: krz/a:b.yml\n", bases: ["krz/a:b.yml": "rules:\u{0}\n"])
        #expect(
            binary.diagnostics.map(\.description) == [
                "krz/a:b.yml:1:1: error: krz/a:b.yml is binary (a NUL byte at offset 6); a rules file is YAML text"
            ])
    }

    /// A billion laughs in a base: refused by the YAML layer's node cap at the alias that passes it,
    /// in the base, and nothing of the chain is used.
    @Test func aYAMLBombInABaseIsAnErrorAtTheAliasThatExpandsIt() async throws {
        var bomb = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1..<10 {
            bomb.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        bomb.append("rules: *a9")
        let set = try await load(
            "extends: krz/a:bomb.yml\n", bases: ["krz/a:bomb.yml": bomb.joined(separator: "\n") + "\n"])
        #expect(set.rules.isEmpty)
        #expect(set.diagnostics.count == 1)
        #expect(set.diagnostics.first?.location.file == "krz/a:bomb.yml")
        #expect(set.diagnostics.first?.message.contains("expands the document beyond 100000 nodes") == true)
    }

    @Test func theOperatorsFilesTakeNeitherExtendsNorDisable() {
        let set = RuleSet.load(
            files: [("rules.yml", Array("scope: owner:krz\nextends: krz/a:b.yml\ndisable: [x]\nrules: []\n".utf8))],
            registry: Fixtures.registry)
        #expect(
            set.diagnostics.filter { $0.severity == .error }.map(\.location.description) == [
                "rules.yml:2:10", "rules.yml:3:11",
            ])
    }

    @Test func aRepositoryReplacingABaseCommandRuleGivesTheCommandOnce() async throws {
        let command =
            "  - name: ship\n    on: merge_requests\n    command: /ship\n    allowed: writers\n    do: [merge]\n"
        let set = try await load(
            "extends: krz/a:b.yml\nrules:\n" + command, bases: ["krz/a:b.yml": "rules:\n" + command])
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
        #expect(set.rules.map(\.location.file) == [".gitbay/bot.yml"])
    }
}

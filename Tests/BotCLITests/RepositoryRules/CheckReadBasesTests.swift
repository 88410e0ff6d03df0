import Foundation
import GitbayTestSupport
import Testing

/// `check --repository --read-bases` reads what `extends:` names from the forge with `repo cat`
/// (the default branch, or the `@ref` named), where no `--base` checkout is given, and says a
/// file gitbay refuses in gitbay's words at the `extends:`.
@Suite struct CheckReadBasesTests {
    private static let tip = String(repeating: "a", count: 40)
    private static let tagged = String(repeating: "b", count: 40)

    /// krz/.gitbay's base: two rules on main, one at the tag v1.
    private static let forge = """
        {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
         "repos": [{"path": "krz/.gitbay", "branches": {"main": "\(tip)"}, "tags": {"v1": "\(tagged)"},
           "commits": {
             "\(tip)": {"files": {"base.yml": "rules:\\n  - name: mark-stale\\n    on: issues\\n    when: [quiet > 60d]\\n    do: [{add-label: stale}]\\n  - name: close-stale\\n    on: issues\\n    when: [labels has stale]\\n    do: [close]\\n"}},
             "\(tagged)": {"files": {"base.yml": "rules:\\n  - name: mark-stale\\n    on: issues\\n    when: [quiet > 90d]\\n    do: [{add-label: stale}]\\n"}}}}]}
        """

    /// A repository file extending `reference`, with `disable:`.
    private func file(extending reference: String, disable: String = "[]") throws -> String {
        let path = Scratch.url("read-bases-\(UUID().uuidString).yml").path
        try "extends: \(reference)\ndisable: \(disable)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func check(
        _ simulator: SimulatorProcess, _ path: String
    ) async -> (code: Int32, output: String, error: String) {
        await runBot(
            ["check", "--repository", "krz/app", "--read-bases", "--url", simulator.baseURL.absoluteString, path],
            environment: ["GITBAY_TOKEN": simulator.token])
    }

    @Test func theBaseIsReadFromTheDefaultBranchOrTheRefNamed() async throws {
        try await SimulatorProcess.run(state: Self.forge) { simulator in
            let main = await check(simulator, try file(extending: "krz/.gitbay:base.yml", disable: "[close-stale]"))
            #expect(main.code == 0, "\(main.error)")
            #expect(main.output == "1 file, 1 rule: no problems found\n")
            // At v1 the base has no close-stale: disabling it there is a mistake, which shows v1 was read.
            let tagged = try file(extending: "krz/.gitbay:base.yml@v1", disable: "[close-stale]")
            let tag = await check(simulator, tagged)
            #expect(tag.code == 78)
            #expect(
                tag.error.hasPrefix(
                    "\(tagged):2:11: error: disable: no rule 'close-stale' in the files this one extends"))
            #expect(try await simulator.stats()["reads"] as? Int == 2, "one repo cat a check, nothing else")
        }
    }

    @Test(arguments: [
        ("krz/.gitbay:nothere.yml", "no such file \"nothere.yml\" in krz/.gitbay at main"),
        ("krz/private:base.yml", "repository krz/private not found"),
        ("krz/.gitbay:base.yml@v9", "no ref \"v9\" in krz/.gitbay"),
    ])
    func whatGitbayRefusesIsSaidInItsWordsAtTheExtends(reference: String, message: String) async throws {
        try await SimulatorProcess.run(state: Self.forge) { simulator in
            let path = try file(extending: reference)
            let result = await check(simulator, path)
            #expect(result.code == 78)
            #expect(result.error.hasPrefix("\(path):1:10: error: extends: cannot read \(reference): \(message)\n"))
        }
    }
}

import Foundation
import GitbayKit
import RuleEngine
import Synchronization
import Testing
import YAML

/// Every broken repository's branch tip is `main` at `aaaa…`; a status already standing on
/// `standing`'s tip is listed, writes to `refusing` are refused; writes are recorded.
private final class StatusForge: ForgeReader, ForgeWriter {
    let standing: Set<String>
    let refusing: Set<String>
    let description: @Sendable (String) -> String
    let writes = Mutex<[[String]]>([])

    init(standing: Set<String>, refusing: Set<String>, description: @escaping @Sendable (String) -> String) {
        self.standing = standing
        self.refusing = refusing
        self.description = description
    }

    private struct NotFaked: Error {}

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        if command is RepoRefsCommand,
            let refs = RepositoryRefs(branches: [RepositoryRef(name: "main", sha: tip)]) as? Command.Response
        {
            return refs
        }
        if let list = command as? StatusListCommand {
            let repository = list.repository.description
            let statuses =
                standing.contains(repository)
                ? [CommitStatus(context: "gitbay-bot/rules", state: .failure, description: description(repository))]
                : []
            if let answer = CommitStatuses(sha: tip, statuses: statuses) as? Command.Response { return answer }
        }
        throw NotFaked()
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        throw NotFaked()
    }

    func write(_ command: ControlCommand) async throws(ForgeFailure) {
        writes.withLock { $0.append(command.argv) }
        if refusing.contains(command.argv[2]) {
            throw ForgeFailure(kind: .refused, message: "repository \(command.argv[2]) is archived")
        }
    }
}

private let tip = String(repeating: "a", count: 40)

/// Which `gitbay-bot/rules` statuses the broken files ask for, what they say, and how a run sends
/// them: once, at most 20, a refusal said and the others still sent.
@Suite struct RuleFileStatusesTests {
    private func broken(_ message: String, in path: String) throws -> (RepositoryPath, RuleSet) {
        let location = SourceLocation(file: "\(path):.gitbay/bot.yml", line: 4, column: 12)
        return (
            try RepositoryPath(path), RuleSet(rules: [], diagnostics: [.error(message, at: location)], sources: [:])
        )
    }

    @Test func aBrokenFileWithAKnownTipAsksForOneFailingStatusThere() throws {
        var rules = RepositoryRules()
        let (lib, set) = try broken("no rule 'x'", in: "krz/lib")
        rules.sets[lib] = set
        let (app, other) = try broken("unknown field", in: "krz/app")
        rules.sets[app] = other
        let wanted = RuleFileStatuses.wanted(rules, tips: [lib: sha("1")])
        // krz/app's tip is not known: nothing can be said on it.
        #expect(
            wanted.map(\.argv) == [
                [
                    "status", "set", "krz/lib", sha("1"), "--context", "gitbay-bot/rules", "--state", "failure",
                    "--description", "4:12: no rule 'x'; gitbay-bot check --repository krz/lib --read-bases",
                ]
            ])
    }

    @Test func aLongMessageIsCutSoTheCommandStillFits() throws {
        var rules = RepositoryRules()
        let (lib, set) = try broken(String(repeating: "word ", count: 60), in: "krz/lib")
        rules.sets[lib] = set
        let description = try #require(RuleFileStatuses.wanted(rules, tips: [lib: sha("1")]).first?.description)
        #expect(description.count == 140)
        #expect(description.hasSuffix("…; gitbay-bot check --repository krz/lib --read-bases"))
    }

    /// 22 broken repositories: r0 carries its status already, r1 refuses it; 20 are sent or
    /// refused, one waits for the next run.
    @Test func aRunSendsWhatIsNotStandingAtMostTwentyAndSaysWhatWasRefused() async throws {
        var rules = RepositoryRules()
        var repositories: [RepositoryState] = []
        for index in 0..<22 {
            let (path, set) = try broken("no rule 'x'", in: "krz/r\(index)")
            rules.sets[path] = set
            var repository = RepositoryState(path: path)
            repository.ruleFiles = RepositoryRuleFiles(blob: "b", own: .text(""), branch: "main")
            repositories.append(repository)
        }
        let state = ForgeState(now: Date(timeIntervalSince1970: 0), me: "bot", repositories: repositories)
        let forge = StatusForge(standing: ["krz/r0"], refusing: ["krz/r1"]) { repository in
            "4:12: no rule 'x'; gitbay-bot check --repository \(repository) --read-bases"
        }
        let (sent, refused, left) = try await RuleFileStatuses.settle(
            rules, state: state, reader: forge, writer: forge, memory: InMemoryStateStore())
        #expect(sent.count == 19)
        #expect(refused.map { "\($0.0.repository): \($0.1)" } == ["krz/r1: repository krz/r1 is archived"])
        #expect(left == 1)
        #expect(!forge.writes.withLock { $0 }.contains { $0[2] == "krz/r0" }, "a standing status is not sent again")
        #expect(sent.allSatisfy { $0.sha == tip })
    }

    /// krz/lib's file broke, then was mended: the step after the mending sets a passing status on
    /// its tip, once; a repository that was never broken gets none.
    @Test func aMendedFileGetsAPassingStatusOnceWhereTheFailureWas() async throws {
        let lib = try RepositoryPath("krz/lib")
        let app = try RepositoryPath("krz/app")
        var repositories: [RepositoryState] = []
        for path in [lib, app] {
            var repository = RepositoryState(path: path)
            repository.ruleFiles = RepositoryRuleFiles(blob: "b", own: .text(""), branch: "main")
            repositories.append(repository)
        }
        let state = ForgeState(now: Date(timeIntervalSince1970: 0), me: "bot", repositories: repositories)
        let forge = StatusForge(standing: [], refusing: []) { _ in "" }
        let memory = InMemoryStateStore()
        var broken = RepositoryRules()
        broken.sets[lib] = try self.broken("no rule 'x'", in: "krz/lib").1
        broken.sets[app] = RuleSet(rules: [], diagnostics: [], sources: [:])
        _ = try await RuleFileStatuses.settle(broken, state: state, reader: forge, writer: forge, memory: memory)
        var mended = broken
        mended.sets[lib] = RuleSet(rules: [], diagnostics: [], sources: [:])
        let (sent, _, _) = try await RuleFileStatuses.settle(
            mended, state: state, reader: forge, writer: forge, memory: memory)
        #expect(
            sent.map(\.argv) == [
                [
                    "status", "set", "krz/lib", tip, "--context", "gitbay-bot/rules", "--state", "success",
                    "--description", "mended: its 0 rules act again",
                ]
            ])
        let (again, _, _) = try await RuleFileStatuses.settle(
            mended, state: state, reader: forge, writer: forge, memory: memory)
        #expect(again.isEmpty, "the memory forgot krz/lib once it was told")
    }

    private func sha(_ digit: Character) -> String { String(repeating: digit, count: 40) }
}

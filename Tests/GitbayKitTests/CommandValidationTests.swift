import Foundation
import GitbayKit
import Testing

/// Typed commands refuse, with a precise error, every value gitbay itself would refuse.
///
/// Catching these at plan time keeps a bad rule from burning the write budget on exit-2 replies.
@Suite struct CommandValidationTests {
    private let repo: RepositoryPath

    init() throws {
        repo = try RepositoryPath("krz/gitbay")
    }

    @Test func numbersMustBePositive() {
        #expect(throws: GitbayCommandError.invalidNumber(field: "issue number", value: 0)) {
            try IssueShowCommand(repository: repo, number: 0)
        }
        #expect(throws: GitbayCommandError.invalidNumber(field: "build number", value: -4)) {
            try BuildCancelCommand(repository: repo, number: -4)
        }
        #expect(throws: GitbayCommandError.invalidNumber(field: "merge request number", value: 0)) {
            try MergeRequestReadyCommand(repository: repo, number: 0)
        }
    }

    @Test(arguments: [0, 201, -1])
    func limitsOutsideTheRangeAreRefused(_ limit: Int) {
        #expect(throws: GitbayCommandError.invalidLimit(limit)) { try IssueListCommand(repository: repo, limit: limit) }
        #expect(throws: GitbayCommandError.invalidLimit(limit)) { try RepoListCommand(limit: limit) }
        #expect(throws: GitbayCommandError.invalidLimit(limit)) {
            try IssueQueryCommand(query: "is:open", limit: limit)
        }
    }

    @Test func labelNamesAreOneToFiftyCharacters() throws {
        let fifty = String(repeating: "é", count: 50)
        #expect(try LabelSetCommand(repository: repo, name: fifty).name == fifty)
        #expect(throws: GitbayCommandError.invalidLabelName(fifty + "x")) {
            try LabelSetCommand(repository: repo, name: fifty + "x")
        }
        #expect(throws: GitbayCommandError.invalidLabelName("")) {
            try IssueLabelCommand(repository: repo, number: 1, add: [""])
        }
        #expect(throws: GitbayCommandError.invalidLabelName("  ")) {
            try MergeRequestLabelCommand(repository: repo, number: 1, remove: ["  "])
        }
    }

    @Test func labelAndAssigneeChangesNeedSomething() {
        #expect(throws: GitbayCommandError.emptyLabelChange) { try IssueLabelCommand(repository: repo, number: 1) }
        #expect(throws: GitbayCommandError.emptyLabelChange) {
            try MergeRequestLabelCommand(repository: repo, number: 1)
        }
        #expect(throws: GitbayCommandError.emptyAssigneeChange) { try IssueAssignCommand(repository: repo, number: 1) }
        #expect(throws: GitbayCommandError.invalidUsername("a b")) {
            try IssueAssignCommand(repository: repo, number: 1, add: ["a b"])
        }
    }

    @Test func commentBodiesAreNonBlankAndAtMost64KiB() throws {
        #expect(throws: GitbayCommandError.blankCommentBody) {
            try IssueCommentCommand(repository: repo, number: 1, body: " \n\t")
        }
        let limit = String(repeating: "a", count: 65_536)
        #expect(try IssueCommentCommand(repository: repo, number: 1, body: limit).body.utf8.count == 65_536)
        let over = String(repeating: "é", count: 32_769)
        #expect(throws: GitbayCommandError.commentBodyTooLarge(bytes: 65_538)) {
            try MergeRequestCommentCommand(repository: repo, number: 1, body: over)
        }
    }

    @Test func filtersAreChecked() {
        #expect(throws: GitbayCommandError.invalidSearch("x")) { try IssueListCommand(repository: repo, search: "x") }
        #expect(throws: GitbayCommandError.invalidMilestoneTitle("none")) {
            try IssueListCommand(repository: repo, milestone: .titled("none"))
        }
        #expect(throws: GitbayCommandError.invalidMilestoneTitle("none")) {
            try IssueMilestoneCommand(repository: repo, number: 1, milestone: "none")
        }
        #expect(throws: GitbayCommandError.blankQuery) { try MergeRequestQueryCommand(query: " ") }
        #expect(throws: GitbayCommandError.unsupportedBuildStatus("skipped")) {
            try BuildListCommand(repository: repo, status: "skipped")
        }
        #expect(throws: GitbayCommandError.emptyFilter(flag: "--ref")) {
            try BuildListCommand(repository: repo, ref: "")
        }
    }

    @Test func colourAndSupersedingAreChecked() throws {
        #expect(throws: GitbayCommandError.invalidColor("red")) {
            try LabelSetCommand(repository: repo, name: "x", color: "red")
        }
        #expect(try LabelSetCommand(repository: repo, name: "x", color: "").argv.suffix(2) == ["--color", ""])
        #expect(throws: GitbayCommandError.supersededBySelf(5)) {
            try MergeRequestCloseCommand(repository: repo, number: 5, supersededBy: 5)
        }
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(GitbayCommandError.invalidLimit(500).description == "limit must be 1 to 200, got 500")
        #expect(GitbayCommandError.commentBodyTooLarge(bytes: 70_000).description.contains("65536"))
        #expect(
            GitbayCommandError.invalidRepositoryPath("a", reason: "r").description == "invalid repository path 'a': r")
    }
}

import GitbayKit
import Testing

/// The commands that file or rewrite a body refuse what gitbay would refuse, before any I/O.
@Suite struct BodyCommandTests {
    @Test func aBlankTitleIsRefused() throws {
        let repo = try RepositoryPath("krz/gitbay")
        #expect(throws: GitbayCommandError.blankTitle) {
            try IssueCreateCommand(repository: repo, title: " \t", body: "summary")
        }
    }

    @Test func theBodyGoesOnStdinNotInArgv() throws {
        let repo = try RepositoryPath("krz/gitbay")
        let edit = try MergeRequestEditCommand(repository: repo, number: 3, body: "new description")
        #expect(edit.stdin == "new description")
        #expect(!edit.argv.contains("new description"))
        #expect(throws: GitbayCommandError.blankCommentBody) {
            try IssueEditCommand(repository: repo, number: 3, body: "")
        }
    }
}

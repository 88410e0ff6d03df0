import GitbayKit
import Testing

/// Pins the exact argv, effect and stdin of every typed command.
///
/// The argv is what plans show and `apply` replays, so any change to it must be deliberate.
@Suite struct CommandGoldenTests {
    @Test func everyCommandRendersItsGoldenArgv() throws {
        let samples = try SampleCommand.all()
        for sample in samples {
            #expect(sample.control.argv == sample.expectedArgv, "\(sample.name)")
            #expect(!sample.control.argv.contains { $0.hasPrefix("--") && $0.contains("=") }, "\(sample.name)")
        }
        let covered = Set(samples.map(\.name))
        #expect(covered.count == 39)
    }

    @Test func effectsSplitReadsFromWrites() throws {
        let reads: Set = [
            "IssueListCommand", "IssueQueryCommand", "IssueShowCommand", "MergeRequestListCommand",
            "MergeRequestQueryCommand", "MergeRequestShowCommand", "MergeRequestRevisionsCommand", "BuildListCommand",
            "LabelListCommand", "MilestoneListCommand", "RepoListCommand", "RepoShowCommand", "RepoRefsCommand",
            "RepoCatCommand", "RepoTreeCommand",
            "RepoDepsStatusCommand",
            "WhoAmICommand", "FeedCommand", "WebhookListCommand", "WebhookDeliveriesCommand", "RepoAccessListCommand",
        ]
        for sample in try SampleCommand.all() {
            #expect(sample.control.effect == (reads.contains(sample.name) ? .read : .write), "\(sample.name)")
        }
    }

    @Test func onlyBodiesCarryStdin() throws {
        let repo = try RepositoryPath("krz/gitbay")
        let comment = try IssueCommentCommand(repository: repo, number: 188, body: "Still relevant?\n")
        #expect(comment.control.stdin == "Still relevant?\n")
        let mrComment = try MergeRequestCommentCommand(repository: repo, number: 160, body: "Ready.")
        #expect(mrComment.control.stdin == "Ready.")
        let bodies: Set = [
            "IssueCommentCommand", "MergeRequestCommentCommand", "IssueCreateCommand", "IssueEditCommand",
            "MergeRequestEditCommand",
        ]
        for sample in try SampleCommand.all() where !bodies.contains(sample.name) {
            #expect(sample.control.stdin == nil, "\(sample.name)")
        }
    }

    @Test func pagedCommandsAlwaysRenderLimitAndMoveTheCursor() throws {
        var list = try IssueListCommand(repository: RepositoryPath("krz/gitbay"))
        #expect(list.argv.suffix(2) == ["--limit", "200"])
        list.cursor = "aXNzdWU6MjEy"
        list.limit = 500
        #expect(list.argv.suffix(4) == ["--limit", "200", "--cursor", "aXNzdWU6MjEy"])
        list.limit = 0
        list.cursor = ""
        #expect(list.argv.suffix(2) == ["--limit", "1"])
        for sample in try SampleCommand.all() where sample.isPaged {
            #expect(sample.control.argv.contains("--limit"), "\(sample.name)")
        }
    }
}

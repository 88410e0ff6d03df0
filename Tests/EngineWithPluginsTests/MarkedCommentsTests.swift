import BuildsPlugin
import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct MarkedCommentsTests {
    private let marker = Evaluator.marker(rule: "mark-stale", item: "krz/app#7")

    /// The rule as the docs state it, on comments sorted oldest first (ties in the server's order).
    private func stands(_ comments: [GitbayKit.Comment], me: String) -> Bool {
        let ordered = comments.enumerated()
            .sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }
            .map(\.element)
        guard let mine = ordered.lastIndex(where: { MarkedComments.isMarked($0, marker: marker, me: me) }) else {
            return false
        }
        return !ordered[(mine + 1)...].contains { !$0.isSystem && $0.author != me }
    }

    @Test func theMarkerStandsUntilSomeoneElseSpeaksAfterIt() {
        let bot = GitbayKit.Comment(author: "bot", body: "Stale.\n" + marker, createdAt: now)
        let later = GitbayKit.Comment(author: "alice", body: "Still here", createdAt: now + 60)
        let earlier = GitbayKit.Comment(author: "alice", body: "Hello", createdAt: now - 60)
        let note = GitbayKit.Comment(author: "system", body: "labelled", createdAt: now + 90, kind: .system)
        #expect(MarkedComments.markerStands(marker, me: "bot", passingOver: [], in: [earlier, bot, note]))
        #expect(!MarkedComments.markerStands(marker, me: "bot", passingOver: [], in: [bot, later]))
        // Listed out of order, as nothing promises otherwise: time decides.
        #expect(!MarkedComments.markerStands(marker, me: "bot", passingOver: [], in: [later, bot]))
        #expect(!MarkedComments.markerStands(marker, me: "bot", passingOver: [], in: [earlier]))
        // Someone else quoting the marker is not the bot's comment.
        let quoted = GitbayKit.Comment(author: "alice", body: "> " + marker, createdAt: now + 120)
        #expect(!MarkedComments.markerStands(marker, me: "bot", passingOver: [], in: [quoted]))
    }

    /// A `bots:` account speaking after the notice is not someone answering it, as `quiet` says.
    @Test func aBotsAccountSpeakingAfterItLeavesTheMarkerStanding() {
        let bot = GitbayKit.Comment(author: "bot", body: "Answer, please.\n" + marker, createdAt: now)
        let ci = GitbayKit.Comment(author: "ci", body: "CI: green", createdAt: now + 60)
        #expect(MarkedComments.markerStands(marker, me: "bot", passingOver: ["ci"], in: [bot, ci]))
        #expect(!MarkedComments.markerStands(marker, me: "bot", passingOver: [], in: [bot, ci]))
    }

    /// On random threads with many equal times, the one-pass check agrees with sorting.
    @Test func agreesWithTheRuleOnRandomThreads() {
        var random = SeededGenerator(seed: 0x6d61_726b)
        var outcomes: [Bool: Int] = [:]
        for _ in 0..<3_000 {
            let comments = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                let author = ["bot", "alice", "system"].randomElement(using: &random)!
                let body = random.chance(0.5) ? "Stale.\n" + marker : "text"
                return GitbayKit.Comment(
                    author: author, body: body, createdAt: now + Double(Int.random(in: 0...3, using: &random)) * 60,
                    kind: author == "system" && random.chance(0.8) ? .system : nil)
            }
            let expected = stands(comments, me: "bot")
            #expect(
                MarkedComments.markerStands(marker, me: "bot", passingOver: [], in: comments) == expected, "\(comments)"
            )
            outcomes[expected, default: 0] += 1
        }
        #expect(outcomes[true, default: 0] > 300)
        #expect(outcomes[false, default: 0] > 300)
    }
}

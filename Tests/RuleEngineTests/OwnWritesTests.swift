import Foundation
import GitbayKit
import RuleEngine
import Testing

/// The bot's own writes outdate the copies of their kind kept before them, in their repository
/// alone, and the sweep reads those again whatever the feed says.
@Suite struct OwnWritesTests {
    private let kept = Date(timeIntervalSince1970: 1_800_000_000)
    private let milestones = ItemKind(rawValue: "milestones")
    private let builds = ItemKind(rawValue: "builds")

    @Test func aWriteOutdatesTheCopiesOfItsKindInItsRepositoryKeptBeforeOrAtIt() throws {
        let app = try RepositoryPath("krz/app")
        let web = try RepositoryPath("krz/web")
        var writes = OwnWrites()
        writes.add(milestones, in: app, at: kept)
        #expect(writes.outdate(milestones, in: app, keptAt: kept))
        #expect(writes.outdate(milestones, in: app, keptAt: kept - 60))
        #expect(!writes.outdate(milestones, in: app, keptAt: kept + 60))
        #expect(!writes.outdate(builds, in: app, keptAt: kept))
        #expect(!writes.outdate(milestones, in: web, keptAt: kept))
    }

    @Test func aCopyAWriteOutdatesIsReadThoughItsMarksStandStill() throws {
        let app = try RepositoryPath("krz/app")
        let web = try RepositoryPath("krz/web")
        let sweep = RepositorySweep(period: 6 * 3600, now: kept, events: [])
        let mark = RepositorySweep.Mark(event: 0, seen: nil)
        let choice = sweep.choose(
            [app, web], copies: [app: (mark, kept), web: (mark, kept)], marks: [app: mark, web: mark],
            written: [app])
        #expect(choice.read.map(\.path) == [app])
        #expect(choice.read.map(\.reason) == [.written])
        #expect(choice.kept == [web])
        #expect(choice.summary(now: kept).hasPrefix("1 of 2 repositories read (1 written by the bot)"))
        // Under a read budget the choice is what is due; the budget decides what is read.
        #expect(choice.summary(now: kept, budgeted: true).hasPrefix("1 of 2 repositories due (1 written by the bot)"))
    }
}

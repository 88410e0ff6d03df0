import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct ReadNeedTests {
    @Test func needsSortInDeclarationOrder() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            #expect(ReadNeed.allCases.shuffled(using: &random).sorted() == ReadNeed.allCases)
        }
    }

    /// A need the mask has no bit for would seem known to every context, and never be read.
    @Test func theMaskHasABitForEveryNeed() {
        #expect(ReadNeed.allCases.count <= ReadNeed.Mask.RawValue.bitWidth)
    }

    @Test func eachNeedHasABitOfItsOwn() {
        let bits = ReadNeed.allCases.map { ReadNeed.Mask([$0]).rawValue }
        #expect(Set(bits).count == ReadNeed.allCases.count)
        #expect(bits.allSatisfy { $0 != 0 && $0 & ($0 - 1) == 0 })
        #expect(ReadNeed.Mask(Set(ReadNeed.allCases)).rawValue.nonzeroBitCount == ReadNeed.allCases.count)
    }

    /// What a context knows is what its item and its repository know together, for every way of
    /// splitting the needs between them.
    @Test func aContextKnowsWhatItsItemOrItsRepositoryKnows() throws {
        let all = ReadNeed.allCases
        let subsets = (0..<(1 << all.count)).map { bits in
            Set(all.indices.filter { bits & (1 << $0) != 0 }.map { all[$0] })
        }
        let path = try RepositoryPath("krz/app")
        let issue = GitbayKit.Issue(number: 1, title: "t", state: .open, author: "a", createdAt: now, updatedAt: now)
        var checked = 0
        for itemKnows in subsets where itemKnows.count <= 2 {
            for repositoryKnows in subsets where repositoryKnows.count <= 2 {
                let context = ItemContext(
                    item: .issue(IssueRecord(issue: issue, known: itemKnows)),
                    repository: RepositoryState(path: path, known: repositoryKnows), now: now, me: "bot")
                for needs in subsets {
                    #expect(context.knows(needs) == needs.isSubset(of: itemKnows.union(repositoryKnows)))
                    checked += 1
                }
            }
        }
        #expect(checked > 10_000)
    }
}

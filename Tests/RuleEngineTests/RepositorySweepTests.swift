import Foundation
import GitbayKit
import RuleEngine
import Testing

private let start = Date(timeIntervalSince1970: 1_800_000_000)
private let hour: TimeInterval = 3600

private func paths(_ count: Int) throws -> [RepositoryPath] {
    try (0..<count).map { try RepositoryPath(String(format: "org/repo-%04d", $0)) }
}

private func event(
    _ id: Int, in path: RepositoryPath, kind: String = "build.success", at date: Date = start
)
    -> FeedEvent
{
    FeedEvent(id: id, repo: path, actor: "alice", kind: kind, number: 1, createdAt: date)
}

/// A small deterministic generator, so a failing case can be run again.
private struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

/// Runs the sweep as runs would, keeping each repository's copy as a run keeps it after reading,
/// so the tests see what many runs in a row read.
private struct SweptForge {
    var period: TimeInterval
    var repositories: [RepositoryPath]
    var copies: [RepositoryPath: (mark: RepositorySweep.Mark, storedAt: Date)] = [:]
    var events: [FeedEvent] = []
    var lastRead: [RepositoryPath: Date] = [:]
    var longestUnread: TimeInterval = 0

    /// One run at `now`: what it reads, and the copies it keeps of them.
    mutating func run(at now: Date) -> RepositorySweep.Choice {
        let sweep = RepositorySweep(period: period, now: now, events: events)
        var marks: [RepositoryPath: RepositorySweep.Mark] = [:]
        for path in repositories {
            marks[path] = sweep.mark(of: path, sightings: []) { _ in true }
        }
        let choice = sweep.choose(repositories, copies: copies, marks: marks)
        for path in repositories {
            if let last = lastRead[path] { longestUnread = max(longestUnread, now.timeIntervalSince(last)) }
        }
        for (path, _) in choice.read {
            copies[path] = (marks[path] ?? RepositorySweep.Mark(event: 0, seen: nil), now)
            lastRead[path] = now
        }
        return choice
    }
}

@Suite struct RepositorySweepTests {
    @Test func aRepositoryNeverReadIsReadAndOneWhoseMarksStandStillIsKept() throws {
        let all = try paths(3)
        // No time since the last run: no share, so only the unread and the changed are read.
        let sweep = RepositorySweep(period: 6 * hour, now: start, events: [event(7, in: all[1])])
        let copies = Dictionary(
            uniqueKeysWithValues: all.dropFirst().map {
                ($0, (mark: RepositorySweep.Mark(event: 5, seen: nil), storedAt: start))
            })
        var marks: [RepositoryPath: RepositorySweep.Mark] = [:]
        for path in all { marks[path] = sweep.mark(of: path, sightings: []) { _ in true } }
        let choice = sweep.choose(all, copies: copies, marks: marks)
        // The changed first, then the never read: the order a read budget keeps.
        #expect(choice.read.map(\.path) == [all[1], all[0]])
        #expect(choice.read.map(\.reason) == [.changed, .unread])
        #expect(choice.kept == [all[2]])
        // A minute later, 3 × 60 s / 6 h rounds up to one: the one left is read as the share.
        let later = RepositorySweep(period: 6 * hour, now: start.addingTimeInterval(60), events: [])
        #expect(later.choose([all[2]], copies: copies, marks: marks).read.map(\.reason) == [.share])
    }

    @Test func eventsTheKindDoesNotWatchAndEventsBeforeTheCopyLeaveItKept() throws {
        let path = try RepositoryPath("org/one")
        let sweep = RepositorySweep(
            period: 6 * hour, now: start, events: [event(3, in: path), event(9, in: path, kind: "issue.commented")])
        let mark = sweep.mark(of: path, sightings: []) { $0.family != "issue" }
        #expect(mark == RepositorySweep.Mark(event: 3, seen: nil))
        let choice = sweep.choose(
            [path], copies: [path: (RepositorySweep.Mark(event: 3, seen: nil), start)], marks: [path: mark])
        #expect(choice.kept == [path])
        #expect(choice.read.isEmpty)
    }

    @Test func aRowThatMovedAfterTheCopyReadsTheRepositoryAgain() throws {
        let path = try RepositoryPath("org/one")
        let sweep = RepositorySweep(period: 6 * hour, now: start, events: [])
        let kept = RepositorySweep.Mark(event: 0, seen: start.addingTimeInterval(-60))
        let pushed = event(0, in: path, kind: "mr.updated", at: start.addingTimeInterval(-10))
        let mark = sweep.mark(of: path, sightings: [pushed]) { _ in true }
        #expect(
            sweep.choose([path], copies: [path: (kept, start)], marks: [path: mark]).read.map(\.reason) == [.changed])
        let same = sweep.mark(of: path, sightings: [event(0, in: path, kind: "mr.updated", at: kept.seen!)]) { _ in true
        }
        #expect(sweep.choose([path], copies: [path: (kept, start)], marks: [path: same]).read.isEmpty)
    }

    @Test func aMarkComesBackFromItsVersionAndAForeignVersionIsNone() {
        let mark = RepositorySweep.Mark(event: 42, seen: start)
        #expect(RepositorySweep.Mark(version: mark.version) == mark)
        #expect(RepositorySweep.Mark(version: RepositorySweep.Mark(event: 1, seen: nil).version)?.seen == nil)
        for foreign in ["", "7", "e", "ex", "e1;x", "e1;t", "e1;tnot-a-time", "e1;t2026-01-01T00:00:00Z;e2"] {
            #expect(RepositorySweep.Mark(version: foreign) == nil, "\(foreign)")
        }
    }

    @Test func aCronEvery15MinutesReadsA24thOfAQuietForgeAndEachRepositoryOnceAPeriod() throws {
        var forge = SweptForge(period: 6 * hour, repositories: try paths(1000))
        #expect(forge.run(at: start).read.count == 1000)
        var reads: [Int] = []
        for run in 1...48 {
            reads.append(forge.run(at: start.addingTimeInterval(Double(run) * 900)).read.count)
        }
        // 1000 × 15 min / 6 h = 41.7, rounded up; never a burst.
        #expect(Set(reads) == [42])
        #expect(forge.longestUnread <= 6 * hour)
    }

    @Test func aClockThatWentBackReadsNoShareAndAGapLongerThanThePeriodReadsEverything() throws {
        var forge = SweptForge(period: 6 * hour, repositories: try paths(50))
        _ = forge.run(at: start)
        #expect(forge.run(at: start.addingTimeInterval(-600)).read.isEmpty)
        let late = forge.run(at: start.addingTimeInterval(7 * hour))
        #expect(late.read.count == 50)
        #expect(Set(late.read.map(\.reason)) == [.due])
    }

    /// Over 300 runs at random intervals, with random activity, no repository goes unread for
    /// longer than the period and the gap to the run that found it a period old, a changed one is
    /// read by the next run, and a run reads no more than its share beside the changed and the due.
    @Test func overRandomRunsEachRepositoryIsReadOnceAPeriodAndEachChangeByTheNextRun() throws {
        for seed in UInt64(1)...4 {
            var random = SplitMix(state: seed)
            let period = Double(1 + random.below(12)) * hour
            var forge = SweptForge(period: period, repositories: try paths(40 + random.below(200)))
            var now = start
            var nextID = 1
            var longestGap: TimeInterval = 0
            _ = forge.run(at: now)
            for _ in 0..<300 {
                let gap = Double(60 + random.below(Int(period / 3)))
                longestGap = max(longestGap, gap)
                now = now.addingTimeInterval(gap)
                var touched: Set<RepositoryPath> = []
                for _ in 0..<random.below(6) {
                    let path = forge.repositories[random.below(forge.repositories.count)]
                    forge.events.append(event(nextID, in: path, at: now.addingTimeInterval(-1)))
                    nextID += 1
                    touched.insert(path)
                }
                let newest = forge.copies.values.map(\.storedAt).max() ?? now
                let choice = forge.run(at: now)
                let read = Set(choice.read.map(\.path))
                #expect(touched.isSubset(of: read), "seed \(seed): a changed repository was not read")
                let share = choice.read.filter { $0.reason == .share }.count
                let allowed = Int(
                    (Double(forge.repositories.count) * now.timeIntervalSince(newest) / period).rounded(.up))
                #expect(share <= allowed, "seed \(seed): the share \(share) is above \(allowed)")
            }
            #expect(
                forge.longestUnread <= period + longestGap,
                "seed \(seed): a repository went unread \(forge.longestUnread) s")
        }
    }
}

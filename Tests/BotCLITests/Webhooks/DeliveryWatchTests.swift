import Foundation
import GitbayKit
import Testing

@testable import BotCLI
@testable import Watch

/// A feed event of `kind` in `repo` by alice, at second `second` of the epoch.
private func event(_ kind: String, in repo: String = "krz/app", at second: Int = 1_790_000_000) throws -> FeedEvent {
    FeedEvent(
        id: second, repo: try RepositoryPath(repo), actor: "alice", kind: kind, number: 3,
        createdAt: Date(timeIntervalSince1970: Double(second)))
}

/// `watch.check(at:)`, which mutates, outside `#expect`.
private func check(_ watch: inout DeliveryWatch, at now: Duration) -> Bool {
    watch.check(at: now)
}

/// `machine.next(at:)`, which mutates, outside `#expect`.
private func step(_ machine: inout WatchMachine, at now: Duration) -> WatchMachine.Step {
    machine.next(at: now)
}

/// How the watcher tells that webhook deliveries work, and that they stopped, from the feed it
/// still polls; and how its schedule follows.
@Suite struct DeliveryWatchTests {
    @Test func anEventDeliveredBeforeOrAfterItsPollIsAnnouncedAndOneNeverDeliveredIsMissed() throws {
        var watch = DeliveryWatch(grace: .seconds(60))
        #expect(watch.health == .unproven)
        let commented = try event("issue.commented")
        watch.arrived(DeliveryWatch.Key(commented), at: .seconds(1))
        #expect(watch.health == .working)
        watch.polled([commented], at: .seconds(2))
        #expect(check(&watch, at: .seconds(100)) == false, "delivered before the poll")

        // Polled first, delivered within the grace: still fine.
        let labeled = try event("issue.labeled", at: 1_790_000_010)
        watch.polled([labeled], at: .seconds(110))
        watch.arrived(DeliveryWatch.Key(labeled), at: .seconds(150))
        #expect(check(&watch, at: .seconds(400)) == false)

        // Never delivered: missed once the grace is over, and said once.
        let closed = try event("issue.closed", at: 1_790_000_020)
        watch.polled([closed], at: .seconds(500))
        #expect(check(&watch, at: .seconds(560)) == false, "within the grace")
        #expect(check(&watch, at: .seconds(561)))
        #expect(watch.health == .failing)
        #expect(watch.missed == 1)
        let reopened = try event("issue.reopened", at: 1_790_000_030)
        watch.polled([reopened], at: .seconds(600))
        #expect(check(&watch, at: .seconds(700)) == false, "already failing")
        #expect(watch.missed == 2)

        // A delivery with nothing awaited: working again.
        watch.arrived(DeliveryWatch.Key(try event("mr.merged", at: 1_790_000_040)), at: .seconds(800))
        #expect(watch.health == .working)
    }

    /// Events alike to the second are delivered and polled one for one.
    ///
    /// The builds one push queues, or the bot's cancels of them, are events of one kind,
    /// repository, actor and second: none of them is a miss. Seen at gitbay's pace with a person
    /// pushing: taken as one, the second looked missed and every such push made a full pass.
    @Test func eventsAlikeToTheSecondAreMatchedOneForOneAndOneUndeliveredAmongThemIsMissed() throws {
        var watch = DeliveryWatch(grace: .seconds(60))
        let built = try event("build.created")
        for _ in 0..<3 { watch.arrived(DeliveryWatch.Key(built), at: .seconds(1)) }
        watch.polled([built, built, built], at: .seconds(2))
        #expect(check(&watch, at: .seconds(100)) == false, "three delivered, three polled")
        #expect(watch.health == .working && watch.missed == 0)

        // Polled before delivered, three of them, only two delivered: one is missed.
        let cancelled = try event("build.cancelled", at: 1_790_000_100)
        watch.polled([cancelled, cancelled, cancelled], at: .seconds(200))
        for _ in 0..<2 { watch.arrived(DeliveryWatch.Key(cancelled), at: .seconds(201)) }
        #expect(watch.nextDeadline == .seconds(260) + .milliseconds(1))
        #expect(check(&watch, at: .seconds(261)) == true)
        #expect(watch.missed == 1 && watch.health == .failing)
    }

    @Test func aRepositoryThatNeverDeliveredIsHeardByPollingAndKeepsPollingAtItsPace() throws {
        var watch = DeliveryWatch(grace: .seconds(60))
        watch.arrived(DeliveryWatch.Key(try event("issue.commented")), at: .seconds(1))
        watch.polled([try event("issue.commented"), try event("issue.edited", in: "krz/site")], at: .seconds(2))
        #expect(watch.unhooked == ["krz/site"])
        #expect(watch.health == .unproven, "krz/site has no hook: its events wait for polls")
        #expect(check(&watch, at: .seconds(500)) == false, "an event of a repository without a hook is not missed")
        watch.arrived(
            DeliveryWatch.Key(try event("issue.edited", in: "krz/site", at: 1_790_000_100)), at: .seconds(501))
        #expect(watch.health == .working)
    }

    @Test func aHookTheStartFoundInOrderIsTrustedBeforeItsFirstDeliveryAndCaughtWhenItMisses() throws {
        var watch = DeliveryWatch(grace: .seconds(60))
        watch.vouch(for: "krz/app")
        #expect(watch.health == .working, "a quiet repository may deliver nothing for hours")
        watch.polled([try event("issue.commented")], at: .seconds(10))
        #expect(check(&watch, at: .seconds(71)))
        #expect(watch.health == .failing)
    }

    @Test func secondsDecideAMatchSoAFinerTimestampInOneOfThemStillMatches() throws {
        let fine = DeliveryWatch.Key(
            kind: "push", repo: "krz/app", actor: "alice", createdAt: Date(timeIntervalSince1970: 1_790_000_000.734))
        let coarse = DeliveryWatch.Key(
            kind: "push", repo: "krz/app", actor: "alice", createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(fine == coarse)
    }

    @Test func theMachinePollsAtOnceOnADeliveryRelaxesWhileTheyWorkAndRunsAFullPassWhenOneIsMissed() throws {
        var machine = WatchMachine(interval: .seconds(30), fullEvery: .seconds(900), webhooks: true)
        #expect(machine.relaxedInterval == .seconds(300))
        #expect(machine.next(at: .zero) == .full)
        machine.passEnded(.full, started: .zero, at: .seconds(2))
        #expect(step(&machine, at: .seconds(3)) == .idle(until: .seconds(30)), "unproven: the normal pace")

        let commented = try event("issue.commented")
        machine.deliveryArrived(DeliveryWatch.Key(commented), at: .seconds(4), own: false)
        #expect(step(&machine, at: .seconds(4)) == .poll, "a delivery cuts the idle spell short")
        machine.polled([commented], at: .seconds(4))
        machine.passEnded(.events, started: .seconds(4), at: .seconds(5))
        #expect(step(&machine, at: .seconds(6)) == .idle(until: .seconds(304)), "working: the relaxed pace")

        machine.deliveryArrived(DeliveryWatch.Key(try event("issue.labeled")), at: .seconds(7), own: true)
        #expect(step(&machine, at: .seconds(7)) == .idle(until: .seconds(304)), "the bot's own event asks nothing")

        // A poll reads an event that never comes as a delivery.
        #expect(step(&machine, at: .seconds(304)) == .poll)
        machine.polled([try event("issue.closed", at: 1_790_000_500)], at: .seconds(304))
        machine.passEnded(.events, started: .seconds(304), at: .seconds(305))
        #expect(
            step(&machine, at: .seconds(306)) == .idle(until: .seconds(364) + .milliseconds(1)),
            "the idle spell ends when the event's grace does")
        #expect(step(&machine, at: .seconds(365)) == .full, "missed: a full pass at once")
        machine.passEnded(.full, started: .seconds(365), at: .seconds(366))
        #expect(machine.deliveries?.health == .failing)
        #expect(step(&machine, at: .seconds(367)) == .idle(until: .seconds(395)), "failing: the normal pace")
    }

    /// A refused delivery is an event the watcher could not take: it polls at the normal pace,
    /// the idle spell under way included, until a delivery arrives; no sooner and no full pass,
    /// which a forger of the unsigned headers could ask for.
    @Test func refusedDeliveriesPollAtTheNormalPaceUntilOneArrives() throws {
        var machine = WatchMachine(interval: .seconds(30), fullEvery: .seconds(900), webhooks: true)
        _ = machine.next(at: .zero)
        machine.hooksChecked(["krz/app"])
        machine.passEnded(.full, started: .zero, at: .seconds(2))
        #expect(step(&machine, at: .seconds(3)) == .idle(until: .seconds(300)), "vouched for: the relaxed pace")

        machine.deliveriesRefused()
        #expect(step(&machine, at: .seconds(4)) == .idle(until: .seconds(30)), "the idle spell shortens")
        #expect(step(&machine, at: .seconds(30)) == .poll)
        machine.passEnded(.idle, started: .seconds(30), at: .seconds(31))
        #expect(step(&machine, at: .seconds(32)) == .idle(until: .seconds(60)), "the normal pace")
        machine.deliveriesRefused()
        #expect(step(&machine, at: .seconds(33)) == .idle(until: .seconds(60)), "never sooner")

        machine.deliveryArrived(DeliveryWatch.Key(try event("issue.commented")), at: .seconds(34), own: false)
        #expect(step(&machine, at: .seconds(34)) == .poll)
        machine.passEnded(.events, started: .seconds(34), at: .seconds(35))
        #expect(step(&machine, at: .seconds(36)) == .idle(until: .seconds(334)), "relaxed again")

        var polling = WatchMachine(interval: .seconds(30), fullEvery: .seconds(900))
        _ = polling.next(at: .zero)
        polling.passEnded(.full, started: .zero, at: .seconds(2))
        polling.deliveriesRefused()
        #expect(step(&polling, at: .seconds(3)) == .idle(until: .seconds(30)), "without webhooks: nothing")
    }

    @Test func aDeliveryDoesNotCutAPauseAfterAFailureShort() throws {
        var machine = WatchMachine(interval: .seconds(30), fullEvery: .seconds(900), webhooks: true)
        _ = machine.next(at: .zero)
        let pause = machine.passFailed(at: .seconds(1))
        machine.deliveryArrived(DeliveryWatch.Key(try event("issue.commented")), at: .seconds(2), own: false)
        #expect(step(&machine, at: .seconds(2)) == .pause(until: .seconds(1) + pause))
    }
}

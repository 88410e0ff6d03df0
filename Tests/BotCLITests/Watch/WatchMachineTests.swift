import GitbayTestSupport
import Testing

@testable import BotCLI
@testable import Watch

/// A machine polling every 30 s with a full pass every 900 s.
private func machine() -> WatchMachine {
    WatchMachine(interval: .seconds(30), fullEvery: .seconds(900))
}

/// Runs the pass `machine` asks for at the clock's reading, taking `length`, and waits out the
/// idle spell after it; answers the step it ran.
private func runPass(
    _ machine: inout WatchMachine, on clock: SteppedClock, taking length: Duration = .seconds(2),
    gap: Bool = false
) async throws -> WatchMachine.Step {
    let step = machine.next(at: clock.now)
    let started = clock.now
    clock.advance(by: length)
    switch step {
    case .full: machine.passEnded(.full, started: started, at: clock.now)
    case .poll: machine.passEnded(machine.pass(afterPoll: gap), started: started, at: clock.now)
    default: return step
    }
    if case .idle(let until) = machine.next(at: clock.now) { clock.advance(to: until) }
    return step
}

/// The watch's decisions on a manual clock: which pass, when, and how long a pause.
@Suite struct WatchMachineTests {
    @Test func theFirstPassIsFull() {
        var watch = machine()
        #expect(watch.next(at: .zero) == .full)
    }

    @Test func eventsPassesRunBetweenFullPasses() async throws {
        var watch = machine()
        let clock = SteppedClock()
        #expect(try await runPass(&watch, on: clock) == .full)
        #expect(clock.now == .seconds(30), "the next poll is an interval after the pass's start")
        #expect(try await runPass(&watch, on: clock) == .poll)
        #expect(try await runPass(&watch, on: clock) == .poll)
    }

    @Test func aFullPassFallsDueFullEveryAfterTheLastEndedOnTheMonotonicClock() async throws {
        var watch = machine()
        let clock = SteppedClock()
        _ = try await runPass(&watch, on: clock)
        var steps: [WatchMachine.Step] = []
        while clock.now < .seconds(902) { steps.append(try await runPass(&watch, on: clock)) }
        #expect(steps.allSatisfy { $0 == .poll }, "the full pass ended at 2 s is due at 902 s")
        #expect(try await runPass(&watch, on: clock) == .full)
    }

    @Test func aGapInTheFeedForcesAFullPass() async throws {
        var watch = machine()
        let clock = SteppedClock()
        _ = try await runPass(&watch, on: clock)
        #expect(watch.pass(afterPoll: true) == .full)
        #expect(watch.pass(afterPoll: false) == .events)
        _ = try await runPass(&watch, on: clock, gap: true)
        #expect(watch.lastFull == .seconds(32), "the forced full pass counts as the last full one")
    }

    @Test func failuresBackOffDoublingToFiveMinutesAndASuccessResetsThem() async throws {
        var watch = machine()
        let clock = SteppedClock()
        var pauses: [Duration] = []
        for _ in 0..<6 {
            pauses.append(watch.passFailed(at: clock.now))
            guard case .pause(let until) = watch.next(at: clock.now) else {
                Issue.record("a failure pauses")
                return
            }
            clock.advance(to: until)
        }
        #expect(pauses == [30, 60, 120, 240, 300, 300].map { Duration.seconds($0) })
        #expect(try await runPass(&watch, on: clock) == .full)
        #expect(watch.failures == 0)
        #expect(watch.passFailed(at: clock.now) == .seconds(30))
    }

    @Test func aReloadIsTakenBeforeTheNextPass() async throws {
        var watch = machine()
        let clock = SteppedClock()
        _ = try await runPass(&watch, on: clock)
        watch.reloadRequested()
        #expect(watch.next(at: clock.now) == .reload)
        #expect(watch.next(at: clock.now) == .poll, "a reload is taken once")
    }

    @Test func aPassThatOverrunsTheIntervalPollsAtOnceNext() async throws {
        var watch = machine()
        let clock = SteppedClock()
        _ = try await runPass(&watch, on: clock, taking: .seconds(45))
        #expect(watch.next(at: clock.now) == .poll)
        #expect(clock.now == .seconds(45), "no wait after an overrun")
        _ = try await runPass(&watch, on: clock, taking: .seconds(10))
        #expect(clock.now == .seconds(75), "a pass that did not overrun waits to an interval after its start")
    }
}

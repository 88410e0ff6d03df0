import Foundation
import Testing

@testable import BotCLI

/// The handlers the bot finds are the handlers it leaves: an embedding program's own stay.
@Suite(.serialized) struct StopSignalsTests {
    /// The handler in place for `signal` now.
    private func handler(_ signal: Int32) -> UInt {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: UInt.self)
    }

    /// On signals no run uses, since runs applying in parallel tests catch the real ones.
    @Test func stoppingPutsBackTheHandlersThatWereThere() {
        let signals = [SIGUSR1, SIGUSR2]
        let before = signals.map { (signal: $0, old: Glibc.signal($0, SIG_IGN)) }
        defer { for saved in before { _ = Glibc.signal(saved.signal, saved.old) } }
        let ignored = unsafeBitCast(SIG_IGN, to: UInt.self)
        let stop = StopSignals(signals: signals)
        stop.start()
        stop.stop()
        #expect(signals.map(handler) == signals.map { _ in ignored })
        #expect(!stop.isRaised)
    }
}

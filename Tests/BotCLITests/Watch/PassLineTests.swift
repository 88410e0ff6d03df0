import Testing

@testable import BotCLI
@testable import Watch

/// A pass's line, byte for byte: log shippers and scripts parse the JSON, people read the text.
@Suite struct PassLineTests {
    /// An events pass that did a little of everything.
    private static var pass: PassSummary {
        var pass = PassSummary(kind: .events, events: 4)
        pass.ownEvents = 1
        pass.unannounced = 2
        pass.items = 3
        pass.requests = 12
        pass.actions = 2
        pass.applied = 1
        pass.failed = 1
        pass.waiting = 5
        pass.seconds = 1.23456
        return pass
    }

    @Test func theJSONLineKeepsItsBytes() {
        #expect(
            PassLine(Self.pass, at: "2026-11-29T12:00:00Z").json
                == #"{"actions":2,"applied":1,"at":"2026-11-29T12:00:00Z","events":4,"failed":1,"items":3,"#
                + #""own_events":1,"pass":"events","requests":12,"seconds":1.235,"unannounced":2,"waiting":5}"#)
    }

    /// Seconds to the millisecond, written as briefly as they read: no `.0`, no exponent.
    @Test(arguments: [
        (0.0, "0"), (2.0, "2"), (0.1, "0.1"), (0.0004, "0"), (0.0005, "0.001"), (59.9996, "60"), (1234.5, "1234.5"),
        (86_400.001, "86400.001"), (123_456.789, "123456.789"),
    ])
    func theSecondsKeepTheirSpelling(seconds: Double, written: String) {
        var pass = PassSummary(kind: .full)
        pass.seconds = seconds
        #expect(
            PassLine(pass, at: "2026-11-29T12:00:00Z").json
                == #"{"actions":0,"applied":0,"at":"2026-11-29T12:00:00Z","events":0,"failed":0,"items":0,"#
                + #""own_events":0,"pass":"full","requests":0,"seconds":\#(written),"unannounced":0,"waiting":0}"#)
    }

    @Test func theTextLineKeepsItsWords() {
        #expect(
            PassLine(Self.pass, at: "2026-11-29T12:00:00Z").text
                == "2026-11-29T12:00:00Z events pass: 4 events (1 own), 2 unannounced changes, 3 items, 12 requests, "
                + "2 actions, 1 applied, 1 failed, 5 waiting")
        #expect(
            PassLine(PassSummary(kind: .idle), at: "2026-11-29T12:00:00Z").text
                == "2026-11-29T12:00:00Z idle pass: 0 events (0 own), 0 unannounced changes, 0 items, 0 requests, "
                + "0 actions, 0 applied")
    }
}

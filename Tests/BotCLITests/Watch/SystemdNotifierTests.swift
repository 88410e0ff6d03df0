import Foundation
import GitbayTestSupport
import Testing

@testable import BotCLI
@testable import Watch

/// The notification protocol, against a stand-in socket: one datagram a message, the watchdog
/// only for the process systemd watches.
@Suite struct SystemdNotifierTests {
    @Test func eachNotificationIsOneDatagramOfItsLines() async throws {
        let socket = try NotifySocketStandIn()
        defer { socket.close() }
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path]))
        notifier.notify(["READY=1", "STATUS=full pass: 3 requests"])
        notifier.notify(["STOPPING=1"])
        let stopping = try await socket.first(within: .seconds(10)) { $0 == "STOPPING=1" }
        #expect(stopping != nil)
        #expect(socket.received.map(\.assignments) == [["READY=1", "STATUS=full pass: 3 requests"], ["STOPPING=1"]])
    }

    @Test func theWatchdogIntervalIsSystemdsForThisProcessOnly() throws {
        let environment = ["NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000"]
        #expect(SystemdNotifier(environment: environment)?.watchdogInterval == .seconds(30))
        var other = environment
        other["WATCHDOG_PID"] = "1"
        #expect(SystemdNotifier(environment: other, pid: 4242)?.watchdogInterval == nil)
        other["WATCHDOG_PID"] = "4242"
        #expect(SystemdNotifier(environment: other, pid: 4242)?.watchdogInterval == .seconds(30))
        #expect(SystemdNotifier(environment: [:]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "vsock:2:1234"]) == nil)
    }
}

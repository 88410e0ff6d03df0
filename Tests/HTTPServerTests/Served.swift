import GitbayTestSupport

@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits until `server` holds at least `descriptors` open, at most 20 s; answers whether it did.
///
/// The count is the listener, the wakeup pipe's two ends and the connections the server has
/// taken, so a test sees its clients served before it goes on; polled through ``eventually``, the
/// suite's one poll, since the server signals nothing as it takes a connection.
func served(_ server: HTTPServer, descriptors: Int) async throws -> Bool {
    try await eventually(within: 20, every: .milliseconds(10)) { server.loop.openDescriptors.count >= descriptors }
}

/// ``served(_:descriptors:)`` for a thread of its own (``offPool(_:)``), blocking it.
///
/// For a test whose next step must come while the server still holds what it took: a poll on the
/// cooperative pool waits for a thread of it, which the other suites can hold for longer than a
/// read timeout on a loaded machine.
func servedWhileBlocking(_ server: HTTPServer, descriptors: Int) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(20))
    while server.loop.openDescriptors.count < descriptors {
        guard ContinuousClock.now < deadline else { return false }
        usleep(10_000)
    }
    return true
}

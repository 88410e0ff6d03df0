import Dispatch
import Foundation
import GitbayTestSupport
import Synchronization
import Testing

@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting, stopping and releasing a server, its descriptors, and its threads.
@Suite(.timeLimit(.minutes(1))) struct LifecycleTests {
    @Test func stopClosesTheListenerAndEveryConnectionAndEndsTheThreads() async throws {
        let server = try startedServer(limits: HTTPServer.Limits(readTimeout: .seconds(60)))
        let port = server.port
        let (ending, refused) = try await offPool { () -> (RawClient.Ending, Bool) in
            let silent = try RawClient(port: port)
            waitUntil { server.loop.openDescriptors.count >= 4 }
            server.stop()
            let ending = silent.readToEnd(timeout: .seconds(20)).ending
            let refused = (try? RawClient(port: port)) == nil
            return (ending, refused)
        }
        #expect(ending == .endOfFile)
        #expect(refused)
        #expect(server.loop.runningThreads == 0)
        #expect(server.loop.openDescriptors.isEmpty)
        server.stop()
        #expect(server.loop.runningThreads == 0)
    }

    @Test func aServerReleasedWithoutStopEndsItsThreadsAndClosesItsDescriptors() async throws {
        var server: HTTPServer? = try startedServer()
        let loop = try #require(server?.loop)
        let port = try #require(server?.port)
        let exchange = try await offPool { try RawClient.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n", port: port) }
        #expect(exchange.response?.status == 200)
        #expect(loop.runningThreads > 0)
        server = nil
        #expect(loop.runningThreads == 0)
        #expect(loop.openDescriptors.isEmpty)
    }

    @Test func everyDescriptorIsCloseOnExecAndNonBlocking() async throws {
        let server = try startedServer(limits: HTTPServer.Limits(readTimeout: .seconds(60)))
        defer { server.stop() }
        let port = server.port
        // The flags are read while the client is connected: its connection is the server's then.
        let flags = try await offPool { () -> [(descriptor: Int32, descriptorFlags: Int32, statusFlags: Int32)] in
            let silent = try RawClient(port: port)
            waitUntil { server.loop.openDescriptors.count >= 4 }
            let flags = server.loop.openDescriptors.map { ($0, fcntl($0, F_GETFD), fcntl($0, F_GETFL)) }
            withExtendedLifetime(silent) {}
            return flags
        }
        #expect(flags.count == 4)
        for (descriptor, descriptorFlags, statusFlags) in flags {
            #expect(descriptorFlags & FD_CLOEXEC != 0, "descriptor \(descriptor) is inherited by children")
            #expect(statusFlags & O_NONBLOCK != 0, "descriptor \(descriptor) blocks")
        }
    }

    /// The handler runs on a thread of the server's own, never in a Swift task on the cooperative
    /// pool, where the bot's passes run: a slow client or handler then cannot hold up a pass.
    ///
    /// Checked by asking, in the handler, whether a task is running, rather than by blocking the
    /// pool's threads: the suites share one process, and a test that holds every pool thread
    /// stalls all the others.
    @Test func theHandlerRunsOnAThreadOfTheServersOwnNotInATask() async throws {
        let inTask = Mutex<[Bool]>([])
        let server = try HTTPServer.start(on: ListenAddress.parse("127.0.0.1:0")) { _ in
            inTask.withLock { $0.append(withUnsafeCurrentTask { $0 != nil }) }
            return .text("ok\n")
        }
        defer { server.stop() }
        let port = server.port
        let status = try await offPool {
            try RawClient.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n", port: port, timeout: .seconds(10))
                .response?.status
        }
        #expect(status == 200)
        #expect(inTask.withLock { $0 } == [false])
    }

    @Test func aPortInUseIsAnErrorNamingTheAddressAndTheReason() throws {
        let first = try startedServer()
        defer { first.stop() }
        let taken = ListenAddress(host: "127.0.0.1", port: first.port)
        #expect(throws: HTTPServerError("cannot listen on 127.0.0.1:\(first.port): Address already in use")) {
            try HTTPServer.start(on: taken) { _ in .text("") }
        }
    }

    @Test func aHostThatIsNoIPLiteralAPortOutOfRangeAndEmptyLimitsAreErrors() throws {
        let name = ListenAddress(host: "example.org", port: 80)
        #expect(throws: HTTPServerError("cannot listen on example.org:80: 'example.org' is not an IP address")) {
            try HTTPServer.start(on: name) { _ in .text("") }
        }
        #expect(throws: HTTPServerError("cannot listen on 127.0.0.1:70000: the port is not from 0 to 65535")) {
            try HTTPServer.start(on: ListenAddress(host: "127.0.0.1", port: 70000)) { _ in .text("") }
        }
        let loopback = ListenAddress(host: "127.0.0.1", port: 0)
        #expect(throws: HTTPServerError("cannot listen on 127.0.0.1:0: maxConnections must be at least 1, not 0")) {
            try HTTPServer.start(on: loopback, limits: HTTPServer.Limits(maxConnections: 0)) { _ in .text("") }
        }
        #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(on: loopback, limits: HTTPServer.Limits(readTimeout: .zero)) { _ in .text("") }
        }
        #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(on: loopback, limits: HTTPServer.Limits(maxHeadBytes: 0)) { _ in .text("") }
        }
    }
}

/// How many of the pool's threads a test holds.

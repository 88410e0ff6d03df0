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
        let silent = try await offPool { try RawClient(port: port) }
        try #require(try await served(server, descriptors: 4))
        server.stop()
        let ending = try await offPool { silent.readToEnd(timeout: .seconds(20)).ending }
        #expect(ending == .endOfFile)
        await server.stopped()
        let refused = try await offPool { (try? RawClient(port: port)) == nil }
        #expect(refused)
        #expect(server.loop.runningThreads == 0)
        #expect(server.loop.openDescriptors.isEmpty)
        await server.stopAndWait()
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
        await loop.stopped()
        #expect(loop.runningThreads == 0)
        #expect(loop.openDescriptors.isEmpty)
    }

    /// Stopping suspends rather than blocks a pool thread: more servers than the pool has threads
    /// are closed at once while each one's handler is held, and only a task on the same pool, which
    /// runs once every stop has begun, lets the handlers go.
    ///
    /// A stop that blocked its thread would hold every pool thread, so the releasing task could not
    /// run: the handlers' bounded wait would run out (20 s) and the threads outlive the stop. The
    /// bound is that event, never a sleep.
    @Test func closingManyServersAtOnceHoldsNoPoolThread() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let servers = try (0..<count).map { _ in
            try HTTPServer.start(on: ListenAddress.parse("127.0.0.1:0")) { _ in
                entered.signal()
                return release.wait(timeout: .now() + 20) == .success ? .text("released\n") : .text("timed out\n")
            }
        }
        let ports = servers.map(\.port)
        let handled = try await offPool { () -> Int in
            for port in ports {
                let client = try RawClient(port: port)
                _ = client.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            return ports.filter { _ in entered.wait(timeout: .now() + 20) == .success }.count
        }
        #expect(handled == count)
        let (begun, closesBegun) = AsyncStream.makeStream(of: Void.self)
        let threadsLeftAtStop = await withTaskGroup(of: Int?.self) { group -> [Int] in
            for server in servers {
                group.addTask {
                    closesBegun.yield()
                    await server.stopAndWait()
                    return server.loop.runningThreads
                }
            }
            group.addTask {
                var seen = 0
                for await _ in begun {
                    seen += 1
                    if seen == count { break }
                }
                for _ in 0..<count { release.signal() }
                return nil
            }
            return await group.reduce(into: []) { left, running in if let running { left.append(running) } }
        }
        #expect(threadsLeftAtStop == Array(repeating: 0, count: count))
        for server in servers { #expect(server.loop.openDescriptors.isEmpty) }
    }

    @Test func everyDescriptorIsCloseOnExecAndNonBlocking() async throws {
        let server = try startedServer(limits: HTTPServer.Limits(readTimeout: .seconds(60)))
        defer { server.stop() }
        let port = server.port
        // The flags are read while the client is connected: its connection is the server's then.
        let silent = try await offPool { try RawClient(port: port) }
        try #require(try await served(server, descriptors: 4))
        let flags = server.loop.openDescriptors.map {
            (descriptor: $0, descriptorFlags: fcntl($0, F_GETFD), statusFlags: fcntl($0, F_GETFL))
        }
        withExtendedLifetime(silent) {}
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

import Foundation
import GitbayClient
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in for systemd's notification socket: a Unix datagram socket that keeps every message
/// a program sends to `NOTIFY_SOCKET`, with the time it came.
///
/// A thread of its own receives (never the cooperative pool), polling with a short timeout so that
/// ``close()`` ends it; the socket is close-on-exec, so no child of the tests inherits it.
public final class NotifySocketStandIn: Sendable {
    /// One datagram: its `KEY=value` lines and when it arrived.
    public struct Message: Sendable, Hashable {
        public var assignments: [String]
        public var at: Date
    }

    /// The socket's path, for `NOTIFY_SOCKET`.
    public let path: String
    private let descriptor: Int32
    private let messages = Mutex<[Message]>([])
    private let open = Atomic<Bool>(true)
    /// Signalled by the receiving thread as it ends.
    private let finished = DispatchSemaphore(value: 0)

    public init() throws {
        // sun_path holds 108 bytes: a short folder of its own under /tmp.
        let folder = "/tmp/gb-notify-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = folder + "/notify.sock"
        #if os(Linux)
        descriptor = try closeOnExecSocket(AF_UNIX, Int32(SOCK_DGRAM.rawValue))
        #else
        descriptor = try closeOnExecSocket(AF_UNIX, SOCK_DGRAM)
        #endif
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            closeDescriptor(descriptor)
            throw StandInError("bind \(path): \(reason)")
        }
        let thread = Thread { [self] in receive() }
        thread.name = "notify-stand-in"
        thread.start()
    }

    /// Every message so far, oldest first.
    public var received: [Message] {
        messages.withLock { $0 }
    }

    /// Waits until a message has an assignment that `matches`, at most `timeout`; answers it.
    public func first(
        within timeout: Duration, after start: Date = .distantPast, where matches: (String) -> Bool
    ) async throws -> Message? {
        func found() -> Message? {
            received.first { $0.at >= start && $0.assignments.contains(where: matches) }
        }
        _ = try await eventually(within: timeout.seconds) { found() != nil }
        return found()
    }

    /// Stops receiving and removes the socket; waits (at most a second) for the thread to end.
    public func close() {
        guard open.exchange(false, ordering: .sequentiallyConsistent) else { return }
        _ = finished.wait(timeout: .now() + 1)
        closeDescriptor(descriptor)
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    deinit { close() }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while open.load(ordering: .sequentiallyConsistent) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            let message = Message(assignments: text.split(separator: "\n").map(String.init), at: Date())
            messages.withLock { $0.append(message) }
        }
        finished.signal()
    }
}

/// Why the stand-in could not be made.
public struct StandInError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

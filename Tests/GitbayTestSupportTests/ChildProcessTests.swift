import Foundation
import GitbayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The spawner every test starts programs with: what the child inherits, draining, bounded waits.
@Suite struct ChildProcessTests {
    private let environment = ["PATH": "/usr/bin:/bin"]

    @Test func aChildHoldsNoDescriptorButTheFirstThreeWhileTheTestHasOthersOpen() async throws {
        // Descriptors of the test process that are not close-on-exec, as Foundation's Pipe makes them.
        let open = Pipe()
        let other = Pipe()
        defer {
            try? open.fileHandleForWriting.close()
            try? other.fileHandleForReading.close()
        }
        #expect(fcntl(open.fileHandleForWriting.fileDescriptor, F_GETFD) & FD_CLOEXEC == 0)
        // The sleep outlasts any stall of a loaded machine; the test stops it.
        let child = try ChildProcess("/bin/sh", ["-c", "ls /proc/$$/fd; exec sleep 600"], environment: environment)
        let listed = try await child.output(timeout: .seconds(10)) { $0.hasSuffix("\n") && $0.contains("2\n") }
        let inChild = Set(listed.split(separator: "\n").compactMap { Int($0) })
        // `ls` itself opens one more (the directory it lists); what /proc shows of sleep is exact.
        let sleeping = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd")
        let mine = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { Int($0) }
        #expect(mine.contains(Int(open.fileHandleForWriting.fileDescriptor)))
        #expect(mine.count > 3)
        #expect(Set(sleeping.compactMap { Int($0) }) == [0, 1, 2])
        #expect(inChild.isSuperset(of: [0, 1, 2]))
        #expect(!inChild.contains(Int(open.fileHandleForWriting.fileDescriptor)))
        await child.stop()
    }

    @Test func outputIsDrainedWhileTheChildRuns() async throws {
        // 1 MiB on each stream: far past a pipe's 64 KiB, so a reader that waits for the exit hangs.
        let child = try ChildProcess(
            "/bin/sh", ["-c", "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2; exit 3"],
            environment: environment)
        let ended = try await child.wait(timeout: .seconds(30))
        #expect(ended.status == 3)
        #expect(ended.output.count == 1 << 20)
        #expect(ended.error.count == 1 << 20)
        #expect(ended.outputDropped == 0)
        #expect(ended.errorDropped == 0)
    }

    @Test func aChattyChildIsDrainedToItsEndButOnlyTheFirstPartOfItsOutputIsKept() async throws {
        // 50 MB, six times the limit: a reader that stops at the limit leaves the child blocked.
        let child = try ChildProcess(
            "/bin/sh", ["-c", "printf first; head -c 50000000 /dev/zero; echo ended >&2"],
            environment: environment)
        let ended = try await child.wait(timeout: .seconds(60))
        #expect(ended.status == 0)
        #expect(ended.output.count == ChildProcess.capturedLimit)
        #expect(ended.output.starts(with: Data("first".utf8)))
        #expect(ended.outputDropped == 5 + 50_000_000 - ChildProcess.capturedLimit)
        #expect(ended.errorText == "ended\n")
        #expect(ended.errorDropped == 0)
        #expect(child.outputSoFar.utf8.count == ChildProcess.capturedLimit)
    }

    @Test func aChildThatNeverExitsFailsTheWaitAtItsTimeoutAndIsKilled() async throws {
        let child = try ChildProcess("/bin/sleep", ["600"], environment: environment)
        await #expect {
            try await child.wait(timeout: .milliseconds(300))
        } throws: { error in
            guard case .timedOut(_, let what, let after, _, _) = error as? ChildProcess.Failure else { return false }
            return what == "its end" && after == .milliseconds(300)
        }
        let ended = try await child.wait(timeout: .seconds(10))
        #expect(ended.signal == SIGKILL)
    }

    @Test func aChildWhoseOutputOutlivesItFailsTheWaitAtItsTimeout() async throws {
        // The shell exits at once; the sleep it left behind keeps the output pipe open.
        let child = try ChildProcess("/bin/sh", ["-c", "sleep 600 & echo started"], environment: environment)
        _ = try await child.firstLine(timeout: .seconds(10))
        await #expect {
            try await child.wait(timeout: .milliseconds(500))
        } throws: { error in
            guard case .timedOut = error as? ChildProcess.Failure else { return false }
            return true
        }
        #expect(!child.isRunning)
        // The timeout killed the child's process group, the sleep with it, so the output ends.
        let ended = try await child.wait(timeout: .seconds(10))
        #expect(ended.status == 0)
        #expect(ended.outputText == "started\n")
    }

    @Test func aCancelledWaitEndsAtOnce() async throws {
        let child = try ChildProcess("/bin/sleep", ["600"], environment: environment)
        let waiting = Task { try await child.wait(timeout: .seconds(600)) }
        try #require(try await eventually(within: 10) { child.pendingWaits == 1 }, "the wait never began")
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(child.isRunning)
        let stopped = await child.stop()
        #expect(stopped?.signal == SIGTERM)
    }

    @Test func standardInputIsAPipeTheTestEnds() async throws {
        let child = try ChildProcess("/bin/cat", [], environment: environment, input: .pipe)
        child.write(Data("hello\n".utf8))
        #expect(try await child.firstLine(timeout: .seconds(10)) == "hello")
        child.closeInput()
        let ended = try await child.wait(timeout: .seconds(10))
        #expect(ended.status == 0)
    }

    @Test func aChildStartsInTheDirectoryAndWithTheEnvironmentGiven() async throws {
        let child = try ChildProcess(
            "/bin/sh", ["-c", "pwd; echo $ONLY; echo ${HOME:-unset}"], environment: ["ONLY": "this"], directory: "/tmp")
        let ended = try await child.wait(timeout: .seconds(10))
        #expect(ended.outputText == "/tmp\nthis\nunset\n")
    }

    @Test func aMissingProgramIsAnErrorNotACrash() {
        #expect(throws: ChildProcess.Failure.self) {
            try ChildProcess("/nonexistent/program", [], environment: [:])
        }
    }
}

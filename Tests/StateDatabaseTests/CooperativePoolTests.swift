import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

@testable import StateDatabase

/// The store's statements wait on the disk and on other processes' locks on Dispatch's threads,
/// never on the few threads (as many as cores) that run every task of the process.
@Suite struct CooperativePoolTests {
    /// More records than the pool has threads wait on a lock another process holds, and a task
    /// still runs meanwhile: the lock is let go only after it ran.
    ///
    /// Were the statements run on the callers' threads, the waiting records would hold every
    /// thread of the pool, the task could not run until SQLite's busy timeout failed the first
    /// record, and the records would not all be on record.
    @Test func recordsWaitingOnALockLeaveThePoolFree() async throws {
        let path = scratchDatabase()
        let store = try await SQLiteStateStore.opened(at: path, mode: .applying)
        let holder = try ChildProcess(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import sqlite3, sys\n"
                    + "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                    + "c.execute('BEGIN EXCLUSIVE')\n"
                    + "print('locked', flush=True)\n"
                    + "sys.stdin.read()\n"
                    + "c.execute('ROLLBACK')\n",
                path,
            ], environment: ProcessInfo.processInfo.environment, input: .pipe)
        #expect(try await holder.firstLine(timeout: .seconds(30)) == "locked")
        let waiting = ProcessInfo.processInfo.activeProcessorCount + 2
        let records = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<waiting {
                    group.addTask {
                        try await store.record(entry("r\(index)", .intent, "close", item: "krz/app#\(index)", at: 0))
                    }
                }
                try await group.waitForAll()
            }
        }
        let ran = await Task.detached { true }.value
        holder.closeInput()
        _ = try await holder.wait(timeout: .seconds(30))
        try await records.value
        #expect(ran)
        #expect(try await store.history(HistoryQuery()).count == waiting)
    }
}

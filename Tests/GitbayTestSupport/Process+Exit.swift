import Foundation

extension Process {
    /// Waits for the process to end without running a run loop on the calling thread.
    ///
    /// `waitUntilExit()` spins a CFRunLoop on whichever thread calls it; called from async tests
    /// it did so on the Swift cooperative pool's threads, and test runs hung now and then with
    /// work pending and no pool thread left to run it. Foundation's own monitoring thread notes
    /// the exit; this only looks, every 10 ms.
    public func waitWithoutRunLoop() {
        while isRunning {
            usleep(10_000)
        }
    }
}

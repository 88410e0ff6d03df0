import Foundation

/// CPU time this process has used so far (user plus system, all threads), from `getrusage`.
///
/// Children are excluded, so the local test server's own work never counts against a transport.
struct ProcessCPU: Sendable {
    var seconds: Double

    static func now() -> ProcessCPU {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return ProcessCPU(seconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}

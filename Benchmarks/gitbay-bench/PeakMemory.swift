import Foundation

/// The process's peak resident set size, from `getrusage(RUSAGE_SELF).ru_maxrss`.
///
/// It is a high-water mark for the whole process, which is why `gitbay-bench all` runs each
/// benchmark in a child process of its own: the figure is then that benchmark's peak alone.
enum PeakMemory {
    /// The peak so far in MiB (Linux reports kilobytes, macOS bytes).
    static func mebibytes() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
        #endif
    }
}

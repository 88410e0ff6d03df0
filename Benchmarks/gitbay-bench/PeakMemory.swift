import Foundation

/// The process's peak resident set size.
///
/// It is a high-water mark for the whole process, which is why `gitbay-bench all` runs each
/// benchmark in a child process of its own: the figure is then that benchmark's peak alone. On
/// Linux it is `VmHWM` from /proc, not `getrusage`'s `ru_maxrss`, which starts at the parent's
/// peak: the spawn is a vfork, and the exec records the shared memory's high-water mark.
enum PeakMemory {
    /// The peak so far in MiB (Linux reports kilobytes, macOS bytes).
    static func mebibytes() -> Double {
        #if os(Linux)
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
        #endif
    }
}

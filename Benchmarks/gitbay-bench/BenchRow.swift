import Foundation

/// One line of a benchmark's result table: what was measured, on what size, against which target.
///
/// Every benchmark returns rows instead of printing free text, so `gitbay-bench all` can gather
/// them from child processes (one `ROW` line each) into one table.
struct BenchRow: Sendable, Hashable {
    var name: String
    var size: String
    var measure: String
    var value: String
    var target: String
    var verdict: String
    /// The benchmark process's peak resident memory so far, in MiB.
    var peakMemory: Double

    /// The machine-readable line a child process prints for `gitbay-bench all`.
    var encoded: String {
        (["ROW", name, size, measure, value, target, verdict, String(format: "%.1f", peakMemory)])
            .joined(separator: "\t")
    }

    /// Reads a line printed by ``encoded``; `nil` for any other line.
    init?(encoded line: Substring) {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 8, parts[0] == "ROW", let memory = Double(parts[7]) else { return nil }
        self.init(
            name: parts[1], size: parts[2], measure: parts[3], value: parts[4], target: parts[5], verdict: parts[6],
            peakMemory: memory)
    }

    init(
        name: String, size: String, measure: String, value: String, target: String, verdict: String,
        peakMemory: Double = PeakMemory.mebibytes()
    ) {
        self.name = name
        self.size = size
        self.measure = measure
        self.value = value
        self.target = target
        self.verdict = verdict
        self.peakMemory = peakMemory
    }

    /// Prints rows as an aligned table, or as `ROW` lines when `GITBAY_BENCH_ROWS` is set (a child of `all`).
    static func report(_ rows: [BenchRow]) {
        if ProcessInfo.processInfo.environment["GITBAY_BENCH_ROWS"] != nil {
            for row in rows { print(row.encoded) }
            return
        }
        print(table(rows))
    }

    /// The rows as a Markdown-compatible table, columns padded to their widest cell.
    static func table(_ rows: [BenchRow]) -> String {
        let header = ["benchmark", "size", "measure", "value", "target", "verdict", "peak MiB"]
        let cells = rows.map {
            [$0.name, $0.size, $0.measure, $0.value, $0.target, $0.verdict, String(format: "%.0f", $0.peakMemory)]
        }
        let widths = header.indices.map { column in
            ([header] + cells).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| "
                + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: " | ") + " |"
        }
        let rule = "| " + widths.map { String(repeating: "-", count: $0) }.joined(separator: " | ") + " |"
        return ([line(header), rule] + cells.map(line)).joined(separator: "\n")
    }
}

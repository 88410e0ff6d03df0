import Foundation
import GitbayTestSupport
import Testing
import YAML

/// Broken files too large to commit, generated on the fly: 10,000-deep nesting in each YAML style.
///
/// The depth limit must stop each one at the first collection past 256 levels (the root mapping is
/// the first), without exhausting the stack; how quickly is `gitbay-bench hostile`'s "deep rule file" row.
/// The line under the diagnostic is tens of kilobytes long: only a window of it around the column
/// is shown, so one message never floods the terminal.
@Suite struct GeneratedFileTests {
    /// The style's name, a 10,000-deep `rules:` in it, and the column of the collection past the limit.
    static let deepFiles: [(name: String, text: String, column: Int)] = [
        (
            "flow-lists", "rules: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
            8 + 255
        ),
        ("block-lists", "rules:\n" + String(repeating: "- ", count: 10_000) + "x", 1 + 2 * 255),
        (
            "flow-mappings",
            "rules: " + String(repeating: "{a: ", count: 10_000) + "1" + String(repeating: "}", count: 10_000),
            8 + 4 * 255
        ),
    ]

    @Test(arguments: deepFiles.map(\.name))
    func tenThousandLevelsStopAtTheLimit(_ name: String) async throws {
        let file = try #require(Self.deepFiles.first { $0.name == name })
        let folder = Scratch.url("gitbay-deep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("\(name).yml").path
        try Data(("scope: owner:krz\n" + file.text + "\n").utf8).write(to: URL(fileURLWithPath: path))

        let result = await runBot(["check", path])
        #expect(result.code == 78)
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 5, "\(result.error.prefix(1000))")
        let line = name == "block-lists" ? 3 : 2
        #expect(lines[0] == "\(path):\(line):\(file.column): error: nesting deeper than 256 levels")
        // A window of 200 characters around the column, cut at both ends, the caret in the middle
        // under the collection past the limit.
        let source = Array(file.text.split(separator: "\n")[line - 2].unicodeScalars)
        let window = source[(file.column - 101)..<(file.column + 99)]
        #expect(lines[1] == "…" + String(String.UnicodeScalarView(window)) + "…")
        #expect(lines[1].unicodeScalars.count == Diagnostic.excerptWidth + 2)
        #expect(lines[2] == String(repeating: " ", count: 101) + "^")
        #expect(Array(lines[1].unicodeScalars)[101] == source[file.column - 1])
        #expect(result.error.hasSuffix("\n1 file: 1 error\n"))
    }
}

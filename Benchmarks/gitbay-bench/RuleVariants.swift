import Foundation
import RuleEngine

/// Rule files generated from the shipped ones: the same rules under new names, with their
/// thresholds and limits varied, so benchmarks load and evaluate many rules of realistic shape.
enum RuleVariants {
    /// `count` files, cycling through the files of `folder` (the shipped ones unless told); file
    /// `i` renames each rule `<name>-v<i>`, and each `comment_age.<name>` naming it, so the file
    /// still names only rules it has.
    static func files(count: Int, from folder: URL = ShippedRules.folder) throws -> [(path: String, bytes: [UInt8])] {
        let shipped = try ShippedRules.files(in: folder)
        return (0..<count).map { index in
            let source = shipped[index % shipped.count]
            let name = (source.path as NSString).lastPathComponent.replacingOccurrences(of: ".yml", with: "")
            let text = variant(String(decoding: source.bytes, as: UTF8.self), index: index)
            return (String(format: "%03d-%@.yml", index, name), Array(text.utf8))
        }
    }

    /// Files whose rules number at least `rules`, varied from the files of `folder`: as many
    /// cycles through them as it takes, since each file holds a few rules.
    static func files(rules: Int, from folder: URL = ShippedRules.folder) throws -> [(path: String, bytes: [UInt8])] {
        var count = 0
        var files: [(path: String, bytes: [UInt8])] = []
        while try load(files).count < rules {
            count += 1
            files = try self.files(count: count, from: folder)
        }
        return files
    }

    /// The rules of `files`, checked; a diagnostic error stops the benchmark.
    static func load(_ files: [(path: String, bytes: [UInt8])]) throws -> [Rule] {
        let set = RuleSet.load(files: files, registry: ShippedRules.registry)
        guard !set.hasErrors else { throw ShippedRules.Failure.invalidRules(set.diagnostics.map { "\($0)" }) }
        return set.rules
    }

    private static func variant(_ text: String, index: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let names = Set(
            lines.compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("- name: ") ? String(trimmed.dropFirst("- name: ".count)) : nil
            })
        return lines.map { line in
            var line = line.replacing(/comment_age\.([a-z0-9._-]+)/) { match in
                let name = String(match.output.1)
                return "comment_age.\(name)" + (names.contains(name) ? "-v\(index)" : "")
            }
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("- name: ") { line += "-v\(index)" }
            line = line.replacingOccurrences(of: "idle > 60d", with: "idle > \(30 + index % 60)d")
            line = line.replacingOccurrences(of: "idle > 14d", with: "idle > \(7 + index % 21)d")
            line = line.replacingOccurrences(of: "limit: 20", with: "limit: \(10 + index % 40)")
            return line
        }.joined(separator: "\n")
    }
}

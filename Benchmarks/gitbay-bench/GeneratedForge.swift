import Foundation
import GitbayTestSupport

/// A forge-state file written by `Tests/Simulator/generate_forge.py`, cached under the temporary folder.
///
/// Generating the 20-repository forge takes seconds, so a file is reused while its parameters and
/// the generator itself are unchanged (the name carries a digest of the script: a generator that
/// learnt milestones must not be measured on forges it wrote before).
enum GeneratedForge {
    static let now = "2026-11-29T12:00:00.000Z"
    static let generator = ForgeGenerator.script

    /// The path of a forge with `repos` repositories and the given items per repository (seed 1).
    static func file(
        repos: Int, issues: Int = 500, mergeRequests: Int = 100, builds: Int = 300, rulesFiles: Int = 0
    ) async throws -> URL {
        let version = digest(try Data(contentsOf: generator))
        let name = "gitbay-bench-forge-\(repos)r-\(issues)i-\(mergeRequests)m-\(builds)b-\(rulesFiles)f-\(version).json"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let partial = url.appendingPathExtension("partial")
        try await ForgeGenerator.write(
            to: partial, repos: repos, issues: issues, mergeRequests: mergeRequests, builds: builds, now: now,
            rulesFiles: rulesFiles)
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }

    /// A 64-bit FNV-1a digest of `data` in hex: enough to tell two versions of one script apart.
    static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

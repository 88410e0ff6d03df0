import YAML

/// A repository's own rules file and the files its `extends:` reaches, read one after another.
///
/// Each file is held to what a rules file is before it is parsed: text, at most
/// ``maximumBytes``. A chain stops at its first mistake (a malformed or unreadable `extends:`, a
/// cycle, more than ``maximumDepth`` files), said at the `extends:` that caused it, and the
/// repository's rules are then not used: the file's other mistakes show once it is mended.
public enum RepositoryRuleChain {
    /// The most files one chain holds, the repository's own included.
    public static let maximumDepth = 5
    /// The most bytes a rules file may hold: the shipped rules are 5 KiB all told.
    public static let maximumBytes = 1 << 20

    /// The repository's rules, its file `file` read with the bases it extends, checked as
    /// ``RuleSet/load(files:registry:scopeOverride:defaultSchedule:confinement:)`` checks them.
    public static func load(
        _ file: (path: String, bytes: [UInt8]), confinement: RepositoryConfinement, registry: PluginRegistry,
        defaultSchedule: Schedule? = nil, fetcher: any RuleFileFetcher
    ) async -> RuleSet {
        var chain = [file]
        // The repository's own file by both names, so a base that extends it back is a cycle at once.
        var seen: Set<String> = [file.path, "\(confinement.repository):\(RuleFileReference.repositoryFile)"]
        while let current = chain.first {
            if let problem = admissionProblem(current) {
                return RuleSet(rules: [], diagnostics: [problem], sources: [:])
            }
            guard let root = try? YAML.compose(bytes: current.bytes, file: current.path),
                let extends = RuleSet.value(of: "extends", in: root), let text = extends.scalar, !extends.isNull
            else { break }
            let stop = { (message: String) in
                RuleSet(
                    rules: [], diagnostics: [.error(message, at: extends.location)],
                    sources: Dictionary(chain.map { ($0.path, $0.bytes) }) { first, _ in first })
            }
            guard let reference = RuleFileReference(parsing: text) else {
                return stop("extends: takes owner/name:path, optionally @ref, not '\(text)'")
            }
            guard seen.insert(reference.description).inserted else {
                return stop(
                    "extends: \(reference) is already in this chain ("
                        + (chain.reversed().map(\.path) + [reference.description]).joined(separator: " → ") + ")")
            }
            guard chain.count < maximumDepth else {
                return stop("extends: a chain holds at most \(maximumDepth) files, and \(reference) would be one more")
            }
            switch await fetcher.fetch(reference) {
            case .success(let bytes): chain.insert((reference.description, bytes), at: 0)
            case .failure(let failure): return stop("extends: cannot read \(reference): \(failure.message)")
            }
        }
        return RuleSet.load(
            files: chain, registry: registry, defaultSchedule: defaultSchedule, confinement: confinement)
    }

    /// Why `file` is no rules file before it is parsed: too large, or binary (a NUL byte, as
    /// gitbay's `repo cat` tells binary content).
    static func admissionProblem(_ file: (path: String, bytes: [UInt8])) -> Diagnostic? {
        let start = SourceLocation(file: file.path, line: 1, column: 1)
        if file.bytes.count > maximumBytes {
            return .error(
                "\(file.path) is \(file.bytes.count) bytes; a rules file holds at most \(maximumBytes / 1024) KiB",
                at: start)
        }
        if let nul = file.bytes.firstIndex(of: 0) {
            return .error("\(file.path) is binary (a NUL byte at offset \(nul)); a rules file is YAML text", at: start)
        }
        return nil
    }
}

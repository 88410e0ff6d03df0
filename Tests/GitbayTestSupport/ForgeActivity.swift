import Foundation

/// Other people's work on a simulated forge, at random: comments, edits, closing and reopening,
/// labels, assignees, drafts, merges that retarget a stack, pushes and builds finishing.
///
/// What the bot must notice between runs, so incremental reads can be checked against full ones.
/// People act through the control API as ``person``; pushes and finished builds, which gitbay
/// takes from git and its runners, through the simulator's own controls.
public struct ForgeActivity: Sendable {
    /// The account the activity is done as.
    public static let person = "alice"
    /// Its token, which ``simulatorOptions`` hands the simulator.
    public static let personToken = "gb_" + String(repeating: "a", count: 64)
    /// The options that let ``person`` in.
    public static let simulatorOptions = ["--user-token", "\(person)=\(personToken)"]

    private struct Repository: Sendable {
        var path: String
        var issues: [Int]
        /// Number and source branch of each merge request from the repository itself.
        var mergeRequests: [(number: Int, source: String)]
        var builds: [Int]
    }

    private var repositories: [Repository] = []
    private var random: SeededGenerator
    private var pushes = 0

    /// The items of the forge-state file at `stateFile`, the one the simulator serves.
    public init(stateFile: URL, seed: UInt64) throws {
        random = SeededGenerator(seed: seed)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: stateFile)) as? [String: Any]
        for repository in object?["repos"] as? [[String: Any]] ?? [] {
            func numbers(_ key: String) -> [[String: Any]] { repository[key] as? [[String: Any]] ?? [] }
            repositories.append(
                Repository(
                    path: repository["path"] as? String ?? "",
                    issues: numbers("issues").compactMap { $0["number"] as? Int },
                    mergeRequests: numbers("merge_requests").compactMap { row in
                        guard let number = row["number"] as? Int, let source = row["source"] as? String,
                            !source.contains(":"), !source.isEmpty
                        else { return nil }
                        return (number, source)
                    },
                    builds: numbers("builds").compactMap { $0["number"] as? Int }))
        }
    }

    /// Does `count` things at random; answers the items that took a change (`owner/name#12`,
    /// `owner/name!3`), which a refusal (closing a closed issue, merging past a gate) does not.
    public mutating func act(_ count: Int, on simulator: SimulatorProcess) async throws -> Set<String> {
        var changed = Set<String>()
        for _ in 0..<count {
            guard let repository = repositories.randomElement(using: &random) else { break }
            changed.formUnion(try await actOnce(in: repository, simulator: simulator))
        }
        return changed
    }

    private mutating func actOnce(in repository: Repository, simulator: SimulatorProcess) async throws -> [String] {
        let path = repository.path
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 55, let number = repository.issues.randomElement(using: &random) {
            let argv: [String]
            switch roll {
            case 0..<20: argv = ["issue", "comment", path, "\(number)", "--message", "still seeing this (\(roll))"]
            case 20..<25: argv = ["issue", "edit", path, "\(number)", "--body", "edited body \(roll)"]
            case 25..<35: argv = ["issue", random.chance(0.5) ? "close" : "reopen", path, "\(number)"]
            case 35..<50:
                let label = ["stale", "pinned", "security", "bug"].randomElement(using: &random) ?? "bug"
                argv = ["issue", "label", path, "\(number)", random.chance(0.5) ? "--add" : "--remove", label]
            default:
                argv = ["issue", "assign", path, "\(number)", random.chance(0.5) ? "--add" : "--remove", Self.person]
            }
            return try await write(argv, simulator) ? ["\(path)#\(number)"] : []
        }
        guard let mergeRequest = repository.mergeRequests.randomElement(using: &random) else { return [] }
        let number = mergeRequest.number
        switch roll {
        case 55..<65:
            let argv = ["mr", "comment", path, "\(number)", "--message", "a thought (\(roll))"]
            return try await write(argv, simulator) ? ["\(path)!\(number)"] : []
        case 65..<75:
            let argv = ["mr", random.chance(0.5) ? "draft" : "ready", path, "\(number)"]
            return try await write(argv, simulator) ? ["\(path)!\(number)"] : []
        case 75..<80:
            // A merge retargets what is stacked on it, which the caller learns from the listing.
            return try await write(["mr", "merge", path, "\(number)"], simulator) ? ["\(path)!\(number)"] : []
        case 80..<95:
            // Pushes go to the few branches of the repository's first merge requests, so that one
            // push often supersedes the builds of the one before.
            let branches = repository.mergeRequests.prefix(3).map(\.source)
            let branch = branches.randomElement(using: &random) ?? mergeRequest.source
            pushes += 1
            let sha = String(format: "%040lx", pushes * 7919 + Int.random(in: 0..<1_000_000, using: &random))
            let body = "{\"push\":{\"repo\":\"\(path)\",\"branch\":\"\(branch)\",\"sha\":\"\(sha)\"}}"
            try await simulator.control(body)
            let fed = repository.mergeRequests.filter { $0.source == branch }.map { "\(path)!\($0.number)" }
            return fed + ["\(path)/builds"]
        default:
            guard let build = repository.builds.randomElement(using: &random) else { return [] }
            let status = ["running", "success", "failure"].randomElement(using: &random) ?? "success"
            let body = "{\"finish_build\":{\"repo\":\"\(path)\",\"number\":\(build),\"status\":\"\(status)\"}}"
            // A build already finished refuses (400): nothing changed.
            return (try? await simulator.control(body)) != nil ? ["\(path)/builds/\(build)"] : []
        }
    }

    /// Sends `argv` as ``person``; whether the server said it applied it.
    ///
    /// A fault the simulator injects (a reset, a 503) is a refusal to the caller, as a person would
    /// see it, though a write whose answer was lost may have applied.
    private func write(_ argv: [String], _ simulator: SimulatorProcess) async throws -> Bool {
        (try? await simulator.write(argv, token: Self.personToken)) == 200
    }
}

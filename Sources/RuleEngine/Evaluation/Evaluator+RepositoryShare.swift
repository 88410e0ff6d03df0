import GitbayKit

extension Evaluator {
    /// The repository of each repository rule (``Rule/origin``), by name.
    static func origins(of rules: [Rule]) -> [String: RepositoryPath] {
        Dictionary(rules.compactMap { rule in rule.origin.map { (rule.name, $0) } }) { first, _ in first }
    }

    /// Holds what each repository's own rules would send beyond its share of the run
    /// (``EvaluationOptions/repositoryShare``), unit by unit in plan order, before the run-wide cap.
    ///
    /// A repository's maintainers write its file, and the bot sends its commands with the
    /// operator's token under one run's cap and gitbay's write budget: without a share, one
    /// repository's backlog would take every slot of every run, and the others' rules (and the
    /// operator's) would wait behind it. A unit is an entry or a comment's whole answer, whose
    /// commands go together or not at all; the commands of a repository's rules in it count against
    /// that repository's share, and the first unit that does not fit holds every later one of that
    /// repository, so its next run resumes exactly there. What the share holds is not the cap's:
    /// a slot the run frees at apply time never goes to it (``FreedSlots``).
    func shareAmongRepositories(
        _ entries: inout [PlanEntry], answers: [CommentAnswer], origins: [String: RepositoryPath],
        guards: inout [String]
    ) {
        guard let share = options.repositoryShare, !origins.isEmpty else { return }
        var sent: [RepositoryPath: Int] = [:]
        var full: Set<RepositoryPath> = []
        var held: [RepositoryPath: Int] = [:]
        var answerAt: [Int: [Int]] = [:]
        for answer in answers {
            answerAt[answer.entries[0]] = answer.entries
        }
        // Each entry's repository and commands (none for a refusal), read in place as the cap
        // reads them: read through `entries[index]`, every entry was copied.
        let counts = entries.mapInPlace { entry -> (origin: RepositoryPath?, commands: Int) in
            (origins[entry.rule], entry.isRefusal ? 0 : entry.pendingCommandCount)
        }
        let answering = entries.mapInPlace { $0.answersCommand }
        for index in entries.indices {
            let unit: [Int]
            if !answering[index] {
                guard counts[index].origin != nil else { continue }
                unit = [index]
            } else if let answer = answerAt[index] {
                unit = answer
            } else {
                continue
            }
            var counted: [RepositoryPath: Int] = [:]
            for member in unit {
                guard let origin = counts[member].origin else { continue }
                counted[origin, default: 0] += counts[member].commands
            }
            let over = counted.filter { origin, commands in
                commands > 0 && (full.contains(origin) || sent[origin, default: 0] + commands > share)
            }
            guard over.isEmpty else {
                for (origin, commands) in over {
                    full.insert(origin)
                    held[origin, default: 0] += commands
                }
                let names = over.keys.sorted().map(\.description).joined(separator: ", ")
                for member in unit {
                    entries[member].hold(note: "the share of \(names)'s own rules, \(share) commands a run, reached")
                }
                continue
            }
            for (origin, commands) in counted {
                sent[origin, default: 0] += commands
            }
        }
        for (origin, commands) in held.sorted(by: { $0.key < $1.key }) {
            guards.append(
                "\(origin)'s own rules: their share of \(share) commands a run reached; "
                    + "\(commands) more commands left for the next runs")
        }
    }
}

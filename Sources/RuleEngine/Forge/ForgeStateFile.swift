import Foundation
import GitbayKit

/// A whole gitbay forge in one JSON document (`docs/forge-state.md`): what offline mode reads, what
/// the simulator serves, and what `gitbay-bot snapshot` writes.
///
/// It speaks gitbay's own field names so that one file works for the bot, the simulator and the
/// fixtures alike; ``forgeState()`` turns it into the engine's ``ForgeState`` with every derived
/// field computed as the server would serve it, so offline and live evaluation agree.
public struct ForgeStateFile: Codable, Sendable, Hashable {
    /// The only format this reader understands; any other value is refused rather than guessed at.
    public static let format = "gitbay-forge-state/1"

    /// The forge's current time, which offline evaluation freezes.
    public var now: Date
    /// The bot's username.
    public var me: String
    /// Every known username; `nil` when the file leaves it to be derived from authors and assignees.
    public var users: [String]?
    public var repos: [ForgeStateRepository]
    /// The feed's events the forge had, oldest first, as `feed` rows: who labelled, edited or
    /// closed what, which `quiet` and `label_age` weigh; absent when the file keeps none.
    public var events: [FeedEvent]?
    /// The kinds whose lists the repositories hold, with how each reads and writes its list.
    public let registry: PluginRegistry

    public init(
        now: Date, me: String, users: [String]? = nil, repos: [ForgeStateRepository], registry: PluginRegistry
    ) {
        self.now = now
        self.me = me
        self.users = users
        self.repos = repos
        self.registry = registry
    }

    public static func == (lhs: ForgeStateFile, rhs: ForgeStateFile) -> Bool {
        lhs.now == rhs.now && lhs.me == rhs.me && lhs.users == rhs.users && lhs.repos == rhs.repos
            && lhs.events == rhs.events
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(now)
        hasher.combine(me)
        hasher.combine(repos)
    }

    /// The file for what a run read, such as from a live server, so it can be replayed offline.
    ///
    /// Evaluation never consults labels or the user list, so ``ForgeState`` does not carry them; a
    /// snapshot passes them here (by repository) so the file also serves the simulator and
    /// `label list` answers offline as it did live. Milestones are given here only by a caller
    /// whose state does not hold them; a kind that does records them itself.
    public init(
        state: ForgeState, registry: PluginRegistry, labels: [RepositoryPath: [IssueLabel]] = [:],
        milestones: [RepositoryPath: [Milestone]] = [:], users: [String]? = nil
    ) {
        self.init(
            now: state.now, me: state.me, users: users,
            repos: state.repositories.map { repository in
                var file = ForgeStateRepository(state: repository, registry: registry)
                file.labels = labels[repository.path] ?? []
                if let recorded = milestones[repository.path] { file.milestones = recorded }
                return file
            }, registry: registry)
        events = state.feed.isEmpty ? nil : state.feed
    }

    /// Reads and checks a forge-state file; errors name the JSON path of the bad value.
    public static func load(from data: Data, registry: PluginRegistry) throws(ForgeStateFileError) -> ForgeStateFile {
        let file: ForgeStateFile
        do {
            let decoder = GitbayJSON.decoder()
            decoder.userInfo[.pluginRegistry] = registry
            file = try decoder.decode(ForgeStateFile.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw ForgeStateFileError.invalidJSON(data)
        } catch let error as DecodingError {
            throw ForgeStateFileError(error)
        } catch {
            throw ForgeStateFileError(path: "", problem: "cannot be read: \(error.localizedDescription)")
        }
        try file.validate()
        return file.numberingComments()
    }

    /// The file with an id on every comment: those it gives, then the rest numbered in its order
    /// after the highest given, one count per kind across the whole forge, as gitbay's comments
    /// tables give row ids and as the simulator numbers a file (docs/forge-state.md).
    private func numberingComments() -> ForgeStateFile {
        var file = self
        for kind in registry.kinds {
            guard let commented = registry.commented(kind) else { continue }
            let given = repos.flatMap { repo in repo.collections[kind].map(commented.commentIDs) ?? [] }
            var next = (given.max() ?? 0) + 1
            for index in file.repos.indices {
                guard let collection = file.repos[index].collections[kind] else { continue }
                file.repos[index].collections[kind] = commented.numberingComments(in: collection, from: &next)
            }
        }
        return file
    }

    /// The forge as evaluation sees it: everything known, derived fields computed.
    public func forgeState() -> ForgeState {
        var state = ForgeState(now: now, me: me, repositories: repos.map { $0.repositoryState(registry: registry) })
        ActivityHistory.carry(events ?? [], into: &state, registry: registry)
        return state
    }

    /// The file as JSON with sorted keys and gitbay's timestamp forms, ready to write to disk.
    public func encoded() throws -> Data {
        let encoder = GitbayJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        encoder.userInfo[.pluginRegistry] = registry
        return try encoder.encode(self)
    }

    /// Refuses what the simulator refuses: repeated paths or numbers, and states gitbay does not have.
    func validate() throws(ForgeStateFileError) {
        guard !me.isEmpty else { throw ForgeStateFileError(path: "me", problem: "must be a username, not empty") }
        var paths: Set<RepositoryPath> = []
        for (index, repo) in repos.enumerated() {
            let at = "repos[\(index)]"
            guard paths.insert(repo.path).inserted else {
                throw ForgeStateFileError(path: "\(at).path", problem: "\(repo.path) appears twice")
            }
            for kind in registry.kinds {
                guard let list = registry.stateFileList(of: kind), let collection = repo.collections[kind] else {
                    continue
                }
                try list.validateStateFile(collection, at: "\(at).\(list.stateFileKey)")
            }
        }
    }

    /// Checks one list of items, for a kind's ``StateFileList/validateStateFile(_:at:)``: each
    /// number once, each state (at `field`) one of `allowed`.
    public static func check(
        _ items: [(number: Int, state: String)], at list: String, allowed: [String], field: String
    ) throws(ForgeStateFileError) {
        var numbers: Set<Int> = []
        for (index, item) in items.enumerated() {
            guard allowed.contains(item.state) else {
                throw ForgeStateFileError(
                    path: "\(list)[\(index)].\(field)",
                    problem: "\"\(item.state)\" is not one of \(allowed.joined(separator: ", "))")
            }
            guard numbers.insert(item.number).inserted else {
                throw ForgeStateFileError(path: "\(list)[\(index)].number", problem: "\(item.number) appears twice")
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case format
        case now
        case me
        case users
        case repos
        case events
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(String.self, forKey: .format)
        guard format == Self.format else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container,
                debugDescription: "expected \"\(Self.format)\", found \"\(format)\"; this bot reads only that format")
        }
        let nowText = try container.decode(String.self, forKey: .now)
        guard let now = GitbayTimestamp.parse(nowText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .now, in: container, debugDescription: "not a gitbay timestamp: \(nowText)")
        }
        self.now = now
        me = try container.decode(String.self, forKey: .me)
        users = try container.decodeIfPresent([String].self, forKey: .users)
        repos = try container.decode([ForgeStateRepository].self, forKey: .repos)
        events = try container.decodeIfPresent([FeedEvent].self, forKey: .events)
        guard let registry = decoder.userInfo[.pluginRegistry] as? PluginRegistry else {
            throw DecodingError.dataCorruptedError(
                forKey: .repos, in: container, debugDescription: "no plugin registry to read the item lists")
        }
        self.registry = registry
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.format, forKey: .format)
        try container.encode(GitbayTimestamp.format(now, precision: .milliseconds), forKey: .now)
        try container.encode(me, forKey: .me)
        try container.encodeIfPresent(users, forKey: .users)
        try container.encode(repos, forKey: .repos)
        try container.encodeIfPresent(events, forKey: .events)
    }
}

import GitbayKit
import Synchronization

/// Rules files read from the forge with `repo cat` (the default branch, or the ref named), each
/// recorded as the run met it (``RepositoryRuleFiles/Content``).
///
/// gitbay's refusals come back in its words (`no such file "base.yml" in krz/.gitbay at main`,
/// `repository krz/x not found`, which is also what a repository the token cannot read answers)
/// and are the file's for good, until it changes. A failure that says nothing of the file (the
/// server out of reach, the rate limit, a token turned away) is kept aside, ``interruption``: a
/// run throws it rather than record a mistake the repository never made.
public final class ForgeRuleFileReader: RuleFileFetcher {
    private let reader: any ForgeReader
    private let state = Mutex(State())

    private struct State {
        var read: [String: RepositoryRuleFiles.Content] = [:]
        var requests = 0
        var interruption: (any Error)?
    }

    public init(reader: any ForgeReader) {
        self.reader = reader
    }

    /// The files read so far, by reference.
    public var read: [String: RepositoryRuleFiles.Content] { state.withLock { $0.read } }
    /// The `repo cat` requests sent so far.
    public var requests: Int { state.withLock { $0.requests } }
    /// The first failure that was no answer about a file, if any.
    public var interruption: (any Error)? { state.withLock { $0.interruption } }

    public func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure> {
        let key = reference.description
        let content: RepositoryRuleFiles.Content
        if let known = state.withLock({ $0.read[key] }) {
            content = known
        } else {
            content = await cat(reference)
            state.withLock { $0.read[key] = content }
        }
        switch content {
        case .text(let text): return .success(Array(text.utf8))
        case .refused(let reason): return .failure(RuleFileFetchFailure(reason))
        }
    }

    /// One file read afresh.
    func cat(_ reference: RuleFileReference) async -> RepositoryRuleFiles.Content {
        let command: RepoCatCommand
        do throws(GitbayCommandError) {
            command = try RepoCatCommand(repository: reference.repository, path: reference.path, ref: reference.ref)
        } catch {
            return .refused("\(error)")
        }
        state.withLock { $0.requests += 1 }
        do {
            let blob = try await reader.send(command)
            if blob.truncated {
                guard blob.size > RepositoryRuleChain.maximumBytes else {
                    return .refused("it is larger than the server returns (\(blob.size) bytes)")
                }
                return .refused(
                    "\(reference) is \(blob.size) bytes; a rules file holds at most "
                        + "\(RepositoryRuleChain.maximumBytes / 1024) KiB")
            }
            guard let bytes = blob.bytes else { return .refused("the server's base64 for it does not decode") }
            return RepositoryRuleFiles.content(bytes, name: reference.description)
        } catch {
            guard let failure = (error as? any ForgeFailureConvertible)?.forgeFailure, failure.isRefusal else {
                state.withLock { $0.interruption = $0.interruption ?? error }
                return .refused("\(error)")
            }
            return .refused(failure.message)
        }
    }
}

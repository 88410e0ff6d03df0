import Foundation
import GitbayKit
import RuleEngine

/// The files `extends:` names, read from local checkouts (`check --base OWNER/NAME=DIR`): what a
/// maintainer or a CI job has at hand, as the working tree holds it, whatever `@ref` is named.
struct LocalRuleFileFetcher: RuleFileFetcher {
    /// Each repository's checkout folder.
    var checkouts: [RepositoryPath: String]

    func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure> {
        guard let folder = checkouts[reference.repository] else {
            return .failure(
                RuleFileFetchFailure(
                    "check reads it from a local checkout (--base \(reference.repository)=DIR) or, with "
                        + "--read-bases, from the server"))
        }
        let path = (folder as NSString).appendingPathComponent(reference.path)
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(RuleFileFetchFailure("no file \(path) to read"))
        }
        return .success([UInt8](data))
    }
}

/// `check`'s reader of what `extends:` names: the local checkout `--base` gives for a repository,
/// else, with `--read-bases`, the forge.
struct CheckBaseFetcher: RuleFileFetcher {
    var local: LocalRuleFileFetcher
    var forge: (any RuleFileFetcher)?

    func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure> {
        guard let forge, local.checkouts[reference.repository] == nil else { return await local.fetch(reference) }
        return await forge.fetch(reference)
    }
}

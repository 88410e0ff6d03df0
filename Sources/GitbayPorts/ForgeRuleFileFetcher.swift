import GitbayClient
import GitbayKit
import RuleEngine

/// The files a repository's rules `extends:`, read from the forge with `repo cat`: the default
/// branch, or the ref named.
///
/// gitbay's refusals come back in its words (`no such file "base.yml" in krz/.gitbay at main`,
/// `repository krz/x not found`, which is also what a repository the token cannot read answers).
public struct ForgeRuleFileFetcher: RuleFileFetcher {
    let client: GitbayClient

    public init(client: GitbayClient) {
        self.client = client
    }

    public func fetch(_ reference: RuleFileReference) async -> Result<[UInt8], RuleFileFetchFailure> {
        do throws(GitbayError) {
            let command: RepoCatCommand
            do throws(GitbayCommandError) {
                command = try RepoCatCommand(repository: reference.repository, path: reference.path, ref: reference.ref)
            } catch {
                return .failure(RuleFileFetchFailure("\(error)"))
            }
            let blob = try await client.send(command)
            if blob.truncated {
                return .failure(RuleFileFetchFailure("it is larger than the server returns (\(blob.size) bytes)"))
            }
            guard let bytes = blob.bytes else {
                return .failure(RuleFileFetchFailure("the server's base64 for it does not decode"))
            }
            return .success(bytes)
        } catch {
            return .failure(RuleFileFetchFailure(error.message))
        }
    }
}

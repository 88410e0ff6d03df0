import Foundation
import GitbayClient
import GitbayKit
import RuleEngine

/// The plan kept current in a marked section of a merge request's description.
///
/// gitbay has no command to edit a comment (the registry lists `mr comment` but no comment edit),
/// so a preview posted as a comment would add one comment per push. The description can be
/// replaced (`mr edit --file -`), so the plan lives between two hidden markers in it: the author's
/// text around them is kept, and each run replaces only what is between them.
enum PlanSection {
    static let begin = "<!-- gitbay-bot:plan begin -->"
    static let end = "<!-- gitbay-bot:plan end -->"
    /// gitbay reads at most 64 KiB of a body.
    static let maximumBodyBytes = 65_536

    /// `description` with the marked section replaced by `content`, or the section appended.
    ///
    /// A plan too long to fit next to the author's text is replaced by a pointer to the job's log,
    /// so the edit never fails on gitbay's limit.
    static func replacing(in description: String, with content: String) -> String {
        let updated = splice(description, content)
        guard updated.utf8.count > maximumBodyBytes else { return updated }
        return splice(description, "The plan is too long for the description; see the job's log.")
    }

    private static func splice(_ description: String, _ content: String) -> String {
        let section = begin + "\n" + content + (content.hasSuffix("\n") ? "" : "\n") + end
        if let start = description.range(of: begin),
            let stop = description.range(of: end, range: start.upperBound..<description.endIndex)
        {
            return description[..<start.lowerBound] + section + description[stop.upperBound...]
        }
        if description.allSatisfy(\.isWhitespace) { return section + "\n" }
        return description + (description.hasSuffix("\n") ? "\n" : "\n\n") + section + "\n"
    }

    /// Reads the merge request's description and writes it back with the new section, unless it is
    /// already there; returns whether it edited.
    static func publish(_ content: String, on reference: ItemReference, client: GitbayClient) async throws -> Bool {
        let request = try await client.send(
            MergeRequestShowCommand(repository: reference.repository, number: reference.number))
        let current = request.body ?? ""
        let updated = replacing(in: current, with: content)
        guard updated != current else { return false }
        _ = try await client.send(
            MergeRequestEditCommand(repository: reference.repository, number: reference.number, body: updated))
        return true
    }
}

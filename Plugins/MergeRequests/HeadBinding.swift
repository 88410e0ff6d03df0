import GitbayKit
import RuleEngine

/// What binds a `/merge` to the head its giver saw: the head the merge request had when the
/// command's comment was written, against the head a merge would take now.
///
/// gitbay's `mr merge` takes no sha: it merges whatever `refs/merge-requests/<n>/head` holds
/// (`internal/control/mr.go`, `runMRMerge`), and anyone who may push to the source branch, the
/// author without write access included, moves that head. So a writer's `/merge` given on one
/// head must never merge another: the bot compares the head gitbay recorded before the comment
/// (`mr revisions`, ``MergeRequestRevision/head(at:in:margin:)``) with the head as read, and
/// refuses the command when they differ or when the revisions cannot tell. Refusing costs the
/// giver one more `/merge`; merging an unseen head cannot be undone.
struct HeadBinding {
    /// The command whose comment's time decides.
    let command: PlannedCommand
    /// The merge request as read now.
    let mergeRequest: MergeRequest
    /// Its revisions, oldest first, as `mr revisions` lists them.
    let revisions: [MergeRequestRevision]

    /// The head at the comment's time, as far as the revisions tell.
    var given: HeadAtTime {
        MergeRequestRevision.head(at: command.at, in: revisions)
    }

    /// Why the command may not merge the head as it is now; `nil` when it is the head the
    /// command was given on.
    var refusal: String? {
        let reference = "!\(mergeRequest.number)"
        let again = "; give `\(command.text)` again to merge the head as it is now"
        switch given {
        case .known(let sha, let revision):
            guard sha != mergeRequest.headSHA else { return nil }
            let now = revisions.last { $0.sha == mergeRequest.headSHA }.map { ", revision \($0.number)" } ?? ""
            return "\(reference)'s head moved after the command was given: it was \(Self.short(sha)) "
                + "(revision \(revision)), it is \(Self.short(mergeRequest.headSHA))\(now)" + again
        case .unknown(let doubt):
            return "the bot cannot tell which head of \(reference) the command was given on: "
                + Self.words(doubt) + again
        }
    }

    /// The first 12 characters of a sha, as people compare them.
    private static func short(_ sha: String) -> String {
        String(sha.prefix(12))
    }

    /// Why the revisions cannot tell, in a reply's words.
    private static func words(_ doubt: HeadUncertainty) -> String {
        switch doubt {
        case .noRevisions: "gitbay lists no revisions of it"
        case .beforeFirstRevision: "the comment is older than gitbay's record of its heads"
        case .recordedTooClose(let revision): "revision \(revision) was pushed within a second of the comment"
        case .outOfOrder: "gitbay lists its revisions out of order"
        }
    }
}

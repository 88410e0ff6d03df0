/// How `mr merge` joins a merge request to its target (`internal/control/mr.go`, `mergeMR`).
///
/// Left out, gitbay fast-forwards when it can and merges otherwise; a repository that requires
/// signed commits takes `ff` only, and the others need the merger's verified email.
public enum MergeStrategy: String, Codable, Sendable, Hashable, CaseIterable {
    case ff, merge, squash, rebase
}

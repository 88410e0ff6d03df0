/// The markup of an issue, merge request or comment body: `md` or `org`.
///
/// Open-ended so a format a newer server adds is kept.
public struct BodyFormat: OpenEnumeration {
    public static let markdown = BodyFormat(rawValue: "md")
    public static let org = BodyFormat(rawValue: "org")

    public static var knownValues: [BodyFormat] { [.markdown, .org] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

import Foundation
import GitbayKit

/// Reads the times people write: a date (`2026-01-31`, midnight UTC) or an RFC 3339 time, with or
/// without fractional seconds.
///
/// Conditions (`created_at < 2026-01-31`), `--now` and rule tests' `now:` all take this one form,
/// so a time that works in one place works in the others.
public enum TimeLiteral {
    /// The instant `text` names, or `nil` when it is none of the accepted forms.
    public static func date(_ text: String) -> Date? {
        GitbayTimestamp.parse(text) ?? (try? Date.ISO8601FormatStyle().year().month().day().parse(text))
    }
}

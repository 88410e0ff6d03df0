/// Which of the labels or users an action names still need changing, so that an action renders
/// only real changes and is done when none are left.
///
/// gitbay refuses to remove a label or assignee the item lacks (exit 3), so a command that names
/// only what is still to change is also one the server accepts.
public enum NameChange {
    /// The wanted names not yet present, in the order the rule gave them, without repeats.
    public static func missing(_ wanted: [String], from present: [String]) -> [String] {
        unique(wanted).filter { !present.contains($0) }
    }

    /// The wanted names still present, in the order the rule gave them, without repeats.
    public static func remaining(_ wanted: [String], in present: [String]) -> [String] {
        unique(wanted).filter { present.contains($0) }
    }

    /// Rules name a handful of labels or users, so a scan beats hashing them into a set.
    private static func unique(_ names: [String]) -> [String] {
        var unique: [String] = []
        for name in names where !unique.contains(name) {
            unique.append(name)
        }
        return unique
    }
}

import RuleEngine

/// ANSI styling for text output, or none at all.
///
/// Colour goes only to a terminal (the caller decides); with `colour` off every method returns its
/// text unchanged, so redirected output and golden files never hold an escape code.
struct TextStyle: Sendable {
    var colour: Bool

    func bold(_ text: String) -> String { styled(text, "1") }
    func green(_ text: String) -> String { styled(text, "32") }
    func yellow(_ text: String) -> String { styled(text, "33") }
    func red(_ text: String) -> String { styled(text, "31") }

    /// An action line in its status's colour: pending green, held and refused yellow, invalid red.
    func status(_ status: PlannedAction.Status, _ text: String) -> String {
        switch status {
        case .pending: return green(text)
        case .held, .refused: return yellow(text)
        case .invalid: return red(text)
        case .alreadyDone, .waiting: return text
        }
    }

    private func styled(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

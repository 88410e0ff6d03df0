import Suggestions
import Testing

/// "Did you mean": the nearest name, and among names as near, the one that keeps the most of
/// what was typed.
@Suite struct SuggestionTests {
    @Test(arguments: [("wdn", "wed"), ("mnd", "mon"), ("tues", "tue"), ("satt", "sat")])
    func aMisspeltDayGetsTheDayItKeepsMostOf(typed: String, expected: String) {
        let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        #expect(Suggestion.closest(to: typed, among: days) == expected)
    }

    @Test func aNameTooFarOffGetsNone() {
        #expect(Suggestion.closest(to: "quiescence", among: ["quiet", "idle"]) == nil)
    }
}

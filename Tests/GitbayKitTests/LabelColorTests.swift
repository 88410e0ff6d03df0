import GitbayKit
import Testing

/// The label colour golden values of docs/gitbay/domain.md#label-colours, shared with the iOS client.
///
/// Both clients must draw the same chip for the same label, so the values are pinned exactly.
@Suite struct LabelColorTests {
    @Test(arguments: [
        ("bug", "#b93a86"), ("ci", "#1a7f37"), ("docs", "#9a6700"), ("ops", "#cf222e"), ("mobile", "#bf5b16"),
    ])
    func paletteColourByName(_ name: String, _ expected: String) {
        #expect(LabelColor.display(name: name, stored: nil) == expected)
        #expect(IssueLabel(name: name).displayColor == expected)
    }

    @Test(arguments: [("#000000", "#616161"), ("#ffffff", "#909090"), ("#FFFFFF", "#909090")])
    func storedColoursAreClampedToTheLuminanceBand(_ stored: String, _ expected: String) {
        #expect(LabelColor.display(name: "any", stored: stored) == expected)
    }

    @Test func storedColourInsideTheBandIsKeptLowercased() {
        #expect(LabelColor.display(name: "x", stored: "#CF222E") == "#cf222e")
    }

    @Test(arguments: ["", "cf222e", "#cf222", "#gg0000", "#cf222e0"])
    func invalidStoredColourFallsBackToThePalette(_ stored: String) {
        #expect(LabelColor.display(name: "bug", stored: stored) == "#b93a86")
    }

    @Test(arguments: ["#123456", "#fedcba", "#00ff00", "#0000ff", "#ff0000", "#ffff00"])
    func clampedColoursLandInTheBand(_ stored: String) throws {
        let shown = LabelColor.display(name: "x", stored: stored)
        let luminance = try #require(LabelColor.luminance(shown))
        #expect(luminance >= LabelColor.minimumLuminance - 0.005)
        #expect(luminance <= LabelColor.maximumLuminance + 0.005)
    }

    @Test func fnv1a32MatchesTheReferenceVectors() {
        #expect(LabelColor.fnv1a32("") == 0x811c_9dc5)
        #expect(LabelColor.fnv1a32("a") == 0xe40c_292c)
        #expect(LabelColor.fnv1a32("foobar") == 0xbf9c_f968)
    }
}

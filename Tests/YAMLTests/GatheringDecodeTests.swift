import Testing
import YAML

/// A type that reads each key on its own, gathering its wrong values, as `gitbay-bot.yml` does,
/// so a file with many mistakes is reported whole in one pass.
@Suite struct GatheringDecodeTests {
    /// A settings file in miniature: a number, a list and a nested mapping.
    struct Settings: Decodable {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case limit, names, window
        }

        /// A nested mapping read the usual way, which stops at its first wrong value.
        struct Window: Decodable {
            var from: Int
            var until: Int
        }

        var limit: Int?
        var names: [String]?
        var window: Window?
        var problems: [Diagnostic] = []

        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: CodingKeys.self)
            limit = try keys.decodeIfPresent(forKey: .limit, gathering: &problems)
            names = try keys.decodeIfPresent(forKey: .names, gathering: &problems)
            window = try keys.decodeIfPresent(forKey: .window, gathering: &problems)
        }
    }

    /// Decodes `text` as `t.yml`, with the unknown keys apart.
    func decode(_ text: String) throws -> (value: Settings, unknownKeys: [Diagnostic]) {
        try YAMLDecoder().decodeWithUnknownKeys(Settings.self, from: compose(text))
    }

    @Test func everyWrongValueIsGatheredAndTheRestIsRead() throws {
        let (settings, unknown) = try decode("limit: lots\nnames: alice\nwindow: {from: 1, until: 2}\n")
        #expect(settings.limit == nil)
        #expect(settings.names == nil)
        #expect(settings.window?.until == 2)
        #expect(
            settings.problems.map(\.description) == [
                "t.yml:1:8: error: expected an integer, found 'lots'",
                "t.yml:2:8: error: expected a list, found 'alice'",
            ])
        #expect(unknown.isEmpty)
    }

    @Test func absentAndNullKeysAreNil() throws {
        let (settings, unknown) = try decode("limit:\n")
        #expect(settings.limit == nil)
        #expect(settings.names == nil)
        #expect(settings.problems.isEmpty)
        #expect(unknown.isEmpty)
    }

    /// The unknown keys come back beside the value, not thrown instead of it; inside a value
    /// read only in part none is judged, since its keys not yet asked for look unknown.
    @Test func unknownKeysComeWithTheValueButNotFromAWrongOne() throws {
        let (settings, unknown) = try decode("limit: 3\nlimt: 4\nwindow: {from: soon, until: 2, unitl: 3}\n")
        #expect(settings.limit == 3)
        #expect(settings.problems.map(\.description) == ["t.yml:3:16: error: expected an integer, found 'soon'"])
        #expect(unknown.map(\.description) == ["t.yml:2:1: error: unknown key 'limt'; did you mean 'limit'?"])
    }
}

import Foundation
import GitbayKit
import Testing

/// Every fixture decodes, survives the removal of its omitempty keys, and encodes back unchanged.
///
/// Round-tripping proves the encoder writes gitbay's own shapes (omitempty keys left out, times in
/// their precision), which is what snapshot files and the simulator rely on.
@Suite struct FixtureRoundTripTests {
    @Test(arguments: FixtureCase.all)
    func encodingADecodedFixtureGivesTheFixtureBack(_ fixture: FixtureCase) throws {
        let data = try Fixtures.data(fixture.name)
        let reencoded = try fixture.reencode(data)
        #expect(try JSONValue.parse(reencoded) == JSONValue.parse(data))
    }

    @Test(arguments: FixtureCase.all)
    func fixtureWithoutOptionalKeysDecodesAndRoundTrips(_ fixture: FixtureCase) throws {
        let original = try JSONValue.parse(Fixtures.data(fixture.name))
        let stripped = original.removingKeys(fixture.optionalKeys)
        if !fixture.optionalKeys.isEmpty {
            #expect(stripped != original, "no optional key of \(fixture.name) was present to strip")
        }
        let reencoded = try fixture.reencode(stripped.data())
        #expect(try JSONValue.parse(reencoded) == stripped)
    }

    @Test(arguments: FixtureCase.all)
    func optionalKeysNameKeysTheFixtureUses(_ fixture: FixtureCase) throws {
        let keys = try JSONValue.parse(Fixtures.data(fixture.name)).allKeys
        #expect(fixture.optionalKeys.isSubset(of: keys))
    }
}

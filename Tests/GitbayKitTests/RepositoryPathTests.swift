import Foundation
import GitbayKit
import Testing

/// `RepositoryPath` accepts `owner/name` and refuses anything gitbay could not resolve.
///
/// Commands embed the path as a positional, so a malformed one must never be constructible.
@Suite struct RepositoryPathTests {
    @Test func parsesOwnerAndName() throws {
        let path = try RepositoryPath("krz/gitbay")
        #expect(path.owner == "krz")
        #expect(path.name == "gitbay")
        #expect(path.description == "krz/gitbay")
        #expect(try RepositoryPath(owner: "krz", name: "gitbay") == path)
    }

    @Test(arguments: [
        "", "krz", "krz/", "/gitbay", "krz/git/bay", "krz/git bay", "-krz/gitbay", "krz/-gitbay", "krz\t/x",
    ])
    func refusesMalformedPaths(_ text: String) {
        #expect(throws: GitbayCommandError.self) { try RepositoryPath(text) }
    }

    @Test func codesAsAPlainString() throws {
        let path = try RepositoryPath("krz/gitbay")
        let encoded = try JSONEncoder().encode([path])
        #expect(try JSONDecoder().decode([String].self, from: encoded) == ["krz/gitbay"])
        #expect(try JSONDecoder().decode(RepositoryPath.self, from: Data(#""krz/gitbay""#.utf8)) == path)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(RepositoryPath.self, from: Data(#""krz gitbay""#.utf8))
        }
    }
}

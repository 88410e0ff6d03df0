import Foundation
import Testing

/// Reads the JSON fixtures bundled in the `Fixtures` resource folder.
///
/// The §9 examples of gitbay-domain.md are copied verbatim; the other files are composed from the
/// field tables of the same document for commands §9 has no example of.
enum Fixtures {
    /// The bytes of `Fixtures/<name>.json`.
    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }
}

import Foundation
import Testing

/// Reads the JSON fixtures bundled in the `Fixtures` resource folder.
///
/// The examples of docs/gitbay/domain.md#examples are these files verbatim; the other files are composed
/// from the field lists of the same document for commands it has no example of.
enum Fixtures {
    /// The bytes of `Fixtures/<name>.json`.
    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }
}

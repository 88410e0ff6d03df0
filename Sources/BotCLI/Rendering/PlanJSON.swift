import Foundation
import GitbayKit
import RuleEngine

/// The JSON coding of plans, explanations and the journal: sorted keys, ISO 8601 dates in UTC with
/// milliseconds.
///
/// One place decides the dates' form so a plan written by `plan -o` reads back unchanged in
/// `apply`; dates keep millisecond precision, which is also what gitbay itself stores.
public enum PlanJSON {
    /// A value as pretty JSON with sorted keys, ending in a newline.
    public static func encode(_ value: some Encodable) -> String {
        // Plans hold strings, integers, booleans and dates only, which always encode.
        let data = (try? encoder(pretty: true).encode(value)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A value decoded from JSON written by ``encode(_:)`` (or by another tool in the same form).
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try decoder().decode(type, from: data)
    }

    /// The encoder: pretty for files people read, one line per value for JSON lines.
    static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(GitbayTimestamp.format(date, precision: .milliseconds))
        }
        return encoder
    }

    /// The decoder matching ``encoder(pretty:)``.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = GitbayTimestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 date and time")
            }
            return date
        }
        return decoder
    }

    /// A saved plan, refused unless it is in the format this version reads (`gitbay-bot-plan/1`).
    ///
    /// Later versions of format 1 only add fields, which decoding ignores, so any `/1` plan reads.
    public static func decodePlan(from data: Data) throws -> Plan {
        let plan = try decode(Plan.self, from: data)
        guard plan.format == Plan.currentFormat else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [],
                    debugDescription:
                        "plan format '\(plan.format)' is not supported; this gitbay-bot reads '\(Plan.currentFormat)'"
                ))
        }
        return plan
    }
}

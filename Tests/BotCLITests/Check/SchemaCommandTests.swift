import BotCLI
import BuiltinPlugins
import Foundation
import RuleEngine
import Testing

/// `gitbay-bot schema`: valid JSON that names everything the installed plugins offer.
@Suite struct SchemaCommandTests {
    @Test func theSchemaIsJSONNamingEveryKindAndAction() async throws {
        let result = await runBot(["schema"])
        #expect(result.code == 0)
        #expect(result.error == "")
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")

        let registry = BuiltinPlugins.registry
        var actions: Set<String> = []
        for kind in BuiltinPlugins.registry.kinds {
            actions.formUnion(registry.actions(for: kind).map(\.name))
        }
        #expect(actions.count >= 10)
        let strings = Self.strings(in: schema)
        for kind in BuiltinPlugins.registry.kinds {
            #expect(strings.contains(kind.rawValue), "kind \(kind.rawValue)")
        }
        for action in actions.sorted() {
            #expect(strings.contains(action), "action \(action)")
        }
    }

    /// Every key a rule may have is in the schema, `schedule:` with its own keys and day names.
    @Test func theSchemaDescribesASchedule() async throws {
        let result = await runBot(["schema"])
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let rule = try #require(definitions["rule"] as? [String: Any])
        let properties = try #require(rule["properties"] as? [String: Any])
        #expect(properties["schedule"] as? [String: String] == ["$ref": "#/$defs/schedule"])
        let schedule = try #require(definitions["schedule"] as? [String: Any])
        let keys = try #require(schedule["properties"] as? [String: Any])
        #expect(Set(keys.keys) == Set(ScheduleSource.CodingKeys.allCases.map(\.stringValue)))
        #expect(Self.strings(in: keys["days"] ?? [:]).isSuperset(of: Weekday.week.map(\.name)))
    }

    /// Every string in a JSON value, keys included, so a name counts wherever the schema puts it.
    private static func strings(in value: Any) -> Set<String> {
        switch value {
        case let text as String:
            return [text]
        case let list as [Any]:
            return list.reduce(into: []) { $0.formUnion(strings(in: $1)) }
        case let object as [String: Any]:
            return object.reduce(into: Set(object.keys)) { $0.formUnion(strings(in: $1.value)) }
        default:
            return []
        }
    }
}

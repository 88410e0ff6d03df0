import Foundation

/// Reads a Prometheus text exposition (format 0.0.4) with the reference parser, so the tests of
/// `/metrics` check what Prometheus itself would accept, not what a parser of the project's own
/// would.
///
/// The parser is the Python package prometheus_client (`text_string_to_metric_families`), run as
/// a ``ChildProcess`` with the text on its standard input; `Scripts/install-deps.sh --tests`
/// installs it. Names are kept exactly as the parser reports them: it strips the `_total` suffix
/// from a counter's family name but not from its samples' (a family `jobs` with a sample
/// `jobs_total`), and it reports a counter's `_created` samples and a histogram's `_bucket`,
/// `_sum` and `_count` samples under the family's name.
public enum PrometheusText {
    /// One line of the exposition: a sample's name, its labels (unescaped) and its value.
    public struct Sample: Sendable, Hashable {
        public var name: String
        public var labels: [String: String]
        public var value: Double

        public init(name: String, labels: [String: String] = [:], value: Double) {
            self.name = name
            self.labels = labels
            self.value = value
        }
    }

    /// A metric family: its name, its `# TYPE` (`counter`, `gauge`..., `unknown` without a TYPE
    /// line), its `# HELP` text (unescaped, empty when there is none) and its samples in the order
    /// of the text.
    public struct Family: Sendable, Hashable {
        public var name: String
        public var type: String
        public var help: String
        public var samples: [Sample]

        public init(name: String, type: String, help: String, samples: [Sample]) {
            self.name = name
            self.type = type
            self.help = help
            self.samples = samples
        }
    }

    /// Why an exposition could not be read.
    public enum Failure: Error, CustomStringConvertible {
        /// python3 or prometheus_client is not on this machine.
        case notInstalled(String)
        /// The parser rejected the text; its message.
        case invalid(String)
        /// The parser's process failed in a way the text does not explain.
        case parserFailed(String)

        public var description: String {
            switch self {
            case .notInstalled(let what):
                return "\(what) is not installed: run Scripts/install-deps.sh --tests"
            case .invalid(let message):
                return "prometheus_client rejects the exposition: \(message)"
            case .parserFailed(let detail):
                return "the prometheus_client parser failed: \(detail)"
            }
        }
    }

    /// The families of `exposition`, in its order, as prometheus_client parses them.
    ///
    /// Throws ``Failure/invalid(_:)`` with the parser's message when it rejects the text, and
    /// ``Failure/notInstalled(_:)`` when python3 or prometheus_client is missing. Waits at most
    /// 30 seconds for the parser.
    public static func parse(_ exposition: String) async throws -> [Family] {
        guard let python = ProgramPath.find("python3") else { throw Failure.notInstalled("python3") }
        let parser = try ChildProcess(
            python, ["-c", script], environment: ProcessInfo.processInfo.environment, input: .pipe)
        parser.write(Data(exposition.utf8))
        parser.closeInput()
        let ended = try await parser.wait(timeout: .seconds(30))
        guard ended.status == 0 else {
            throw Failure.parserFailed(
                "python3 ended with \(ended.status.map { "exit \($0)" } ?? "a signal"): "
                    + ended.errorText.suffix(2000))
        }
        let reply: Reply
        do {
            reply = try JSONDecoder().decode(Reply.self, from: ended.output)
        } catch {
            throw Failure.parserFailed("unreadable reply '\(ended.outputText.prefix(2000))': \(error)")
        }
        if let missing = reply.missing { throw Failure.notInstalled("prometheus_client (\(missing))") }
        if let message = reply.error { throw Failure.invalid(message) }
        return (reply.families ?? []).map { family in
            Family(
                name: family.name, type: family.type, help: family.help,
                samples: family.samples.map { Sample(name: $0.name, labels: $0.labels, value: $0.value.double) })
        }
    }

    /// The parser's program, given to `python3 -c`, which answers in JSON.
    ///
    /// It reads the whole text first (so the test's write never meets a closed pipe), then prints
    /// one JSON object: `families`, or the parser's `error`, or the `missing` import. A value that
    /// JSON has no number for (NaN, ±Inf) is sent as a string.
    private static let script = #"""
        import json, math, sys
        text = sys.stdin.read()
        try:
            from prometheus_client.parser import text_string_to_metric_families
        except ImportError as error:
            print(json.dumps({"missing": str(error)}))
            sys.exit(0)

        def value(number):
            return number if math.isfinite(number) else repr(float(number))

        try:
            families = [
                {"name": family.name, "type": family.type, "help": family.documentation,
                 "samples": [{"name": sample.name, "labels": sample.labels, "value": value(sample.value)}
                             for sample in family.samples]}
                for family in text_string_to_metric_families(text)]
        except Exception as error:
            print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        else:
            print(json.dumps({"families": families}))
        """#

    /// The parser's JSON reply.
    private struct Reply: Decodable {
        var families: [FamilyReply]?
        var error: String?
        var missing: String?
    }

    private struct FamilyReply: Decodable {
        var name: String
        var type: String
        var help: String
        var samples: [SampleReply]
    }

    private struct SampleReply: Decodable {
        var name: String
        var labels: [String: String]
        var value: Value
    }

    /// A sample's value: a JSON number, or `nan`, `inf` or `-inf` as a string.
    private struct Value: Decodable {
        var double: Double

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                double = number
                return
            }
            let text = try container.decode(String.self)
            guard let number = Double(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a number: \(text)")
            }
            double = number
        }
    }
}

import Testing
import YAML

@Suite("Rendering diagnostics like a compiler")
struct DiagnosticTests {
    @Test("the header reads file:line:col: severity: message, then notes")
    func headers() {
        let diagnostic = Diagnostic.error(
            "duplicate key 'name'",
            at: at(4, 5),
            notes: [.note("first defined here", at: at(2, 5))]
        )
        #expect(diagnostic.description == "t.yml:4:5: error: duplicate key 'name'\nt.yml:2:5: note: first defined here")
        #expect(Diagnostic.warning("w", at: at(1, 1)).description == "t.yml:1:1: warning: w")
    }

    @Test("a rendered error shows the source line and a caret, for the error and each note")
    func rendered() {
        let source = "rules:\n  - name: a\n    days: 1\n    name: b\n"
        do {
            _ = try compose(source)
            Issue.record("expected a duplicate-key error")
        } catch {
            #expect(
                error.rendered(sources: [testFile: Array(source.utf8)]) == """
                    t.yml:4:5: error: duplicate key 'name'
                        name: b
                        ^
                    t.yml:2:5: note: first defined here
                      - name: a
                        ^
                    """
            )
        }
    }

    @Test("the caret copies tabs from the line so it aligns at any tab width")
    func tabsInPrefix() {
        let diagnostic = Diagnostic.error("bad", at: at(2, 4))
        let rendered = diagnostic.rendered(sources: [testFile: Array("first\n\t\té x\n".utf8)])
        #expect(rendered == "t.yml:2:4: error: bad\n\t\té x\n\t\t ^")
    }

    @Test("a column past the end of the line pads with spaces; unknown files print no snippet")
    func edges() {
        let past = Diagnostic.error("eof", at: at(1, 5)).rendered(sources: [testFile: Array("ab".utf8)])
        #expect(past == "t.yml:1:5: error: eof\nab\n    ^")
        #expect(Diagnostic.error("x", at: at(1, 1)).rendered(sources: [:]) == "t.yml:1:1: error: x")
    }

    @Test("a line longer than the excerpt is cut to a window around the column, marked where it is cut")
    func longLines() throws {
        let width = Diagnostic.excerptWidth
        let line = String(repeating: "a", count: 19_999) + "X" + String(repeating: "b", count: 20_000)
        let sources = [testFile: Array(line.utf8)]
        let middle = Diagnostic.error("here", at: at(1, 20_000)).rendered(sources: sources)
            .split(separator: "\n").map(String.init)
        #expect(middle.count == 3)
        #expect(middle[1].unicodeScalars.count == width + 2)
        #expect(middle[1].hasPrefix("…a") && middle[1].hasSuffix("b…"))
        let caret = try #require(middle[2].unicodeScalars.firstIndex(of: "^"))
        let column = middle[2].unicodeScalars.distance(from: middle[2].unicodeScalars.startIndex, to: caret)
        #expect(Array(middle[1].unicodeScalars)[column] == "X")

        let start = Diagnostic.error("start", at: at(1, 3)).rendered(sources: sources).split(separator: "\n")
        #expect(start[1] == String(repeating: "a", count: width) + "…")
        #expect(start[2] == "  ^")
        let end = Diagnostic.error("end", at: at(1, 40_001)).rendered(sources: sources).split(separator: "\n")
        #expect(end[1] == "…" + String(repeating: "b", count: width))
        #expect(end[2] == String(repeating: " ", count: width + 1) + "^")
    }

    @Test("a line as long as the excerpt is shown whole")
    func lineAtTheLimit() {
        let line = String(repeating: "c", count: Diagnostic.excerptWidth)
        let rendered = Diagnostic.error("x", at: at(1, 200)).rendered(sources: [testFile: Array(line.utf8)])
        #expect(rendered == "t.yml:1:200: error: x\n\(line)\n\(String(repeating: " ", count: 199))^")
    }

    @Test("a tab-indentation error renders with libyaml's context as a note")
    func tabError() {
        let source = "a:\n\tb: 1\n"
        do {
            _ = try compose(source)
            Issue.record("expected a scanner error")
        } catch {
            let rendered = error.rendered(sources: [testFile: Array(source.utf8)])
            #expect(rendered.hasPrefix("t.yml:2:1: error: found character that cannot start any token"))
            #expect(rendered.hasSuffix("t.yml:2:1: note: while scanning for the next token\n\tb: 1\n^"))
        }
    }
}

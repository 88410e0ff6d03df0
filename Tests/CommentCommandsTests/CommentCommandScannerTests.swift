import Testing

@testable import CommentCommands

/// Which lines of a comment are commands: those that start with `/name`, never code or quotation.
@Suite struct CommentCommandScannerTests {
    private func names(_ body: String, _ markup: CommentMarkup = .markdown) -> [String] {
        CommentCommandScanner.commands(in: body, markup: markup).map(\.text)
    }

    @Test func aCommandIsALineOfItsOwnWithItsWords() {
        let commands = CommentCommandScanner.commands(
            in: "Thanks!\r\n/label bug \"good first issue\"\n  /ASSIGN @alice\nsee /merge later", markup: .markdown)
        #expect(commands.map(\.name) == ["label", "assign"])
        #expect(commands.first?.arguments == ["bug", "good first issue"])
        #expect(commands.first?.line == 2)
        #expect(commands.last?.text == "/ASSIGN @alice")
        #expect(commands.last?.arguments == ["@alice"])
    }

    @Test func quotedOrCodedCommandsAreText() {
        let body = """
            > /merge
            >> /close
            ```
            /label bug
            ```
            ~~~~ shell
            /close
            ~~~
            still in the fence
            ~~~~
                /reopen
            <!-- /merge
            hidden -->
            <!-- /hold -->
            /unhold
            """
        #expect(names(body) == ["/unhold"])
        #expect(names("> you wrote\n/merge\n\n/close") == ["/close"], "a quote runs on to its blank line")
        #expect(names("> /merge") == [])
    }

    @Test func orgBlocksAndFixedWidthLinesAreText() {
        let body = """
            #+BEGIN_QUOTE
            /merge
            #+END_QUOTE
            #+begin_src sh
            /close
            #+end_src
            : /label bug
            /ready
            """
        #expect(names(body, .org) == ["/ready"])
        #expect(names("#+begin_example\n/ready", .org).isEmpty, "a block left open runs to the end")
    }

    @Test func aQuoteLeftOpenIsSaidAndNothingElseLooksLikeACommand() {
        let open = CommentCommandScanner.commands(in: "/label \"bug", markup: .markdown)
        #expect(open.first?.malformed == "a quote is left open")
        #expect(names("/ \n//x\n/9\n/usr/bin/env is broken\nhttp://x").isEmpty, "paths and URLs are not commands")
        #expect(CommentCommand.words("a \"b \\\" c\" d"[...]).words == ["a", "b \" c", "d"])
    }
}

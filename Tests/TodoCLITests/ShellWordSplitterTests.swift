import Testing

@testable import TodoCLI

/// Splitting a shell line into words like a POSIX shell (quoting only, no expansion).
@Suite struct ShellWordSplitterTests {
  private func split(_ line: String) throws -> [String] {
    try WordSplitter.split(line)
  }

  @Test func blanksSeparateWordsAndRunsOfBlanksCountOnce() throws {
    #expect(try split("add Buy milk +home") == ["add", "Buy", "milk", "+home"])
    #expect(try split("  list \t --json  ") == ["list", "--json"])
    #expect(try split("") == [])
    #expect(try split(" \t ") == [])
  }

  /// A command line that bash, zsh or fish hands to completion can span lines.
  @Test func aBackslashNewlineJoinsLinesAndANewlineSeparatesWords() throws {
    #expect(try split("list \\\n+home") == ["list", "+home"])
    #expect(try split("add Buy\\\nmilk") == ["add", "Buymilk"])
    #expect(try split("add \"a\\\nb\"") == ["add", "ab"])
    #expect(try split("add 'a\\\nb'") == ["add", "a\\\nb"])
    #expect(try split("list\n+home") == ["list", "+home"])
  }

  @Test func singleQuotesKeepEverythingLiterally() throws {
    #expect(try split(#"add 're: rent' 'a\b' '"x"'"#) == ["add", "re: rent", #"a\b"#, #""x""#])
  }

  @Test func doubleQuotesEscapeOnlyQuoteBackslashDollarAndBacktick() throws {
    #expect(try split(#"add "say \"hi\"" "c:\\dir" "\$5 \`x\`""#) == ["add", #"say "hi""#, #"c:\dir"#, "$5 `x`"])
    #expect(try split(#"add "a\nb""#) == ["add", #"a\nb"#])
    #expect(try split(#"add "it's""#) == ["add", "it's"])
  }

  @Test func backslashOutsideQuotesMakesTheNextCharacterLiteral() throws {
    #expect(try split(#"add Buy\ milk \"q\" \'s \\"#) == ["add", "Buy milk", #""q""#, "'s", #"\"#])
  }

  @Test func backslashAtTheEndOfTheLineStaysABackslash() throws {
    #expect(try split(#"add C:\"#) == ["add", #"C:\"#])
  }

  @Test func quotesJoinTheWordTheyTouch() throws {
    #expect(try split(#"list pro"ject:x"y 'a'"b"c"#) == ["list", "project:xy", "abc"])
  }

  @Test func emptyQuotesAreEmptyWords() throws {
    #expect(try split(#"add '' """#) == ["add", "", ""])
  }

  @Test func doubleDashIsAnOrdinaryWordQuotedOrNot() throws {
    #expect(try split(#"add -- --not-an-option "--""#) == ["add", "--", "--not-an-option", "--"])
  }

  @Test func unterminatedQuoteIsAnErrorWithItsMessage() {
    #expect(throws: WordSplitError.unterminatedQuote) { try split(#"add "Buy milk"#) }
    #expect(throws: WordSplitError.unterminatedQuote) { try split("add 'it") }
    #expect(throws: WordSplitError.unterminatedQuote) { try split(#"add "a\""#) }
    #expect(WordSplitError.unterminatedQuote.message == "unterminated quote")
  }

  @Test func nonASCIITextIsKeptExactly() throws {
    let title = "Café 日本 🎉 e\u{301} 👨‍👩‍👧"
    #expect(try split("add " + title) == ["add", "Café", "日本", "🎉", "e\u{301}", "👨‍👩‍👧"])
    #expect(try split("add '" + title + "'") == ["add", title])
    // A combining mark right after a quote belongs to the quoted text, not to the quote.
    #expect(try split("add \"\u{301}x\"") == ["add", "\u{301}x"])
  }

  @Test func noBreakSpaceIsNotASeparator() throws {
    #expect(try split("add a\u{A0}b") == ["add", "a\u{A0}b"])
  }

  @Test func scanReportsTheUnfinishedLastWordForCompletion() {
    #expect(WordSplitter.scan("list +ho") == .init(words: ["list", "+ho"], trailingRawWord: "+ho", endsInsideQuote: false))
    #expect(WordSplitter.scan("list ") == .init(words: ["list"], trailingRawWord: nil, endsInsideQuote: false))
    #expect(WordSplitter.scan(#"add "a b"c"#) == .init(words: ["add", "a bc"], trailingRawWord: #""a b"c"#, endsInsideQuote: false))
    #expect(WordSplitter.scan(#"add "Buy mi"#) == .init(words: ["add", "Buy mi"], trailingRawWord: #""Buy mi"#, endsInsideQuote: true))
    #expect(WordSplitter.scan(#"add a\ "#) == .init(words: ["add", "a "], trailingRawWord: #"a\ "#, endsInsideQuote: false))
  }
}

import TestSupport
import Testing
import TodoSystem

@testable import TodoCLI

#if canImport(Glibc)
import Glibc
#endif

/// The output layer: JSON, display width, tables, terminal decisions, suggestions, streams.
@Suite struct OutputTests {
  // MARK: JSON

  /// Encodes one string value compactly.
  private func json(_ string: String) -> String {
    var writer = JSONWriter()
    writer.value(string)
    return writer.text
  }

  @Test func jsonEscapesEveryControlCharacter() {
    let short: [UInt32: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
    for value in UInt32(0)..<0x20 {
      let scalar = Unicode.Scalar(value)!
      let hex = String(value, radix: 16)
      let expected = short[value] ?? #"\u00"# + (hex.count == 1 ? "0" + hex : hex)
      #expect(json(String(Character(scalar))) == "\"" + expected + "\"", "U+\(hex)")
    }
  }

  @Test func jsonEscapesQuoteAndBackslashOnly() {
    #expect(json(#"say "hi" \ bye/"#) == #""say \"hi\" \\ bye/""#)
    #expect(json("") == #""""#)
    #expect(json("\r\n") == #""\r\n""#)
  }

  @Test func jsonCopiesNonASCIIAndEmojiAsUTF8() {
    #expect(json("é e\u{301} 日本 🎉 🇫🇷 👨‍👩‍👧") == "\"é e\u{301} 日本 🎉 🇫🇷 👨‍👩‍👧\"")
  }

  /// DEL, C1 and the bidirectional and line-separating controls are escaped too (valid JSON,
  /// the same text once decoded), so that JSON shown on a terminal cannot drive it.
  @Test func jsonEscapesWhatWouldDriveATerminal() {
    #expect(json("\u{7F}\u{2028}") == #""\u007f\u2028""#)
    #expect(json("a\u{9B}2J\u{202E}b\u{200F}\u{061C}\u{2069}") == #""a\u009b2J\u202eb\u200f\u061c\u2069""#)
    // Their neighbours are copied as they are.
    #expect(json("\u{A0}\u{2027}\u{202F}\u{2070}\u{200D}\u{061B}") == "\"\u{A0}\u{2027}\u{202F}\u{2070}\u{200D}\u{061B}\"")
  }

  @Test func jsonOfStringDecodedFromInvalidUTF8IsValidUTF8() {
    // A lone surrogate (ED A0 80) or a stray byte cannot live in a Swift String: decoding repairs
    // them to U+FFFD, and the writer must keep the output valid.
    let decoded = String(decoding: [0x61, 0xFF, 0xED, 0xA0, 0x80, 0x62] as [UInt8], as: UTF8.self)
    var writer = JSONWriter()
    writer.value(decoded)
    #expect(String(validating: writer.bytes, as: UTF8.self) != nil)
    #expect(writer.text.hasPrefix("\"a\u{FFFD}"))
    #expect(writer.text.hasSuffix("b\""))
  }

  /// A task-like object with every kind of value, nested containers and empty ones.
  private func sampleTask(format: JSONWriter.Format) -> String {
    var writer = JSONWriter(format: format)
    writer.object { task in
      task.field("id", 7)
      task.field("title", "Pay \"rent\"")
      task.field("done", false)
      task.field("due", nil as String?)
      task.field("tags", ["home", "bills"])
      task.field("notes", [] as [String])
      task.key("project")
      task.object { project in
        project.field("name", "home")
        project.field("depth", -1)
      }
      task.key("meta")
      task.object { _ in }
      task.key("score")
      task.value(2.5)
    }
    return writer.text
  }

  @Test func jsonCompactIsOneLineInKeyOrder() {
    #expect(
      sampleTask(format: .compact)
        == #"{"id":7,"title":"Pay \"rent\"","done":false,"due":null,"tags":["home","bills"],"#
        + #""notes":[],"project":{"name":"home","depth":-1},"meta":{},"score":2.5}"#)
  }

  @Test func jsonPrettyIndentsByTwoSpaces() {
    let expected = """
      {
        "id": 7,
        "title": "Pay \\"rent\\"",
        "done": false,
        "due": null,
        "tags": [
          "home",
          "bills"
        ],
        "notes": [],
        "project": {
          "name": "home",
          "depth": -1
        },
        "meta": {},
        "score": 2.5
      }
      """
    #expect(sampleTask(format: .pretty) == expected)
  }

  @Test func jsonWritesIntegerExtremesAndNonFiniteAsNull() {
    var writer = JSONWriter()
    writer.array { array in
      for integer in [0, -5, Int.max, Int.min] { array.value(integer) }
      array.value(Double.nan)
      array.value(3.0)
      array.value(true)
      array.nullValue()
    }
    #expect(writer.text == "[0,-5,9223372036854775807,-9223372036854775808,null,3,true,null]")
  }

  @Test func jsonLinesStreamThroughDrain() {
    let output = OutputStream.memory()
    var writer = JSONWriter()
    for id in 1...3 {
      writer.object { $0.field("id", id) }
      writer.endLine()
      writer.drain(into: output)
      #expect(writer.bytes.isEmpty)
    }
    #expect(output.collectedText == "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n")
  }

  // MARK: Display width

  @Test(arguments: [
    ("hello", 5), ("", 0), ("\u{E9}", 1), ("e\u{301}", 1), ("日本", 4), ("🎉", 2), ("🇫🇷", 2),
    ("👨‍👩‍👧", 2), ("❤️", 2), ("©", 1), ("1️⃣", 2), ("ｱ", 1), ("Ａ", 2), ("한국어", 6),
    ("a\tb", 4), ("\u{1B}[31m", 10), ("x\u{200D}y", 2),
  ])
  func displayWidthCountsColumns(text: String, width: Int) {
    #expect(displayWidth(of: text) == width)
  }

  /// The eight-bytes-at-a-time check agrees with a byte-by-byte one for every byte value at
  /// every position of strings of 1 to 17 bytes (inside a word and in the tail).
  @Test func printableASCIICheckAgreesWithTheByteByByteOne() {
    for length in 1...17 {
      for position in 0..<length {
        for value in UInt8(0)...UInt8(255) {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          bytes[position] = value
          let text = String(decoding: bytes, as: UTF8.self)
          let expected = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
          #expect(isPrintableASCII(text) == expected, "byte \(value) at \(position) of \(length)")
        }
      }
    }
  }

  @Test func sanitizingShowsControlCharactersAsEscapes() {
    #expect(sanitizedForTerminal("plain 日本 🎉") == "plain 日本 🎉")
    #expect(sanitizedForTerminal("a\nb\tc\r\n") == #"a\nb\tc\r\n"#)
    #expect(sanitizedForTerminal("\u{1B}[2J\u{0}\u{7F}\u{9B}é") == #"\u{1B}[2J\u{00}\u{7F}\u{9B}é"#)
    #expect(displayWidth(of: sanitizedForTerminal("a\u{1B}b\r\n")) == displayWidth(of: "a\u{1B}b\r\n"))
  }

  @Test func truncationKeepsClustersWholeAndEndsWithEllipsis() {
    #expect(truncated("Buy milk and eggs", toWidth: 8) == "Buy mil…")
    #expect(truncated("Buy milk and eggs", toWidth: 9) == "Buy milk…")
    #expect(truncated("Buy milk", toWidth: 8) == "Buy milk")
    #expect(truncated("ab日本", toWidth: 4) == "ab…")
    #expect(truncated("🇫🇷🇫🇷", toWidth: 3) == "🇫🇷…")
    #expect(truncated("abc", toWidth: 1) == "…")
    #expect(truncated("abc", toWidth: 0) == "")
  }

  @Test func tagsAreCutBetweenThemSayingHowManyAreLeftOut() {
    #expect(truncatedByWords("errand home urgent work", toWidth: 14) == "errand home +2")
    #expect(truncatedByWords("errand home urgent work", toWidth: 13) == "errand +3")
    #expect(truncatedByWords("errand home", toWidth: 11) == "errand home")
    #expect(truncatedByWords("groceries errand", toWidth: 8) == "gr…es +1")
    #expect(truncatedByWords("groceries", toWidth: 8) == "groc…ies")
    // Two cells that share a first tag stay apart when the rest differ in number.
    #expect(truncatedByWords("home a b", toWidth: 7) != truncatedByWords("home a b c", toWidth: 7))
    for width in 0...24 {
      #expect(displayWidth(of: truncatedByWords("errand home urgent 日本語 work", toWidth: width)) <= width)
    }
  }

  @Test func projectsAreCutInTheMiddleKeepingWhatTellsThemApart() {
    #expect(truncatedInTheMiddle("personal.health", toWidth: 11) == "pers…health")
    #expect(truncatedInTheMiddle("personal.fitness", toWidth: 11) == "per…fitness")
    #expect(truncatedInTheMiddle("work.backend", toWidth: 10) == "wo…backend")
    #expect(truncatedInTheMiddle("work.backend.api", toWidth: 8) == "work…api")
    #expect(truncatedInTheMiddle("short", toWidth: 8) == "short")
    #expect(truncatedInTheMiddle("averylongprojectname", toWidth: 9) == "aver…name")
    #expect(truncatedInTheMiddle("日本.東京都庁舎", toWidth: 9) == "日本…庁舎")
    // Two siblings never look the same once cut.
    #expect(truncatedInTheMiddle("personal.health", toWidth: 10) != truncatedInTheMiddle("personal.hobbies", toWidth: 10))
    for width in 0...20 {
      #expect(displayWidth(of: truncatedInTheMiddle("personal.health.and.fitness", toWidth: width)) <= width)
    }
  }

  @Test func truncationNeverExceedsTheWidthOnRandomStrings() {
    let pieces = ["a", "Z", " ", "\u{E9}", "e\u{301}", "日本", "🎉", "🇫🇷", "👨‍👩‍👧", "❤️", "\n", "한"]
    var random = SeededGenerator(seed: 0x70d0)
    for _ in 0..<200 {
      let text = (0..<Int.random(in: 0...12, using: &random))
        .map { _ in pieces.randomElement(using: &random)! }.joined()
      let fullWidth = displayWidth(of: text)
      for width in 0...(fullWidth + 1) {
        let cut = truncated(text, toWidth: width)
        #expect(displayWidth(of: cut) <= width, "\(text.debugDescription) at \(width)")
        if fullWidth <= width {
          #expect(cut == text)
        } else if width > 0 {
          #expect(cut.hasSuffix("…") && text.hasPrefix(cut.dropLast()))
        }
      }
    }
  }

  // MARK: Table

  private let taskTable = Table(
    columns: [
      Table.Column(header: "ID", alignment: .right),
      Table.Column(header: "Pri"),
      Table.Column(header: "Due"),
      Table.Column(header: "Title", flexible: true),
    ],
    rows: [
      ["1", Table.Cell("H", style: .red), "in 2d", "Finish the quarterly report for the board"],
      ["12", "", Table.Cell("today", style: .yellow), "Buy milk"],
      ["103", Table.Cell("L", style: .green), "", "Plant 🍅 by the 日本 maple"],
    ])

  @Test func tableAtWidth80ShowsEverything() {
    #expect(
      taskTable.renderedLines(width: 80, colorEnabled: false) == [
        " ID  Pri  Due    Title",
        "  1  H    in 2d  Finish the quarterly report for the board",
        " 12       today  Buy milk",
        "103  L           Plant 🍅 by the 日本 maple",
      ])
  }

  @Test func tableAtWidth30TruncatesTheFlexibleColumn() {
    let lines = taskTable.renderedLines(width: 30, colorEnabled: false)
    #expect(
      lines == [
        " ID  Pri  Due    Title",
        "  1  H    in 2d  Finish the q…",
        " 12       today  Buy milk",
        "103  L           Plant 🍅 by…",
      ])
    #expect(lines.allSatisfy { displayWidth(of: $0) <= 30 })
  }

  @Test func tableWithColorStylesTextButNotPadding() {
    func style(_ code: String, _ text: String) -> String { "\u{1B}[\(code)m\(text)\u{1B}[0m" }
    let heading = { (text: String) in style("1;4", text) }
    #expect(
      taskTable.renderedLines(width: 30, colorEnabled: true) == [
        " " + heading("ID") + "  " + heading("Pri") + "  " + heading("Due") + "    " + heading("Title"),
        "  1  " + style("31", "H") + "    in 2d  Finish the q…",
        " 12       " + style("33", "today") + "  Buy milk",
        "103  " + style("32", "L") + "           Plant 🍅 by…",
      ])
  }

  @Test func theHelpAndEveryTopicFitEightyColumns() throws {
    for topic in [nil] + Help.topicNames {
      let text = try Help.text(topic: topic)
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        #expect(displayWidth(of: String(line)) <= 80, "help \(topic ?? ""): '\(line)'")
      }
    }
  }

  @Test func tableOmitsEmptyColumnsAndTrailingSpaces() {
    let table = Table(
      columns: [
        Table.Column(header: "ID", alignment: .right), Table.Column(header: "Project"),
        Table.Column(header: "Title", flexible: true), Table.Column(header: "Tags"),
      ],
      rows: [["1", "", "Walk  ", "+dog"], ["2", "", "Read\nbook", ""], ["3"]])
    let output = OutputStream.memory()
    table.render(to: output, width: 80, colorEnabled: false)
    #expect(output.collectedText == "ID  Title       Tags\n 1  Walk        +dog\n 2  Read\\nbook\n 3\n")
  }

  @Test func aTableIsNeverWiderThanTheWidthEvenWhenTheTitleMustShrinkBelowItsMinimum() {
    let table = Table(
      columns: [Table.Column(header: "ID"), Table.Column(header: "Title", flexible: true)],
      rows: [["1", "A title much longer than ten"]])
    #expect(table.renderedLines(width: 8, colorEnabled: false) == ["ID  Tit…", "1   A t…"])
    #expect(table.renderedLines(width: 2, colorEnabled: false) == ["ID", "1"])
    for width in 1...40 {
      for line in table.renderedLines(width: width, colorEnabled: false) {
        #expect(displayWidth(of: line) <= width, "width \(width): '\(line)'")
      }
    }
  }

  /// The list table at shrinking widths: project and tags are cut, then left out (the widest
  /// first), then due and priority, before the title goes below its minimum.
  @Test func narrowTerminalsCutThenDropProjectAndTagsBeforeTheTitle() {
    func table(tags: String) -> Table {
      Table(
        columns: [
          Table.Column(header: "ID", alignment: .right), Table.Column(header: "Pri", shrink: .drop),
          Table.Column(header: "Due", shrink: .drop), Table.Column(header: "Project", shrink: .truncateThenDrop),
          Table.Column(header: "Tags", shrink: .truncateThenDrop), Table.Column(header: "Title", flexible: true),
        ],
        rows: [
          ["1", "H", "in 14h", "work.q4", Table.Cell(tags), "Ship the quarterly release notes"],
          ["2", "", "overdue 33h", "home", "errand", "Buy milk"],
        ])
    }
    let short = table(tags: "errand home")
    #expect(
      short.renderedLines(width: 80, colorEnabled: false) == [
        "ID  Pri  Due          Project  Tags         Title",
        " 1  H    in 14h       work.q4  errand home  Ship the quarterly release notes",
        " 2       overdue 33h  home     errand       Buy milk",
      ])
    #expect(
      short.renderedLines(width: 40, colorEnabled: false) == [
        "ID  Pri  Due          Title", " 1  H    in 14h       Ship the quarterl…", " 2       overdue 33h  Buy milk",
      ])
    #expect(short.renderedLines(width: 30, colorEnabled: false) == ["ID  Pri  Title", " 1  H    Ship the quarterly r…", " 2       Buy milk"])
    #expect(short.renderedLines(width: 20, colorEnabled: false) == ["ID  Title", " 1  Ship the quarte…", " 2  Buy milk"])
    // One long tag no longer widens every row: it is cut, and the title keeps half the line.
    let long = table(tags: String(repeating: "verylongtag", count: 6))
    let lines = long.renderedLines(width: 100, colorEnabled: false)
    #expect(lines.allSatisfy { displayWidth(of: $0) <= 100 }, "\(lines)")
    #expect(lines[1].hasSuffix("Ship the quarterly release notes"), "\(lines)")
    #expect(lines[1].contains("verylongtagverylongtag") && lines[1].contains("…"), "\(lines)")
    // No width (a pipe): nothing is cut.
    #expect(long.renderedLines(width: nil, colorEnabled: false)[1].contains(String(repeating: "verylongtag", count: 6)))
  }

  @Test func tableWithoutRowsRendersNothing() {
    #expect(Table(columns: [Table.Column(header: "ID")]).renderedLines(width: 80, colorEnabled: true).isEmpty)
  }

  // MARK: Terminal

  @Test func colorDecisionTruthTable() {
    let environments: [[String: String]] = [[:], ["NO_COLOR": ""], ["NO_COLOR": "1"]]
    for environment in environments {
      let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
      for isTTY in [false, true] {
        #expect(colorEnabled(mode: .always, isTTY: isTTY, environment: environment))
        #expect(!colorEnabled(mode: .never, isTTY: isTTY, environment: environment))
        #expect(colorEnabled(mode: .auto, isTTY: isTTY, environment: environment) == (isTTY && !noColor))
      }
    }
    #expect(!colorEnabled(mode: .auto, isTTY: true, environment: ["TERM": "dumb"]))
    #expect(colorEnabled(mode: .auto, isTTY: true, environment: ["TERM": "xterm-256color"]))
    #expect(colorEnabled(mode: .always, isTTY: true, environment: ["TERM": "dumb"]))
    #expect(ColorMode(rawValue: "auto") == .auto && ColorMode(rawValue: "sometimes") == nil)
  }

  @Test func terminalWidthPrefersPositiveColumns() {
    #expect(Terminal.width(of: -1, environment: ["COLUMNS": "120"]) == 120)
    // Not a terminal and no usable COLUMNS: no width at all, so nothing is cut.
    for invalid in ["0", "-5", "wide", ""] {
      #expect(Terminal.width(of: -1, environment: ["COLUMNS": invalid]) == nil)
    }
    #expect(Terminal.width(of: -1, environment: [:]) == nil)
    #expect(!Terminal.isTerminal(-1))
  }

  @Test func stylesApplyOnlyWhenColorIsOn() {
    #expect(TextStyle.red.apply(to: "late", colorEnabled: true) == "\u{1B}[31mlate\u{1B}[0m")
    #expect(TextStyle.red.apply(to: "late", colorEnabled: false) == "late")
    #expect(TextStyle.bold.apply(to: "", colorEnabled: true) == "")
  }

  // MARK: Suggestions

  @Test(
    arguments: [
      ("lsit", "list"), ("ad", "add"), ("xyz", nil), ("lis", "list"), ("LIST", "list"), ("shwo", "show"),
      ("delte", "delete"), ("", nil), ("d", nil), ("undoo", "undo"),
    ] as [(String, String?)])
  func closestMatchFindsLikelyCommands(word: String, expected: String?) {
    let commands = ["add", "list", "ls", "show", "update", "done", "delete", "undo", "date"]
    #expect(closestMatch(to: word, in: commands) == expected)
  }

  @Test func closestMatchBreaksTiesByCandidateOrder() {
    #expect(closestMatch(to: "ab", in: ["ac", "ad"]) == "ac")
    #expect(closestMatch(to: "ab", in: ["ad", "ac"]) == "ad")
    #expect(optimalStringAlignmentDistance(Array("ca"), Array("abc")) == 3)
  }

  // MARK: OutputStream

  /// 300 KiB of numbered lines, so any lost or reordered chunk shows.
  private let largeText = (0..<30_000).map { "line \($0)\n" }.joined()

  @Test func memoryStreamCollectsLargeWritesInOrder() {
    let output = OutputStream.memory()
    var remaining = Substring(largeText)
    var chunkSize = 1
    while !remaining.isEmpty {
      output.write(String(remaining.prefix(chunkSize)))
      remaining = remaining.dropFirst(chunkSize)
      chunkSize = chunkSize * 7 % 100_003 + 1  // from single bytes to > 64 KiB
    }
    output.write(bytes: Array("end\n".utf8))
    #expect(output.collectedText == largeText + "end\n")
    #expect(!output.failed)
  }

  @Test func fileStreamWritesLargeTextIntact() throws {
    var template = Array("/tmp/todo-output-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    try #require(descriptor >= 0)
    defer {
      close(descriptor)
      unlink(template)
    }
    let output = OutputStream(fileDescriptor: descriptor)
    output.write(largeText)
    output.write("tail")
    output.flush()
    #expect(!output.failed)
    #expect(lseek(descriptor, 0, SEEK_SET) == 0)
    var readBack: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while case let count = read(descriptor, &chunk, chunk.count), count > 0 {
      readBack += chunk[0..<count]
    }
    #expect(String(decoding: readBack, as: UTF8.self) == largeText + "tail")
  }

  @Test func writingToAClosedPipeFailsQuietly() throws {
    OutputStream.ignoreBrokenPipe()
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    close(ends[0])
    defer { close(ends[1]) }
    let output = OutputStream(fileDescriptor: ends[1])
    output.write(largeText)
    output.flush()
    #expect(output.failed)
    #expect(output.errorNumber == EPIPE)
    output.write("dropped")
    output.flush()
    #expect(output.failed)
  }
}

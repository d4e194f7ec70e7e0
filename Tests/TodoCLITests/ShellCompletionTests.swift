import Testing

@testable import TodoCLI

/// A fixed vocabulary and database content for completion tests.
struct ShellFakeCompletionSource: ShellCompletionSource {
  var commandNames: [String] {
    [
      "add", "list", "ls", "show", "update", "edit", "done", "reopen", "delete", "rm", "note", "undo",
      "history", "tags", "projects", "stats", "date", "help", "shell", "exit", "quit", "context", "config", "completions",
    ]
  }

  func optionNames(forCommand command: String?) -> [String] {
    switch command {
    case nil: ["--db", "--json", "--color", "--help", "--version"]
    case "list"?, "ls"?: ["--json", "--jsonl", "--tag", "--project", "--sort", "--limit"]
    default: ["--json", "--tag", "--project", "--priority", "--due", "--note"]
    }
  }

  var tags = ["home", "health", "work"]
  var projects = ["work", "work.site", "garden"]
  var pending: [(id: Int64, title: String)] = [(3, "Buy milk"), (12, "Call mum"), (13, "Fix bike"), (120, "Pay rent")]

  func tagNames() -> [String] { tags }
  func projectNames() -> [String] { projects }
  func tasks() -> [(id: Int64, title: String)] { pending }
  var helpTopics: [String] { ["add", "list", "dates", "filters"] }
  var contextNames: [String] { ["home", "work"] }
  var configKeys: [String] { ["color", "context.home"] }
}

/// Tab completion as pure logic: line before the cursor in, candidates out.
@Suite struct ShellCompletionTests {
  private let completion = ShellCompletion(source: ShellFakeCompletionSource())

  private func replacements(_ line: String) -> [String] {
    completion.candidates(forLineBeforeCursor: line).map(\.replacement)
  }

  @Test func firstWordCompletesCommandNames() {
    #expect(replacements("li") == ["list"])
    #expect(replacements("l") == ["list", "ls"])
    #expect(replacements("re") == ["reopen"])
    #expect(replacements("zz") == [])
  }

  @Test func emptyLineOffersEveryCommandButShell() {
    let offered = replacements("")
    #expect(offered.contains("add") && offered.contains("exit") && offered.contains("quit"))
    #expect(!offered.contains("shell"))
    #expect(replacements("sh") == ["show"])
  }

  @Test func dashBeforeAnyCommandCompletesGlobalOptions() {
    #expect(replacements("--j") == ["--json"])
    #expect(replacements("--d") == ["--db"])
  }

  @Test func commandFoundAfterGlobalOptions() {
    #expect(replacements("--json list +h") == ["+home", "+health"])
  }

  @Test func doubleDashCompletesTheCommandsOptions() {
    #expect(replacements("list --j") == ["--json", "--jsonl"])
    #expect(replacements("add --pr") == ["--project", "--priority"])
    #expect(replacements("list --pri") == [])
  }

  @Test func singleDashAlsoOffersTagsToRemove() {
    #expect(replacements("update 3 -h") == ["-home", "-health"])
    #expect(replacements("list -") == ["--json", "--jsonl", "--tag", "--project", "--sort", "--limit", "-home", "-health", "-work"])
  }

  @Test func plusCompletesTagsFromTheDatabase() {
    #expect(replacements("list +ho") == ["+home"])
    #expect(replacements("add Buy milk +h") == ["+home", "+health"])
    #expect(replacements("add x +") == ["+home", "+health", "+work"])
  }

  @Test func projectPrefixCompletesProjects() {
    #expect(replacements("list project:w") == ["project:work", "project:work.site"])
    #expect(replacements("add x project:g") == ["project:garden"])
  }

  @Test func aPrefixOfProjectCompletesTheAttributeWithoutASpace() {
    let candidates = completion.candidates(forLineBeforeCursor: "add x pro")
    #expect(candidates == [ShellCompletion.Candidate("project:", appendsSpace: false)])
    #expect(replacements("list pro") == ["project:", "project.not:"])
  }

  @Test func dateKeysVirtualTagsAndDateWordsComplete() {
    #expect(replacements("add x wa") == ["wait:"])
    #expect(replacements("list due.b") == ["due.by:", "due.before:"])
    #expect(replacements("add x due:to") == ["due:today", "due:tomorrow"])
    #expect(
      replacements("list wait.by:eo") == [
        "wait.by:eod", "wait.by:eow", "wait.by:eom", "wait.by:eoq", "wait.by:eoy", "wait.by:eoww", "wait.by:eonw", "wait.by:eonm",
      ])
    // Taskwarrior's forms complete too: its command names, modifiers and date words.
    #expect(CommandName.allSpellings.filter { $0.hasPrefix("mo") } == ["modify", "mod"])
    #expect(replacements("list description.s") == ["description.startswith:"])
    #expect(replacements("list due:eas") == ["due:easter"])
    #expect(replacements("list +OV") == ["+OVERDUE"])
    #expect(replacements("add x +OV") == [])  // virtual tags cannot be set
  }

  @Test func valueAfterTagOrProjectOptionCompletesNames() {
    #expect(replacements("add x --tag h") == ["home", "health"])
    #expect(replacements("list --project wo") == ["work", "work.site"])
  }

  @Test func idCommandsCompleteIdsAndShowTitles() {
    let candidates = completion.candidates(forLineBeforeCursor: "done 1")
    #expect(candidates.map(\.replacement) == ["12", "13", "120"])
    #expect(candidates.map(\.display) == [" 12  Call mum", " 13  Fix bike", "120  Pay rent"])
    #expect(replacements("show ") == ["3", "12", "13", "120"])
    #expect(replacements("rm 3") == ["3"])
    #expect(replacements("note 9") == [])
  }

  @Test func idsCompleteInsideListsAndRanges() {
    #expect(replacements("done 3,12") == ["3,12", "3,120"])
    #expect(replacements("delete 3-1") == ["3-12", "3-13", "3-120"])
  }

  @Test func idsAreNotOfferedToOtherCommands() {
    #expect(replacements("list 1") == [])
    #expect(replacements("add ") == [])
  }

  @Test func helpCompletesTopicsForItsFirstArgumentOnly() {
    #expect(replacements("help ") == ["add", "list", "dates", "filters"])
    #expect(replacements("help d") == ["dates"])
    #expect(replacements("help add d") == [])
  }

  @Test func subcommandsAndWhatTheyTakeComplete() {
    #expect(replacements("context ") == ["list", "show", "none", "define", "delete", "home", "work"])
    #expect(replacements("context delete w") == ["work"])
    #expect(replacements("context home ") == [])
    #expect(replacements("config s") == ["set"])
    #expect(replacements("config get co") == ["color", "context.home"])
    #expect(replacements("config list ") == [])
    #expect(replacements("completions ") == ["bash", "zsh", "fish"])
    #expect(replacements("completions bash ") == [])
  }

  @Test func quotedOrEscapedWordsAndOpenQuotesCompleteNothing() {
    #expect(replacements(#"add "Buy +ho"#) == [])
    #expect(replacements(#"list "+ho"#) == [])
    #expect(replacements(#"list \+ho"#) == [])
    #expect(replacements(#"add "Buy milk" +ho"#) == ["+home"])
  }

  @Test func duplicatesAreDropped() {
    var source = ShellFakeCompletionSource()
    source.tags = ["home", "home"]
    #expect(ShellCompletion(source: source).candidates(forLineBeforeCursor: "list +h").map(\.replacement) == ["+home"])
  }

  @Test func commonPrefixIsWhatSeveralCandidatesShare() {
    let candidates = ["project:work", "project:work.site"].map { ShellCompletion.Candidate($0) }
    #expect(ShellCompletion.commonPrefix(of: candidates) == "project:work")
    #expect(ShellCompletion.commonPrefix(of: ["list", "ls"].map { ShellCompletion.Candidate($0) }) == "l")
    #expect(ShellCompletion.commonPrefix(of: ["café", "cafè"].map { ShellCompletion.Candidate($0) }) == "caf")
    #expect(ShellCompletion.commonPrefix(of: []) == "")
  }

  @Test func nonASCIITagsComplete() {
    var source = ShellFakeCompletionSource()
    source.tags = ["café", "日本"]
    let completion = ShellCompletion(source: source)
    #expect(completion.candidates(forLineBeforeCursor: "add Crème brûlée +ca").map(\.replacement) == ["+café"])
    #expect(completion.candidates(forLineBeforeCursor: "list +日").map(\.replacement) == ["+日本"])
  }

  @Test func displayedTitlesLoseControlCharactersAndAreCut() {
    #expect(ShellCompletion.displayable("a\nb\tc\u{1B}[31m") == "a b c [31m")
    let long = String(repeating: "x", count: 80)
    let shown = ShellCompletion.displayable(long)
    #expect(shown.count == ShellCompletion.displayedTitleLength)
    #expect(shown.hasSuffix("…"))
  }
}

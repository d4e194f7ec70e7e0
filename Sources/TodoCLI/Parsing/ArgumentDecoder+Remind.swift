import TodoCore

/// `remind`: `remind [FILTER] [--next] [--all]`, `remind --check`, `remind --watch`,
/// `remind --install [--cron]`, `remind --uninstall`, `remind snooze ID [DURATION]`,
/// `remind dismiss ID…`.
extension ArgumentDecoder {
  mutating func remindRequest(_ tokens: [Token]) throws(UsageError) -> RemindRequest {
    var request = RemindRequest()
    if let first = tokens.first, ["snooze", "dismiss"].contains(first.text) {
      return try remindAction(first.text, Array(tokens.dropFirst()))
    }
    var flags: [String] = []
    var words: [FilterWord] = []
    var reader = OptionReader(tokens: tokens[...], command: command)
    while let token = try reader.next() {
      switch token {
      case .flag(let name) where command.flagOptions.contains(name): flags.append(name)
      case .option(let name, _), .flag(let name): throw .unknownOption(name, suggestion: nil)
      case .word(let word, let plain): words.append(FilterWord(word, plain: plain, at: reader.position))
      }
    }
    let modes = flags.filter { ["--check", "--watch", "--install", "--uninstall"].contains($0) }
    if modes.count > 1 { throw .invalid("\(modes[0]) and \(modes[1]) cannot be given together") }
    if let mode = modes.first {
      if let other = flags.first(where: { $0 != mode && !(mode == "--install" && $0 == "--cron") }) {
        throw .invalid("\(other) does not go with \(mode)")
      }
      if let word = words.first { throw .unexpectedArgument(command: "remind \(mode)", word: word.text) }
      switch mode {
      case "--check": request.mode = .check
      case "--watch": request.mode = .watch
      case "--install": request.mode = .install(cron: flags.contains("--cron"))
      default: request.mode = .uninstall
      }
      return request
    }
    if flags.contains("--cron") { throw .invalid("--cron goes with --install") }
    request.mode = .list(next: flags.contains("--next"), all: flags.contains("--all"))
    if !words.isEmpty { request.filter = try filter(words) }
    return request
  }

  /// `snooze ID [DURATION]`, `dismiss ID…`.
  private func remindAction(_ action: String, _ tokens: [Token]) throws(UsageError) -> RemindRequest {
    var request = RemindRequest()
    if let option = tokens.first(where: { $0.text.hasPrefix("--") && $0.text != "--" }) {
      throw .unknownOption(option.text, suggestion: nil)
    }
    let words = tokens.filter { $0.text != "--" }
    if action == "snooze" {
      let reference = try oneReference(words.first, what: "the id of the task to snooze")
      var seconds: Int64?
      if words.count > 1 {
        guard let read = UserAttribute.seconds(words[1].text), read > 0, !words[1].text.lowercased().hasSuffix("m") else {
          throw .badValue(option: "remind snooze", value: words[1].text, reason: "give a duration: 10min, 1h, 2d")
        }
        seconds = read
      }
      if words.count > 2 { throw .unexpectedArgument(command: "remind snooze", word: words[2].text) }
      request.mode = .snooze(reference, seconds: seconds)
      return request
    }
    guard !words.isEmpty else { throw .missingArgument(command: "remind dismiss", what: "the ids of the tasks whose reminders to dismiss") }
    var references: [TaskReference] = []
    for word in words {
      guard let read = TaskReference.list(word.text) else {
        throw .badValue(option: "remind dismiss", value: word.text, reason: "give task ids (3, 3-7, 1,4)")
      }
      references += read
    }
    request.mode = .dismiss(references)
    return request
  }
}

import TodoCore

/// How dates are shown to people (`date.format`): a pattern in the manner of `strftime`, with
/// `%Y` (2026), `%y` (26), `%m` (01–12), `%d` (01–31), `%e` (1–31), `%b` (Nov), `%B` (November),
/// `%a` (Fri), `%A` (Friday), `%j` (day of the year, 001–366) and `%%`. JSON always uses ISO 8601.
///
/// ```swift
/// try DateFormat("%a %e %b %Y").text(CalendarDay(year: 2026, month: 11, day: 27))  // "Fri 27 Nov 2026"
/// ```
struct DateFormat: Sendable, Equatable {
  private enum Part: Sendable, Equatable {
    case literal(String)
    case field(Character)
  }

  private let parts: [Part]
  /// Whether this is the ISO form, which is made without looking at the pattern.
  private let isStandard: Bool

  /// ISO 8601's `%Y-%m-%d`, made without reading a pattern (every command shows dates).
  static let standard = DateFormat(parts: [.field("Y"), .literal("-"), .field("m"), .literal("-"), .field("d")])
  static let fields = "YymdebBaAj%"

  private init(parts: [Part]) {
    self.parts = parts
    isStandard = true
  }

  init(_ pattern: String) throws(UsageError) {
    var parts: [Part] = []
    var literal = ""
    var iterator = pattern.makeIterator()
    while let character = iterator.next() {
      guard character == "%" else {
        literal.append(character)
        continue
      }
      guard let field = iterator.next() else { throw .invalid("the pattern ends with a lone %") }
      guard Self.fields.contains(field) else {
        throw .invalid("%\(field) is not a date field (use %Y %y %m %d %e %b %B %a %A %j or %%)")
      }
      if field == "%" {
        literal.append("%")
        continue
      }
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = ""
      parts.append(.field(field))
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    guard parts.contains(where: { if case .field = $0 { true } else { false } }) else {
      throw .invalid("the pattern has no date field (such as %Y-%m-%d)")
    }
    self.parts = parts
    isStandard = parts == [.field("Y"), .literal("-"), .field("m"), .literal("-"), .field("d")]
  }

  private static let months = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December",
  ]
  private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

  func text(_ day: CalendarDay) -> String {
    if isStandard { return day.description }
    var text = ""
    for part in parts {
      switch part {
      case .literal(let literal): text += literal
      case .field(let field):
        switch field {
        case "Y": text += String(day.year)
        case "y": text += Self.two(Int(day.year % 100))
        case "m": text += Self.two(day.month)
        case "d": text += Self.two(day.day)
        case "e": text += String(day.day)
        case "b": text += String(Self.months[day.month - 1].prefix(3))
        case "B": text += Self.months[day.month - 1]
        case "a": text += String(Self.weekdays[day.weekday].prefix(3))
        case "A": text += Self.weekdays[day.weekday]
        default:
          let first = CalendarDay(year: day.year, month: 1, day: 1)
          let number = Int(day.dayNumber - first.dayNumber) + 1
          text += number < 10 ? "00\(number)" : number < 100 ? "0\(number)" : String(number)
        }
      }
    }
    return text
  }

  private static func two(_ value: Int) -> String {
    value < 10 ? "0\(value)" : String(value)
  }
}

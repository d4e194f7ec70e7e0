import TodoSystem

/// How a cell is drawn: the SGR parameters that switch its style on (`"1;31"`; empty: plain).
///
/// ```swift
/// CellStyle(parameters: "7")  // reverse video, the selection without colour
/// ```
public struct CellStyle: Hashable, Sendable {
  public var parameters: String

  public init(parameters: String) {
    self.parameters = parameters
  }

  public static let plain = CellStyle(parameters: "")
  public static let reverse = CellStyle(parameters: "7")
  public static let bold = CellStyle(parameters: "1")
  public static let dim = CellStyle(parameters: "2")

  /// This style with `other`'s parameters added (the selection's reverse over a red due date).
  public func adding(_ other: CellStyle) -> CellStyle {
    if other.parameters.isEmpty { return self }
    if parameters.isEmpty { return other }
    return CellStyle(parameters: parameters + ";" + other.parameters)
  }
}

/// A piece of text with one style: what a view hands the grid.
public struct StyledText: Equatable, Sendable {
  public var text: String
  public var style: CellStyle

  public init(_ text: String, style: CellStyle = .plain) {
    self.text = text
    self.style = style
  }

  /// Text holding SGR sequences (`ESC [ … m`, what `todo show` writes with colour on) as styled
  /// pieces; any other escape is dropped, and controls are made visible.
  public static func pieces(ofANSI text: String) -> [StyledText] {
    var pieces: [StyledText] = []
    var style = CellStyle.plain
    var current = ""
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      guard scalar == "\u{1B}" else {
        current.unicodeScalars.append(scalar)
        continue
      }
      guard scalars.first == "[" else { continue }
      scalars.removeFirst()
      var parameters = ""
      while let next = scalars.popFirst() {
        if (0x40...0x7E).contains(next.value) {
          if next == "m" {
            if !current.isEmpty { pieces.append(StyledText(current, style: style)) }
            current = ""
            style = parameters.isEmpty || parameters == "0" ? .plain : style.adding(CellStyle(parameters: parameters))
          }
          break
        }
        parameters.unicodeScalars.append(next)
      }
    }
    if !current.isEmpty { pieces.append(StyledText(current, style: style)) }
    return pieces
  }
}

/// The screen as cells: each row a list of cells, each a grapheme cluster (a wide one takes two
/// columns: its cell and an empty continuation cell) and a style. Views draw into a grid; the
/// `FrameWriter` turns the rows that changed into terminal output.
///
/// ```swift
/// var grid = Grid(width: 20, height: 2)
/// grid.put("日本 tasks", row: 0, column: 0)
/// grid.text(ofRow: 0)  // "日本 tasks          "
/// ```
public struct Grid: Equatable, Sendable {
  public struct Cell: Equatable, Sendable {
    /// The cluster drawn here; empty for the second column of a wide cluster.
    public var text: String
    public var style: CellStyle
  }

  public let width: Int
  public let height: Int
  public private(set) var rows: [[Cell]]

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    rows = Array(repeating: Array(repeating: Cell(text: " ", style: .plain), count: self.width), count: self.height)
  }

  /// Writes `text` from `column` on, cut to `limit` columns (to the row's end when nil), with
  /// controls made visible; returns the column after the last one written.
  @discardableResult
  public mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
    guard (0..<height).contains(row), column >= 0 else { return column }
    let end = min(width, limit.map { column + max(0, $0) } ?? width)
    var position = column
    for character in sanitizedForTerminal(text) {
      let columns = displayWidth(of: character)
      if columns == 0 {
        // A combining mark with nothing before it on this row is left out.
        if position > column { rows[row][position - 1].text.append(character) }
        continue
      }
      guard position + columns <= end else { break }
      rows[row][position] = Cell(text: String(character), style: style)
      if columns == 2 { rows[row][position + 1] = Cell(text: "", style: style) }
      position += columns
    }
    return position
  }

  /// Writes styled pieces one after the other; returns the column after the last.
  @discardableResult
  public mutating func put(_ pieces: [StyledText], row: Int, column: Int, limit: Int? = nil) -> Int {
    var position = column
    let end = limit.map { column + $0 } ?? width
    for piece in pieces {
      position = put(piece.text, row: row, column: position, style: piece.style, limit: end - position)
    }
    return position
  }

  /// Gives the columns `from..<to` of a row a style (the selection bar), keeping their text.
  public mutating func paint(row: Int, from: Int = 0, to: Int? = nil, style: CellStyle) {
    guard (0..<height).contains(row) else { return }
    for column in max(0, from)..<min(width, to ?? width) {
      rows[row][column].style = rows[row][column].style.adding(style)
    }
  }

  /// Sets the columns `from..<to` of a row to blanks in a style.
  public mutating func clear(row: Int, from: Int = 0, to: Int? = nil, style: CellStyle = .plain) {
    guard (0..<height).contains(row) else { return }
    for column in max(0, from)..<min(width, to ?? width) {
      rows[row][column] = Cell(text: " ", style: style)
    }
  }

  /// A row's text without styles (for tests and the documentation's capture).
  public func text(ofRow row: Int) -> String {
    rows[row].map(\.text).joined()
  }

  /// The whole grid as text, one line per row, trailing blanks removed.
  public var text: String {
    (0..<height).map { row in
      var line = text(ofRow: row)
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }

  /// One row as terminal output: its text with SGR sequences where the style changes (none
  /// without colour, except reverse video, which is how a monochrome screen shows a selection).
  public func encoded(row: Int, color: Bool) -> String {
    var output = ""
    var current = CellStyle.plain
    for cell in rows[row] {
      let style = color ? cell.style : (cell.style.parameters.split(separator: ";").contains("7") ? .reverse : .plain)
      if style != current {
        output += "\u{1B}[0" + (style.parameters.isEmpty ? "" : ";" + style.parameters) + "m"
        current = style
      }
      output += cell.text
    }
    if current != .plain { output += "\u{1B}[0m" }
    return output
  }
}

/// Writes frames to a terminal: only the rows that differ from the last frame written, each
/// positioned with a cursor move. After a resize or a redraw request, `reset()` makes the next
/// frame whole.
public struct FrameWriter: Sendable {
  private var last: [String] = []
  public let color: Bool

  public init(color: Bool) {
    self.color = color
  }

  /// Forgets the last frame: the next is written whole, after clearing the screen.
  public mutating func reset() {
    last = []
  }

  /// The bytes that bring the terminal from the last frame to `grid`.
  public mutating func output(for grid: Grid) -> String {
    var output = ""
    let whole = last.count != grid.height
    if whole { output += "\u{1B}[0m\u{1B}[2J" }
    var lines: [String] = []
    lines.reserveCapacity(grid.height)
    for row in 0..<grid.height {
      let line = grid.encoded(row: row, color: color)
      lines.append(line)
      if whole || last[row] != line {
        output += "\u{1B}[\(row + 1);1H" + line
      }
    }
    last = lines
    return output
  }
}

/// A table of the human output (`todo list`, `tags`, `history`…), fitted to the terminal width.
///
/// Columns are separated by two spaces. Fixed columns get their natural width (the widest of
/// header and cells); the flexible column (the title) gets what is left, down to
/// `minimumFlexibleWidth`, and its cells are cut with `…`. When even that minimum does not fit,
/// the lines overflow: a task without its id or title is worse than a wrapped line. Columns whose
/// cells are all empty are left out with their header, and no line ends with spaces.
///
/// Every cell is passed through `sanitizedForTerminal` first, so a title holding a newline or an
/// escape sequence cannot break the layout or drive the terminal.
///
/// ```swift
/// let table = Table(
///   columns: [Table.Column(header: "ID", alignment: .right), Table.Column(header: "Title", flexible: true)],
///   rows: [["1", "Buy milk"], ["12", "Call mom"]])
/// table.render(to: output, width: 80, colorEnabled: false)
/// // ID  Title
/// //  1  Buy milk
/// // 12  Call mom
/// ```
struct Table: Sendable {
  /// How a column lines up its cells.
  enum Alignment: Sendable {
    case left
    case right
  }

  /// A column: its header, alignment, and whether it absorbs the width that is left.
  struct Column: Sendable {
    var header: String
    var alignment: Alignment
    /// Whether this column shrinks (truncating its cells) or grows to fit the width.
    var isFlexible: Bool

    init(header: String, alignment: Alignment = .left, flexible: Bool = false) {
      self.header = header
      self.alignment = alignment
      self.isFlexible = flexible
    }
  }

  /// One cell: its text and an optional style applied when colour is on.
  struct Cell: Sendable, ExpressibleByStringLiteral {
    var text: String
    var style: TextStyle?

    init(_ text: String, style: TextStyle? = nil) {
      self.text = text
      self.style = style
    }

    init(text: String, style: TextStyle? = nil) {
      self.init(text, style: style)
    }

    init(stringLiteral text: String) {
      self.init(text)
    }
  }

  /// The narrowest a flexible column is made before lines are allowed to overflow.
  static let minimumFlexibleWidth = 10
  /// The gap between two columns.
  static let separator = "  "

  var columns: [Column]
  /// The cells of each row, in column order; a short row is padded with empty cells.
  var rows: [[Cell]]

  init(columns: [Column], rows: [[Cell]] = []) {
    self.columns = columns
    self.rows = rows
  }

  /// Writes the table, one line per row after the header, to `stream`.
  ///
  /// A table without rows writes nothing: the caller says "no tasks" its own way.
  func render(to stream: OutputStream, width: Int, colorEnabled: Bool) {
    for line in renderedLines(width: width, colorEnabled: colorEnabled) {
      stream.write(line)
      stream.write("\n")
    }
  }

  /// The lines of the table (header first, no line feeds) fitted to `width` columns.
  func renderedLines(width: Int, colorEnabled: Bool) -> [String] {
    let visible = columns.indices.filter { column in
      rows.contains { row in column < row.count && !row[column].text.isEmpty }
    }
    guard !visible.isEmpty else { return [] }

    let header = visible.map { Cell(sanitizedForTerminal(columns[$0].header), style: .heading) }
    let body = rows.map { row in
      visible.map { column -> Cell in
        guard column < row.count else { return Cell("") }
        return Cell(sanitizedForTerminal(row[column].text), style: row[column].style)
      }
    }
    let widths = columnWidths(
      visible: visible, cells: [header] + body, width: width)

    var lines: [String] = []
    lines.reserveCapacity(body.count + 1)
    for cells in [header] + body {
      lines.append(line(cells, visible: visible, widths: widths, colorEnabled: colorEnabled))
    }
    return lines
  }

  /// The width of each visible column: natural for fixed ones, the remainder for flexible ones.
  private func columnWidths(visible: [Int], cells: [[Cell]], width: Int) -> [Int] {
    var natural = Array(repeating: 0, count: visible.count)
    for row in cells {
      for position in row.indices {
        natural[position] = max(natural[position], displayWidth(of: row[position].text))
      }
    }
    let flexible = visible.indices.filter { columns[visible[$0]].isFlexible }
    let fixedWidth = visible.indices.reduce(0) { flexible.contains($1) ? $0 : $0 + natural[$1] }
    var remaining = width - fixedWidth - Self.separator.count * (visible.count - 1)

    // Share what is left among flexible columns, narrowest first, so a short one that fits
    // entirely hands its unused share to the wider ones.
    var widths = natural
    let byNaturalWidth = flexible.sorted { natural[$0] < natural[$1] }
    for (order, position) in byNaturalWidth.enumerated() {
      let share = remaining / (byNaturalWidth.count - order)
      let minimum = min(natural[position], Self.minimumFlexibleWidth)
      widths[position] = min(natural[position], max(share, minimum))
      remaining -= widths[position]
    }
    return widths
  }

  /// One line: cells padded to their column width, styled, and cut after the last non-empty one.
  private func line(_ cells: [Cell], visible: [Int], widths: [Int], colorEnabled: Bool) -> String {
    guard let last = cells.lastIndex(where: { !$0.text.isEmpty }) else { return "" }
    var line = ""
    for position in 0...last {
      if position > 0 { line += Self.separator }
      var text = truncated(cells[position].text, toWidth: widths[position])
      if position == last {
        while text.last == " " { text.removeLast() }
      }
      let padding = String(repeating: " ", count: max(0, widths[position] - displayWidth(of: text)))
      let styled = cells[position].style?.apply(to: text, colorEnabled: colorEnabled) ?? text
      switch columns[visible[position]].alignment {
      case .right: line += padding + styled
      case .left: line += position == last ? styled : styled + padding
      }
    }
    return line
  }
}

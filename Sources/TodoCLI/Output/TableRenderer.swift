import TodoSystem

/// A table of the human output (`todo list`, `tags`, `history`…), fitted to the terminal width.
///
/// Columns are separated by two spaces and get their natural width (the widest of header and
/// cells) when everything fits. When it does not, in this order:
/// 1. the flexible column (the title) keeps what is left, and columns marked
///    `.truncateThenDrop` (project, tags) are cut with `…`, widest first, down to 8 columns (or
///    their header's width), until the title has a fair share of the line (half of it);
/// 2. if the title would still be narrower than `minimumFlexibleWidth`, those columns are left
///    out, widest first (narrow ones, which cost little, go last), then the `.drop` columns (due,
///    priority) the same way;
/// 3. the title takes what is left, however little, and any line still too long is cut.
/// So no line is ever wider than `width`. With no width (output into a pipe or a file, and no
/// `COLUMNS`), nothing is cut: `todo list | grep` finds whole titles.
///
/// Columns whose cells are all empty are left out with their header, and no line ends with
/// spaces. Every cell is passed through `sanitizedForTerminal` first, so a title holding a
/// newline or an escape sequence cannot break the layout or drive the terminal.
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

  /// What a column gives up when the table is too wide.
  enum Shrink: Sendable {
    /// Nothing: it keeps its natural width (ids).
    case never
    /// It may be left out, after every `.truncateThenDrop` column (due, priority).
    case drop
    /// It may be cut with `…` down to 8 columns (or its header's width), then left out (project, tags).
    case truncateThenDrop
  }

  /// A column: its header, alignment, and how it gives way to a narrow terminal.
  struct Column: Sendable {
    var header: String
    var alignment: Alignment
    /// Whether this column takes the width that is left (the title), cutting its cells.
    var isFlexible: Bool
    var shrink: Shrink
    /// Cut from the middle, keeping the last part (`pers…health`): a hierarchical project,
    /// whose start several projects share.
    var cutsInTheMiddle = false
    /// Cut between words, saying how many are left out (`errand home +2`): tags.
    var cutsWords = false

    init(
      header: String, alignment: Alignment = .left, flexible: Bool = false, shrink: Shrink = .never, cutsInTheMiddle: Bool = false,
      cutsWords: Bool = false
    ) {
      self.header = header
      self.alignment = alignment
      self.isFlexible = flexible
      self.shrink = shrink
      self.cutsInTheMiddle = cutsInTheMiddle
      self.cutsWords = cutsWords
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

  /// The narrowest a flexible column is made before other columns are left out for it.
  static let minimumFlexibleWidth = 15
  /// The width of the gap between two columns (two spaces), as a constant: `String.count`
  /// walks the characters every time it is asked.
  static let separatorWidth = 2

  var columns: [Column]
  /// The cells of each row, in column order; a short row is padded with empty cells.
  var rows: [[Cell]]

  init(columns: [Column], rows: [[Cell]] = []) {
    self.columns = columns
    self.rows = rows
  }

  /// Writes the table, one line per row after the header, to `stream`; `width` nil means no limit.
  ///
  /// A table without rows writes nothing: the caller says "no tasks" its own way.
  func render(to stream: OutputStream, width: Int?, colorEnabled: Bool) {
    var measured: [MeasuredCell] = []
    measured.reserveCapacity(rows.count * columns.count)
    for row in rows {
      for column in columns.indices { measured.append(MeasuredCell(column < row.count ? row[column] : Cell(""))) }
    }
    _ = TableWriter(
      columns: columns, firstRowChunks: [measured], width: width, colorEnabled: colorEnabled, to: stream,
      dropEmptyColumns: true)
  }

  /// The lines of the table (header first, no line feeds) fitted to `width` columns (nil: no limit).
  func renderedLines(width: Int?, colorEnabled: Bool) -> [String] {
    let output = OutputStream.memory()
    render(to: output, width: width, colorEnabled: colorEnabled)
    var lines = output.collectedText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// A cell made safe for the terminal, with its width.
  struct MeasuredCell {
    var text: String
    /// Stored in 32 bits so a cell takes 24 bytes rather than 32: a streamed table keeps
    /// 10,000 rows of them.
    private var storedWidth: Int32
    var width: Int {
      get { Int(storedWidth) }
      set { storedWidth = Int32(clamping: newValue) }
    }
    var style: TextStyle?

    init(_ cell: Cell) {
      self.init(text: cell.text, style: cell.style)
    }

    /// A cell the caller knows to be printable ASCII (numbers, dates as `in 3d`, statuses):
    /// as wide as it is long, with nothing to check.
    init(ascii text: String, style: TextStyle?) {
      assert(isPrintableASCII(text))
      self.text = text
      storedWidth = Int32(clamping: text.utf8.count)
      self.style = style
    }

    init(text: String, style: TextStyle?) {
      let (safe, width) = terminalTextAndWidth(text)
      self.text = safe
      storedWidth = Int32(clamping: width)
      self.style = style
    }
  }

  /// Which columns a table keeps and how wide each is, for a width.
  struct Layout {
    /// Positions (among the non-empty columns) of the columns shown, in order.
    private(set) var kept: [Int]
    /// The width of each shown column, in the order of `kept`.
    private(set) var widths: [Int]
    /// Their alignments, in the order of `kept`.
    let alignments: [Alignment]
    /// Whether each is cut in the middle, in the order of `kept`.
    let cutsInTheMiddle: [Bool]
    /// Whether each is cut between words, in the order of `kept`.
    let cutsWords: [Bool]
    /// The most a line may take, or nil for no limit.
    let width: Int?

    init(columns: [Column], natural: [Int], width: Int?) {
      self.width = width
      var kept = Array(columns.indices)
      var widths = natural
      if let width {
        let separator = Table.separatorWidth
        let flexible = columns.indices.filter { columns[$0].isFlexible }
        // The width the flexible columns get with the others at `widths`.
        func left(_ kept: [Int]) -> Int {
          width - separator * (kept.count - 1) - kept.filter { !columns[$0].isFlexible }.reduce(0) { $0 + widths[$1] }
        }
        func need(_ target: (Int) -> Int) -> Int { flexible.filter(kept.contains).reduce(0) { $0 + target($1) } }
        let comfortable = { (position: Int) in min(natural[position], max(Table.minimumFlexibleWidth, width / 2)) }
        let minimum = { (position: Int) in min(natural[position], Table.minimumFlexibleWidth) }
        // Cuts project and tags, widest first, towards 8 columns until the title is comfortable.
        func truncate() {
          for position in kept.filter({ columns[$0].shrink == .truncateThenDrop }).sorted(by: { natural[$0] > natural[$1] }) {
            widths[position] = natural[position]
          }
          for position in kept.filter({ columns[$0].shrink == .truncateThenDrop }).sorted(by: { natural[$0] > natural[$1] }) {
            let deficit = need(comfortable) - left(kept)
            guard deficit > 0 else { break }
            let floor = min(natural[position], max(displayWidth(of: columns[position].header), 8))
            widths[position] = max(floor, widths[position] - deficit)
          }
        }
        truncate()
        for kind in [Shrink.truncateThenDrop, .drop] {
          let droppable = kept.filter { columns[$0].shrink == kind }.sorted { natural[$0] > natural[$1] }
          for position in droppable where left(kept) < need(minimum) {
            kept.removeAll { $0 == position }
            truncate()
          }
        }
        // The flexible columns share what is left, narrowest first, so a short one that fits
        // entirely hands its unused share to the wider ones.
        var remaining = left(kept)
        let byNaturalWidth = flexible.filter(kept.contains).sorted { natural[$0] < natural[$1] }
        for (order, position) in byNaturalWidth.enumerated() {
          let share = remaining / (byNaturalWidth.count - order)
          widths[position] = max(1, min(natural[position], share))
          remaining -= widths[position]
        }
      }
      self.kept = kept
      self.widths = kept.map { widths[$0] }
      self.alignments = kept.map { columns[$0].alignment }
      self.cutsInTheMiddle = kept.map { columns[$0].cutsInTheMiddle }
      self.cutsWords = kept.map { columns[$0].cutsWords }
    }
  }

  /// One line: the cells of `row` at the columns `shown` (one per column of the layout, in its
  /// order), padded to their column width, styled, and cut after the last non-empty one; never
  /// wider than the layout's width, and never ending with spaces.
  static func writeLine(
    _ row: UnsafeBufferPointer<MeasuredCell>, shown: [Int], layout: Layout, colorEnabled: Bool, to stream: OutputStream
  ) {
    guard let last = shown.lastIndex(where: { !row[$0].text.isEmpty }) else {
      stream.write("\n")
      return
    }
    var used = 0
    var pendingSpaces = 0
    for position in 0...last {
      var width = layout.widths[position]
      if position > 0 {
        if let limit = layout.width, used + Self.separatorWidth >= limit { break }
        pendingSpaces += Self.separatorWidth
        used += Self.separatorWidth
      }
      if let limit = layout.width { width = min(width, limit - used) }
      let cell = row[shown[position]]
      var text = cell.text
      var textWidth = cell.width
      // Without a width (a pipe), a cell wider than its column (a row streamed after the layout
      // was fixed) is never cut: it pushes the rest of its line instead.
      if layout.width != nil && textWidth > width {
        text =
          layout.cutsWords[position]
          ? truncatedByWords(text, toWidth: width)
          : layout.cutsInTheMiddle[position] ? truncatedInTheMiddle(text, toWidth: width) : truncated(text, toWidth: width)
        textWidth = displayWidth(of: text)
      }
      if position == last {
        while text.utf8.last == UInt8(ascii: " ") {
          text.removeLast()
          textWidth -= 1
        }
      }
      let padding = max(0, width - textWidth)
      let right = layout.alignments[position] == .right
      if right { pendingSpaces += padding }
      if !text.isEmpty {
        stream.write(repeating: UInt8(ascii: " "), count: pendingSpaces)
        pendingSpaces = 0
        if colorEnabled, let style = cell.style {
          stream.write(style.apply(to: text, colorEnabled: true))
        } else {
          stream.write(text)
        }
      }
      if !right { pendingSpaces += padding }
      used += width
    }
    stream.write("\n")
  }
}

/// Writes a table whose layout is fixed by its first rows, then any number of further rows one at
/// a time: a list of a million tasks is drawn without holding it. `Table.render` is the case
/// where every row is known first.
///
/// ```swift
/// let writer = TableWriter(columns: columns, firstRowChunks: [window], width: nil, colorEnabled: false,
///                          to: output, dropEmptyColumns: false)
/// writer?.write(measured: row.map(Table.MeasuredCell.init))
/// ```
final class TableWriter {
  /// The number of cells of a row (one per column, hidden ones included).
  private let columnCount: Int
  /// The column of a row shown at each position of the layout.
  private let shown: [Int]
  private let layout: Table.Layout
  private let stream: OutputStream
  private let colorEnabled: Bool

  /// Fixes the layout from the first rows (one measured cell per column for each row, the rows
  /// one after the other, in chunks of whole rows: a long list is buffered in chunks, since one
  /// growing array would be copied, and its pages touched again, at every doubling), and writes
  /// the header and those rows. `hidden` columns are never shown; columns that are empty in every
  /// first row are left out only with `dropEmptyColumns` (a later row may need them);
  /// `widestCells` gives columns at least that width (a later row may be wider). Nil, writing
  /// nothing, when there are no rows.
  init?(
    columns: [Table.Column], firstRowChunks: [[Table.MeasuredCell]], hidden: Set<Int> = [], widestCells: [Int: Int] = [:],
    width: Int?, colorEnabled: Bool, to stream: OutputStream, dropEmptyColumns: Bool
  ) {
    let columnCount = columns.count
    guard columnCount > 0, firstRowChunks.contains(where: { !$0.isEmpty }) else { return nil }
    func rowStarts(_ chunk: [Table.MeasuredCell]) -> StrideTo<Int> {
      stride(from: 0, to: chunk.count / columnCount * columnCount, by: columnCount)
    }
    let visible = columns.indices.filter { column in
      !hidden.contains(column)
        && (!dropEmptyColumns
          || firstRowChunks.contains { chunk in rowStarts(chunk).contains { !chunk[$0 + column].text.isEmpty } })
    }
    guard !visible.isEmpty else { return nil }
    self.columnCount = columnCount
    self.stream = stream
    self.colorEnabled = colorEnabled
    let header = columns.map { Table.MeasuredCell(Table.Cell($0.header, style: .heading)) }
    var natural = visible.map { max(header[$0].width, widestCells[$0] ?? 0) }
    for chunk in firstRowChunks {
      for start in rowStarts(chunk) {
        for (position, column) in visible.enumerated() where chunk[start + column].width > natural[position] {
          natural[position] = chunk[start + column].width
        }
      }
    }
    layout = Table.Layout(columns: visible.map { columns[$0] }, natural: natural, width: width)
    shown = layout.kept.map { visible[$0] }
    header.withUnsafeBufferPointer { write($0) }
    for chunk in firstRowChunks {
      chunk.withUnsafeBufferPointer { cells in
        for start in rowStarts(chunk) {
          write(UnsafeBufferPointer(rebasing: cells[start..<start + columnCount]))
        }
      }
    }
  }

  /// Writes one more row, already measured (one cell per column), in the fixed layout.
  func write(measured row: [Table.MeasuredCell]) {
    if row.count >= columnCount {
      row.withUnsafeBufferPointer { write($0) }
    } else {
      let padded = row + Array(repeating: Table.MeasuredCell(Table.Cell("")), count: columnCount - row.count)
      padded.withUnsafeBufferPointer { write($0) }
    }
  }

  private func write(_ row: UnsafeBufferPointer<Table.MeasuredCell>) {
    Table.writeLine(row, shown: shown, layout: layout, colorEnabled: colorEnabled, to: stream)
  }
}

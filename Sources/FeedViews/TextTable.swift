/// A table for people: columns fitted to the terminal's width, cells made terminal-safe
/// and cut with `…` where they do not fit.
///
///     var table = TextTable(columns: [
///       .init("ID", dim: true), .init("TITLE", flexible: true),
///       .init("EPISODES", alignment: .right),
///     ])
///     table.append(["917393e3", "Podcasting 2.0", "56"])
///     print(table.render(width: 80, colour: isTerminal), terminator: "")
public struct TextTable: Sendable {
  public enum Alignment: Sendable {
    case left
    case right
  }

  public struct Column: Sendable {
    public var header: String
    public var alignment: Alignment
    /// Whether the column gives up width when the table is too wide: text columns do, ids,
    /// dates and numbers should not.
    public var flexible: Bool
    /// The narrowest a flexible column gets.
    public var minimumWidth: Int
    /// Printed dim when colour is on: for ids and other secondary columns.
    public var dim: Bool

    public init(
      _ header: String, alignment: Alignment = .left, flexible: Bool = false,
      minimumWidth: Int = 8, dim: Bool = false
    ) {
      self.header = header
      self.alignment = alignment
      self.flexible = flexible
      self.minimumWidth = max(1, minimumWidth)
      self.dim = dim
    }
  }

  public let columns: [Column]
  private var rows: [[String]] = []
  private var naturalWidths: [Int]

  public init(columns: [Column]) {
    self.columns = columns.map { column in
      var safe = column
      safe.header = TerminalText.sanitizedLine(column.header)
      return safe
    }
    naturalWidths = self.columns.map { DisplayWidth.of($0.header) }
  }

  public var rowCount: Int { rows.count }

  /// Adds a row; missing cells are empty, extra cells are ignored.
  public mutating func append(_ cells: [String]) {
    var row: [String] = []
    row.reserveCapacity(columns.count)
    for index in columns.indices {
      let cell = index < cells.count ? TerminalText.sanitizedLine(cells[index]) : ""
      naturalWidths[index] = max(naturalWidths[index], DisplayWidth.of(cell))
      row.append(cell)
    }
    rows.append(row)
  }

  /// The column widths for a terminal `width` columns wide (nil: no limit). The widest
  /// flexible column shrinks first, down to its minimum; when nothing can shrink any more
  /// the table stays wider than the terminal.
  public func widths(fitting width: Int?) -> [Int] {
    var widths = naturalWidths
    guard let width, !widths.isEmpty else { return widths }
    var excess = widths.reduce(0, +) + Self.gap * (widths.count - 1) - width
    while excess > 0 {
      let shrinkable = columns.indices.filter {
        columns[$0].flexible && widths[$0] > columns[$0].minimumWidth
      }
      guard let widest = shrinkable.max(by: { widths[$0] < widths[$1] }) else { break }
      let runnerUp =
        shrinkable.filter { $0 != widest }.map { widths[$0] }.max() ?? 0
      let floor = max(columns[widest].minimumWidth, runnerUp)
      let cut = min(excess, max(1, widths[widest] - floor))
      widths[widest] -= cut
      excess -= cut
    }
    return widths
  }

  /// The header and the rows, each line ending in a line feed. With `colour`, the header is
  /// bold and dim columns are dim (ANSI SGR); the caller decides (a terminal, NO_COLOR unset).
  public func render(width: Int?, colour: Bool) -> String {
    let widths = widths(fitting: width)
    var output = line(columns.map(\.header), widths: widths, colour: colour, header: true)
    for row in rows {
      output += line(row, widths: widths, colour: colour, header: false)
    }
    return output
  }

  private static let gap = 2

  private func line(_ cells: [String], widths: [Int], colour: Bool, header: Bool) -> String {
    var pieces: [String] = []
    for (index, column) in columns.enumerated() {
      let cell = DisplayWidth.truncated(cells[index], to: widths[index])
      let isLast = index == columns.count - 1
      var piece =
        column.alignment == .right || !isLast
        ? DisplayWidth.padded(cell, to: widths[index], alignRight: column.alignment == .right)
        : cell
      if colour && header {
        piece = "\u{1B}[1m" + piece + "\u{1B}[0m"
      } else if colour && column.dim && !cell.isEmpty {
        piece = "\u{1B}[2m" + piece + "\u{1B}[0m"
      }
      pieces.append(piece)
    }
    var text = pieces.joined(separator: String(repeating: " ", count: Self.gap))
    while text.hasSuffix(" ") { text.removeLast() }
    return text + "\n"
  }
}

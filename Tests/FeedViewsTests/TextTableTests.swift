import FeedViews
import Testing

@Suite struct TextTableTests {
  static func podcasts() -> TextTable {
    var table = TextTable(columns: [
      .init("ID", dim: true),
      .init("TITLE", flexible: true, minimumWidth: 10),
      .init("AUTHOR", flexible: true, minimumWidth: 6),
      .init("EPISODES", alignment: .right),
      .init("LATEST"),
    ])
    table.append([
      "917393e3", "Podcasting 2.0 — the podcast about the future of podcasting",
      "Adam Curry & Dave Jones", "156", "Mar 5",
    ])
    table.append(["9b024349", "Podnews Weekly Review", "Podnews LLC", "8", "Feb 28"])
    table.append(["3f1c0a2e", "中文播客：科技与生活", "作者", "1024", "Jan 1 2023"])
    table.append([
      "aa00bb11", "Evil\u{1B}]0;pwned\u{07} title\u{1B}[2J\nwith newline", "x\u{202E}y", "0", "",
    ])
    return table
  }

  @Test(arguments: [40, 80, 200])
  func fitsTheTerminal(width: Int) {
    let table = Self.podcasts()
    let lines = table.render(width: width, colour: false).split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    let widths = table.widths(fitting: width)
    let minimum = 8 + 10 + 6 + 8 + 10 + 2 * 4
    for line in lines {
      #expect(DisplayWidth.of(line) <= max(width, minimum), "\(line)")
      #expect(!line.hasSuffix(" "))
      #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" })
    }
    #expect(lines[0].hasPrefix("ID        TITLE"))
    // Numbers end in one column.
    let numberEnd = widths[0] + 2 + widths[1] + 2 + widths[2] + 2 + widths[3]
    let ends = lines.dropFirst().map { line -> String in
      var used = 0
      var cut = ""
      for character in line {
        if used >= numberEnd { break }
        cut.append(character)
        used += DisplayWidth.of(character)
      }
      return String(cut.suffix(4))
    }
    #expect(ends == [" 156", "   8", "1024", "   0"])
  }

  @Test func truncatesOnlyWhenNeeded() {
    let wide = Self.podcasts().render(width: 200, colour: false)
    #expect(wide.contains("Podcasting 2.0 — the podcast about the future of podcasting"))
    #expect(!wide.contains("…"))
    let narrow = Self.podcasts().render(width: 60, colour: false)
    #expect(narrow.contains("…"))
    #expect(narrow.contains("917393e3") && narrow.contains("Jan 1 2023"))
  }

  @Test func shrinksTheWidestFlexibleColumnFirst() {
    let table = Self.podcasts()
    let natural = table.widths(fitting: nil)
    let fitted = table.widths(fitting: 90)
    #expect(fitted.reduce(0, +) + 2 * 4 <= 90)
    #expect(fitted[0] == natural[0] && fitted[3] == natural[3] && fitted[4] == natural[4])
    #expect(fitted[2] == natural[2])
    #expect(fitted[1] < natural[1])
  }

  @Test func coloursOnlyWhenTold() {
    let plain = Self.podcasts().render(width: 80, colour: false)
    #expect(!plain.contains("\u{1B}"))
    let coloured = Self.podcasts().render(width: 80, colour: true)
    #expect(coloured.hasPrefix("\u{1B}[1mID"))
    #expect(coloured.contains("\u{1B}[2m917393e3\u{1B}[0m"))
    #expect(!coloured.contains("\u{1B}]") && !coloured.contains("\u{1B}[2J"))
  }

  @Test func handlesRaggedRows() {
    var table = TextTable(columns: [.init("A"), .init("B")])
    table.append(["only one"])
    table.append(["x", "y", "ignored"])
    #expect(table.render(width: nil, colour: false) == "A         B\nonly one\nx         y\n")
    #expect(table.rowCount == 2)
  }
}

import FeedViews
import Testing

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("", 0), ("abc", 3), ("Café", 4), ("e\u{301}", 1), ("中文", 4), ("한국어", 6),
    ("ｶﾀｶﾅ", 4), ("ＡＢ", 4), ("🎧", 2), ("👍🏽", 2), ("❤️", 2), ("🇫🇷", 2),
    ("👩‍💻", 2), ("zero\u{200B}width", 9), ("\u{1100}\u{1161}\u{11A8}", 2), ("a\u{20DD}", 1),
  ])
  func measuresColumns(text: String, columns: Int) {
    #expect(DisplayWidth.of(text) == columns)
  }

  @Test(arguments: [
    ("hello world", 5, "hell…"), ("hello", 5, "hello"), ("hello", 10, "hello"),
    ("hello", 1, "…"), ("hello", 0, ""), ("中文字", 5, "中文…"), ("中文字", 4, "中…"),
    ("中文字", 6, "中文字"), ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"), ("🎧🎧🎧", 4, "🎧…"),
  ])
  func truncatesWithEllipsis(text: String, width: Int, expected: String) {
    let cut = DisplayWidth.truncated(text, to: width)
    #expect(cut == expected)
    #expect(DisplayWidth.of(cut) <= max(0, width))
  }

  @Test func padsToColumns() {
    #expect(DisplayWidth.padded("中", to: 4) == "中  ")
    #expect(DisplayWidth.padded("42", to: 5, alignRight: true) == "   42")
    #expect(DisplayWidth.padded("toolong", to: 3) == "toolong")
  }
}

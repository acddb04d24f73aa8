import FeedViews
import Testing

@Suite struct TextWrappingTests {
  @Test func wrapsAtSpaces() {
    let text = "The quick brown fox jumps over the lazy dog"
    #expect(
      TextWrapping.wrap(text, width: 15) == "The quick brown\nfox jumps over\nthe lazy dog")
  }

  @Test func keepsParagraphsAndIndents() {
    let text = "First paragraph here.\n\nSecond one."
    #expect(
      TextWrapping.wrap(text, width: 12, indent: "  ")
        == "  First\n  paragraph\n  here.\n\n  Second\n  one.")
  }

  @Test func cutsWordsLongerThanALine() {
    #expect(TextWrapping.wrap("abcdefghij xy", width: 4) == "abcd\nefgh\nij\nxy")
    #expect(TextWrapping.wrap("中文中文中", width: 4) == "中文\n中文\n中")
  }

  @Test(arguments: [20, 33, 60, 100])
  func everyLineFitsAndNoWordIsLost(width: Int) {
    let text = HTMLText.plainText(
      "<p>Podcasting 2.0 is a community effort to move podcasting forward.</p>"
        + "<p>Sponsors: 中文 text, emoji 🎧🎧, and a https://example.com/a/very/long/url/that/"
        + "does-not-fit-on-any-line-at-all</p>")
    let wrapped = TextWrapping.wrap(text, width: width)
    for line in wrapped.split(separator: "\n") {
      #expect(DisplayWidth.of(String(line)) <= width)
    }
    #expect(
      wrapped.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "")
        == text.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: ""))
    #expect(wrapped.components(separatedBy: "\n\n").count == 2)
  }
}

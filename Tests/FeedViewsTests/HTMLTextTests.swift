import FeedViews
import Foundation
import Testing

@Suite struct HTMLTextTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let input: String
    let text: String
    /// The single-line form, when it differs from `text`.
    let line: String?

    init(_ input: String, _ text: String, line: String? = nil) {
      self.input = input
      self.text = text
      self.line = line
    }

    var testDescription: String { String(reflecting: input) }
  }

  static let entities: [Case] = [
    Case("Tom &amp; Jerry", "Tom & Jerry"),
    Case("Tom &amp Jerry", "Tom & Jerry"),
    Case("&lt;b&gt;not bold&lt;/b&gt;", "<b>not bold</b>"),
    Case(
      "it&#39;s &#x27;quoted&#X27; &quot;twice&quot; &apos;x&apos;", "it's 'quoted' \"twice\" 'x'"),
    Case("wait&hellip; &mdash; &rsquo;", "wait… — ’"),
    Case("&copy 2024 &COPY; &AMP;", "© 2024 © &"),
    Case("&frac12x &sup2; &notit;", "½x ² ¬it;"),
    Case("&ampx; &hellipx", "&x; &hellipx"),
    Case("&nLt; &NotEqualTilde;", "≪⃒ ≂̸"),
    Case("&#128;&#150;&#153;", "€–™"),
    Case("&#x1F3A7; &#127911;", "🎧 🎧"),
    Case("&#0;|&#xD800;|&#x110000;|&#99999999999999999999;", "\u{FFFD}|\u{FFFD}|\u{FFFD}|\u{FFFD}"),
    Case("a&#1;b&#11;c&#xFFFE;d&#x7F;e", "abcde"),
    Case("&#; &#x; &#xg; & a &; &-amp; &unknown;", "&#; &#x; &#xg; & a &; &-amp; &unknown;"),
    Case("R&D A&B", "R&D A&B"),
    Case("x&nbsp;&nbsp;y&nbsp;", "x y"),
    Case("a&NewLine;&NewLine;b&Tab;c", "a\n\nb c", line: "a b c"),
    Case("a&amp;amp;b", "a&amp;b"),
  ]

  static let structure: [Case] = [
    Case("line<br>break", "line break"),
    Case("two<br><br>breaks", "two\n\nbreaks", line: "two breaks"),
    Case("br then newline<br>\n next", "br then newline\n\nnext", line: "br then newline next"),
    Case("<p>one</p><p>two</p>", "one\n\ntwo", line: "one two"),
    Case("<P>x<DIV>y</DIV>z", "x\n\ny\n\nz", line: "x y z"),
    Case("<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>", "a\n\nb\n\nc", line: "a b c"),
    Case("<h1>Title</h1>body", "Title\n\nbody", line: "Title body"),
    Case("<table><tr><td>1</td><td>2</td></tr></table>", "1\n\n2", line: "1 2"),
    Case("<blockquote>q</blockquote>r<hr>s", "q\n\nr\n\ns", line: "q r s"),
    Case("<p></p><p> </p><p>&nbsp;</p>x<p></p>", "x"),
    Case("<br><br><br>x<br><br><br>", "x"),
    Case("a <b>bold</b> and <i>it</i>alic", "a bold and italic"),
    Case("<a href=\"https://e.com/?a=1&amp;b=2\" title='x>y'>link</a>", "link"),
    Case("<a href=x>bare</a> <img src=\"a.png\" alt=\"pic\">", "bare"),
    Case("<a\nhref=\"x\"\n>multi-line tag</a>", "multi-line tag"),
    Case("x<br/>y<p/>z", "x y\n\nz", line: "x y z"),
    Case("</ p>closed", "closed"),
    // A quote opens a value only after `name=`.
    Case("<a b='x>y'>z", "z"),
    Case("<a b = \"x>y\" c>z", "z"),
    Case("<a b=x\"y>z", "z"),
    Case("<a b/='x>y'>z", "y'>z"),
    Case("<a ='x>y'>z", "y'>z"),
    Case("</>x</3>y", "xy"),
  ]

  static let hidden: [Case] = [
    Case("<script>alert('<b>')</script>ok", "ok"),
    Case("<style>p { color: red }</style>styled", "styled"),
    Case("<SCRIPT type=x>a</p>b</ScRiPt >after", "after"),
    Case("before<script>never closed <p>text", "before"),
    Case("a<!-- comment -->b", "ab"),
    Case("a<!-- spaced -- >b", "ab"),
    Case("a<!-- x -- y -->b", "ab"),
    Case("<!DOCTYPE html><?xml version=\"1.0\"?>x<!x>y", "xy"),
    Case("<![if !supportLists]>y<![endif]>z", "yz"),
  ]

  static let broken: [Case] = [
    Case("a < b and c > d", "a < b and c > d"),
    Case("<3 you", "<3 you"),
    Case("ends with <", "ends with <"),
    Case("ends with &", "ends with &"),
    Case("text then <b", "text then <b"),
    Case(
      "text <a href=\"https://example.com/unterminated",
      "text <a href=\"https://example.com/unterminated"),
    Case("text <!-- unterminated comment", "text <!-- unterminated comment"),
    Case("x </p", "x </p"),
    // Left open, a construct is text up to the next `>`, references decoded.
    Case("a<!-- x <b>bold</b> y", "a<!-- x <b>bold y"),
    Case("<a title=\"x>y", "<a title=\"x>y"),
    Case("a <![CDATA[ never closed <i>x</i>", "a <![CDATA[ never closed <i>x"),
    Case("x &amp; <!-- &amp; > &amp;", "x & <!-- & > &"),
  ]

  static let whitespace: [Case] = [
    Case("  lead and trail  ", "lead and trail"),
    Case("a\tb  c\r\nd", "a b c d"),
    Case("a\n\nb", "a\n\nb", line: "a b"),
    Case("a\n \t\n b", "a\n\nb", line: "a b"),
    Case("a\r\n\r\nb", "a\n\nb", line: "a b"),
    Case("para1\n\n\n\n\npara2", "para1\n\npara2", line: "para1 para2"),
    Case("<div>\n<p>\n  x\n</p>\n</div>", "x"),
    Case("\u{A0}x\u{3000}y\u{2028}z\u{2003}w", "x y z w"),
    Case("zero\u{200B}width", "zero\u{200B}width"),
    Case("a\u{B}b\u{C}c\u{1C}d", "a b c d"),
    Case("<pre>  keep?\n  no</pre>", "keep? no"),
  ]

  /// Where HTMLText departs from the conformance normaliser on purpose.
  static let deliberate: [Case] = [
    // A CDATA section in HTML is text that was meant to be read.
    Case("<![CDATA[wrapped twice]]> tail", "wrapped twice tail"),
    Case("<![CDATA[a <b> &amp; c]]>", "a <b> &amp; c"),
    // C1 controls are Windows-1252 decoded as ISO-8859-1: the characters meant.
    Case("It\u{92}s \u{93}quoted\u{94}\u{85}", "It’s “quoted”…"),
    Case("hole\u{81}here &#129;", "holehere"),
    // Controls cannot reach the output.
    Case("bell\u{7}esc\u{1B}[2Jnul\u{0}del\u{7F}", "bellesc[2Jnuldel"),
  ]

  static let plain: [Case] = [
    Case("", ""),
    Case("Plain title", "Plain title"),
    Case("Café crème — 中文 🎧", "Café crème — 中文 🎧"),
    Case("   ", ""),
  ]

  @Test(
    arguments: [entities, structure, hidden, broken, whitespace, deliberate, plain].joined())
  func convertsToText(_ example: Case) {
    #expect(HTMLText.plainText(example.input) == example.text)
    #expect(HTMLText.singleLine(example.input) == (example.line ?? example.text))
  }

  @Test func convertsBytesWithInvalidUTF8() {
    let bytes: [UInt8] = Array("<p>ok</p>".utf8) + [0xFF, 0xC3] + Array(" end".utf8)
    let text = bytes.withUnsafeBufferPointer { HTMLText.plainText(utf8: $0) }
    #expect(text == "ok\n\n\u{FFFD}\u{FFFD} end")
  }

  @Test func returnsCleanInputUnchanged() {
    let title = "An already clean title"
    #expect(HTMLText.plainText(title) == title)
    #expect(HTMLText.singleLine(title) == title)
  }

  // MARK: the conformance normaliser

  struct ReferenceCase: Decodable {
    let source: String
    let input: String
    let text: String
    let line: String
  }

  /// Outputs of `html_to_text` in shared/conformance/compare.py, written by
  /// Fixtures/make-html-reference.py.
  @Test(arguments: ["edge", "entities", "random", "corpus"])
  func agreesWithReferenceNormaliser(source: String) throws {
    let data = try Data(
      contentsOf: TestFiles.fixtures.appendingPathComponent("html-reference.json"))
    let cases = try JSONDecoder().decode([ReferenceCase].self, from: data).filter {
      $0.source == source
    }
    try #require(cases.count >= 30)
    for reference in cases {
      #expect(HTMLText.plainText(reference.input) == reference.text, "\(reference.input)")
      #expect(HTMLText.singleLine(reference.input) == reference.line, "\(reference.input)")
    }
  }

  // MARK: real feeds

  @Test func corpusIsThere() {
    #expect(TestFiles.feeds(in: "podcasts").count >= 20)
  }

  /// Every CDATA description of every feed: the text has no markup, no undecoded
  /// reference, no control character, no stray whitespace, and converting it again after
  /// escaping it gives it back.
  @Test(arguments: TestFiles.feeds(in: "podcasts"))
  func realDescriptionsBecomeCleanText(feed: String) throws {
    let url = TestFiles.corpus.appendingPathComponent("podcasts").appendingPathComponent(feed)
    let document = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    for html in Self.matches(of: Self.cdata, in: document) {
      let text = HTMLText.plainText(html)
      let line = HTMLText.singleLine(html)
      if !html.contains("&lt;") && !html.contains("&amp;") {
        // A description cut off inside a tag keeps that last fragment as text.
        #expect(Self.matches(of: Self.completeTag, in: text).isEmpty, "markup left in \(text)")
        #expect(Self.matches(of: Self.reference, in: text).isEmpty, "reference left in \(text)")
      }
      #expect(!text.unicodeScalars.contains { isControl($0) && $0 != "\n" })
      #expect(!text.contains("  ") && !text.contains(" \n") && !text.contains("\n "))
      #expect(!text.contains("\n\n\n"))
      #expect(
        text.components(separatedBy: "\n\n").allSatisfy { !$0.contains("\n") && !$0.isEmpty }
          || text.isEmpty)
      #expect(text.first?.isWhitespace != true && text.last?.isWhitespace != true)
      #expect(line == text.replacingOccurrences(of: "\n\n", with: " "))
      #expect(HTMLText.plainText(escaped(text)) == text)
    }
  }

  private static let cdata = try! NSRegularExpression(
    pattern: #"<!\[CDATA\[(.*?)\]\]>"#, options: .dotMatchesLineSeparators)
  private static let completeTag = try! NSRegularExpression(pattern: #"<[a-zA-Z/!?][^>]*>"#)
  private static let reference = try! NSRegularExpression(
    pattern: #"&(amp|lt|gt|quot|apos|nbsp|#[0-9]+|#x[0-9a-fA-F]+);"#)

  /// The first group of each match, else the whole match.
  private static func matches(of pattern: NSRegularExpression, in text: String) -> [String] {
    let range = NSRange(text.startIndex..., in: text)
    return pattern.matches(in: text, range: range).compactMap { match in
      let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
      return Range(group, in: text).map { String(text[$0]) }
    }
  }

  private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
}

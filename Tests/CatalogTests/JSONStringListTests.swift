import Foundation
import Testing

@testable import Catalog

/// The list reader must read what JSONEncoder writes, and agree with JSONDecoder on
/// what is and is not a JSON array of strings.
@Suite struct JSONStringListTests {
  static let lists: [[String]] = [
    [],
    [""],
    ["Technology"],
    ["Society & Culture", "Documentary", "News/Politics"],
    ["quote \" backslash \\ slash /", "tab\tnewline\ncarriage\r", "\u{08}\u{0C}\u{01}\u{1F}"],
    ["Café Olé", "日本語のポッドキャスト", "emoji 🎙️👩🏽‍💻", "\u{202E}bidi\u{202C}"],
    ["\u{FFFF}", "\u{10FFFF}", "\u{E000}", "a\u{0}b"],
  ]

  @Test(arguments: lists)
  func readsWhatTheEncoderWrites(list: [String]) throws {
    let encoder = JSONEncoder()
    for formatting: JSONEncoder.OutputFormatting in [
      [.sortedKeys, .withoutEscapingSlashes], [], [.prettyPrinted],
    ] {
      encoder.outputFormatting = formatting
      let text = String(decoding: try encoder.encode(list), as: UTF8.self)
      #expect(JSONStringList.decode(text) == list, "\(text)")
    }
  }

  @Test(arguments: [
    #"["a","b"]"#, #" [ "a" , "b" ] "#, "[\n\t\"a\"\r\n]", #"["\u00e9\u00E9"]"#,
    #"["\ud83c\udf99"]"#, #"["\/\b\f\n\r\t\"\\"]"#, "[]", " [ ] ",
    // Not lists of strings:
    "[\"\u{FF}\"]",
    "", "[", "]", #"["a""#, #"[,"a"]"#, #"["a" "b"]"#, #"["a"] x"#, "[1]",
    "[null]", #"{"a":"b"}"#, #""a""#, #"["\x"]"#, #"["\u12"]"#, #"["\u12G4"]"#,
    "[\"tab\there\"]", "[\"new\nline\"]", #"[["a"]]"#, #"["a"],["b"]"#,
  ])
  func agreesWithJSONDecoder(text: String) {
    let expected = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
    #expect(JSONStringList.decode(text) == expected)
  }

  /// Where JSONDecoder is lenient (a trailing comma) or a string would not be Unicode
  /// (a lone surrogate), the column holds something no encoder wrote: an error.
  @Test(arguments: [#"["a",]"#, #"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#])
  func rejectsWhatNoEncoderWrites(text: String) {
    #expect(JSONStringList.decode(text) == nil)
  }
}

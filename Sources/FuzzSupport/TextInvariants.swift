import FeedViews

/// What must hold for any text handed to ``HTMLText`` and ``TerminalText``, as their
/// documentation promises: no control character or escape sequence gets through, whitespace
/// comes out collapsed and trimmed, and the result is valid UTF-8.
public enum TextInvariants {
  /// Each broken invariant, described; empty when all hold. The input is read as UTF-8
  /// (invalid bytes as U+FFFD) and, for the bytes entry point, as it is.
  public static func violations(_ input: UnsafeRawBufferPointer) -> [String] {
    let bytes = input.assumingMemoryBound(to: UInt8.self)
    let text = String(decoding: bytes, as: UTF8.self)
    var found: [String] = []
    func check(_ name: String, _ problem: String?) {
      if let problem { found.append("\(name): \(problem)") }
    }

    let plain = HTMLText.plainText(text)
    let line = HTMLText.singleLine(text)
    check("plainText", convertedTextProblem(plain, paragraphs: true))
    check("singleLine", convertedTextProblem(line, paragraphs: false))
    let joined = plain.replacing("\n\n", with: " ")
    if line != joined {
      found.append(
        "singleLine is not plainText with paragraph breaks as spaces: \(line.debugDescription) / \(joined.debugDescription)"
      )
    }
    check(
      "plainText(utf8:)",
      convertedTextProblem(
        HTMLText.plainText(utf8: bytes, paragraphs: true), paragraphs: true))
    check(
      "plainText(utf8:paragraphs: false)",
      convertedTextProblem(
        HTMLText.plainText(utf8: bytes, paragraphs: false), paragraphs: false))

    for (name, source) in [("text", text), ("plainText", plain)] {
      let safe = TerminalText.sanitized(source)
      check("sanitized(\(name))", terminalProblem(safe, singleLine: false))
      let safeLine = TerminalText.sanitizedLine(source)
      check("sanitizedLine(\(name))", terminalProblem(safeLine, singleLine: true))
      if !source.unicodeScalars.contains(where: { isUnsafe($0, singleLine: false) }),
        safe != source
      {
        found.append(
          "sanitized changed safe text: \(source.debugDescription) / \(safe.debugDescription)")
      }
    }
    return found
  }

  /// Why the output of ``HTMLText`` breaks its contract, or nil.
  static func convertedTextProblem(_ text: String, paragraphs: Bool) -> String? {
    if let problem = utf8Problem(text) { return problem }
    let scalars = Array(text.unicodeScalars)
    if let first = scalars.first, let last = scalars.last,
      isSpace(first) || isSpace(last) || first == "\n" || last == "\n"
    {
      return "untrimmed: \(text.debugDescription)"
    }
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      let value = scalar.value
      if value == 0x0A {
        guard paragraphs else { return "line feed in single-line text: \(text.debugDescription)" }
        guard index + 1 < scalars.count, scalars[index + 1] == "\n",
          index + 2 == scalars.count || !isSpace(scalars[index + 2]) && scalars[index + 2] != "\n",
          index == 0 || !isSpace(scalars[index - 1])
        else {
          return "a paragraph break other than \"\\n\\n\": \(text.debugDescription)"
        }
        index += 2
        continue
      }
      if value < 0x20 || (0x7F...0x9F).contains(value) {
        return "control character U+\(hex(value)) kept: \(text.debugDescription)"
      }
      if isSpace(scalar) && scalar != " " {
        return "whitespace U+\(hex(value)) not collapsed: \(text.debugDescription)"
      }
      if scalar == " ", index + 1 < scalars.count, isSpace(scalars[index + 1]) {
        return "whitespace run not collapsed: \(text.debugDescription)"
      }
      index += 1
    }
    return nil
  }

  /// Why the output of ``TerminalText`` is not safe to print, or nil.
  static func terminalProblem(_ text: String, singleLine: Bool) -> String? {
    if let problem = utf8Problem(text) { return problem }
    if let bad = text.unicodeScalars.first(where: { isUnsafe($0, singleLine: singleLine) }) {
      return "U+\(hex(bad.value)) kept: \(text.debugDescription)"
    }
    return nil
  }

  /// What a terminal must never receive from a feed.
  static func isUnsafe(_ scalar: Unicode.Scalar, singleLine: Bool) -> Bool {
    switch scalar.value {
    case 0x0A, 0x09: singleLine
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// The whitespace HTMLText collapses: ASCII and Unicode spaces.
  static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0B, 0x0C, 0x0D, 0x1C...0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029,
      0x202F, 0x205F, 0x3000:
      true
    default: false
    }
  }

  static func utf8Problem(_ text: String) -> String? {
    var copy = text
    let valid = copy.withUTF8 { String(validating: $0, as: UTF8.self) != nil }
    return valid ? nil : "invalid UTF-8: \(Array(text.utf8))"
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

import Foundation

/// Raw values from real feeds for the reader tests: the shared corpus beside the package and
/// the package's own SampleFeeds. Values are pulled out by a plain byte search, not by the
/// parser under test, so a parser bug cannot hide a reader bug.
enum ReaderCorpus {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let root = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared").appendingPathComponent("corpus")

  static let sampleFeeds = packageRoot.appendingPathComponent("SampleFeeds")

  /// Paths relative to the corpus root of the `.xml` files under `folder`, sorted.
  static func files(in folder: String) -> [String] {
    let base = root.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
    return walker.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".xml") }
      .map { folder + "/" + $0 }
      .sorted()
  }

  static func bytes(of relativePath: String) throws -> [UInt8] {
    Array(try Data(contentsOf: root.appendingPathComponent(relativePath)))
  }

  /// The names of the feeds in SampleFeeds, sorted.
  static var sampleFeedNames: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: sampleFeeds.path)) ?? []
    return names.filter { $0.hasSuffix(".xml") || $0.hasSuffix(".rdf") }.sorted()
  }

  /// A sample feed's bytes, UTF-16 turned into UTF-8 so the byte search finds its tags.
  static func sampleBytes(of name: String) throws -> [UInt8] {
    let data = try Data(contentsOf: sampleFeeds.appendingPathComponent(name))
    if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]),
      let text = String(data: data, encoding: .utf16)
    {
      return Array(text.utf8)
    }
    return Array(data)
  }

  /// The text of every `<tag>` or `<tag attr="...">` element, CDATA unwrapped.
  static func texts(of tag: String, in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    let open = Array("<\(tag)".utf8)
    var values: [ArraySlice<UInt8>] = []
    var index = 0
    while let start = find(open, in: bytes, from: index) {
      index = start + open.count
      guard index < bytes.count,
        bytes[index] == UInt8(ascii: ">") || bytes[index] == UInt8(ascii: " ")
          || bytes[index] == UInt8(ascii: "\t") || bytes[index] == UInt8(ascii: "\n"),
        let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")),
        bytes[close - 1] != UInt8(ascii: "/")
      else { continue }
      var textStart = close + 1
      var terminator = Array("</".utf8)
      let cdata = Array("<![CDATA[".utf8)
      if bytes[textStart...].starts(with: cdata) {
        textStart += cdata.count
        terminator = Array("]]>".utf8)
      }
      guard let end = find(terminator, in: bytes, from: textStart) else { break }
      values.append(bytes[textStart..<end])
      index = end
    }
    return values
  }

  /// The value of every `name="..."` attribute, in either quote.
  static func attributeValues(_ name: String, in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    let key = Array(" \(name)=".utf8)
    var values: [ArraySlice<UInt8>] = []
    var index = 0
    while let start = find(key, in: bytes, from: index) {
      index = start + key.count
      guard index < bytes.count else { break }
      let quote = bytes[index]
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
        let end = bytes[(index + 1)...].firstIndex(of: quote)
      else { continue }
      values.append(bytes[(index + 1)..<end])
      index = end
    }
    return values
  }

  /// memchr and memcmp, because a byte-by-byte search in a debug build takes seconds over
  /// the corpus.
  private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard let first = needle.first else { return nil }
    return haystack.withUnsafeBufferPointer { hay in
      guard let base = hay.baseAddress else { return nil }
      var index = start
      while index + needle.count <= hay.count,
        let hit = memchr(base + index, Int32(first), hay.count - index)
      {
        let candidate = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if candidate + needle.count > hay.count { return nil }
        if memcmp(base + candidate, needle, needle.count) == 0 { return candidate }
        index = candidate + 1
      }
      return nil
    }
  }
}

extension ArraySlice<UInt8> {
  /// The bytes as text for failure messages.
  var text: String { String(decoding: self, as: UTF8.self) }
}

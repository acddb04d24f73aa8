import Foundation

/// Feeds too large to build as one string, written to files a megabyte at a time.
enum HardeningFeeds {
  /// An RSS feed of `count` episodes (newest first) whose id comes from its `podcast:guid`.
  /// The second version (`revised`) has another podcast title, every episode retitled
  /// "Episode N, revised", and `added` more episodes.
  static func large(
    guid: String, count: Int, revised: Bool = false, added: Int = 0, to path: String
  ) throws {
    let writer = try FileWriter(path)
    let formatter = httpDateFormatter()
    writer.write(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>
      <title>\(revised ? "Large Show, revised" : "Large Show")</title>
      <podcast:guid>\(guid)</podcast:guid>
      <description>A feed with \(count + added) episodes.</description>

      """)
    for number in (0..<count + added).reversed() {
      let suffix = revised ? ", revised" : ""
      writer.write(
        """
        <item><title>Episode \(number)\(suffix)</title><guid>large-\(number)</guid>\
        <description>Words about episode \(number) for the search index.</description>\
        <pubDate>\(formatter.string(from: Date(timeIntervalSince1970: 1_500_000_000 + Double(number) * 3600)))</pubDate>\
        <enclosure url="https://cdn.example.com/large/\(number).mp3" type="audio/mpeg" length="\(number + 1000)"/></item>

        """)
    }
    writer.write("</channel></rss>\n")
    try writer.close()
  }

  /// A feed of a million `<item></item>`.
  static func millionEmptyItems(to path: String) throws {
    let writer = try FileWriter(path)
    writer.write("<rss version=\"2.0\"><channel><title>Empty Items</title>\n")
    let block = String(repeating: "<item></item>", count: 10_000)
    for _ in 0..<100 { writer.write(block) }
    writer.write("</channel></rss>\n")
    try writer.close()
  }

  /// A feed whose channel title holds `megabytes` MB of text, with one episode after it.
  static func hugeTitle(megabytes: Int, to path: String) throws {
    let writer = try FileWriter(path)
    writer.write("<rss version=\"2.0\"><channel><title>Huge ")
    let block = String(repeating: "title ", count: (1 << 20) / 6)
    for _ in 0..<megabytes { writer.write(block) }
    writer.write("</title><item><title>After</title><guid>after</guid></item></channel></rss>\n")
    try writer.close()
  }

  private static func httpDateFormatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
  }

  /// Writes text to a file through a buffer of a megabyte.
  private final class FileWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(_ path: String) throws {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw BuiltProducts.Failure(description: "cannot create \(path)")
      }
      handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) {
      buffer.append(contentsOf: text.utf8)
      if buffer.count >= 1 << 20 { flush() }
    }

    func close() throws {
      flush()
      try handle.close()
    }

    private func flush() {
      handle.write(Data(buffer))
      buffer.removeAll(keepingCapacity: true)
    }
  }
}

/// SplitMix64: seeded, so that a run with random delays can be replayed.
struct HardeningRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

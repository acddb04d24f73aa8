import Foundation
import Testing

/// `podcasts parse` end to end: the built binary on the sample feeds and the corpus, its JSON
/// read by jq.
@Suite struct ParseCommandTests {
  static let samples = BuiltProducts.packageRoot.appendingPathComponent("SampleFeeds")
  static let corpus = BuiltProducts.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/podcasts")

  static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

  /// jq programs over `parse --json` output and what they print.
  static let jqCases: [(file: String, program: String, output: String)] = [
    ("full-rss2.xml", ".id", "\"1dee190e-173f-5586-ad29-300b960f9312\""),
    ("full-rss2.xml", ".episodes | length", "4"),
    (
      "full-rss2.xml", ".episodes[0].enclosure.url",
      "\"https://cdn.example.com/tidepool/s1e3.mp3?a=1&b=2\""
    ),
    ("full-rss2.xml", ".episodes[0].duration", "3723"),
    ("full-rss2.xml", ".episodes[0].transcripts | map(.language) | join(\",\")", "\"en,es\""),
    ("full-rss2.xml", ".categories[0]", "\"Science/Nature\""),
    ("full-rss2.xml", ".warnings", "[]"),
    (
      "broken.xml", ".episodes | map(.title) | join(\"|\")",
      "\"Valve Radios Part One|Crackle, Hum and Hiss|Q&A with Listeners\""
    ),
    ("broken.xml", ".episodes[2].published", "\"2024-03-05T14:07:00Z\""),
    ("broken.xml", "[.episodes[0].published, .episodes[0].duration]", "[null,null]"),
    ("broken.xml", ".warnings | length > 0", "true"),
    ("atom-podcast.xml", ".format", "\"atom10\""),
    ("rss1.rdf", ".format", "\"rss1\""),
    ("utf16.xml", ".episodes[0].duration", "1638"),
    ("latin1.xml", ".title", "\"Épicerie Fine\""),
  ]

  @Test(arguments: jqCases)
  func jsonAnswersJq(file: String, program: String, output: String) throws {
    let jq = try #require(BuiltProducts.installedTool("jq"), "jq is needed")
    let parsed = try BuiltProducts.run(["parse", "--json", Self.sample(file)])
    #expect(parsed.status == 0)
    let answer = try BuiltProducts.runProcess(jq, ["-c", program], stdin: parsed.stdoutBytes)
    #expect(answer.status == 0, "\(answer.stderr)")
    #expect(answer.stdout == output + "\n")
  }

  @Test func textForPeopleNamesThePodcastAndItsNewestEpisodes() throws {
    let run = try BuiltProducts.run(
      ["parse", Self.sample("full-rss2.xml")], environment: ["COLUMNS": "80"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "Tidepool Radio")
    #expect(lines[1] == "by Marisol Okafor · rss2 · 4 episodes")
    #expect(run.stdout.contains("2024-03-15   1:02:03  Anemones Don't Blink"))
    #expect(lines.allSatisfy { $0.count <= 80 })
  }

  @Test func warningsGoToStderrNamingTheInput() throws {
    let run = try BuiltProducts.run(["parse", "--json", Self.sample("broken.xml")])
    #expect(run.status == 0)
    #expect(!run.stderrLines.isEmpty)
    #expect(
      run.stderrLines.allSatisfy {
        $0.hasPrefix("podcasts: warning: ") && $0.contains("broken.xml: ")
      })
    #expect(try JSONSerialization.jsonObject(with: Data(run.stdoutBytes)) is [String: Any])
  }

  @Test func quietSilencesWarnings() throws {
    let run = try BuiltProducts.run(["parse", "--quiet", Self.sample("broken.xml")])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
  }

  /// Inputs that are not feeds: one line on stderr naming the input and the reason, status 1.
  static let failures: [(content: String?, reason: String)] = [
    (nil, "file not found"),
    ("", "empty"),
    ("<html><body>Hello</body></html>", "HTML page"),
    ("{\"feed\": true}", "JSON"),
  ]

  @Test(arguments: failures)
  func notAFeedIsOneLineAndStatusOne(content: String?, reason: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("input.xml")
    if let content { try Data(content.utf8).write(to: file) }
    let run = try BuiltProducts.run(["parse", file.path])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderrLines.count == 1)
    #expect(run.stderr.hasPrefix("podcasts: ") && run.stderr.contains(file.path))
    #expect(run.stderr.contains(reason), "\(run.stderr)")
  }

  @Test func everyCorpusFeedParsesAsJSON() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
    #expect(files.count > 30)
    for file in files {
      let run = try BuiltProducts.run(
        ["parse", "--json", "--quiet", Self.corpus.appendingPathComponent(file).path])
      #expect(run.status == 0, "\(file): \(run.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(run.stdoutBytes)) as? [String: Any]
      #expect(object?["episodes"] is [Any], "\(file)")
    }
  }
}

import Foundation
import Testing

/// One ```console block of docs/json.md: commands after `$ `, each followed by the lines it
/// prints.
struct DocumentedExample: Sendable, CustomTestStringConvertible {
  struct Step: Sendable {
    let command: String
    let output: [String]
  }

  let line: Int
  let steps: [Step]

  var testDescription: String { "docs/json.md:\(line) \(steps.first?.command ?? "")" }

  static let page = BuiltProducts.packageRoot.appendingPathComponent("docs/json.md")

  static let all: [DocumentedExample] = {
    guard let text = try? String(contentsOf: page, encoding: .utf8) else { return [] }
    var examples: [DocumentedExample] = []
    var steps: [Step]?
    var start = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if line == "```console" {
        steps = []
        start = index + 1
      } else if line == "```", let finished = steps {
        examples.append(DocumentedExample(line: start, steps: finished))
        steps = nil
      } else if steps != nil, line.hasPrefix("$ ") {
        steps?.append(Step(command: String(line.dropFirst(2)), output: []))
      } else if let last = steps?.popLast() {
        steps?.append(Step(command: last.command, output: last.output + [String(line)]))
      }
    }
    return examples
  }()
}

@Suite("The jq examples of docs/json.md")
struct JSONDocumentationTests {
  @Test func thePageHasExamples() {
    #expect(DocumentedExample.all.count >= 8)
    #expect(DocumentedExample.all.allSatisfy { !$0.steps.isEmpty })
  }

  /// Runs each command with bash (pipefail on) as a reader would paste it, with the built
  /// `podcasts` first in PATH and PODCASTS_DB naming a fresh catalog of the three feeds the
  /// page describes.
  @Test(arguments: DocumentedExample.all)
  func exampleRunsAsShown(_ example: DocumentedExample) throws {
    let catalog = try TemporaryCatalog(copying: .threeFeeds)
    let bash = try #require(BuiltProducts.installedTool("bash"))
    let binaries = try BuiltProducts.executable().deletingLastPathComponent().path
    let path = binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    for step in example.steps {
      let run = try BuiltProducts.runProcess(
        bash, ["-o", "pipefail", "-c", step.command],
        environment: ["PATH": path, "PODCASTS_DB": catalog.path, "COLUMNS": "80"])
      #expect(run.status == 0, "\(step.command): \(run.stderr)")
      #expect(run.stderr.isEmpty, "\(step.command)")
      let expected = step.output.map { $0 + "\n" }.joined()
      #expect(run.stdout == expected, "\(step.command)")
    }
  }
}

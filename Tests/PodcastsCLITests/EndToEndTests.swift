import Foundation
import Testing

@testable import PodcastsCLI

@Suite("The built podcasts executable")
struct EndToEndTests {
  @Test(arguments: [["--help"], ["-h"], ["help"], []])
  func help(arguments: [String]) throws {
    let run = try BuiltProducts.run(arguments, environment: ["COLUMNS": "100"])
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    #expect(run.stdout.hasPrefix("OVERVIEW: " + PodcastsCommand.configuration.abstract))
    #expect(run.stdout.contains("\nUSAGE: podcasts "))
    #expect(run.stdout.contains("\nSUBCOMMANDS:\n"))
    #expect(run.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
  }

  @Test func version() throws {
    let run = try BuiltProducts.run(["--version"])
    #expect(run.status == 0)
    #expect(run.stdout == "podcasts \(PodcastsCommand.version)\n")
    #expect(run.stderr.isEmpty)
  }

  @Test(arguments: [
    (["--bogus"], "podcasts: unknown option '--bogus'", "See 'podcasts --help'."),
    (
      ["list", "--jsn"], "podcasts: unknown option '--jsn'; did you mean '--json'?",
      "See 'podcasts list --help'."
    ),
    (
      ["lsit"], "podcasts: unknown subcommand 'lsit'; did you mean 'list'?",
      "See 'podcasts --help'."
    ),
    (
      ["episodes", "x", "--limit", "many"],
      "podcasts: invalid value 'many' for option '--limit <n>': expected an integer",
      "See 'podcasts episodes --help'."
    ),
  ])
  func usageError(arguments: [String], message: String, hint: String) throws {
    let run = try BuiltProducts.run(arguments)
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderrLines == [message, hint])
  }

  @Test func failureOfTheWorkIsStatusOne() throws {
    // A folder that cannot exist, even for root: its parent is a file.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "podcasts-not-a-folder-" + UUID().uuidString)
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try BuiltProducts.run(
      ["list"], environment: ["PODCASTS_DB": file.appendingPathComponent("x.db").path])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderrLines.count == 1)
    #expect(run.stderr.hasPrefix("podcasts: "))
  }

  @Test func completionScriptMatchesTheInProcessOne() throws {
    let inProcess = CommandTree(root: PodcastsCommand.configuration)
    let run = try BuiltProducts.run(["completion", "bash"])
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("# bash completion for podcasts"))
    #expect(run.stdout.hasSuffix("complete -F _podcasts podcasts\n"))
    #expect(run.stdout == BashCompletion(tree: inProcess).script())
  }
}

import Foundation
import Testing

@testable import PodcastsCLI

/// Writes `text` to a new temporary directory and returns the file, removed with `cleanup`.
private func temporaryFile(named name: String, contents text: String) throws -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "podcasts-generated-" + UUID().uuidString)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let url = directory.appendingPathComponent(name)
  try Data(text.utf8).write(to: url)
  return url
}

private func cleanup(_ url: URL) {
  try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
}

private func generated(_ words: [String]) async throws -> String {
  let run = await runInProcess(words)
  try #require(run.status == 0, "\(words): \(run.stderr)")
  #expect(run.stderr.isEmpty)
  return run.stdout
}

private let tree = CommandTree(root: PodcastsCommand.configuration)
private let visibleSubcommands = PodcastsCommand.configuration.visibleSubcommands.map(\.name)

@Suite("Completion scripts and the manual page")
struct GeneratorTests {
  @Test(arguments: CompletionCommand.Shell.allCases)
  func scriptsNameEveryCommandAndOption(shell: CompletionCommand.Shell) async throws {
    let script = try await generated(["completion", shell.rawValue])
    for node in tree.nodes {
      for subcommand in node.subcommands {
        #expect(script.contains(subcommand.name), "\(shell) lacks \(subcommand.name)")
      }
      for option in node.options {
        #expect(script.contains(option.name), "\(shell) lacks --\(option.name)")
      }
    }
    #expect(script.contains("title subscribed latest"))
    #expect(script.contains("bash zsh fish"))
    #expect(!script.contains("generate-manpage"))
  }

  @Test(.enabled(if: BuiltProducts.installedTool("bash") != nil))
  func bashScriptIsValid() async throws {
    let script = try temporaryFile(
      named: "podcasts.bash", contents: try await generated(["completion", "bash"]))
    defer { cleanup(script) }
    let bash = try #require(BuiltProducts.installedTool("bash"))
    let check = try BuiltProducts.runProcess(bash, ["-n", script.path])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stderr.isEmpty)
  }

  struct CompletionCase: Sendable, CustomTestStringConvertible {
    /// The command line up to the cursor; the last word is the one being completed.
    let words: [String]
    let expected: [String]
    var testDescription: String { words.joined(separator: " ") }
  }

  static let completionCases: [CompletionCase] = [
    CompletionCase(words: ["podcasts", "li"], expected: ["list"]),
    CompletionCase(words: ["podcasts", ""], expected: visibleSubcommands),
    CompletionCase(words: ["podcasts", "-q", "e"], expected: ["episodes", "export"]),
    CompletionCase(words: ["podcasts", "--db", "x.db", "re"], expected: ["refresh"]),
    CompletionCase(words: ["podcasts", "list", "--s"], expected: ["--sort"]),
    CompletionCase(
      words: ["podcasts", "list", "--sort", ""], expected: ["title", "subscribed", "latest"]),
    CompletionCase(words: ["podcasts", "list", "--sort", "=", "l"], expected: ["latest"]),
    CompletionCase(words: ["podcasts", "--db", "x", "list", "--so"], expected: ["--sort"]),
    CompletionCase(words: ["podcasts", "list", "--db", "x", "--j"], expected: ["--json"]),
    CompletionCase(words: ["podcasts", "completion", ""], expected: ["bash", "zsh", "fish"]),
    CompletionCase(words: ["podcasts", "completion", "bash", ""], expected: []),
    CompletionCase(words: ["podcasts", "help", "un"], expected: ["unsubscribe"]),
    CompletionCase(words: ["podcasts", "episodes", "-n", ""], expected: []),
    CompletionCase(words: ["podcasts", "refresh", "--j"], expected: ["--jobs", "--json"]),
    CompletionCase(words: ["podcasts", "--v"], expected: ["--version"]),
    CompletionCase(words: ["podcasts", "list", "--v"], expected: []),
  ]

  /// What bash completes for every case, from one bash process: case index -> candidates.
  static let bashCompletions: Result<[[String]], BuiltProducts.Failure> = {
    guard let bash = BuiltProducts.installedTool("bash") else {
      return .failure(BuiltProducts.Failure(description: "no bash"))
    }
    do {
      let script = try temporaryFile(
        named: "podcasts.bash", contents: BashCompletion(tree: tree).script())
      defer { cleanup(script) }
      var program = "source \(ShellQuoting.single(script.path))\n"
      for testCase in completionCases {
        program += """
          COMP_WORDS=(\(testCase.words.map(ShellQuoting.single).joined(separator: " ")))
          COMP_CWORD=\(testCase.words.count - 1)
          _podcasts
          printf '%s\\n' "${COMPREPLY[@]}"
          echo '@@'

          """
      }
      let run = try BuiltProducts.runProcess(bash, ["--norc", "-c", program])
      guard run.status == 0, run.stderr.isEmpty else {
        return .failure(BuiltProducts.Failure(description: "bash: \(run.status) \(run.stderr)"))
      }
      return .success(candidatesPerCase(run.stdout))
    } catch {
      return .failure(BuiltProducts.Failure(description: "\(error)"))
    }
  }()

  /// Output blocks ended by `@@` lines, each a list of candidates (a fish candidate's
  /// description after a tab is dropped).
  static func candidatesPerCase(_ output: String) -> [[String]] {
    var cases: [[String]] = [[]]
    for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
      if line == "@@" {
        cases.append([])
      } else {
        cases[cases.count - 1].append(String(line.prefix { $0 != "\t" }))
      }
    }
    return Array(cases.dropLast())
  }

  @Test(
    .enabled(if: BuiltProducts.installedTool("bash") != nil),
    arguments: completionCases.indices)
  func bashCompletes(caseIndex: Int) throws {
    let testCase = Self.completionCases[caseIndex]
    let results = try Self.bashCompletions.get()
    try #require(results.count == Self.completionCases.count)
    #expect(results[caseIndex].sorted() == testCase.expected.sorted(), "\(testCase.words)")
  }

  @Test(
    .enabled(if: BuiltProducts.installedTool("bash") != nil),
    arguments: [
      ["podcasts", "parse"], ["podcasts", "import"], ["podcasts", "export", "-o"],
      ["podcasts", "--db"],
    ])
  func bashCompletesFiles(words: [String]) async throws {
    let script = try temporaryFile(
      named: "podcasts.bash", contents: try await generated(["completion", "bash"]))
    defer { cleanup(script) }
    let directory = script.deletingLastPathComponent()
    try Data().write(to: directory.appendingPathComponent("feed.xml"))
    try Data().write(to: directory.appendingPathComponent("feeds.opml"))
    let all = words + [directory.path + "/fe"]
    let program = """
      source \(ShellQuoting.single(script.path))
      COMP_WORDS=(\(all.map(ShellQuoting.single).joined(separator: " ")))
      COMP_CWORD=\(all.count - 1)
      _podcasts
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let bash = try #require(BuiltProducts.installedTool("bash"))
    let run = try BuiltProducts.runProcess(bash, ["--norc", "-c", program])
    #expect(
      run.stdout.split(separator: "\n").map(String.init).sorted() == [
        directory.path + "/feed.xml", directory.path + "/feeds.opml",
      ])
  }

  @Test(.enabled(if: BuiltProducts.installedTool("zsh") != nil))
  func zshScriptIsValidAndRegisters() async throws {
    let script = try temporaryFile(
      named: "_podcasts", contents: try await generated(["completion", "zsh"]))
    defer { cleanup(script) }
    let zsh = try #require(BuiltProducts.installedTool("zsh"))
    let check = try BuiltProducts.runProcess(zsh, ["-n", script.path])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stderr.isEmpty)
    let home = script.deletingLastPathComponent().path
    let program = """
      autoload -U compinit && compinit -u -d \(ShellQuoting.single(home + "/zcompdump"))
      source \(ShellQuoting.single(script.path))
      print -r -- $_comps[podcasts]
      whence -w _podcasts_list _podcasts_refresh _podcasts_help
      """
    let run = try BuiltProducts.runProcess(zsh, ["-f", "-c", program], environment: ["HOME": home])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout
        == "_podcasts\n_podcasts_list: function\n_podcasts_refresh: function\n_podcasts_help: function\n"
    )
  }

  @Test(.enabled(if: BuiltProducts.installedTool("fish") != nil))
  func fishScriptIsValid() async throws {
    let script = try temporaryFile(
      named: "podcasts.fish", contents: try await generated(["completion", "fish"]))
    defer { cleanup(script) }
    let fish = try #require(BuiltProducts.installedTool("fish"))
    let check = try BuiltProducts.runProcess(fish, ["--no-execute", script.path])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stderr.isEmpty)
  }

  /// What fish completes for every case, from one fish process: case index -> candidates.
  static let fishCompletions: Result<[[String]], BuiltProducts.Failure> = {
    guard let fish = BuiltProducts.installedTool("fish") else {
      return .failure(BuiltProducts.Failure(description: "no fish"))
    }
    do {
      let script = try temporaryFile(
        named: "podcasts.fish", contents: FishCompletion(tree: tree).script())
      defer { cleanup(script) }
      var program = "source \(ShellQuoting.fish(script.path))\n"
      for testCase in completionCases {
        program += "complete -C \(ShellQuoting.fish(fishLine(testCase.words)))\necho '@@'\n"
      }
      let home = script.deletingLastPathComponent().path
      let run = try BuiltProducts.runProcess(
        fish, ["--no-config", "-c", program],
        environment: ["HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home])
      guard run.status == 0, run.stderr.isEmpty else {
        return .failure(BuiltProducts.Failure(description: "fish: \(run.status) \(run.stderr)"))
      }
      return .success(candidatesPerCase(run.stdout))
    } catch {
      return .failure(BuiltProducts.Failure(description: "\(error)"))
    }
  }()

  /// The command line as typed in fish, which reads `--sort=l` as one word: bash's separate
  /// `=` word is joined back.
  static func fishLine(_ words: [String]) -> String {
    var typed: [String] = []
    var joinNext = false
    for word in words {
      if word == "=" {
        typed[typed.count - 1] += "="
        joinNext = true
      } else if joinNext {
        typed[typed.count - 1] += word
        joinNext = false
      } else {
        typed.append(word)
      }
    }
    return typed.joined(separator: " ")
  }

  @Test(
    .enabled(if: BuiltProducts.installedTool("fish") != nil),
    arguments: completionCases.indices)
  func fishCompletes(caseIndex: Int) throws {
    let testCase = Self.completionCases[caseIndex]
    let results = try Self.fishCompletions.get()
    try #require(results.count == Self.completionCases.count)
    // fish offers `--sort=latest` for `--sort=l`.
    let expected = testCase.expected.map { candidate in
      testCase.words.contains("=")
        ? testCase.words[testCase.words.count - 3] + "=" + candidate
        : candidate
    }
    #expect(results[caseIndex].sorted() == expected.sorted(), "\(testCase.words)")
  }

  @Test func manPageNamesEveryCommandAndOption() async throws {
    let page = try await generated(["generate-manpage"])
    #expect(page.contains(".TH \"PODCASTS\" 1 2024-03-05 \"podcasts \(PodcastsCommand.version)\""))
    for section in [
      "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "ENVIRONMENT", "EXIT STATUS",
    ] {
      #expect(page.contains("\n.SH \(section)"), "\(section)")
    }
    for node in tree.nodes.dropFirst() {
      #expect(page.contains(".SS \"podcasts \(node.path)\""))
      for option in node.configuration.options {
        #expect(page.contains("\\fB" + option.longForm.replacingOccurrences(of: "-", with: "\\-")))
      }
    }
    #expect(!page.contains("generate\\-manpage\""))
  }

  @Test func manPageDateFollowsSourceDateEpoch() async throws {
    let run = await runInProcess(["generate-manpage"], environment: ["SOURCE_DATE_EPOCH": "0"])
    #expect(run.stdout.contains(" 1 1970-01-01 "))
    let bad = await runInProcess(["generate-manpage"], environment: ["SOURCE_DATE_EPOCH": "soon"])
    #expect(bad.status == 1)
    #expect(bad.stderr == "podcasts: SOURCE_DATE_EPOCH is not a number of seconds: 'soon'\n")
  }

  @Test(arguments: [
    (0.0, "1970-01-01"), (951_782_400, "2000-02-29"), (1_709_647_620, "2024-03-05"),
    (4_102_444_799, "2099-12-31"), (-86_400, "1969-12-31"),
  ])
  func manPageDates(seconds: Double, day: String) {
    #expect(ManPage.day(Date(timeIntervalSince1970: seconds)) == day)
  }

  @Test(.enabled(if: BuiltProducts.installedTool("groff") != nil))
  func manPagePassesGroffWithAllWarnings() async throws {
    let page = try temporaryFile(
      named: "podcasts.1", contents: try await generated(["generate-manpage"]))
    defer { cleanup(page) }
    let groff = try #require(BuiltProducts.installedTool("groff"))
    let lint = try BuiltProducts.runProcess(groff, ["-man", "-ww", "-z", "-Tutf8", page.path])
    #expect(lint.status == 0)
    #expect(lint.stderr.isEmpty, "\(lint.stderr)")
    let rendered = try BuiltProducts.runProcess(groff, ["-man", "-Tutf8", "-P-cbou", page.path])
    #expect(rendered.stdout.contains("podcasts episodes"))
    #expect(rendered.stdout.contains("EXIT STATUS"))
  }

  @Test(.enabled(if: BuiltProducts.installedTool("mandoc") != nil))
  func manPagePassesMandocLint() async throws {
    let page = try temporaryFile(
      named: "podcasts.1", contents: try await generated(["generate-manpage"]))
    defer { cleanup(page) }
    let mandoc = try #require(BuiltProducts.installedTool("mandoc"))
    let lint = try BuiltProducts.runProcess(mandoc, ["-T", "lint", page.path])
    #expect(lint.status == 0)
    #expect(lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint.stdout)\(lint.stderr)")
  }
}

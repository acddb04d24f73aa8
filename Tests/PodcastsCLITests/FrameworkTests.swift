import Foundation
import Testing

@testable import PodcastsCLI

/// A small command tree exercising what the podcasts commands do not: an optional single
/// argument, nested subcommands, a typed global option from the environment, and the ways a
/// run can fail.
private struct FixtureRoot: ParsableCommand {
  static let level = Option<Int>(
    "level", valueName: "n", help: "A typed global.", environment: "FIXTURE_LEVEL")
  static let configuration = CommandConfiguration(
    name: "fixture", abstract: "A fixture.",
    subcommands: [FixtureEcho.self, FixtureGroup.self, FixtureFail.self, FixtureFailLater.self],
    globalOptions: [level, GlobalOptions.quiet], version: "9.9.9")

  init(_ arguments: ParsedArguments) {}
  func run(_ context: CommandContext) throws {}
}

private struct FixtureEcho: ParsableCommand {
  enum Mode: String, CaseIterable, ExpressibleByArgument {
    case fast
    case slow
  }

  static let first = Argument<String>("first", help: "Required.")
  static let second = Argument<Int>("second", arity: .optional, help: "Optional, typed.")
  static let rest = Argument<String>("rest", arity: .zeroOrMore, help: "The rest.")
  static let ratio = Option<Double>("ratio", short: "r", valueName: "x", help: "A number.")
  static let mode = Option<Mode>("mode", valueName: "mode", help: "A mode.", default: .fast)
  static let verbose = Flag("verbose", short: "v", help: "Talk.")
  static let configuration = CommandConfiguration(
    name: "echo", abstract: "Echo what was parsed.", arguments: [first, second, rest],
    options: [ratio, mode, verbose])

  let description: String

  init(_ arguments: ParsedArguments) throws {
    let second = try arguments.optionalArgument(Self.second).map(String.init) ?? "-"
    let ratio = try arguments.value(Self.ratio).map { String($0) } ?? "-"
    description = [
      try arguments.argument(Self.first), second,
      try arguments.arguments(Self.rest).map { $0 }.joined(separator: ",").nonEmpty ?? "-", ratio,
      try arguments.value(Self.mode, default: .fast).rawValue,
      String(arguments.flag(Self.verbose)),
    ].joined(separator: " ")
  }

  func run(_ context: CommandContext) throws {
    context.console.write(description + "\n")
    context.console.note("note")
    context.console.warning("careful")
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

private struct FixtureGroup: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "group", abstract: "A group.", subcommands: [FixtureLeaf.self])
  init(_ arguments: ParsedArguments) {}
  func run(_ context: CommandContext) throws {
    context.console.write("group ran\n")
  }
}

private struct FixtureLeaf: ParsableCommand {
  static let flag = Flag("flag", help: "A flag.")
  static let configuration = CommandConfiguration(
    name: "leaf", abstract: "A leaf.", options: [flag])
  let flag: Bool
  init(_ arguments: ParsedArguments) { flag = arguments.flag(Self.flag) }
  func run(_ context: CommandContext) throws {
    context.console.write("leaf \(flag)\n")
  }
}

private struct MultiLineError: Error, CustomStringConvertible {
  var description: String { "first line\n  second line\n" }
}

private struct FixtureFail: ParsableCommand {
  enum Kind: String, CaseIterable, ExpressibleByArgument {
    case failure
    case multiline
    case exit
    case usage
    case foundation
  }

  static let kind = Argument<Kind>("kind", help: "How to fail.")
  static let configuration = CommandConfiguration(
    name: "fail", abstract: "Fail.", arguments: [kind])
  let kind: Kind
  init(_ arguments: ParsedArguments) throws { kind = try arguments.argument(Self.kind) }
  func run(_ context: CommandContext) throws { try Self.fail(kind, context) }

  static func fail(_ kind: Kind, _ context: CommandContext) throws {
    context.console.write("partial output\n")
    switch kind {
    case .failure: throw CommandFailure("feed not found: x")
    case .multiline: throw MultiLineError()
    case .exit: throw ExitCode(3)
    case .usage: throw UsageError("--a and --b exclude each other")
    case .foundation:
      _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/podcasts-test-file"))
    }
  }
}

/// Fails as `fail` does, after awaiting: the errors of an awaited command take the same way.
private struct FixtureFailLater: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    name: "fail-later", abstract: "Fail after awaiting.", arguments: [FixtureFail.kind])
  let kind: FixtureFail.Kind
  init(_ arguments: ParsedArguments) throws { kind = try arguments.argument(FixtureFail.kind) }
  func run(_ context: CommandContext) async throws {
    await Task.yield()
    try FixtureFail.fail(kind, context)
  }
}

@Suite("The command framework, on a fixture command tree")
struct FrameworkTests {
  @Test(arguments: [
    (["echo", "a"], "a - - - fast false"),
    (["echo", "a", "2"], "a 2 - - fast false"),
    (["echo", "a", "2", "x", "y"], "a 2 x,y - fast false"),
    (["echo", "-vr", "0.5", "a", "--mode=slow"], "a - - 0.5 slow true"),
    (["echo", "a", "-r-2", "-v"], "a - - -2.0 fast true"),
    (["echo", "--", "-v", "3", "--mode"], "-v 3 --mode - fast false"),
    (["--level", "3", "echo", "a"], "a - - - fast false"),
  ])
  func arguments(words: [String], expected: String) async {
    let run = await runInProcess(words, root: FixtureRoot.self)
    #expect(run.status == 0)
    #expect(run.stdout == expected + "\n")
    #expect(run.stderr == "note\npodcasts: warning: careful\n")
  }

  @Test func quietSilencesNotesAndWarnings() async {
    for words in [["-q", "echo", "a"], ["echo", "a", "--quiet"]] {
      let run = await runInProcess(words, root: FixtureRoot.self)
      #expect(run.status == 0)
      #expect(run.stdout == "a - - - fast false\n")
      #expect(run.stderr.isEmpty)
    }
  }

  @Test(arguments: [
    (
      ["echo", "a", "b"], "invalid value 'b' for argument <second>: expected an integer",
      "fixture echo"
    ),
    (
      ["echo", "a", "--mode", "x"],
      "invalid value 'x' for option '--mode <mode>': expected one of fast, slow", "fixture echo"
    ),
    (
      ["echo", "a", "--ratio", "nan"],
      "invalid value 'nan' for option '--ratio <x>': expected a number", "fixture echo"
    ),
    (["group", "laef"], "unknown subcommand 'laef'; did you mean 'leaf'?", "fixture group"),
    (
      ["group", "leaf", "--flga"], "unknown option '--flga'; did you mean '--flag'?",
      "fixture group leaf"
    ),
    (
      ["--level", "x", "echo", "a"],
      "invalid value 'x' for option '--level <n>': expected an integer", "fixture"
    ),
    (["fail", "usage"], "--a and --b exclude each other", "fixture fail"),
    (["fail-later", "usage"], "--a and --b exclude each other", "fixture fail-later"),
  ])
  func usageErrors(words: [String], message: String, helpOf: String) async {
    let run = await runInProcess(words, root: FixtureRoot.self)
    #expect(run.status == 2)
    #expect(run.stderr == "podcasts: \(message)\nSee '\(helpOf) --help'.\n")
  }

  @Test func invalidEnvironmentValueIsAUsageError() async {
    let run = await runInProcess(
      ["echo", "a"], environment: ["FIXTURE_LEVEL": "high"], root: FixtureRoot.self)
    #expect(run.status == 2)
    #expect(
      run.stderrLines.first
        == "podcasts: invalid value 'high' in FIXTURE_LEVEL for option '--level <n>': expected an integer"
    )
  }

  /// Only a command that awaits is handed back to be awaited; the others have run when
  /// `start` returns, without the concurrency runtime.
  @Test(arguments: [
    (["echo", "a"], false), (["group", "leaf"], false), (["--help"], false),
    (["fail", "exit"], false), (["fail-later", "exit"], true), (["nonsense"], false),
  ])
  func onlyAwaitingCommandsAreLeftToAwait(words: [String], awaits: Bool) {
    let start = CommandRunner.start(
      root: FixtureRoot.self, arguments: ["fixture"] + words,
      console: .capturing(environment: [:], stdoutIsTerminal: false, now: { Date() }))
    switch start {
    case .finished: #expect(!awaits)
    case .awaiting: #expect(awaits)
    }
  }

  @Test func nestedSubcommands() async {
    let leaf = await runInProcess(["group", "leaf", "--flag"], root: FixtureRoot.self)
    #expect(leaf.stdout == "leaf true\n")
    let group = await runInProcess(["group"], root: FixtureRoot.self)
    #expect(group.stdout == "group ran\n")
    let help = await runInProcess(["group", "leaf", "--help"], root: FixtureRoot.self)
    #expect(help.stdout.contains("USAGE: fixture group leaf [--flag]"))
    let version = await runInProcess(["--version"], root: FixtureRoot.self)
    #expect(version.stdout == "fixture 9.9.9\n")
  }

  @Test(
    arguments: ["fail", "fail-later"],
    [
      ("failure", Int32(1), "podcasts: feed not found: x\n"),
      ("multiline", 1, "podcasts: first line second line\n"),
      ("exit", 3, ""),
    ])
  func runFailures(command: String, failure: (kind: String, status: Int32, stderr: String)) async {
    let (kind, status, stderr) = failure
    let run = await runInProcess([command, kind], root: FixtureRoot.self)
    #expect(run.status == status)
    #expect(run.stderr == stderr)
    #expect(run.stdout == "partial output\n")
  }

  @Test(arguments: ["fail", "fail-later"])
  func foundationErrorsAreOneReadableLine(command: String) async {
    let run = await runInProcess([command, "foundation"], root: FixtureRoot.self)
    #expect(run.status == 1)
    #expect(run.stderrLines.count == 1)
    #expect(run.stderr.hasPrefix("podcasts: "))
    #expect(!run.stderr.contains("Error Domain"))
    #expect(run.stderr.hasSuffix(" (/nonexistent/podcasts-test-file)\n"))
  }
}

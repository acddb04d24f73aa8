import Testing

@testable import PodcastsCLI

@Suite("Parsing option forms into commands")
struct ParsingTests {
  struct EpisodesCase: Sendable, CustomTestStringConvertible {
    let words: [String]
    let id: String
    let limit: Int?
    let json: Bool
    let quiet: Bool
    var testDescription: String { words.joined(separator: " ") }
  }

  @Test(arguments: [
    EpisodesCase(words: ["episodes", "abc"], id: "abc", limit: nil, json: false, quiet: false),
    EpisodesCase(
      words: ["episodes", "abc", "--limit", "20"], id: "abc", limit: 20, json: false, quiet: false),
    EpisodesCase(
      words: ["episodes", "abc", "--limit=20"], id: "abc", limit: 20, json: false, quiet: false),
    EpisodesCase(
      words: ["episodes", "-n", "20", "abc"], id: "abc", limit: 20, json: false, quiet: false),
    EpisodesCase(
      words: ["episodes", "-n20", "abc"], id: "abc", limit: 20, json: false, quiet: false),
    EpisodesCase(
      words: ["episodes", "-n=20", "abc"], id: "abc", limit: 20, json: false, quiet: false),
    EpisodesCase(
      words: ["episodes", "abc", "-qn7"], id: "abc", limit: 7, json: false, quiet: true),
    EpisodesCase(
      words: ["episodes", "--limit", "3", "abc", "--limit", "9"], id: "abc", limit: 9,
      json: false, quiet: false),
    EpisodesCase(
      words: ["episodes", "--json", "abc", "--quiet"], id: "abc", limit: nil, json: true,
      quiet: true),
    EpisodesCase(
      words: ["episodes", "--", "-n"], id: "-n", limit: nil, json: false, quiet: false),
    EpisodesCase(
      words: ["episodes", "--json", "--", "--json"], id: "--json", limit: nil, json: true,
      quiet: false),
  ])
  func episodesOptions(_ testCase: EpisodesCase) throws {
    let (command, globals) = try parseCommand(testCase.words, as: EpisodesCommand.self)
    #expect(command.id == testCase.id)
    #expect(command.limit == testCase.limit)
    #expect(command.json == testCase.json)
    #expect(globals.isQuiet == testCase.quiet)
  }

  struct RefreshCase: Sendable, CustomTestStringConvertible {
    let words: [String]
    let ids: [String]
    let jobs: Int
    let timeout: Double
    let json: Bool
    var testDescription: String { words.joined(separator: " ") }
  }

  @Test(arguments: [
    RefreshCase(words: ["refresh"], ids: [], jobs: 8, timeout: 30, json: false),
    RefreshCase(
      words: ["refresh", "a", "b", "--jobs", "3", "--timeout=2.5"], ids: ["a", "b"], jobs: 3,
      timeout: 2.5, json: false),
    RefreshCase(
      words: ["refresh", "-j2", "--json", "x"], ids: ["x"], jobs: 2, timeout: 30, json: true),
    RefreshCase(
      words: ["refresh", "--timeout", "1e1", "-j", "1"], ids: [], jobs: 1, timeout: 10,
      json: false),
    RefreshCase(
      words: ["refresh", "--", "--jobs", "-", "-5"], ids: ["--jobs", "-", "-5"], jobs: 8,
      timeout: 30, json: false),
  ])
  func refreshOptions(_ testCase: RefreshCase) throws {
    let (command, _) = try parseCommand(testCase.words, as: RefreshCommand.self)
    #expect(command.ids == testCase.ids)
    #expect(command.jobs == testCase.jobs)
    #expect(command.timeout == testCase.timeout)
    #expect(command.json == testCase.json)
  }

  @Test(arguments: [
    (["list"], ListCommand.SortOrder.title),
    (["list", "--sort", "title"], .title),
    (["list", "--sort=subscribed"], .subscribed),
    (["list", "--sort", "latest", "--json"], .latest),
  ])
  func listSortOrder(words: [String], expected: ListCommand.SortOrder) throws {
    let (command, _) = try parseCommand(words, as: ListCommand.self)
    #expect(command.sort == expected)
    #expect(command.json == words.contains("--json"))
  }

  @Test func variadicAndSingleArguments() throws {
    #expect(
      try parseCommand(["add", "u1", "u2", "u3"], as: AddCommand.self).command.feeds == [
        "u1", "u2", "u3",
      ])
    #expect(
      try parseCommand(["unsubscribe", "a", "--json", "b"], as: UnsubscribeCommand.self)
        .command.ids == ["a", "b"])
    #expect(
      try parseCommand(["search", "-5", "swift"], as: SearchCommand.self).command.words == [
        "-5", "swift",
      ])
    let importing = try parseCommand(["import", "-", "--no-fetch"], as: ImportCommand.self).command
    #expect(importing.file == "-")
    #expect(importing.noFetch)
    let exporting = try parseCommand(["export", "-o", "out.opml"], as: ExportCommand.self).command
    #expect(exporting.output == "out.opml")
    #expect(!exporting.includeCredentials)
    #expect(
      try parseCommand(["parse", "feed.xml"], as: ParseCommand.self).command.source
        == "feed.xml")
    #expect(
      try parseCommand(["completion", "zsh"], as: CompletionCommand.self).command.shell
        == .zsh)
    #expect(
      try parseCommand(["help", "list"], as: HelpCommand.self).command.subcommands == [
        "list"
      ])
  }

  struct GlobalsCase: Sendable, CustomTestStringConvertible {
    let words: [String]
    let environment: [String: String]
    let database: String?
    let quiet: Bool
    var testDescription: String { words.joined(separator: " ") + " \(environment)" }
  }

  @Test(arguments: [
    GlobalsCase(words: ["list"], environment: [:], database: nil, quiet: false),
    GlobalsCase(
      words: ["--db", "/d/a.db", "list"], environment: [:], database: "/d/a.db", quiet: false),
    GlobalsCase(
      words: ["list", "--db", "/d/a.db"], environment: [:], database: "/d/a.db", quiet: false),
    GlobalsCase(
      words: ["--db=/d/a.db", "list", "-q"], environment: [:], database: "/d/a.db", quiet: true),
    GlobalsCase(words: ["-q", "list"], environment: [:], database: nil, quiet: true),
    GlobalsCase(
      words: ["--quiet", "list", "--json"], environment: [:], database: nil, quiet: true),
    GlobalsCase(
      words: ["list"], environment: ["PODCASTS_DB": "/env.db"], database: "/env.db", quiet: false),
    GlobalsCase(
      words: ["list", "--db", "/flag.db"], environment: ["PODCASTS_DB": "/env.db"],
      database: "/flag.db", quiet: false),
    GlobalsCase(words: ["list"], environment: ["PODCASTS_DB": ""], database: nil, quiet: false),
  ])
  func globalOptionsBeforeOrAfterTheSubcommand(_ testCase: GlobalsCase) throws {
    let (_, globals) = try parseCommand(
      testCase.words, as: ListCommand.self, environment: testCase.environment)
    #expect(globals == GlobalOptions(databasePath: testCase.database, isQuiet: testCase.quiet))
  }

  @Test(arguments: [
    ["--help"], ["-h"], ["help"], ["list", "--help"], ["--help", "list"],
    ["list", "-h", "--bogus"],
    ["list", "--bogus", "--help"], ["episodes", "--help"], ["--version", "--help"],
    ["list", "-qh"],
  ])
  func helpWinsOverEverythingElse(words: [String]) throws {
    let invocation = try CommandParser(root: PodcastsCommand.self, environment: [:]).parse(words)
    switch invocation {
    case .help(let path):
      let expected = words.first { !$0.hasPrefix("-") && $0 != "help" }
      #expect(path.last?.name == expected ?? "podcasts")
    case .run(let command, _, _):
      #expect(command is HelpCommand)
    case .version:
      Issue.record("help asked for, got version")
    }
  }

  @Test func helpAfterDoubleDashIsAnArgument() throws {
    let (command, _) = try parseCommand(["parse", "--", "--help"], as: ParseCommand.self)
    #expect(command.source == "--help")
  }

  @Test func versionOnlyAtTheTop() throws {
    let invocation = try CommandParser(root: PodcastsCommand.self, environment: [:])
      .parse(["--version"])
    guard case .version = invocation else {
      Issue.record("expected version, got \(invocation)")
      return
    }
    #expect(throws: UsageError.self) {
      try CommandParser(root: PodcastsCommand.self, environment: [:]).parse(["list", "--version"])
    }
  }
}

import Testing

@testable import PodcastsCLI

@Suite("Usage errors: exit 2, one message line and a hint")
struct UsageErrorTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let words: [String]
    let message: String
    /// The command whose help the hint names.
    let helpOf: String
    var environment: [String: String] = [:]
    var testDescription: String { words.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(
      words: ["lst"], message: "unknown subcommand 'lst'; did you mean 'list'?", helpOf: "podcasts"),
    Case(
      words: ["refersh"], message: "unknown subcommand 'refersh'; did you mean 'refresh'?",
      helpOf: "podcasts"),
    Case(
      words: ["unsub", "x"], message: "unknown subcommand 'unsub'; did you mean 'unsubscribe'?",
      helpOf: "podcasts"),
    Case(words: ["frobnicate"], message: "unknown subcommand 'frobnicate'", helpOf: "podcasts"),
    Case(
      words: ["--db", "x", "epsiodes"],
      message: "unknown subcommand 'epsiodes'; did you mean 'episodes'?", helpOf: "podcasts"),
    Case(words: ["--bogus"], message: "unknown option '--bogus'", helpOf: "podcasts"),
    Case(
      words: ["list", "--db="],
      message: "invalid value '' for option '--db <path>': expected a file path",
      helpOf: "podcasts list"),
    Case(words: ["--db"], message: "missing value for option '--db <path>'", helpOf: "podcasts"),
    Case(
      words: ["list", "--jsn"], message: "unknown option '--jsn'; did you mean '--json'?",
      helpOf: "podcasts list"),
    Case(words: ["list", "-x"], message: "unknown option '-x'", helpOf: "podcasts list"),
    Case(words: ["list", "-qx"], message: "unknown option '-x'", helpOf: "podcasts list"),
    Case(
      words: ["list", "--version"], message: "unknown option '--version'", helpOf: "podcasts list"),
    Case(
      words: ["list", "--json=yes"], message: "option '--json' does not take a value",
      helpOf: "podcasts list"),
    Case(
      words: ["list", "--sort", "foo"],
      message:
        "invalid value 'foo' for option '--sort <order>': expected one of title, subscribed, latest",
      helpOf: "podcasts list"),
    Case(
      words: ["list", "extra"], message: "unexpected argument 'extra'", helpOf: "podcasts list"),
    Case(words: ["episodes"], message: "missing argument <id>", helpOf: "podcasts episodes"),
    Case(words: ["add"], message: "missing argument <feed>", helpOf: "podcasts add"),
    Case(words: ["add", "--json"], message: "missing argument <feed>", helpOf: "podcasts add"),
    Case(words: ["show", "a", "b"], message: "unexpected argument 'b'", helpOf: "podcasts show"),
    Case(
      words: ["episodes", "x", "--limit"], message: "missing value for option '--limit <n>'",
      helpOf: "podcasts episodes"),
    Case(
      words: ["episodes", "x", "--limit", "--json"],
      message: "missing value for option '--limit <n>'", helpOf: "podcasts episodes"),
    Case(
      words: ["episodes", "x", "-n"], message: "missing value for option '--limit <n>'",
      helpOf: "podcasts episodes"),
    Case(
      words: ["episodes", "x", "--limit", "abc"],
      message: "invalid value 'abc' for option '--limit <n>': expected an integer",
      helpOf: "podcasts episodes"),
    Case(
      words: ["episodes", "x", "-n0"],
      message: "invalid value '0' for option '--limit <n>': expected a positive integer",
      helpOf: "podcasts episodes"),
    Case(
      words: ["search", "a", "--limit=-3"],
      message: "invalid value '-3' for option '--limit <n>': expected a positive integer",
      helpOf: "podcasts search"),
    Case(
      words: ["refresh", "--timeout", "inf"],
      message: "invalid value 'inf' for option '--timeout <seconds>': expected a number",
      helpOf: "podcasts refresh"),
    Case(
      words: ["refresh", "--timeout", "-1"],
      message: "invalid value '-1' for option '--timeout <seconds>': expected a positive number",
      helpOf: "podcasts refresh"),
    Case(
      words: ["refresh", "--jobs=0"],
      message: "invalid value '0' for option '--jobs <n>': expected a positive integer",
      helpOf: "podcasts refresh"),
    Case(words: ["import"], message: "missing argument <file>", helpOf: "podcasts import"),
    Case(
      words: ["export", "--output"], message: "missing value for option '--output <file>'",
      helpOf: "podcasts export"),
    Case(words: ["completion"], message: "missing argument <shell>", helpOf: "podcasts completion"),
    Case(
      words: ["completion", "tcsh"],
      message: "invalid value 'tcsh' for argument <shell>: expected one of bash, zsh, fish",
      helpOf: "podcasts completion"),
    Case(
      words: ["help", "lsit"], message: "unknown subcommand 'lsit'; did you mean 'list'?",
      helpOf: "podcasts"),
    Case(
      words: ["parse", "--", "a", "b"], message: "unexpected argument 'b'", helpOf: "podcasts parse"
    ),
  ]

  @Test(arguments: cases)
  func usageError(_ testCase: Case) async {
    let run = await runInProcess(testCase.words, environment: testCase.environment)
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "podcasts: \(testCase.message)\nSee '\(testCase.helpOf) --help'.\n")
  }

  @Test func usageErrorsAreNotSilencedByQuiet() async {
    let run = await runInProcess(["-q", "list", "--bogus"])
    #expect(run.status == 2)
    #expect(
      run.stderrLines == ["podcasts: unknown option '--bogus'", "See 'podcasts list --help'."])
  }

  @Test(
    arguments: [
      ("lst", ["list"], "list"),
      ("ad", ["add", "list"], "add"),
      ("x", ["add", "list"], nil),
      ("--jsn", ["--json", "--sort"], "--json"),
      ("impor", ["import", "export"], "import"),
      ("shwo", ["show", "search"], "show"),
      ("completely-different", ["list", "show"], nil),
    ] as [(String, [String], String?)])
  func suggestions(word: String, candidates: [String], expected: String?) {
    #expect(Suggestions.closest(to: word, among: candidates) == expected)
  }
}

import Testing

@testable import PodcastsCLI

@Suite("Help output")
struct HelpTests {
  /// Every command path, the root's `[]` included, hidden ones too.
  static let commandPaths: [[String]] = {
    var paths: [[String]] = []
    func visit(_ configuration: CommandConfiguration, _ names: [String]) {
      paths.append(names)
      for subcommand in configuration.subcommands {
        visit(subcommand.configuration, names + [subcommand.configuration.name])
      }
    }
    visit(PodcastsCommand.configuration, [])
    return paths
  }()

  static func configuration(at names: [String]) -> CommandConfiguration {
    var configuration = PodcastsCommand.configuration
    for name in names {
      configuration = configuration.subcommand(named: name)?.configuration ?? configuration
    }
    return configuration
  }

  @Test(arguments: commandPaths)
  func helpOfEveryCommand(names: [String]) async throws {
    let configuration = Self.configuration(at: names)
    let long = await runInProcess(names + ["--help"])
    #expect(long.status == 0)
    #expect(long.stderr.isEmpty)
    let help = long.stdout
    let overview = "OVERVIEW: " + String(configuration.abstract.prefix(30))
    #expect(help.hasPrefix(overview))
    let usage = "\nUSAGE: " + (["podcasts"] + names).joined(separator: " ")
    #expect(help.contains(usage))
    #expect(help.contains("\nOPTIONS:\n"))
    #expect(help.contains("\n  -h, --help              Show help information.\n"))
    #expect(help.contains("\n  --db <path> "))
    #expect(help.contains("\n  -q, --quiet "))
    let showsVersion = help.contains("\n  --version ")
    #expect(showsVersion == names.isEmpty)
    let missingOptions = configuration.options.filter { option in
      !help.contains("\n  " + option.helpLabel + " ")
        || !help.contains("[" + option.usageForm + "]")
        || option.allowedValues.contains { !help.contains($0) }
    }
    #expect(missingOptions.map(\.name) == [])
    let showsArguments = help.contains("\nARGUMENTS:\n")
    #expect(showsArguments == !configuration.arguments.isEmpty)
    let missingArguments = configuration.arguments.filter { argument in
      !help.contains("\n  " + argument.helpLabel + " ") || !help.contains(argument.usageForm)
    }
    #expect(missingArguments.map(\.name) == [])
    let subcommands = configuration.subcommands.map { $0.configuration }
    let visible = subcommands.filter { !$0.isHidden }.map(\.name)
    let listed = subcommands.map(\.name).filter { help.contains("\n  " + $0 + " ") }
    #expect(listed == visible)
    let showsSubcommands = help.contains("\nSUBCOMMANDS:\n")
    #expect(showsSubcommands == !visible.isEmpty)

    let short = await runInProcess(names + ["-h"])
    let viaHelp = await runInProcess(["help"] + names)
    #expect(short.stdout == help)
    #expect(viaHelp.stdout == help)
    #expect(viaHelp.status == 0)
  }

  @Test(arguments: [60, 80, 132])
  func helpFitsTheWidth(width: Int) async {
    for names in Self.commandPaths {
      let run = await runInProcess(names + ["--help"], environment: ["COLUMNS": String(width)])
      let examples = Set(
        Self.configuration(at: names).discussion.split(separator: "\n").filter {
          $0.hasPrefix(" ")
        })
      for line in run.stdout.split(separator: "\n") where !examples.contains(line) {
        #expect(line.count <= width, "\(names): \(line)")
      }
    }
  }

  @Test func bareCommandShowsTheTopHelp() async {
    let bare = await runInProcess([])
    let help = await runInProcess(["--help"])
    let viaHelp = await runInProcess(["help"])
    #expect(bare.status == 0)
    #expect(bare.stdout == help.stdout)
    #expect(viaHelp.stdout == help.stdout)
    #expect(help.stdout.contains("See 'podcasts help <subcommand>' for detailed help."))
  }

  @Test func helpShowsDefaultsAndEnvironment() async {
    let refresh = await runInProcess(["refresh", "--help"], environment: ["COLUMNS": "200"])
    #expect(
      refresh.stdout.contains(
        "Fetch up to <n> feeds at a time (at most 2 from one host). (default: 8)"))
    #expect(refresh.stdout.contains("(default: 30)"))
    #expect(
      refresh.stdout.contains(
        "USAGE: podcasts refresh [<id> ...] [--json] [--jobs <n>] [--timeout <seconds>]"))
    let top = await runInProcess(["--help"], environment: ["COLUMNS": "200"])
    #expect(top.stdout.contains("(env: PODCASTS_DB)"))
  }

  @Test func versionPrintsOneLine() async {
    let run = await runInProcess(["--version"])
    #expect(run.status == 0)
    #expect(run.stdout == "podcasts \(PodcastsCommand.version)\n")
    #expect(run.stderr.isEmpty)
  }

  @Test func declarationsAreConsistent() {
    for names in Self.commandPaths {
      let configuration = Self.configuration(at: names)
      let all =
        configuration.options + PodcastsCommand.configuration.globalOptions + [
          BuiltinOptions.help.spec, BuiltinOptions.version.spec,
        ]
      #expect(Set(all.map(\.name)).count == all.count, "duplicate long option in \(names)")
      let shorts = all.compactMap(\.short)
      #expect(Set(shorts).count == shorts.count, "duplicate short option in \(names)")
      let arities = configuration.arguments.map(\.arity)
      #expect(arities.dropLast().allSatisfy { !$0.isVariadic }, "variadic not last in \(names)")
      if let firstOptional = arities.firstIndex(where: { !$0.isRequired }) {
        #expect(
          arities[firstOptional...].allSatisfy { !$0.isRequired }, "required after optional")
      }
      #expect(!configuration.abstract.isEmpty)
    }
  }
}

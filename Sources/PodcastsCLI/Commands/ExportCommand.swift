import FeedViews

/// `podcasts export`: the subscriptions as OPML.
struct ExportCommand: ParsableCommand {
  static let output = Option<String>(
    "output", short: "o", valueName: "file",
    help: "Write to <file> instead of standard output.", completion: .file)
  static let includeCredentials = Flag(
    "include-credentials",
    help: "Keep user names and passwords that feed URLs contain; they are removed by default.")

  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Write the subscriptions as an OPML file.",
    discussion: """
      The OPML file lists every podcast subscribed to with its title and feed URL, for \
      importing into another podcast app or into 'podcasts import'.

      Examples:
        podcasts export > subscriptions.opml
        podcasts export --output subscriptions.opml
      """,
    options: [output, includeCredentials])

  let output: String?
  let includeCredentials: Bool

  init(_ arguments: ParsedArguments) throws {
    output = try arguments.value(Self.output)
    includeCredentials = arguments.flag(Self.includeCredentials)
  }

  func run(_ context: CommandContext) throws {
    var masked = 0
    let hide = { (url: String) -> String in
      guard !includeCredentials else { return url }
      let shown = URLMasking.maskingCredentials(url)
      if shown != url { masked += 1 }
      return shown
    }
    let feeds = try context.openCatalog().exportEntries().map { entry in
      OPMLWriter.Feed(
        title: entry.title.map(HTMLText.singleLine), feedURL: hide(entry.feedURL),
        siteURL: entry.link.map(hide))
    }
    let document = OPMLWriter(dateCreated: context.console.now).document(feeds)
    if let output, output != "-" {
      try AtomicFile.write(document, to: output, privateIfNew: includeCredentials)
    } else {
      context.console.write(document)
    }
    if masked > 0 {
      context.console.warning(
        "passwords in \(masked == 1 ? "1 URL" : "\(masked) URLs") written as ***; "
          + "--include-credentials keeps them")
    }
  }
}

/// The visible commands of a command tree, flattened for the generators of completion scripts
/// and the manual page.
struct CommandTree {
  struct Node {
    /// Names after the root; empty for the root.
    let names: [String]
    let configuration: CommandConfiguration
    /// Everything accepted at this level: the command's own options, the globals, version
    /// at the root, help.
    let options: [OptionSpec]
    let subcommands: [CommandConfiguration]

    /// `list`, `""` for the root: what completion scripts match on.
    var path: String { names.joined(separator: " ") }
    var isRoot: Bool { names.isEmpty }
  }

  let root: CommandConfiguration
  /// Depth first, the root first, hidden commands left out.
  let nodes: [Node]

  init(root: CommandConfiguration) {
    self.root = root
    var nodes: [Node] = []
    func visit(_ path: [CommandConfiguration]) {
      let configuration = path[path.count - 1]
      nodes.append(
        Node(
          names: path.dropFirst().map(\.name), configuration: configuration,
          options: HelpFormatter(path: path, width: 80).options,
          subcommands: configuration.visibleSubcommands))
      for subcommand in configuration.visibleSubcommands {
        visit(path + [subcommand])
      }
    }
    visit([root])
    self.nodes = nodes
  }

  /// Every option word that takes a value at `node`: `--limit`, `-n`.
  static func valueWords(_ node: Node) -> [String] {
    node.options.filter(\.takesValue).flatMap { [$0.longForm] + ($0.shortForm.map { [$0] } ?? []) }
  }

  /// Every option word accepted at `node`, long forms first.
  static func optionWords(_ node: Node) -> [String] {
    node.options.map(\.longForm) + node.options.compactMap(\.shortForm)
  }

  /// What shells should offer for a value of this kind at the root: names for `help`.
  func values(for completion: CompletionKind) -> [String]? {
    switch completion {
    case .values(let values): values
    case .subcommandNames: root.visibleSubcommands.map(\.name)
    case .none, .file, .directory: nil
    }
  }

  /// The first sentence of a help text, as shells show beside a candidate.
  static func summary(_ help: String) -> String {
    let text = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    if let end = text.range(of: ". ") { return String(text[..<end.lowerBound]) + "." }
    return text
  }
}

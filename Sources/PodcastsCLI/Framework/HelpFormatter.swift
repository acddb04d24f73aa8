/// Renders help in swift-argument-parser's layout: OVERVIEW, the discussion, USAGE,
/// ARGUMENTS, OPTIONS and SUBCOMMANDS, wrapped to the given width.
struct HelpFormatter {
  /// Root first, the command whose help is shown last.
  let path: [CommandConfiguration]
  let width: Int

  /// Where the text of the labelled columns starts.
  static let column = 26

  private var command: CommandConfiguration { path[path.count - 1] }
  private var root: CommandConfiguration { path[0] }
  private var isRoot: Bool { path.count == 1 }
  private var usageWidth: Int { max(width, 40) }

  /// `podcasts list`.
  var commandName: String { path.map(\.name).joined(separator: " ") }

  func render() -> String {
    var out = ""
    if !command.abstract.isEmpty {
      out +=
        TextWrapping.wrap("OVERVIEW: " + command.abstract, width: usageWidth)
        .joined(separator: "\n") + "\n\n"
    }
    if !command.discussion.isEmpty {
      out +=
        TextWrapping.reflow(command.discussion, width: usageWidth)
        .joined(separator: "\n") + "\n\n"
    }
    out += usage + "\n"
    if !command.arguments.isEmpty {
      out += "\nARGUMENTS:\n"
      for argument in command.arguments {
        out += row(argument.helpLabel, argument.fullHelp)
      }
    }
    out += "\nOPTIONS:\n"
    for option in options {
      out += row(option.helpLabel, option.fullHelp)
    }
    let subcommands = command.visibleSubcommands
    if !subcommands.isEmpty {
      out += "\nSUBCOMMANDS:\n"
      for subcommand in subcommands {
        out += row(subcommand.name, subcommand.abstract)
      }
      out += "\n  See '\(root.name) help <subcommand>' for detailed help.\n"
    }
    return out
  }

  /// The command's own options, then the global ones, then version and help.
  var options: [OptionSpec] {
    var options = command.options + root.globalOptions
    if isRoot && root.version != nil { options.append(BuiltinOptions.version.spec) }
    options.append(BuiltinOptions.help.spec)
    return options
  }

  /// `USAGE: podcasts episodes <id> [--limit <n>] [--json]`: arguments, then options, wrapped
  /// under the first word after the command name.
  var usage: String {
    var parts = [commandName]
    let ownOptions = isRoot ? root.globalOptions : command.options
    parts += command.arguments.map(\.usageForm)
    parts += ownOptions.map { "[\($0.usageForm)]" }
    if !command.subcommands.isEmpty { parts.append("<subcommand>") }
    let prefix = "USAGE: "
    let indent = String(repeating: " ", count: prefix.count + commandName.count + 1)
    var lines = [prefix + parts[0]]
    for part in parts.dropFirst() {
      if lines[lines.count - 1].count + 1 + part.count <= usageWidth {
        lines[lines.count - 1] += " " + part
      } else {
        lines.append(indent + part)
      }
    }
    return lines.joined(separator: "\n")
  }

  private func row(_ label: String, _ text: String) -> String {
    TextWrapping.twoColumns(label: label, text: text, column: Self.column, width: width)
  }
}

import FeedViews

/// How `refresh` tells what it did: a JSON array for programs; for people, a line per
/// podcast that changed and a summary on stdout, failures and warnings on stderr.
enum RefreshReport {
  static func json(_ results: [RefreshResult]) throws -> [UInt8] {
    var writer = JSONWriter()
    writer.beginArray()
    for result in results {
      writer.beginObject()
      writer.key("id")
      writer.string(result.podcastID)
      writer.key("title")
      writer.text(result.title)
      writer.key("feedUrl")
      writer.url(result.feedURL)
      writer.key("status")
      writer.string(result.status.rawValue)
      writer.key("newEpisodes")
      writer.int(result.newEpisodes)
      writer.key("updatedEpisodes")
      writer.int(result.updatedEpisodes)
      writer.key("movedFrom")
      writer.url(result.movedFrom)
      writer.key("movedTo")
      writer.url(result.movedTo)
      writer.key("error")
      writer.string(result.error)
      writer.key("warnings")
      writer.strings(result.warnings)
      writer.endObject()
    }
    writer.endArray()
    try writer.finish()
    return writer.bytes
  }

  /// What changed in one podcast, or nil when nothing did (or it failed: that goes to stderr).
  static func line(for result: RefreshResult) -> String? {
    guard result.status != .failed else { return nil }
    var parts: [String] = []
    if let movedTo = result.movedTo {
      parts.append("moved to " + TerminalText.sanitizedLine(URLMasking.maskingCredentials(movedTo)))
    }
    switch (result.newEpisodes, result.updatedEpisodes) {
    case (0, 0): break
    case (let new, 0): parts.append(count(new, "new episode"))
    case (0, let changed): parts.append(count(changed, "episode") + " changed")
    case (let new, let changed): parts.append(count(new, "new episode") + ", \(changed) changed")
    }
    guard !parts.isEmpty else { return nil }
    return name(of: result) + ": " + parts.joined(separator: "; ") + "\n"
  }

  /// One line on everything: e.g. `Refreshed 20 podcasts: 7 new episodes in 3 podcasts,
  /// 1 moved, 1 failed.`
  static func summary(of results: [RefreshResult]) -> String {
    let newEpisodes = results.reduce(0) { $0 + $1.newEpisodes }
    let changed = results.reduce(0) { $0 + $1.updatedEpisodes }
    let moved = results.count { $0.status == .moved }
    let failed = results.count { $0.status == .failed }
    var parts: [String] = []
    if newEpisodes > 0 {
      var text = count(newEpisodes, "new episode")
      if results.count > 1 {
        text += " in " + count(results.count { $0.newEpisodes > 0 }, "podcast")
      }
      parts.append(text)
    } else {
      parts.append("no new episodes")
    }
    if changed > 0 { parts.append(count(changed, "episode") + " changed") }
    if moved > 0 { parts.append("\(moved) moved") }
    if failed > 0 { parts.append("\(failed) failed") }
    return "Refreshed " + count(results.count, "podcast") + ": " + parts.joined(separator: ", ")
      + ".\n"
  }

  /// `Title (1a2b3c4d)`: how people recognise a podcast in messages.
  static func name(of result: RefreshResult) -> String {
    let title = Shown.statusTitle(result.title)
    let id = String(result.podcastID.prefix(8))
    return title.map { "\($0) (\(id))" }
      ?? "\(TerminalText.sanitizedLine(URLMasking.maskingCredentials(result.feedURL))) (\(id))"
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
  }
}

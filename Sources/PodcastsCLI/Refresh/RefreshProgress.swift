import Catalog
import FeedViews
import Synchronization

/// The progress line of `refresh` on a terminal: feeds done of all, failures so far, and the
/// feed that has been running longest, redrawn in place. Silent when stderr is not a terminal
/// or with `--quiet`, so nothing of it reaches a pipe or a log.
final class RefreshProgress: Sendable {
  private struct State {
    var done = 0
    var failed = 0
    /// Feeds being fetched or saved, oldest first: (podcast id, title to show).
    var running: [(id: String, title: String)] = []
    /// What the line shows now; empty when nothing is drawn.
    var shown = ""
  }

  private let console: Console
  private let total: Int
  let isEnabled: Bool
  private let state = Mutex(State())

  init(console: Console, total: Int) {
    self.console = console
    self.total = total
    isEnabled = console.stderrIsTerminal && !console.isQuiet
  }

  func began(_ podcast: StoredPodcast) {
    guard isEnabled else { return }
    update { state in
      if !state.running.contains(where: { $0.id == podcast.id }) {
        state.running.append((podcast.id, Self.title(of: podcast)))
      }
    }
  }

  func finished(_ result: RefreshResult) {
    guard isEnabled else { return }
    update { state in
      state.done += 1
      if result.status == .failed { state.failed += 1 }
      state.running.removeAll { $0.id == result.podcastID }
    }
  }

  /// Erases the line, before the results are printed.
  func clear() {
    guard isEnabled else { return }
    state.withLock { state in
      guard !state.shown.isEmpty else { return }
      console.stderr.write(Self.eraseLine)
      state.shown = ""
    }
  }

  /// Back to the start of the line and erase it.
  static let eraseLine = "\r\u{1B}[K"

  /// The line for a state, cut to `width` columns: a line that wrapped could not be redrawn.
  static func line(done: Int, total: Int, failed: Int, current: String?, width: Int) -> String {
    var text = "Refreshing \(done)/\(total)"
    if failed > 0 { text += ", \(failed) failed" }
    if let current { text += ": " + current }
    return DisplayWidth.truncated(text, to: max(1, width - 1))
  }

  private func update(_ change: (inout State) -> Void) {
    state.withLock { state in
      change(&state)
      let line = Self.line(
        done: state.done, total: total, failed: state.failed, current: state.running.first?.title,
        width: console.width)
      guard line != state.shown else { return }
      state.shown = line
      console.stderr.write(Self.eraseLine + line)
    }
  }

  private static func title(of podcast: StoredPodcast) -> String {
    Shown.statusTitle(podcast.podcast.title)
      ?? TerminalText.sanitizedLine(URLMasking.maskingCredentials(podcast.feedURL))
  }
}

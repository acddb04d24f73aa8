import Foundation
import PodcastsCLI

switch PodcastsCommand.start(CommandLine.arguments) {
case .finished(let status):
  exit(status)
case .awaiting(let command):
  exit(await command.finish())
}

import Foundation
import PodcastsCLI

exit(await PodcastsCommand.main(CommandLine.arguments))

import PodcastsCLI

exit(await PodcastsCommand.main(CommandLine.arguments))

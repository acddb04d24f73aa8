public enum PodcastsCommand {
  public static func main(_ arguments: [String]) async -> Int32 { 0 }
}

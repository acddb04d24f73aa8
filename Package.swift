// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "podcasts",
  products: [
    .executable(name: "podcasts", targets: ["podcasts"])
  ],
  targets: [
    // libxml2's headers only: FeedParser opens the library itself on the first parse, so
    // that commands parsing nothing do not load it (and the ICU, zlib and lzma it needs).
    // Not through pkg-config, which would link it; the path is the one libxml2-dev installs.
    .systemLibrary(
      name: "CLibXML2",
      providers: [.apt(["libxml2-dev"])]
    ),
    .systemLibrary(
      name: "CSQLite",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(name: "PodcastModel"),
    .target(
      name: "FeedParser", dependencies: ["PodcastModel", "CLibXML2"],
      swiftSettings: [.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"])]),
    .target(name: "FeedViews", dependencies: ["PodcastModel"]),
    .target(name: "Catalog", dependencies: ["PodcastModel", "CSQLite"]),
    // libcurl's headers only: FeedFetcher opens the library when it first fetches.
    .systemLibrary(
      name: "CCurl",
      providers: [.apt(["libcurl4-openssl-dev"])]
    ),
    .target(name: "FeedFetcher", dependencies: ["CCurl"]),
    .target(
      name: "PodcastsCLI",
      dependencies: ["FeedViews", "Catalog", "FeedFetcher", "FeedParser", "PodcastModel"]
    ),
    .executableTarget(name: "podcasts", dependencies: ["PodcastsCLI"]),
    .executableTarget(
      name: "PodcastsBench",
      dependencies: ["FeedParser", "FeedViews", "Catalog", "PodcastModel"]
    ),
    .testTarget(name: "PodcastModelTests", dependencies: ["PodcastModel"]),
    .testTarget(
      name: "FeedParserTests",
      dependencies: ["FeedParser", "FeedViews", "PodcastModel", "FuzzSupport"],
      exclude: ["corpus-episode-counts.tsv"]),
    .testTarget(
      name: "FeedViewsTests", dependencies: ["FeedViews", "PodcastModel", "FuzzSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "CatalogTests", dependencies: ["Catalog", "PodcastModel", "TestProcesses"]),
    // Starts the processes that tests run (servers, the built executable) so that they can
    // always be stopped.
    .target(name: "TestProcesses", path: "Tests/TestProcesses"),
    // Runs catalog saves in a separate process, for the crash and concurrency tests, and
    // measures the catalog on a large generated file.
    .executableTarget(
      name: "CatalogHarness", dependencies: ["Catalog", "PodcastModel"],
      path: "Tests/CatalogHarness"),
    .testTarget(
      name: "FeedFetcherTests", dependencies: ["FeedFetcher", "TestProcesses"],
      exclude: ["test_server.py"]),
    .testTarget(name: "PodcastsCLITests", dependencies: ["PodcastsCLI", "TestProcesses"]),
    // Fuzz targets (scripts/fuzz.sh, docs/hardening.md). A plain build makes replayers of
    // saved inputs; with -DFUZZING and -sanitize=fuzzer they run libFuzzer.
    .systemLibrary(name: "CLibFuzzer"),
    .target(
      name: "FuzzSupport", dependencies: ["FeedParser", "FeedViews", "PodcastModel", "CLibFuzzer"]),
    .executableTarget(name: "FuzzFeedParser", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzHTMLText", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzFeedDate", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzFeedNumbers", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzOPMLReader", dependencies: ["FuzzSupport"]),
  ],
  swiftLanguageModes: [.v6]
)

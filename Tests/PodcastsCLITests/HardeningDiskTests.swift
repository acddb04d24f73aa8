import Foundation
import Testing

/// A catalog that cannot be written: on a disk that fills up during an add, and read-only in
/// the two ways that stop root too (an immutable file, a read-only mount). Each must fail
/// with one clear line and exit 1, leave the catalog as it was, and leave it usable.
@Suite("A catalog on a full or read-only disk", .serialized)
struct HardeningDiskTests {
  static let largeID = "d15cf011-0000-4000-8000-000000000001"

  @Test func aFullDiskFailsTheAddAndKeepsTheCatalog() async throws {
    let folder = try HardeningFolder()
    let disk = folder.url.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
    do {
      try HardeningMounts.mountTmpfs(size: "2m", on: disk)
    } catch {
      try Test.cancel("cannot mount a tmpfs to fill: \(error)")
    }
    defer { HardeningMounts.unmount(disk) }
    let catalog = disk.appendingPathComponent("catalog.sqlite3").path
    // 20,000 episodes take some 10 MB in the catalog; the disk holds 2 MB.
    let large = folder.path("large.xml")
    try HardeningFeeds.large(guid: Self.largeID, count: 20_000, to: large)

    let first = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", FeedFiles.tidepool], output: folder.url)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try CatalogInspection.inspect(catalog)

    let full = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", large], output: folder.url)
    #expect(full.status == 1)
    #expect(full.stderrLines.count == 1, "\(full.stderr)")
    #expect(full.stderr.hasPrefix("podcasts: \(large): "), "\(full.stderr)")
    #expect(full.stderr.contains("disk is full"), "\(full.stderr)")
    #expect(full.stdout.isEmpty)

    let after = try CatalogInspection.inspect(catalog)
    #expect(after.isConsistent, "\(after)")
    #expect(after.podcasts == before.podcasts)
    #expect(after.podcast(Self.largeID) == nil)

    // Still usable: the space the failed save took is free again.
    let next = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", FeedFiles.switchyard], output: folder.url)
    #expect(next.status == 0, "\(next.stderr)")
    let list = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "list", "--json"], output: folder.url)
    #expect(list.status == 0)
    #expect(try JQ.lines(".[].id", list.stdoutBytes).sorted() == [IDs.switchyard, IDs.tidepool])
  }

  /// A catalog holding one podcast, alone in a folder that can be made read-only.
  private func catalogInAFolderOfItsOwn() async throws -> (HardeningFolder, URL, String) {
    let folder = try HardeningFolder()
    let catalogFolder = folder.url.appendingPathComponent("catalog")
    try FileManager.default.createDirectory(at: catalogFolder, withIntermediateDirectories: true)
    let catalog = catalogFolder.appendingPathComponent("catalog.sqlite3").path
    let added = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "add", FeedFiles.tidepool], output: folder.url)
    try #require(added.status == 0, "\(added.stderr)")
    return (folder, catalogFolder, catalog)
  }

  /// A catalog of an earlier schema cannot be upgraded where it lies: reading it is
  /// refused with the reason, and it is left as it was.
  @Test func anOlderCatalogOnAReadOnlyFileSystemIsRefusedClearly() async throws {
    let (folder, catalogFolder, catalog) = try await catalogInAFolderOfItsOwn()
    let current = try CatalogInspection.schemaVersion(catalog)
    let older = current - 1
    try CatalogInspection.setSchemaVersion(catalog, older)
    try make(.readOnlyMount, catalog: catalog, folder: catalogFolder)
    defer { HardeningMounts.unmount(catalogFolder) }
    let list = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "list"], output: folder.url)
    #expect(list.status == 1)
    #expect(
      list.stderr
        == "podcasts: cannot open the catalog \(catalog): it is on a read-only file system and needs upgrading from schema \(older) to \(current)\n"
    )
    HardeningMounts.unmount(catalogFolder)
    #expect(try CatalogInspection.schemaVersion(catalog) == older)
  }

  enum ReadOnly: String, CaseIterable, Sendable {
    /// `chattr +i` on the catalog file: its folder stays writable.
    case immutableFile
    /// The catalog's folder bound read-only onto itself.
    case readOnlyMount

    func apply(catalog: String, folder: URL) throws {
      switch self {
      case .immutableFile: try HardeningMounts.setImmutable(catalog, true)
      case .readOnlyMount: try HardeningMounts.bindReadOnly(folder)
      }
    }

    func undo(catalog: String, folder: URL) {
      switch self {
      case .immutableFile: try? HardeningMounts.setImmutable(catalog, false)
      case .readOnlyMount: HardeningMounts.unmount(folder)
      }
    }
  }

  /// Makes the catalog read-only the way `readOnly` says, or cancels the test where this
  /// machine refuses it (no root, no mount).
  private func make(_ readOnly: ReadOnly, catalog: String, folder: URL) throws {
    do {
      try readOnly.apply(catalog: catalog, folder: folder)
    } catch {
      try Test.cancel("cannot make the catalog read-only: \(error)")
    }
  }

  /// Commands that write fail with one line naming the catalog and why; nothing changes.
  @Test(arguments: ReadOnly.allCases)
  func aReadOnlyCatalogIsRefusedClearly(_ readOnly: ReadOnly) async throws {
    let (folder, catalogFolder, catalog) = try await catalogInAFolderOfItsOwn()
    let before = try CatalogInspection.inspect(catalog)
    try make(readOnly, catalog: catalog, folder: catalogFolder)
    defer { readOnly.undo(catalog: catalog, folder: catalogFolder) }

    for command in [
      ["add", FeedFiles.switchyard], ["unsubscribe", IDs.tidepool], ["refresh"],
    ] {
      let run = try await HardeningProcess.runPodcasts(
        ["--db", catalog] + command, output: folder.url)
      #expect(run.status == 1, "\(command)")
      #expect(run.stderrLines.count == 1, "\(command): \(run.stderr)")
      #expect(run.stderr.contains("read-only"), "\(command): \(run.stderr)")
      #expect(run.stderr.contains(catalog), "\(command): \(run.stderr)")
    }
    // Reading works: on a read-only file system the catalog is opened as immutable, since
    // SQLite would otherwise write a shared-memory file beside it even to read it.
    for command in [["list", "--json"], ["episodes", IDs.tidepool, "--json"], ["search", "the"]] {
      let run = try await HardeningProcess.runPodcasts(
        ["--db", catalog] + command, output: folder.url)
      #expect(run.status == 0, "\(command): \(run.stderr)")
      #expect(run.stderr.isEmpty, "\(command): \(run.stderr)")
    }
    let list = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "list", "--json"], output: folder.url)
    #expect(try JQ.lines(".[].id", list.stdoutBytes) == [IDs.tidepool])
    readOnly.undo(catalog: catalog, folder: catalogFolder)
    #expect(try CatalogInspection.inspect(catalog).podcasts == before.podcasts)
  }

  /// A catalog whose last writer ended without closing it: its write-ahead log still holds
  /// a committed change that the main file lacks. On a read-only file system SQLite reads it
  /// through the shared-memory file left beside it; without that file it cannot, and the
  /// catalog is refused rather than read without the change (the file alone would be opened as
  /// immutable and show the podcast as it was before).
  @Test(arguments: [true, false])
  func aLogLeftWithContentIsReadOrRefused(sharedMemoryLeft: Bool) async throws {
    let (folder, catalogFolder, catalog) = try await catalogInAFolderOfItsOwn()
    let python = try #require(BuiltProducts.installedTool("python3"), "python3 is not installed")
    let writer = try BuiltProducts.runProcess(
      python,
      [
        "-c",
        """
        import os, sqlite3, sys
        connection = sqlite3.connect(sys.argv[1])
        connection.execute("PRAGMA wal_autocheckpoint = 0")
        connection.execute("UPDATE podcasts SET title = 'Renamed in the log'")
        connection.commit()
        os._exit(0)
        """,
        catalog,
      ], timeout: 30)
    try #require(writer.status == 0, "\(writer.stderr)")
    let log = try FileManager.default.attributesOfItem(atPath: catalog + "-wal")
    try #require((log[.size] as? Int ?? 0) > 0, "the log was not left with content")
    if !sharedMemoryLeft { try FileManager.default.removeItem(atPath: catalog + "-shm") }
    try make(.readOnlyMount, catalog: catalog, folder: catalogFolder)
    defer { HardeningMounts.unmount(catalogFolder) }

    let list = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "list", "--json"], output: folder.url)
    if sharedMemoryLeft {
      #expect(list.status == 0, "\(list.stderr)")
      #expect(try JQ.lines(".[].title", list.stdoutBytes) == ["Renamed in the log"])
    } else {
      #expect(list.status == 1)
      #expect(
        list.stderr
          == "podcasts: cannot open the catalog \(catalog): unable to open database file; its folder cannot be written (read-only file system)\n"
      )
      #expect(list.stdout.isEmpty)
    }
    HardeningMounts.unmount(catalogFolder)
    let after = try await HardeningProcess.runPodcasts(
      ["--db", catalog, "list", "--json"], output: folder.url)
    #expect(try JQ.lines(".[].title", after.stdoutBytes) == ["Renamed in the log"])
  }
}

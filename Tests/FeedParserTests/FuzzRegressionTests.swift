import Foundation
import FuzzSupport
import Testing

/// Replays the inputs kept in Tests/FuzzRegressions/ (each one broke an invariant once, or is
/// a small seed worth keeping) through the checks the fuzz targets make.
@Suite("Fuzz regressions of the parser and the value readers")
struct FuzzRegressionTests {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("FuzzRegressions")

  /// The inputs kept for one fuzz target, by name.
  static func inputs(_ target: String) -> [String] {
    let files = (try? FuzzDriver.inputFiles(at: folder.appendingPathComponent(target))) ?? []
    return files.map(\.lastPathComponent)
  }

  static func violations(
    _ target: String, _ name: String, _ check: (UnsafeRawBufferPointer) -> [String]
  ) throws -> [String] {
    let data = try Data(
      contentsOf: folder.appendingPathComponent(target).appendingPathComponent(name))
    return data.withUnsafeBytes(check)
  }

  @Test(
    "Every target of this module has inputs kept",
    arguments: [
      "FuzzFeedParser", "FuzzFeedDate", "FuzzFeedNumbers", "FuzzOPMLReader",
    ])
  func kept(_ target: String) {
    #expect(!Self.inputs(target).isEmpty)
  }

  @Test(arguments: inputs("FuzzFeedParser"))
  func feedParser(_ name: String) throws {
    let found = try Self.violations("FuzzFeedParser", name, FeedParserInvariants.violations)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test(arguments: inputs("FuzzFeedDate"))
  func feedDate(_ name: String) throws {
    let found = try Self.violations("FuzzFeedDate", name, ReaderInvariants.dateViolations)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test(arguments: inputs("FuzzFeedNumbers"))
  func feedNumbers(_ name: String) throws {
    let found = try Self.violations("FuzzFeedNumbers", name) {
      ReaderInvariants.durationViolations($0) + ReaderInvariants.numberViolations($0)
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test(arguments: inputs("FuzzOPMLReader"))
  func opmlReader(_ name: String) throws {
    let found = try Self.violations("FuzzOPMLReader", name, OPMLInvariants.violations)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}

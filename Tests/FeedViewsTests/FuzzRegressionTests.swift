import Foundation
import FuzzSupport
import Testing

/// Replays the inputs kept in Tests/FuzzRegressions/FuzzHTMLText/ (each one broke an
/// invariant once, or is a small seed worth keeping) through the checks the fuzz target makes.
@Suite("Fuzz regressions of the HTML and terminal text")
struct FuzzRegressionTests {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("FuzzRegressions/FuzzHTMLText")

  static let inputs =
    ((try? FuzzDriver.inputFiles(at: folder)) ?? []).map(\.lastPathComponent)

  @Test func kept() {
    #expect(!Self.inputs.isEmpty)
  }

  @Test(arguments: inputs)
  func text(_ name: String) throws {
    let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
    let found = data.withUnsafeBytes(TextInvariants.violations)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}

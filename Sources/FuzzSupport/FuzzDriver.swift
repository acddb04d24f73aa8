import Foundation

#if FUZZING
  import CLibFuzzer
#endif

/// The `main` of every fuzz target.
///
/// Built with `-DFUZZING -sanitize=fuzzer`, it hands control to libFuzzer, which calls the
/// target's `LLVMFuzzerTestOneInput` with generated inputs. A plain build has no libFuzzer
/// runtime: the target then replays the files and folders named on its command line, so that
/// `swift build` of the package still links, and a saved crash can be rerun in a debugger.
public enum FuzzDriver {
  public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

  /// One input through `violations`. The one place a broken invariant traps: libFuzzer then
  /// keeps the input that did it.
  public static func check(
    _ data: UnsafePointer<UInt8>?, _ size: Int,
    _ violations: (UnsafeRawBufferPointer) -> [String]
  ) -> Int32 {
    let found = violations(UnsafeRawBufferPointer(fuzzInput: data, count: size))
    if !found.isEmpty { fatalError(found.joined(separator: "\n")) }
    return 0
  }

  public static func run(_ testOneInput: TestOneInput) -> Never {
    #if FUZZING
      var argc = CommandLine.argc
      var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
      exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    #else
      exit(replay(Array(CommandLine.arguments.dropFirst()), testOneInput))
    #endif
  }

  /// Runs `testOneInput` on each file named, and on each file below each folder named; an
  /// input that breaks an invariant stops the process there, as under libFuzzer.
  static func replay(_ paths: [String], _ testOneInput: TestOneInput) -> Int32 {
    guard !paths.isEmpty else {
      FileHandle.standardError.write(
        Data("usage: \(CommandLine.arguments[0]) FILE-OR-FOLDER...\n".utf8))
      return 2
    }
    var replayed = 0
    for path in paths {
      let files: [URL]
      do {
        files = try inputFiles(at: URL(fileURLWithPath: path))
      } catch {
        FileHandle.standardError.write(Data("\(path): \(error.localizedDescription)\n".utf8))
        return 1
      }
      for file in files {
        guard let data = FileManager.default.contents(atPath: file.path) else {
          FileHandle.standardError.write(Data("\(file.path): cannot be read\n".utf8))
          return 1
        }
        _ = data.withUnsafeBytes { bytes in
          testOneInput(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        replayed += 1
      }
    }
    print("replayed \(replayed) inputs: every invariant held")
    return 0
  }

  /// The file itself, or the files below a folder, sorted.
  public static func inputFiles(at url: URL) throws -> [URL] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
    }
    guard isFolder.boolValue else { return [url] }
    let walker = FileManager.default.enumerator(
      at: url, includingPropertiesForKeys: [.isRegularFileKey])
    var files: [URL] = []
    while let next = walker?.nextObject() as? URL {
      if (try? next.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
        files.append(next)
      }
    }
    return files.sorted { $0.path < $1.path }
  }
}

extension UnsafeRawBufferPointer {
  /// The bytes libFuzzer hands a target (its pointer may be null when the size is 0).
  init(fuzzInput data: UnsafePointer<UInt8>?, count: Int) {
    self.init(start: count > 0 ? data : nil, count: count)
  }
}

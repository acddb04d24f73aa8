import Foundation

/// File systems that a test mounts to make writing fail for real: a small tmpfs that fills
/// up, a folder bound read-only onto itself, an immutable file. They need root (and, in a
/// container, the right to mount); where the system refuses, `reason` says why, for the test
/// to record as the cause of its skip.
enum HardeningMounts {
  struct Refused: Error, CustomStringConvertible {
    let description: String
  }

  /// Mounts a tmpfs of `size` (`2m`) on `folder`, which must exist.
  static func mountTmpfs(size: String, on folder: URL) throws {
    try run("mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path])
  }

  /// Makes `folder` read-only: bound onto itself, then remounted read-only.
  static func bindReadOnly(_ folder: URL) throws {
    try run("mount", ["--bind", folder.path, folder.path])
    do {
      try run("mount", ["-o", "remount,ro,bind", folder.path])
    } catch {
      unmount(folder)
      throw error
    }
  }

  /// Unmounts whatever is mounted on `folder`; lazily if it is still busy.
  static func unmount(_ folder: URL) {
    if (try? run("umount", [folder.path])) == nil {
      _ = try? run("umount", ["-l", folder.path])
    }
  }

  /// Sets or clears the immutable attribute, which stops even root from writing the file.
  static func setImmutable(_ file: String, _ immutable: Bool) throws {
    try run("chattr", [immutable ? "+i" : "-i", file])
  }

  private static func run(_ tool: String, _ arguments: [String]) throws {
    guard let executable = BuiltProducts.installedTool(tool) ?? sbin(tool) else {
      throw Refused(description: "\(tool) is not installed")
    }
    let result = try BuiltProducts.runProcess(executable, arguments, timeout: 20)
    guard result.status == 0 else {
      throw Refused(
        description: "\(tool) \(arguments.joined(separator: " ")) failed: "
          + result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }

  private static func sbin(_ tool: String) -> URL? {
    ["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map { URL(fileURLWithPath: "\($0)/\(tool)") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }
}

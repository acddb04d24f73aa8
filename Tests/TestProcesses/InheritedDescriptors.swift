#if canImport(Glibc)
  import Glibc
#endif

/// Keeps children spawned by the tests from inheriting the test process's descriptors.
///
/// posix_spawn hands a child every descriptor not marked close-on-exec, and pipes made by
/// Foundation (or by another thread between pipe() and fcntl()) are not: a server that kept
/// another test's pipe open made that test's server never see the end of its input.
public enum InheritedDescriptors {
  private typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

  /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which Swift's Glibc
  /// module leaves out; nil on older systems.
  private static let closeFrom: CloseFrom? = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
      return nil
    }
    return unsafeBitCast(symbol, to: CloseFrom.self)
  }()

  /// Adds, as the last action, the closing of every descriptor but standard input, output
  /// and error.
  public static func closeAll(in actions: inout posix_spawn_file_actions_t) {
    _ = closeFrom?(&actions, 3)
  }
}

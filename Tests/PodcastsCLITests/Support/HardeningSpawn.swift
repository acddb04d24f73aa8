#if canImport(Glibc)
  import Glibc
#endif

/// Keeps children spawned by the tests from inheriting the test process's descriptors.
///
/// posix_spawn hands a child every descriptor not marked close-on-exec, and Foundation's
/// pipes are not: a server started with one (nginx, a Python server) while another test's
/// Foundation `Process` had a pipe open kept that pipe's write end, so the other test's
/// server never saw the end of its input and `stop()` waited for ever.
enum InheritedDescriptors {
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
  static func closeAll(in actions: inout posix_spawn_file_actions_t) {
    _ = closeFrom?(&actions, 3)
  }
}

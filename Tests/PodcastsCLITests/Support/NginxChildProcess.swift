import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A server process that a test starts (nginx's shell, test_server.py), spawned with every
/// signal unblocked and at its default.
///
/// Foundation's `Process` spawns children with the signal mask of the calling thread, and
/// the threads that tests run on block nearly every signal: such a child cannot be stopped
/// with SIGTERM, and a shell waiting for its own child never hears of its end. The pipes made
/// here are close-on-exec, so that other processes started meanwhile do not keep them open.
final class ChildProcess: Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let pid: pid_t
  /// The write end of the child's standard input, when it was given a pipe.
  private let input: Int32?

  private init(pid: pid_t, input: Int32?) {
    self.pid = pid
    self.input = input
  }

  /// Starts `executable` with `arguments` and `environment` (this process's when nil).
  /// - Parameters:
  ///   - pipeInput: give it a pipe as standard input, open until `stop()`; else /dev/null.
  ///   - output: where its standard output goes (a descriptor to duplicate); else /dev/null.
  static func spawn(
    _ executable: String, _ arguments: [String], pipeInput: Bool = false, output: Int32? = nil
  ) throws -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var inputPipe: [Int32] = [-1, -1]
    if pipeInput {
      inputPipe = try closedOnExecPipe()
      posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    if let output {
      posix_spawn_file_actions_adddup2(&actions, output, 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    InheritedDescriptors.closeAll(in: &actions)

    let argv = ([executable] + arguments).map { strdup($0) }
    defer { for pointer in argv { free(pointer) } }
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
    defer { for pointer in environment { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(
      &pid, executable, &actions, &attributes, argv + [nil], environment + [nil])
    if pipeInput { close(inputPipe[0]) }
    guard status == 0 else {
      if pipeInput { close(inputPipe[1]) }
      throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
    }
    return ChildProcess(pid: pid, input: pipeInput ? inputPipe[1] : nil)
  }

  /// Whether it has ended (and is reaped).
  func hasExited() -> Bool {
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    return result == pid || (result < 0 && errno == ECHILD)
  }

  /// Closes its input, sends SIGTERM and waits up to `timeout` seconds, then kills it.
  func stop(timeout: Double = 5) {
    if let input { close(input) }
    kill(pid, SIGTERM)
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if hasExited() { return }
      usleep(5_000)
    }
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
  }

  /// A pipe whose ends are closed on exec: the read end, and the write end to hand to a child.
  static func outputPipe() throws -> (read: Int32, write: Int32) {
    let ends = try closedOnExecPipe()
    return (ends[0], ends[1])
  }

  /// Glibc's module leaves out pipe2, hence the flag set afterwards: a process spawned by
  /// another thread in between may inherit the pipe, which only delays an end-of-file
  /// that `stop()` does not wait for.
  private static func closedOnExecPipe() throws -> [Int32] {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw failure("pipe") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return ends
  }

  private static func failure(_ call: String) -> Failure {
    Failure(description: "\(call): \(String(cString: strerror(errno)))")
  }
}

import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A process that a hardening test starts, may kill at any moment, and measures: its exit
/// status or the signal that ended it, its peak memory (the kernel's `ru_maxrss`, exact
/// whatever the sampling), and what it wrote, which goes to files so that a process writing
/// gigabytes never fills the test's memory.
///
/// A thread of its own reaps the process the moment it ends, so that its duration is exact
/// however busy the test runner's threads are; waiting polls with `Task.sleep`, so a test
/// that waits for minutes on its children leaves those threads to the other tests.
final class HardeningProcess: Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// How a process ended.
  struct Ended: Sendable {
    /// The exit status; nil when a signal ended it.
    let status: Int32?
    /// The signal that ended it.
    let signal: Int32?
    /// The most memory it held at once, in bytes.
    let peakMemory: Int
    /// From its start to its end.
    let duration: Duration
    let stdoutURL: URL
    let stderrURL: URL

    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stdoutBytes: [UInt8] { Array((try? Data(contentsOf: stdoutURL)) ?? Data()) }
    var stdoutSize: Int {
      ((try? FileManager.default.attributesOfItem(atPath: stdoutURL.path))?[.size] as? Int) ?? 0
    }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    var wasKilled: Bool { signal == SIGKILL }
  }

  let pid: pid_t
  let command: String
  private let stdoutURL: URL
  private let stderrURL: URL
  private let ending = Mutex<Swift.Result<Ended, Failure>?>(nil)

  private init(pid: pid_t, command: String, stdoutURL: URL, stderrURL: URL) {
    self.pid = pid
    self.command = command
    self.stdoutURL = stdoutURL
    self.stderrURL = stderrURL
  }

  /// Starts the built `podcasts` with `arguments`.
  static func podcasts(
    _ arguments: [String], environment: [String: String] = [:], output folder: URL
  ) throws -> HardeningProcess {
    try start(
      BuiltProducts.executable().path, arguments, environment: environment, output: folder)
  }

  /// Starts `executable` with `arguments`, an environment of PATH and `environment` only,
  /// /dev/null as input, and its output in new files in `folder`. Every signal is unblocked
  /// and at its default in the child (the test runner's threads block most of them).
  static func start(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    output folder: URL
  ) throws -> HardeningProcess {
    let name = UUID().uuidString
    let stdoutURL = folder.appendingPathComponent("stdout-\(name)")
    let stderrURL = folder.appendingPathComponent("stderr-\(name)")

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, stdoutURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(
      &actions, 2, stderrURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    InheritedDescriptors.closeAll(in: &actions)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var fullEnvironment = environment
    if fullEnvironment["PATH"] == nil {
      fullEnvironment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    }
    let argv = ([executable] + arguments).map { strdup($0) }
    defer { for pointer in argv { free(pointer) } }
    let envp = fullEnvironment.map { strdup("\($0.key)=\($0.value)") }
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let started = ContinuousClock.now
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], envp + [nil])
    guard status == 0 else {
      throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
    }
    let command = ([URL(fileURLWithPath: executable).lastPathComponent] + arguments)
      .joined(separator: " ")
    let process = HardeningProcess(
      pid: pid, command: command, stdoutURL: stdoutURL, stderrURL: stderrURL)
    Thread.detachNewThread { process.reap(startedAt: started) }
    return process
  }

  /// Sends SIGKILL, unless the process has ended already.
  func kill() {
    ending.withLock { ending in
      if ending == nil { _ = Glibc.kill(pid, SIGKILL) }
    }
  }

  /// Sends SIGKILL `delay` from now, timed by a thread of its own: a test whose task waits
  /// for a busy runner could kill much later than it meant to.
  func kill(after delay: Duration) {
    let (seconds, attoseconds) = delay.components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    Thread.detachNewThread { [self] in
      usleep(UInt32(clamping: microseconds))
      kill()
    }
  }

  /// Waits for the end, at most `timeout`; past it the process is killed and this throws.
  func wait(timeout: Duration = .seconds(60)) async throws -> Ended {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
      if let ending = ending.withLock({ $0 }) { return try ending.get() }
      if clock.now >= deadline {
        kill()
        throw Failure(description: "'\(command)' did not end within \(timeout)")
      }
      try? await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Starts `podcasts <arguments>` and waits for it.
  static func runPodcasts(
    _ arguments: [String], environment: [String: String] = [:], output folder: URL,
    timeout: Duration = .seconds(60)
  ) async throws -> Ended {
    try await podcasts(arguments, environment: environment, output: folder)
      .wait(timeout: timeout)
  }

  /// Blocks until the process ends, then records how.
  private func reap(startedAt started: ContinuousClock.Instant) {
    var status: Int32 = 0
    var usage = rusage()
    var result: pid_t
    repeat {
      result = wait4(pid, &status, 0, &usage)
    } while result < 0 && errno == EINTR
    let duration = ContinuousClock.now - started
    guard result == pid else {
      let failure = Failure(
        description: "wait4 for '\(command)': \(String(cString: strerror(errno)))")
      ending.withLock { $0 = .failure(failure) }
      return
    }
    // The bit layout of the wait status, as the W* macros that Swift does not import read it.
    let signal = status & 0x7F
    let ended = Ended(
      status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
      peakMemory: Int(usage.ru_maxrss) * 1024, duration: duration, stdoutURL: stdoutURL,
      stderrURL: stderrURL)
    ending.withLock { $0 = .success(ended) }
  }
}

/// A folder of its own under the temporary directory, removed with the value.
final class HardeningFolder: Sendable {
  let url: URL

  init(_ prefix: String = "podcasts-hardening") throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      prefix + "-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

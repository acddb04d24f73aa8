import Foundation
import Synchronization
import TestProcesses

#if canImport(Glibc)
  import Glibc
#endif

/// A process that a hardening test starts, may kill at any moment, and measures: its exit
/// status or the signal that ended it, its peak memory, and what it wrote, which goes to
/// files so that a process writing gigabytes never fills the test's memory.
///
/// A thread of its own watches the process: it reaps it within milliseconds of its end, so
/// that its duration holds however busy the test runner's threads are, and reads its memory
/// high-water mark (`VmHWM` in /proc) until then. (`ru_maxrss` from `wait4` will not do:
/// posix_spawn's child starts on the parent's memory, and the kernel counts that too.)
/// Waiting polls with `Task.sleep`, so a test that waits for minutes on its children leaves
/// the runner's threads to the other tests. Children run at a lower priority (nice 10): the
/// minutes of work these tests start come after the rest of the suite.
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
    /// The most memory it held at once (resident), in bytes, as last read before its end.
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
    _ arguments: [String], environment: [String: String] = [:], output folder: URL,
    niceness: Int32 = 10
  ) throws -> HardeningProcess {
    try start(
      BuiltProducts.executable().path, arguments, environment: environment, output: folder,
      niceness: niceness)
  }

  /// Starts `executable` with `arguments`, an environment of PATH and `environment` only,
  /// /dev/null as input, and its output in new files in `folder`. Every signal is unblocked
  /// and at its default in the child (the test runner's threads block most of them).
  /// `niceness` 0 is for a child whose own timing is under test: at 10, a busy machine can
  /// hold back its timers.
  static func start(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    output folder: URL, niceness: Int32 = 10
  ) throws -> HardeningProcess {
    let name = UUID().uuidString
    let stdoutURL = folder.appendingPathComponent("stdout-\(name)")
    let stderrURL = folder.appendingPathComponent("stderr-\(name)")

    var fullEnvironment = environment
    if fullEnvironment["PATH"] == nil {
      fullEnvironment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    }
    let started = ContinuousClock.now
    // Reaped by `watch`, never by the ChildProcess, which is only how it starts.
    let pid = try ChildProcess.spawn(
      executable, arguments, environment: fullEnvironment, stdout: .file(stdoutURL.path),
      stderr: .file(stderrURL.path)
    ).pid
    let command = ([URL(fileURLWithPath: executable).lastPathComponent] + arguments)
      .joined(separator: " ")
    let process = HardeningProcess(
      pid: pid, command: command, stdoutURL: stdoutURL, stderrURL: stderrURL)
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), niceness)
    Thread.detachNewThread { process.watch(startedAt: started) }
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
    timeout: Duration = .seconds(60), niceness: Int32 = 10
  ) async throws -> Ended {
    try await podcasts(arguments, environment: environment, output: folder, niceness: niceness)
      .wait(timeout: timeout)
  }

  /// Reads the memory high-water mark until the process ends, then records how it ended.
  /// Reaping and recording happen under the lock that `kill()` takes, so that a kill never
  /// reaches a process id the system has given to another process since.
  private func watch(startedAt started: ContinuousClock.Instant) {
    var peak = 0
    while true {
      let done = ending.withLock { ending -> Bool in
        var status: Int32 = 0
        var usage = rusage()
        let result = wait4(pid, &status, WNOHANG, &usage)
        if result == pid {
          // The bit layout of the wait status, as the W* macros Swift does not import read it.
          let signal = status & 0x7F
          ending = .success(
            Ended(
              status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
              peakMemory: peak, duration: ContinuousClock.now - started, stdoutURL: stdoutURL,
              stderrURL: stderrURL))
          return true
        }
        if result < 0 && errno != EINTR {
          ending = .failure(
            Failure(description: "wait4 for '\(command)': \(String(cString: strerror(errno)))"))
          return true
        }
        return false
      }
      if done { return }
      peak = max(peak, Self.highWaterMark(of: pid))
      usleep(2_000)
    }
  }

  /// `VmHWM` of /proc/PID/status in bytes; 0 once the process has ended.
  private static func highWaterMark(of pid: pid_t) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
    return kilobytes * 1024
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

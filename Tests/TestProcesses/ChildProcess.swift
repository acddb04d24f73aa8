import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A process that a test starts (the built `podcasts`, a test server, a shell), spawned with
/// every signal unblocked and at its default, and always stoppable.
///
/// Foundation's `Process` spawns children with the signal mask of the calling thread, and
/// the threads that tests run on block nearly every signal: such a child ignores SIGTERM, so
/// `terminate()` followed by `waitUntilExit()` can wait forever, and a shell waiting for its
/// own child never hears of its end. Its pipes are not close-on-exec either, so a server
/// started meanwhile by another test keeps them open and never sees end-of-file. Here pipes
/// are close-on-exec, every wait has a deadline, and what does not end in time gets SIGKILL.
public final class ChildProcess: Sendable {
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
  }

  /// Where a standard stream of the child goes.
  public enum Stream {
    /// /dev/null.
    case null
    /// A pipe whose other end `ChildProcess` keeps (`writeInput`, `readLine`).
    case pipe
    /// A file opened for the child (read for stdin, truncated for output).
    case file(String)
  }

  public let pid: pid_t
  /// The write end of the child's standard input, when it was given a pipe.
  private let input: Int32?
  /// The read end of the child's standard output, when it was given a pipe.
  private let output: Int32?
  private let state = Mutex(State())

  private struct State {
    var status: Int32?
    var inputClosed = false
    var outputBuffer: [UInt8] = []
  }

  private init(pid: pid_t, input: Int32?, output: Int32?) {
    self.pid = pid
    self.input = input
    self.output = output
  }

  deinit {
    if let input, !state.withLock({ $0.inputClosed }) { close(input) }
    if let output { close(output) }
  }

  /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`.
  /// - Parameters:
  ///   - environment: the whole environment of the child; this process's when nil.
  public static func spawn(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null
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
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    // The ends the child gets, closed here once it has them.
    var childEnds: [Int32] = []
    var keptEnds: [Int32] = []
    defer { for end in childEnds { close(end) } }
    func cleanUpKept() { for end in keptEnds { close(end) } }

    var inputEnd: Int32?
    var outputEnd: Int32?
    let streams: [(Stream, Int32)] = [(stdin, 0), (stdout, 1), (stderr, 2)]
    do {
      for (stream, descriptor) in streams {
        switch stream {
        case .null:
          posix_spawn_file_actions_addopen(
            &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        case .file(let path):
          let flags = descriptor == 0 ? O_RDONLY : (O_WRONLY | O_CREAT | O_TRUNC)
          posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o600)
        case .pipe:
          guard descriptor != 2 else {
            throw Failure(description: "a pipe for standard error is not supported")
          }
          let ends = try closedOnExecPipe()
          let (childEnd, keptEnd) = descriptor == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
          childEnds.append(childEnd)
          keptEnds.append(keptEnd)
          posix_spawn_file_actions_adddup2(&actions, childEnd, descriptor)
          if descriptor == 0 { inputEnd = keptEnd } else { outputEnd = keptEnd }
        }
      }
    } catch {
      cleanUpKept()
      throw error
    }

    InheritedDescriptors.closeAll(in: &actions)

    let argv = ([executable] + arguments).map { strdup($0) }
    defer { for pointer in argv { free(pointer) } }
    let variables = (environment ?? ProcessInfo.processInfo.environment).map {
      strdup("\($0.key)=\($0.value)")
    }
    defer { for pointer in variables { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawnp(
      &pid, executable, &actions, &attributes, argv + [nil], variables + [nil])
    guard status == 0 else {
      cleanUpKept()
      throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
    }
    return ChildProcess(pid: pid, input: inputEnd, output: outputEnd)
  }

  /// Runs `executable` to its end with `stdin` as its input, its output going to files, and
  /// gives its status and output; kills it after `timeout` seconds.
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    stdin: [UInt8] = [], timeout: Double
  ) throws -> (status: Int32, stdout: [UInt8], stderr: [UInt8]) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "podcasts-run-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputPath = directory.appendingPathComponent("stdin").path
    let outputPath = directory.appendingPathComponent("stdout").path
    let errorPath = directory.appendingPathComponent("stderr").path
    try Data(stdin).write(to: URL(fileURLWithPath: inputPath))
    let child = try spawn(
      executable, arguments, environment: environment, stdin: .file(inputPath),
      stdout: .file(outputPath), stderr: .file(errorPath))
    guard let status = child.wait(timeout: timeout) else {
      child.kill()
      throw Failure(
        description: "'\(executable) \(arguments.joined(separator: " "))' ran longer than "
          + "\(timeout) s and was killed")
    }
    return (
      status,
      Array((try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data()),
      Array((try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data())
    )
  }

  /// Starts a server that prints the port it listens on as its first line of output. Its
  /// input is a pipe, open until `stop()`: the servers of the tests also exit when it closes,
  /// so that a test process that crashes leaves none behind.
  public static func server(
    _ name: String, _ executable: String, _ arguments: [String]
  ) throws -> (process: ChildProcess, port: Int) {
    let process = try spawn(executable, arguments, stdin: .pipe, stdout: .pipe)
    let text = process.readLine(timeout: 30) ?? ""
    guard let port = Int(text.trimmingCharacters(in: .whitespaces)) else {
      process.stop()
      throw Failure(description: "\(name) printed no port (got \"\(text)\")")
    }
    return (process, port)
  }

  /// Its exit status (128 + the signal when a signal ended it), once it has ended and been
  /// reaped; nil while it runs.
  public var exitStatus: Int32? {
    state.withLock { state in
      if let status = state.status { return status }
      var raw: Int32 = 0
      let result = waitpid(pid, &raw, WNOHANG)
      guard result == pid else { return nil }
      let status = Self.decode(raw)
      state.status = status
      return status
    }
  }

  /// Waits up to `timeout` seconds for it to end; its exit status, or nil if it still runs.
  public func wait(timeout: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    var pause: useconds_t = 1_000
    while true {
      if let status = exitStatus { return status }
      if Date() >= deadline { return nil }
      usleep(pause)
      pause = min(pause * 2, 20_000)
    }
  }

  /// Sends `signal` (SIGKILL unless told otherwise) and, for SIGKILL, reaps it.
  public func kill(_ signal: Int32 = SIGKILL) {
    guard exitStatus == nil else { return }
    _ = Glibc.kill(pid, signal)
    if signal == SIGKILL { _ = wait(timeout: 60) }
  }

  /// Closes its input, sends SIGTERM and waits up to `timeout` seconds, then kills it.
  public func stop(timeout: Double = 5) {
    closeInput()
    kill(SIGTERM)
    if wait(timeout: timeout) == nil { kill() }
  }

  /// Writes `bytes` to its standard input pipe.
  public func writeInput(_ bytes: [UInt8]) throws {
    guard let input, !state.withLock({ $0.inputClosed }) else {
      throw Failure(description: "the child's input is not an open pipe")
    }
    var done = 0
    while done < bytes.count {
      let written = bytes[done...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "writing to the child: \(String(cString: strerror(errno)))")
      }
      done += written
    }
  }

  /// Closes its standard input pipe: a child reading it sees end-of-file.
  public func closeInput() {
    guard let input else { return }
    let wasOpen = state.withLock { state in
      defer { state.inputClosed = true }
      return !state.inputClosed
    }
    if wasOpen { close(input) }
  }

  /// The next line of its standard output pipe, without the newline; nil when the output
  /// ended first or nothing came within `timeout` seconds.
  public func readLine(timeout: Double) -> String? {
    guard let output else { return nil }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let line: String? = state.withLock { state in
        guard let newline = state.outputBuffer.firstIndex(of: UInt8(ascii: "\n")) else {
          return nil
        }
        let line = String(decoding: state.outputBuffer[..<newline], as: UTF8.self)
        state.outputBuffer.removeSubrange(...newline)
        return line
      }
      if let line { return line }
      guard let chunk = read(output, until: deadline), !chunk.isEmpty else { return nil }
      state.withLock { $0.outputBuffer += chunk }
    }
  }

  /// What is left on its standard output pipe until the child closes it, or until `timeout`.
  public func readRest(timeout: Double) -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var rest = state.withLock { state in
      defer { state.outputBuffer.removeAll() }
      return state.outputBuffer
    }
    if let output {
      while let chunk = read(output, until: deadline), !chunk.isEmpty { rest += chunk }
    }
    return String(decoding: rest, as: UTF8.self)
  }

  /// Bytes from `descriptor` once it is readable; empty at end-of-file, nil at the deadline.
  private func read(_ descriptor: Int32, until deadline: Date) -> [UInt8]? {
    while true {
      let remaining = deadline.timeIntervalSinceNow
      if remaining <= 0 { return nil }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(min(remaining, 3600) * 1000) + 1)
      if ready < 0 && errno == EINTR { continue }
      if ready <= 0 { continue }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = buffer.withUnsafeMutableBytes {
        Glibc.read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return []
      }
      return Array(buffer[..<count])
    }
  }

  private static func decode(_ raw: Int32) -> Int32 {
    let signal = raw & 0x7f
    return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
  }

  /// A pipe whose ends are closed on exec. Glibc's module leaves out pipe2, hence the flag
  /// set afterwards; `InheritedDescriptors` covers the moment in between.
  private static func closedOnExecPipe() throws -> [Int32] {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return ends
  }
}

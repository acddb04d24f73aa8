import CCurl
import Foundation

/// libcurl, opened with dlopen the first time something is fetched.
///
/// Linking libcurl would make every command load it and the ~30 libraries it needs
/// (TLS, Kerberos, LDAP, SSH...) at start-up, which costs more than the rest of a
/// `podcasts list`; opened here, only fetches pay for it, once.
struct CurlLibrary: @unchecked Sendable {
  typealias EasyInit = @convention(c) () -> UnsafeMutableRawPointer?
  typealias EasyCleanup = @convention(c) (UnsafeMutableRawPointer?) -> Void
  typealias EasyPerform = @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
  typealias EasyReset = @convention(c) (UnsafeMutableRawPointer?) -> Void
  typealias EasyStrerror = @convention(c) (CURLcode) -> UnsafePointer<CChar>?
  typealias SlistAppend =
    @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) ->
    UnsafeMutablePointer<curl_slist>?
  typealias SlistFreeAll = @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void
  typealias GlobalInit = @convention(c) (Int) -> CURLcode

  let easyInit: EasyInit
  let easyCleanup: EasyCleanup
  let easyPerform: EasyPerform
  let easyReset: EasyReset
  let easyStrerror: EasyStrerror
  let slistAppend: SlistAppend
  let slistFreeAll: SlistFreeAll
  /// curl_easy_setopt and curl_easy_getinfo, called through the shim's C wrappers
  /// because they are variadic.
  let setopt: UnsafeMutableRawPointer
  let getinfo: UnsafeMutableRawPointer

  /// The library, or why it could not be opened; opened once per process.
  static let shared: Result<CurlLibrary, CurlLoadError> = open()

  /// Debian's OpenSSL build first, then the GnuTLS one, which has the same interface.
  private static let names = ["libcurl.so.4", "libcurl-gnutls.so.4"]

  private static func open() -> Result<CurlLibrary, CurlLoadError> {
    var reasons: [String] = []
    for name in names {
      guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
        reasons.append(dlerror().map { String(cString: $0) } ?? name)
        continue
      }
      switch bind(handle) {
      case .success(let bound):
        // Not thread-safe in every libcurl: done here, under the lazy static's lock,
        // before any transfer.
        guard bound.globalInit(Int(CURL_GLOBAL_ALL)) == CURLE_OK else {
          return .failure(CurlLoadError(detail: "\(name): curl_global_init failed"))
        }
        // With CURLOPT_NOSIGNAL, which threads need, libcurl leaves SIGPIPE alone, and a
        // TLS library writing to a connection the server closed would end the process.
        // Ignored, it is an error of that one transfer; standard output's EPIPE is
        // handled where it is written.
        signal(SIGPIPE, SIG_IGN)
        return .success(bound.library)
      case .failure(let error):
        reasons.append(error.detail)
      }
    }
    return .failure(CurlLoadError(detail: reasons.joined(separator: "; ")))
  }

  private static func bind(_ handle: UnsafeMutableRawPointer) -> Result<
    (library: CurlLibrary, globalInit: GlobalInit), CurlLoadError
  > {
    func symbol(_ name: String) throws(CurlLoadError) -> UnsafeMutableRawPointer {
      guard let address = dlsym(handle, name) else {
        throw CurlLoadError(detail: "libcurl has no \(name)")
      }
      return address
    }
    do throws(CurlLoadError) {
      let library = CurlLibrary(
        easyInit: unsafeBitCast(try symbol("curl_easy_init"), to: EasyInit.self),
        easyCleanup: unsafeBitCast(try symbol("curl_easy_cleanup"), to: EasyCleanup.self),
        easyPerform: unsafeBitCast(try symbol("curl_easy_perform"), to: EasyPerform.self),
        easyReset: unsafeBitCast(try symbol("curl_easy_reset"), to: EasyReset.self),
        easyStrerror: unsafeBitCast(try symbol("curl_easy_strerror"), to: EasyStrerror.self),
        slistAppend: unsafeBitCast(try symbol("curl_slist_append"), to: SlistAppend.self),
        slistFreeAll: unsafeBitCast(try symbol("curl_slist_free_all"), to: SlistFreeAll.self),
        setopt: try symbol("curl_easy_setopt"),
        getinfo: try symbol("curl_easy_getinfo"))
      let globalInit = unsafeBitCast(try symbol("curl_global_init"), to: GlobalInit.self)
      return .success((library, globalInit))
    } catch {
      return .failure(error)
    }
  }
}

struct CurlLoadError: Error {
  let detail: String
}

/// One libcurl easy handle with the request headers and error buffer that must live as
/// long as it does. One transfer at a time uses it; `CurlHandlePool` hands it from one
/// to the next.
final class CurlEasy: @unchecked Sendable {
  private let library: CurlLibrary
  private let handle: UnsafeMutableRawPointer
  private var headers: UnsafeMutablePointer<curl_slist>?
  private let errorBuffer: UnsafeMutablePointer<CChar>

  init?(_ library: CurlLibrary) {
    guard let handle = library.easyInit() else { return nil }
    self.library = library
    self.handle = handle
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
  }

  /// Forgets every option of the last transfer; its open connections stay.
  func reset() {
    library.easyReset(handle)
    set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
  }

  deinit {
    library.easyCleanup(handle)
    library.slistFreeAll(headers)
    errorBuffer.deallocate()
  }

  func set(_ option: CURLoption, _ value: Int) {
    _ = podcasts_curl_setopt_long(library.setopt, handle, option, value)
  }

  func set(_ option: CURLoption, offset value: Int64) {
    _ = podcasts_curl_setopt_offset(library.setopt, handle, option, curl_off_t(value))
  }

  /// libcurl copies strings it is given, so the C string need not outlive the call.
  func set(_ option: CURLoption, _ value: String) {
    _ = value.withCString { podcasts_curl_setopt_pointer(library.setopt, handle, option, $0) }
  }

  func set(_ option: CURLoption, pointer value: UnsafeRawPointer?) {
    _ = podcasts_curl_setopt_pointer(library.setopt, handle, option, value)
  }

  func set(_ option: CURLoption, write callback: curl_write_callback) {
    _ = podcasts_curl_setopt_write_callback(library.setopt, handle, option, callback)
  }

  func set(_ option: CURLoption, progress callback: curl_xferinfo_callback) {
    _ = podcasts_curl_setopt_xferinfo_callback(library.setopt, handle, option, callback)
  }

  /// Replaces the request headers (`Name: value` lines).
  func setHeaders(_ lines: [String]) {
    var list: UnsafeMutablePointer<curl_slist>?
    for line in lines {
      list = line.withCString { library.slistAppend(list, $0) } ?? list
    }
    set(CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(list))
    library.slistFreeAll(headers)
    headers = list
  }

  func perform() -> CURLcode {
    errorBuffer[0] = 0
    return library.easyPerform(handle)
  }

  /// The status of the last response received.
  var responseCode: Int {
    var code = 0
    _ = podcasts_curl_getinfo_long(library.getinfo, handle, CURLINFO_RESPONSE_CODE, &code)
    return code
  }

  /// libcurl's own words for the failure, which say more than the code's.
  func detail(for code: CURLcode) -> String {
    if errorBuffer[0] != 0 { return String(cString: errorBuffer) }
    return library.easyStrerror(code).map { String(cString: $0) }
      ?? "libcurl error \(code.rawValue)"
  }
}

/// Easy handles kept between transfers, by the origin they first fetched from. A handle
/// keeps its open connections, so the next feed from the same server (many podcasts share
/// a few hosts) skips the TCP and TLS handshakes. libcurl's shared connection cache is
/// not safe across threads, which is why whole handles are passed on instead.
final class CurlHandlePool: @unchecked Sendable {
  static let shared = CurlHandlePool(capacity: 16)

  private let lock = NSLock()
  private let capacity: Int
  private var idle: [(origin: String, handle: CurlEasy)] = []

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// A handle that last fetched from `origin` if one is idle, else a new one.
  func take(for origin: String, library: CurlLibrary) -> CurlEasy? {
    let kept = lock.withLock { () -> CurlEasy? in
      guard let index = idle.lastIndex(where: { $0.origin == origin }) else { return nil }
      return idle.remove(at: index).handle
    }
    return kept ?? CurlEasy(library)
  }

  /// Keeps `handle` for the next transfer from `origin`; past the capacity, the handle
  /// idle longest is closed. The handle forgets its options (and the callbacks' pointer
  /// to the transfer that ends) first.
  func giveBack(_ handle: CurlEasy, origin: String) {
    handle.reset()
    let evicted = lock.withLock { () -> CurlEasy? in
      idle.append((origin, handle))
      return idle.count > capacity ? idle.removeFirst().handle : nil
    }
    // Closing its connections may take a moment: not while holding the lock.
    withExtendedLifetime(evicted) {}
  }
}

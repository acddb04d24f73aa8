import Foundation

/// Proxy settings come from the environment, read by libcurl for every transfer:
/// `http_proxy`, `https_proxy`/`HTTPS_PROXY`, `all_proxy`/`ALL_PROXY` and
/// `no_proxy`/`NO_PROXY`. libcurl ignores upper-case `HTTP_PROXY` (in a CGI program it
/// can come from a request header), which other tools honour; this fills the gap.
enum ProxyEnvironment {
  /// Variables to add so that libcurl sees what `environment` asks for.
  static func additions(to environment: [String: String]) -> [String: String] {
    guard environment["REQUEST_METHOD"] == nil, environment["http_proxy"] == nil,
      let proxy = environment["HTTP_PROXY"], !proxy.isEmpty
    else { return [:] }
    return ["http_proxy": proxy]
  }

  private static let adopted: Bool = {
    for (name, value) in additions(to: ProcessInfo.processInfo.environment) {
      setenv(name, value, 0)
    }
    return true
  }()

  /// Applies `additions` to this process once, before the first fetcher exists.
  static func adoptUpperCaseHTTPProxy() {
    _ = adopted
  }
}

import Foundation

extension URL {
  /// The URL as text with any password replaced by `***`, safe to show and log.
  public var maskingPassword: String {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true),
      components.percentEncodedPassword != nil
    else { return absoluteString }
    components.percentEncodedPassword = "***"
    return components.string ?? absoluteString
  }

  /// The URL without user and password: what goes on the wire, the credentials
  /// travel in an Authorization header instead.
  var removingCredentials: URL {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true),
      components.percentEncodedUser != nil || components.percentEncodedPassword != nil
    else { return self }
    components.percentEncodedUser = nil
    components.percentEncodedPassword = nil
    return components.url ?? self
  }

  /// `Basic ...` from the URL's user and password, or nil when it has none.
  var basicAuthorization: String? {
    guard let components = URLComponents(url: self, resolvingAgainstBaseURL: true),
      let user = components.user
    else { return nil }
    let pair = "\(user):\(components.password ?? "")"
    return "Basic " + Data(pair.utf8).base64EncodedString()
  }

  /// The URL with the user and password of `other` added.
  func addingCredentials(of other: URL) -> URL {
    guard let source = URLComponents(url: other, resolvingAgainstBaseURL: true),
      source.percentEncodedUser != nil,
      var components = URLComponents(url: self, resolvingAgainstBaseURL: true)
    else { return self }
    components.percentEncodedUser = source.percentEncodedUser
    components.percentEncodedPassword = source.percentEncodedPassword
    return components.url ?? self
  }

  /// Scheme, host and port: credentials are only ever sent back to the same origin.
  func hasSameOrigin(as other: URL) -> Bool {
    scheme?.lowercased() == other.scheme?.lowercased()
      && host?.lowercased() == other.host?.lowercased()
      && effectivePort == other.effectivePort
  }

  /// `scheme://host:port`, lower-cased: what a connection can be reused for.
  var origin: String {
    "\(scheme?.lowercased() ?? "")://\(host?.lowercased() ?? ""):\(effectivePort ?? 0)"
  }

  private var effectivePort: Int? {
    if let port { return port }
    switch scheme?.lowercased() {
    case "http": return 80
    case "https": return 443
    default: return nil
    }
  }
}

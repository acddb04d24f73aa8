import Glibc

/// The attributes of one start tag as libxml2's SAX2 hands them over: five pointers each
/// (local name, prefix, namespace URI, value start, value end), values not NUL-terminated.
/// Read in place; only a value asked for becomes a String. A value that the repair stage
/// lifted (``LiftedText``) is read from where it was put.
struct Attributes {
  private let base: UnsafePointer<UnsafePointer<UInt8>?>?
  let count: Int
  /// Unowned: attributes live only while their start tag is reported, and the parser
  /// that holds the queue outlives that.
  private unowned(unsafe) let lifted: LiftedText.Queue?

  init(
    _ base: UnsafePointer<UnsafePointer<UInt8>?>?, count: Int, lifted: LiftedText.Queue? = nil
  ) {
    self.base = base
    self.count = base == nil ? 0 : count
    self.lifted = lifted
  }

  /// The value of the un-prefixed attribute `name`.
  subscript(name: StaticString) -> String? {
    guard let index = index(of: name, prefix: nil) else { return nil }
    return value(at: index)
  }

  subscript(name: String) -> String? {
    var name = name
    return name.withUTF8 { bytes in
      guard
        let index = (0..<count).first(where: { i in
          self.prefix(at: i) == nil && equals(localName(at: i), bytes)
        })
      else { return nil }
      return value(at: index)
    }
  }

  /// The value of the attribute with local name `name`, whatever its prefix (RSS 1.0
  /// modules write `rdf:resource`, `enc:type`).
  func anyPrefix(_ name: StaticString) -> String? {
    let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    return (0..<count).first { equals(localName(at: $0), wanted) }.map(value(at:))
  }

  /// The value of `xml:lang`, when the element has one.
  var xmlLang: String? {
    index(of: "lang", prefix: "xml").map(value(at:))
  }

  /// The value of `xml:base`, when the element has one.
  var xmlBase: String? {
    index(of: "base", prefix: "xml").map(value(at:))
  }

  /// The local name and the value bytes of the attribute at `index`.
  func raw(_ index: Int) -> (name: UnsafePointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
    let start = pointer(index, 3)
    let value = UnsafeBufferPointer(start: start, count: pointer(index, 4) - start)
    return (localName(at: index), lifted?.attributeValue(value) ?? value)
  }

  private func index(of name: StaticString, prefix: StaticString?) -> Int? {
    let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    for i in 0..<count where equals(localName(at: i), wanted) {
      let actual = self.prefix(at: i)
      if let prefix {
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        if let actual, equals(actual, expected) { return i }
      } else if actual == nil {
        return i
      }
    }
    return nil
  }

  private func pointer(_ index: Int, _ field: Int) -> UnsafePointer<UInt8> {
    // libxml2 fills every field of a reported attribute but the prefix and the URI.
    base.unsafelyUnwrapped[index * 5 + field].unsafelyUnwrapped
  }

  private func localName(at index: Int) -> UnsafePointer<UInt8> { pointer(index, 0) }

  private func prefix(at index: Int) -> UnsafePointer<UInt8>? {
    base.unsafelyUnwrapped[index * 5 + 1]
  }

  private func value(at index: Int) -> String {
    String(checkedUTF8: raw(index).value)
  }

  /// Whether the NUL-terminated `name` equals `bytes`.
  private func equals(_ name: UnsafePointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = bytes.baseAddress else { return name.pointee == 0 }
    return memcmp(name, start, bytes.count) == 0 && name[bytes.count] == 0
  }
}

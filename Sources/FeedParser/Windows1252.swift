/// The Windows-1252 code page, which feeds that claim UTF-8 or ISO-8859-1 are most often
/// really written in.
enum Windows1252 {
  /// Unicode scalars of bytes 0x80-0x9F; the five bytes the code page leaves undefined map
  /// to themselves, as in ISO-8859-1.
  static let highHalf: [UInt16] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
  ]

  /// Appends the UTF-8 of byte `b` read as Windows-1252.
  static func appendUTF8(of b: UInt8, to out: inout [UInt8]) {
    let scalar = b < 0x80 ? UInt32(b) : b < 0xA0 ? UInt32(highHalf[Int(b - 0x80)]) : UInt32(b)
    if scalar < 0x80 {
      out.append(UInt8(scalar))
    } else if scalar < 0x800 {
      out.append(UInt8(0xC0 | (scalar >> 6)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    } else {
      out.append(UInt8(0xE0 | (scalar >> 12)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }
}

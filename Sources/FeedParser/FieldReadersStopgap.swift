import Foundation

enum FeedDate { static func parse(_ s: String) -> Date? { nil } }
enum FeedDuration { static func parse(_ s: String) -> Int? { Int(s) } }
enum FeedNumber {
  static func length(_ s: String) -> Int? { Int(s) }
  static func integer(_ s: String) -> Int? { Int(s) }
  static func explicit(_ s: String) -> Bool? { nil }
}

import FeedViews
import Testing

@Suite struct URLMaskingTests {
  @Test(arguments: [
    ("https://user:pass@host/feed", "https://user:***@host/feed"),
    ("http://u:p@host:8080/a?b=c", "http://u:***@host:8080/a?b=c"),
    ("https://user:p%40ss:word@host", "https://user:***@host"),
    ("https://user:pass@host?x=@y", "https://user:***@host?x=@y"),
    ("feed+https://a:b@host/", "feed+https://a:***@host/"),
    ("https://user@host/feed", "https://user@host/feed"),
    ("https://user:@host/feed", "https://user:@host/feed"),
    ("https://host/path@with-at", "https://host/path@with-at"),
    ("https://host/feed?mail=a@b.c", "https://host/feed?mail=a@b.c"),
    ("mailto:someone@example.com", "mailto:someone@example.com"),
    ("not a url: x@y", "not a url: x@y"),
    ("", ""),
  ])
  func masksPasswords(url: String, expected: String) {
    #expect(URLMasking.maskingCredentials(url) == expected)
  }
}

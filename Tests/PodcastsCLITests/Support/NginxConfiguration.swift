import Foundation

/// The files that configure a test's nginx.
enum NginxConfiguration {
  /// A configuration that keeps every path inside `directory` and serves `directory/root`
  /// on 127.0.0.1:`port`, feeds gzip-compressed when the client accepts it, with ETags and
  /// Last-Modified from the files (nginx's defaults, stated here because the tests rely on
  /// them).
  static func text(directory: String, port: Int, locations: String, http: String) -> String {
    """
    daemon off;
    master_process off;
    worker_processes 1;
    pid \(directory)/nginx.pid;
    error_log \(directory)/error.log warn;
    events { worker_connections 256; }
    http {
      types {
        application/rss+xml xml rss;
        application/atom+xml atom;
        text/html html;
        text/plain txt;
      }
      default_type application/octet-stream;
      client_body_temp_path \(directory)/temp/body;
      proxy_temp_path \(directory)/temp/proxy;
      fastcgi_temp_path \(directory)/temp/fastcgi;
      uwsgi_temp_path \(directory)/temp/uwsgi;
      scgi_temp_path \(directory)/temp/scgi;
      log_format probe escape=json '{"method":"$request_method","uri":"$request_uri",'
        '"status":$status,"ifNoneMatch":"$http_if_none_match",'
        '"ifModifiedSince":"$http_if_modified_since","user":"$remote_user",'
        '"encoding":"$sent_http_content_encoding"}';
      access_log \(directory)/access.log probe;
      etag on;
      if_modified_since exact;
      gzip on;
      gzip_types application/rss+xml application/atom+xml;
      gzip_min_length 0;
    \(http)
      server {
        listen 127.0.0.1:\(port);
        root \(directory)/root;
        location /private/ {
          auth_basic "feeds";
          auth_basic_user_file \(directory)/htpasswd;
          alias \(directory)/root/;
        }
    \(locations)
      }
    }

    """
  }

  /// An htpasswd file: passwords hashed with `openssl passwd -apr1` when openssl is
  /// installed, else in the `{PLAIN}` form that nginx also reads.
  static func passwordFile(_ users: [String: String]) throws -> String {
    let openssl = BuiltProducts.installedTool("openssl")
    var lines: [String] = []
    for (user, password) in users.sorted(by: { $0.key < $1.key }) {
      var hash = "{PLAIN}" + password
      if let openssl {
        let run = try BuiltProducts.runProcess(openssl, ["passwd", "-apr1", password])
        let output = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if run.status == 0, output.hasPrefix("$apr1$") { hash = output }
      }
      lines.append("\(user):\(hash)")
    }
    return lines.map { $0 + "\n" }.joined()
  }
}

import COpenSSL
import CSystem

#if canImport(Glibc)
import Glibc
#endif

protocol Transport {
    func write(_ bytes: [UInt8], deadline: Int64) -> HTTPClient.Failure?
    /// Some bytes, or none at the end of the stream.
    func read(deadline: Int64) -> Result<[UInt8], HTTPClient.Failure>
    func close()
}

/// Waits until the descriptor is ready or the deadline passes.
func wait(_ fd: Int32, for events: Int16, until deadline: Int64) -> Bool {
    while true {
        let left = (deadline - csys_monotonic_ns()) / 1_000_000
        if left <= 0 { return false }
        var p = pollfd(fd: fd, events: events, revents: 0)
        let n = poll(&p, 1, Int32(min(left, Int64(Int32.max))))
        if n > 0 { return true }
        if n == 0 { return false }
        if errno != EINTR { return true }  // let the next call report the error
    }
}

/// A non-blocking TCP connection.
final class Socket: Transport {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    static func connect(host: String, port: Int, deadline: Int64) -> Result<Socket, HTTPClient.Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            return .failure(.resolve(host))
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(
                info.pointee.ai_family,
                info.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return .success(Socket(fd: fd)) }
            guard errno == EINPROGRESS else {
                lastError = String(cString: strerror(errno))
                Glibc.close(fd)
                continue
            }
            guard wait(fd, for: Int16(POLLOUT), until: deadline) else {
                Glibc.close(fd)
                return .failure(.timeout)
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return .success(Socket(fd: fd)) }
            lastError = String(cString: strerror(error))
            Glibc.close(fd)
        }
        return .failure(.connect(lastError))
    }

    func write(_ bytes: [UInt8], deadline: Int64) -> HTTPClient.Failure? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { csys_send(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EINTR) {
                guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return .timeout }
                continue
            }
            return .connect(String(cString: strerror(errno)))
        }
        return nil
    }

    func read(deadline: Int64) -> Result<[UInt8], HTTPClient.Failure> {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n >= 0 { return .success(Array(buffer[0..<n])) }
            if errno == EAGAIN || errno == EINTR {
                guard wait(fd, for: Int16(POLLIN), until: deadline) else { return .failure(.timeout) }
                continue
            }
            return .failure(.connect(String(cString: strerror(errno))))
        }
    }

    func close() { Glibc.close(fd) }
}

/// TLS over a socket: OpenSSL verifies the chain (system roots, or the
/// given file) and that the certificate names the host.
final class TLSTransport: Transport {
    let socket: Socket
    let context: OpaquePointer
    let ssl: OpaquePointer

    private init(socket: Socket, context: OpaquePointer, ssl: OpaquePointer) {
        self.socket = socket
        self.context = context
        self.ssl = ssl
    }

    static func open(
        _ socket: Socket, host: String, trusted: String?, deadline: Int64
    ) -> Result<TLSTransport, HTTPClient.Failure> {
        func failure(_ what: String) -> HTTPClient.Failure {
            let code = ERR_get_error()
            var text = [CChar](repeating: 0, count: 256)
            if code != 0 { ERR_error_string_n(code, &text, text.count) }
            ERR_clear_error()
            let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .tls(code == 0 ? what : "\(what): \(message)")
        }
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            socket.close()
            return .failure(failure("no context"))
        }
        _ = arcade_ctx_min_tls12(context)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let loaded =
            trusted.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
        guard loaded == 1, let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            socket.close()
            return .failure(failure("cannot load trusted certificates"))
        }
        let transport = TLSTransport(socket: socket, context: context, ssl: ssl)
        SSL_set_fd(ssl, socket.fd)
        var v4 = in_addr()
        var v6 = in6_addr()
        let isIP = inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
        if isIP {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
        } else {
            _ = arcade_ssl_set_sni(ssl, host)
            SSL_set1_host(ssl, host)
        }
        while true {
            let rc = SSL_connect(ssl)
            if rc == 1 { return .success(transport) }
            let error = SSL_get_error(ssl, rc)
            let events: Int16
            switch error {
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            default:
                let verify = SSL_get_verify_result(ssl)
                let reason =
                    verify != X509_V_OK
                    ? "certificate not trusted: " + String(cString: X509_verify_cert_error_string(verify))
                    : "handshake failed"
                let result = failure(reason)
                transport.close()
                return .failure(result)
            }
            guard wait(socket.fd, for: events, until: deadline) else {
                transport.close()
                return .failure(.timeout)
            }
        }
    }

    func write(_ bytes: [UInt8], deadline: Int64) -> HTTPClient.Failure? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + offset, Int32($0.count - offset)) }
            if n > 0 {
                offset += Int(n)
                continue
            }
            switch SSL_get_error(ssl, n) {
            case SSL_ERROR_WANT_READ:
                guard wait(socket.fd, for: Int16(POLLIN), until: deadline) else { return .timeout }
            case SSL_ERROR_WANT_WRITE:
                guard wait(socket.fd, for: Int16(POLLOUT), until: deadline) else { return .timeout }
            default: return .tls("write failed")
            }
        }
        return nil
    }

    func read(deadline: Int64) -> Result<[UInt8], HTTPClient.Failure> {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 { return .success(Array(buffer[0..<Int(n)])) }
            switch SSL_get_error(ssl, n) {
            case SSL_ERROR_WANT_READ:
                guard wait(socket.fd, for: Int16(POLLIN), until: deadline) else { return .failure(.timeout) }
            case SSL_ERROR_WANT_WRITE:
                guard wait(socket.fd, for: Int16(POLLOUT), until: deadline) else { return .failure(.timeout) }
            case SSL_ERROR_ZERO_RETURN: return .success([])
            case SSL_ERROR_SYSCALL where n == 0: return .success([])  // closed without close_notify: end of stream
            default: return .failure(.tls("read failed"))
            }
        }
    }

    func close() {
        SSL_free(ssl)
        SSL_CTX_free(context)
        socket.close()
    }
}

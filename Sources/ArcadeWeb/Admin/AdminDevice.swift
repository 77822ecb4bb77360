/// A session's device in a few words from its User-Agent ("Firefox on Windows"), for an admin deciding which
/// session to revoke; not a security decision (a User-Agent says what its sender likes).
enum AdminDevice {
    static func describe(userAgent: String) -> String {
        guard !userAgent.isEmpty else { return "" }
        // Order matters: Edge and Opera also say Chrome, Chrome also says Safari, iOS also says Mac OS X.
        let browsers = [
            ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("HeadlessChrome/", "Headless Chrome"),
            ("Chromium/", "Chromium"), ("Chrome/", "Chrome"), ("CriOS/", "Chrome"), ("Safari/", "Safari"),
            ("curl/", "curl"), ("python-requests/", "Python"),
        ]
        let systems = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Mac OS X", "macOS"),
            ("Windows", "Windows"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
        ]
        let browser = browsers.first { userAgent.contains($0.0) }?.1
        let system = systems.first { userAgent.contains($0.0) }?.1
        switch (browser, system) {
        case (let b?, let s?): return "\(b) · \(s)"
        case (let b?, nil): return b
        case (nil, let s?): return s
        case (nil, nil): return String(userAgent.prefix(40))
        }
    }
}

import Testing

@testable import Interceptions

@Suite("User-Agent")
struct UserAgentTests {
    @Test(arguments: [
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 Version/17.1 Mobile/15E148 Safari/604.1",
            "ios", "17.1.2"
        ),
        (
            "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 Version/16.6 Mobile/15E148 Safari/604.1",
            "ios", "16.6"
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36", "android",
            "14"
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/120.0 Safari/537.36", "macos",
            "10.15.7"
        ),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36", "windows", "10.0"),
    ])
    func recognizes(_ agent: String, _ name: String, _ version: String) {
        let os = ClientOS.parse(userAgent: agent)
        #expect(os?.name == name)
        #expect(os?.version == Version(version)!)
    }

    @Test(arguments: ["", "curl/8.5.0", "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", "Android ", "Windows NT x"])
    func othersAreUnknown(_ agent: String) {
        #expect(ClientOS.parse(userAgent: agent) == nil)
    }
}

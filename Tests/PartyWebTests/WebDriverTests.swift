import Foundation
import Testing
import TestSupport

/// TestSupport's WebDriver on Debian's real headless Chromium (scripts/test.sh installs it).
@Suite struct WebDriverTests {
    static let skipReason = Comment(rawValue: WebDriver.unavailable()?.description ?? "")

    @Test(.enabled(if: WebDriver.unavailable() == nil, skipReason))
    func drivesAPageInChromium() async throws {
        let driver = try await WebDriver.start(windowSize: (640, 480))
        #expect(try await driver.currentURL == "about:blank")
        let page = """
            <title>Tandem</title>
            <p id="said">not yet</p><button id="go">Go</button><input id="name">
            <script>
            console.error("page says hello");
            document.getElementById("go").onclick = () => {
                document.getElementById("said").textContent = "clicked";
                window.clicks = (window.clicks || 0) + 1;
                setTimeout(() => { window.later = true }, 100);
            };
            </script>
            """
        try await driver.navigate(to: "data:text/html," + page.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        #expect(try await driver.title == "Tandem")
        #expect(try await driver.currentURL.hasPrefix("data:text/html,"))

        let button = try await driver.element(css: "#go")
        #expect(try await driver.isDisplayed(button))
        #expect(try await driver.attribute("id", of: button) == "go")
        try await driver.click(button)
        #expect(try await driver.text(of: driver.element(css: "#said")) == "clicked")
        try await driver.wait(until: "return window.later === true", within: .seconds(10))

        let name = try await driver.element(css: "#name")
        try await driver.sendKeys("Ada", to: name)
        let state = try await driver.execute("""
            return {clicks: window.clicks, name: arguments[0].value, sum: arguments[1] + arguments[2],
                    width: window.innerWidth, nothing: null, list: [true, "x"]}
            """, [name.json, 2, 0.5])
        #expect(state["clicks"]?.int == 1)
        #expect(state["name"]?.string == "Ada")
        #expect(state["sum"]?.double == 2.5)
        #expect(state["width"]?.int == 640)
        #expect(state["nothing"]?.isNull == true)
        #expect(state["list"] == [true, "x"])
        #expect(try await driver.executeAsync("const done = arguments[1]; setTimeout(() => done(arguments[0] * 2), 10)", [21]) == 42)

        let error = await #expect(throws: WebDriver.Failure.self) { try await driver.element(css: "#absent") }
        #expect(error?.error == "no such element")
        let timeout = await #expect(throws: TimedOut.self) { try await driver.wait(until: "return 'almost'.length > 9", within: .milliseconds(300)) }
        #expect(timeout?.what.contains("false") == true)

        let png = try await driver.screenshot()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        try await driver.setWindowSize(width: 800, height: 600)
        #expect(try await driver.execute("return window.innerWidth").int == 800)
        let logs = try await driver.browserLogs()
        #expect(logs.contains { $0.level == "SEVERE" && $0.message.contains("page says hello") }, "\(logs)")
        await driver.quit()
        await driver.quit()
        await #expect(throws: WebDriver.Failure.self) { try await driver.title }
    }

    /// chromedriver killed (a crash) leaves its Chromium running; releasing the driver ends it all.
    @Test(.enabled(if: WebDriver.unavailable() == nil, skipReason))
    func nothingOutlivesADroppedDriver() async throws {
        var driver: WebDriver? = try await WebDriver.start()
        let group = driver!.processIdentifier
        #expect(Self.liveProcesses(inGroup: group) >= 2, "chromedriver and Chromium")
        kill(group, SIGKILL)
        driver = nil
        try await waitUntil("Chromium to end", within: 10) { Self.liveProcesses(inGroup: group) == 0 }
    }

    /// How many processes not yet ended (zombies are) are in process group `group`, from /proc.
    static func liveProcesses(inGroup group: pid_t) -> Int {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int($0) != nil } ?? []
        return pids.count { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let end = stat.range(of: ") ", options: .backwards) else { return false }
            let fields = stat[end.upperBound...].split(separator: " ")  // state, ppid, pgrp, …
            return fields.count > 2 && fields[0] != "Z" && fields[2] == "\(group)"
        }
    }

    @Test func aMissingChromedriverIsNamed() async throws {
        let error = await #expect(throws: WebDriver.Unavailable.self) {
            try await WebDriver.start(driverPath: "/nonexistent/chromedriver")
        }
        #expect(error?.description.contains("chromedriver is not installed: no executable /nonexistent/chromedriver") == true)
        #expect(error?.description.contains("chromium-driver") == true)
    }
}

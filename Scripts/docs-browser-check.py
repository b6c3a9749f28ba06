#!/usr/bin/env python3
"""Opens the documentation site built by Scripts/docs.sh in headless Chromium and checks it.

Serves .build-docs/site on 127.0.0.1 (a port the system picks), starts Chromium headless with
its DevTools protocol on a local port, and drives it over a WebSocket (Python's standard library
only). For each module it loads the landing page and one symbol page (the first symbol of the
landing page's first symbol group), then a page with a marble picture, a guide article and each
tutorial catalog's first page if Documentation/*.docc exists. A page fails when:

  - the browser logs a console error or an uncaught exception, or a request fails (HTTP >= 400
    or a network error), while it loads;
  - its content is missing: no title, DocC's "page not found" text, or, for a symbol page, no
    declaration;
  - an image does not load (each one is scrolled into view first, since DocC loads them lazily);
  - the marble page shows no marble picture.

A screenshot of each page goes to .build-docs/screenshots/<name>.png.

Usage: Scripts/docs-browser-check.py [--site DIR] [--chromium PATH]
Needs Debian's `chromium` package (apt-get install -y chromium). Exits 1 when a page fails.
"""
import argparse, base64, functools, glob, http.server, json, os, shutil, socket, struct, subprocess
import sys, tempfile, threading, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ["Streams", "StreamsTesting", "StreamsBlocking", "ObjectStore", "Repository", "Differentiator", "HeadlessUI", "MVVM", "StreamsObservation"]


class WebSocket:
    """The client side of RFC 6455, enough for the DevTools protocol (text frames, no extensions)."""

    def __init__(self, url):
        assert url.startswith("ws://")
        hostport, _, path = url[5:].partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, hostport, key)).encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the browser closed the connection")
            response += chunk
        if b" 101 " not in response.split(b"\r\n", 1)[0]:
            raise ConnectionError(response.decode(errors="replace"))
        self.buffer = response.split(b"\r\n\r\n", 1)[1]

    def send(self, text):
        data = text.encode()
        header = bytearray([0x81])
        if len(data) < 126:
            header.append(0x80 | len(data))
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        mask = os.urandom(4)
        self.sock.sendall(bytes(header) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the browser closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            length = b1 & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            opcode = b0 & 0x0F
            if opcode == 0x9:  # ping
                continue
            if opcode == 0x8:
                raise ConnectionError("the browser closed the WebSocket")
            message += payload
            if b0 & 0x80:
                return message.decode()


class Browser:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == mine:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method, timeout):
        end = time.time() + timeout
        self.ws.sock.settimeout(timeout)
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e["method"] == method:
                    del self.events[i]
                    return e
            try:
                message = json.loads(self.ws.receive())
            except socket.timeout:
                break
            if "method" in message:
                self.events.append(message)
        return None

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError("evaluate: %s" % result["exceptionDetails"])
        return result["result"].get("value")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site):
    handler = functools.partial(QuietHandler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def page_json(site, module, url_path):
    path = os.path.join(site, module, "data", url_path.strip("/").split("/", 1)[1] + ".json")
    return json.load(open(path)) if os.path.exists(path) else None


def first_symbol_page(site, module):
    """The URL of the first symbol of the landing page's first group of symbols."""
    landing = page_json(site, module, "/%s/documentation/%s" % (module, module.lower()))
    for section in landing.get("topicSections", []):
        for ident in section.get("identifiers", []):
            ref = landing["references"].get(ident, {})
            if ref.get("kind") == "symbol":
                return ref["url"]
    return None


def marble_page(site):
    """A page of Streams that shows a marble picture (flatMapLatest's if there is one)."""
    candidates = sorted(glob.glob(os.path.join(site, "Streams", "data", "documentation", "streams", "**", "*.json"), recursive=True))
    candidates.sort(key=lambda p: (0 if "observabletype/flatmaplatest" in p else 1, p))
    for path in candidates:
        text = open(path).read()
        if '"marble-' in text:
            node = json.loads(text)
            return os.path.relpath(path, os.path.join(site, "Streams", "data", "documentation"))[:-len(".json")]
    return None


PAGE_STATE = r"""
(async () => {
  const deadline = Date.now() + 15000;
  const text = () => document.body ? document.body.innerText : "";
  while (Date.now() < deadline) {
    const h1 = document.querySelector("main h1, h1");
    if ((h1 && h1.innerText.trim()) || /can.t be found/i.test(text())) break;
    await new Promise(r => setTimeout(r, 200));
  }
  const images = [...document.querySelectorAll("main img, img")];
  for (const img of images) {
    img.scrollIntoView();
    const end = Date.now() + 5000;
    while (!(img.complete && img.naturalWidth > 0) && Date.now() < end) await new Promise(r => setTimeout(r, 100));
  }
  window.scrollTo(0, 0);
  await new Promise(r => setTimeout(r, 300));
  const h1 = document.querySelector("main h1, h1");
  return {
    title: h1 ? h1.innerText.trim() : "",
    notFound: /page you.re looking for can.t be found|can.t be found/i.test(text()),
    declaration: !!document.querySelector(".declaration, .declaration-group, [class*=declaration]"),
    images: images.map(i => ({src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0})),
    textLength: text().length,
  };
})()
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", default=os.path.join(ROOT, ".build-docs", "site"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    args = ap.parse_args()
    site = os.path.abspath(args.site)
    if not os.path.isdir(site):
        sys.exit("docs-browser-check: no site at %s; run Scripts/docs.sh first" % site)
    shots = os.path.join(ROOT, ".build-docs", "screenshots")
    shutil.rmtree(shots, ignore_errors=True)
    os.makedirs(shots)

    server = serve(site)
    base = "http://127.0.0.1:%d" % server.server_address[1]
    pages = []  # (name, path, kind)
    for module in MODULES:
        if not os.path.isdir(os.path.join(site, module)):
            continue
        pages.append((module + "-landing", "/%s/documentation/%s" % (module, module.lower()), "landing"))
        symbol = first_symbol_page(site, module)
        if symbol:
            pages.append((module + "-symbol", "/" + module + symbol, "symbol"))
    marble = marble_page(site)
    if marble:
        pages.append(("Streams-marble", "/Streams/documentation/" + marble, "marble"))
    if os.path.isdir(os.path.join(site, "Streams", "data", "documentation", "streams")):
        pages.append(("Streams-guide", "/Streams/documentation/streams/streamsguide", "article"))
    for catalog in sorted(glob.glob(os.path.join(ROOT, "Documentation", "*.docc"))):
        name = os.path.basename(catalog)[:-5]
        tutorials = sorted(glob.glob(os.path.join(site, name, "data", "tutorials", "**", "*.json"), recursive=True))
        if tutorials:
            rel = os.path.relpath(tutorials[0], os.path.join(site, name, "data"))[:-5]
            pages.append((name + "-tutorial", "/%s/%s" % (name, rel), "tutorial"))

    profile = tempfile.mkdtemp(prefix="docs-chromium-")
    chrome = subprocess.Popen([args.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                               "--disable-extensions", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                               "--user-data-dir=" + profile, "--window-size=1280,900", "about:blank"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    failures = []
    try:
        ws_url = None
        end = time.time() + 30
        while time.time() < end and ws_url is None:
            line = chrome.stderr.readline()
            if not line and chrome.poll() is not None:
                break
            if "DevTools listening on " in line:
                ws_url = line.split("DevTools listening on ", 1)[1].strip()
        if ws_url is None:
            sys.exit("docs-browser-check: Chromium did not start its DevTools endpoint")
        threading.Thread(target=lambda: [None for _ in chrome.stderr], daemon=True).start()  # keep draining
        port = ws_url.split(":")[2].split("/")[0]
        targets = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port))
        page = next(t for t in targets if t["type"] == "page")
        browser = Browser(WebSocket(page["webSocketDebuggerUrl"]))
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(domain + ".enable")
        browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        for name, path, kind in pages:
            browser.events.clear()
            started = time.time()
            browser.call("Page.navigate", url=base + path)
            loaded = browser.wait_for("Page.loadEventFired", 30)
            state = browser.evaluate(PAGE_STATE)
            time.sleep(0.3)
            browser.call("Runtime.evaluate", expression="0")  # collects the events sent meanwhile
            problems = []
            if loaded is None:
                problems.append("no load event")
            for e in browser.events:
                m, p = e["method"], e["params"]
                if m == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
                    problems.append("console error: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])[:200])
                elif m == "Runtime.exceptionThrown":
                    problems.append("exception: " + p["exceptionDetails"].get("text", "")[:200])
                elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
                    problems.append("log error: %s %s" % (p["entry"].get("text", "")[:200], p["entry"].get("url", "")))
                elif m == "Network.responseReceived" and p["response"]["status"] >= 400:
                    problems.append("HTTP %d: %s" % (p["response"]["status"], p["response"]["url"]))
                elif m == "Network.loadingFailed" and not p.get("canceled"):
                    problems.append("request failed: %s" % p.get("errorText"))
            if not state["title"]:
                problems.append("no title")
            if state["notFound"]:
                problems.append("DocC says the page cannot be found")
            if kind == "symbol" and not state["declaration"]:
                problems.append("no declaration")
            bad = [i["src"] for i in state["images"] if not i["ok"]]
            if bad:
                problems.append("images not loaded: " + ", ".join(bad))
            marbles = [i["src"] for i in state["images"] if "marble-" in i["src"] and i["ok"]]
            if kind == "marble" and not marbles:
                problems.append("no marble picture shown")
            if kind == "marble" and marbles:  # the picture, not the page's top, in the screenshot
                browser.evaluate('document.querySelector("img[src*=\\"marble-\\"]").scrollIntoView({block: "center"})')
                time.sleep(0.5)
            shot = browser.call("Page.captureScreenshot", format="png")
            with open(os.path.join(shots, name + ".png"), "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            print("%-8s %-24s %s  title %r, %d images (%d marble), %d characters, %.1fs%s" % (
                "FAIL" if problems else "ok", name, path, state["title"], len(state["images"]), len(marbles),
                state["textLength"], time.time() - started, "".join("\n         - " + p for p in problems)))
            if problems:
                failures.append(name)
    finally:
        chrome.terminate()
        try:
            chrome.wait(10)
        except subprocess.TimeoutExpired:
            chrome.kill()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    print("docs-browser-check: %d pages, %d failed; screenshots in %s" % (len(pages), len(failures), os.path.relpath(shots, ROOT)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

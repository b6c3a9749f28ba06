import Foundation
import HeadlessUI
import Streams
import Testing

final class MessageBox: @unchecked Sendable {
    let lock = NSLock()
    var messages: [String] = []
}

/// Captures programming errors reported while `body` runs, through `HeadlessUIHooks` (views,
/// tables) or Streams' `Hooks` (a `Binder` or a relay given an error). Both hooks are
/// process-wide: captures take turns with every other test that replaces them.
func capturingProgrammingErrors<T>(_ body: () throws -> T) rethrows -> (result: T, errors: [String]) {
    programmingErrorHookLock.lock()
    defer { programmingErrorHookLock.unlock() }
    let box = MessageBox()
    let previous = HeadlessUIHooks.programmingErrorHandler
    HeadlessUIHooks.programmingErrorHandler = { error in
        box.lock.withLock { box.messages.append(error.message) }
    }
    defer { HeadlessUIHooks.programmingErrorHandler = previous }
    let previousStreams = Hooks.programmingErrorHandler
    Hooks.programmingErrorHandler = { message, _, _ in
        box.lock.withLock { box.messages.append(message) }
    }
    defer { Hooks.programmingErrorHandler = previousStreams }
    let result = try body()
    return (result, box.lock.withLock { box.messages })
}


/// An image provider whose responses the test releases one by one, in any order.
final class FakeImageProvider: ImageProviding {
    struct Request {
        let id: Int
        let url: URL
        let observer: AnyObserver<Image>
    }

    private(set) var cache: [URL: Image] = [:]
    private(set) var pending: [Request] = []
    private(set) var requested: [URL] = []
    private(set) var cancelled: [URL] = []
    private var nextID = 0

    var inFlight: Int { pending.count }

    static func url(_ row: Int) -> URL { URL(string: "https://pizza.example/images/\(row).png")! }

    static func image(for url: URL) -> Image {
        let row = Int(url.deletingPathExtension().lastPathComponent) ?? 0
        return Image(width: 4, height: 4, color: .init(r: UInt8(row % 256), g: UInt8(row / 256), b: 7), name: "row\(row)")
    }

    func store(_ url: URL) { cache[url] = Self.image(for: url) }

    func cachedImage(for url: URL) -> Image? { cache[url] }

    func loadImage(for url: URL) -> Observable<Image> {
        Observable.create { [weak self] observer in
            guard let self else { return Disposables.create() }
            let id = self.nextID
            self.nextID += 1
            self.requested.append(url)
            self.pending.append(Request(id: id, url: url, observer: observer))
            return Disposables.create { [weak self] in
                guard let self, let index = self.pending.firstIndex(where: { $0.id == id }) else { return }
                self.pending.remove(at: index)
                self.cancelled.append(url)
            }
        }
    }

    /// Answers the request at `index` (success caches the image, like a real loader).
    func respond(at index: Int, failing: Bool = false) {
        let request = pending.remove(at: index)
        if failing {
            request.observer.onError(TestError.code(404))
        } else {
            let image = Self.image(for: request.url)
            cache[request.url] = image
            request.observer.onNext(image)
            request.observer.onCompleted()
        }
    }

    func respond(to url: URL, failing: Bool = false) {
        guard let index = pending.firstIndex(where: { $0.url == url }) else {
            Issue.record("no pending request for \(url)")
            return
        }
        respond(at: index, failing: failing)
    }
}

/// A cell with a name and a photo.
final class PizzaCell: TableViewCell {
    let name = Label()
    let photo = ImageView()
    private(set) var reuseCount = 0

    required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
        contentView.addSubview(name)
        contentView.addSubview(photo)
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        reuseCount += 1
        name.text = nil
    }
}

import TestSupport

/// Runs `body` on a thread of its own and waits for it: code that is not the main actor, for
/// tests (isolated to the main actor themselves) of what happens to work sent from elsewhere.
func onAnotherThread(_ body: @escaping () -> Void) {
    let box = UncheckedBody(body)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.body()
        done.signal()
    }
    thread.start()
    done.wait()
}

/// Hands `onAnotherThread`'s body to its thread; the caller waits, so nothing runs it twice.
private struct UncheckedBody: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

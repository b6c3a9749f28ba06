import Foundation
import HeadlessUI
import Repository
import Streams

/// The embedded catalogue of the Tracks sample: 200 invented tracks with generated 60×60 PNG
/// artwork, some of it deliberately broken.
///
/// Everything is computed from the track's index, so every run (and every test) sees the same
/// data: no resources, no randomness. Artists, titles and descriptions are made up.
///
/// | rows | artwork |
/// | --- | --- |
/// | `n % 16 == 2` (2, 18, 34, …) | answers `404` |
/// | 51, 101, 151 | answers bytes that are not a PNG |
/// | the others | a PNG named after the row (`/artwork/7.png` renders as `[image 7 60×60]`) |
public enum TracksFixtures {
    /// How many tracks the catalogue holds.
    public static let count = 200

    /// The host the fixture URLs name; a ``FixtureNetwork`` routes by path, so it is never
    /// contacted.
    public static let baseURL = URL(string: "https://tracks.example")!

    /// The address of track `index`'s artwork: `https://tracks.example/artwork/<index>.png`.
    ///
    /// - Parameter index: A track index.
    /// - Returns: The URL.
    public static func artworkURL(_ index: Int) -> URL {
        baseURL.appendingPathComponent("artwork").appendingPathComponent("\(index).png")
    }

    /// The rows whose artwork answers `404`.
    public static let missingArtwork: Set<Int> = Set((0..<count).filter { $0 % 16 == 2 })

    /// The rows whose artwork answers bytes that are not an image.
    public static let unreadableArtwork: Set<Int> = [51, 101, 151]

    /// The catalogue, in the order the search answers it.
    public static let tracks: [Track] = (0..<count).map(track(_:))

    /// The search answer: `{"resultCount": 200, "results": [ … ]}`, keys sorted.
    public static let searchJSON: Data = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(TrackSearchResponse(results: tracks))) ?? Data()
    }()

    /// The artwork of track `index` as PNG bytes: two colours in diagonal bands, different
    /// for every track.
    ///
    /// - Parameter index: A track index.
    /// - Returns: A 60×60 truecolor PNG.
    public static func artworkPNG(_ index: Int) -> Data {
        PNGEncoder.encode(width: 60, height: 60, colorType: .truecolor, samples: artworkSamples(index))
    }

    /// Track `index`'s artwork as an ``Image``, named as the loader names it (`"7"`), for
    /// comparing with what a cell shows.
    ///
    /// - Parameter index: A track index.
    /// - Returns: The decoded artwork.
    public static func artworkImage(_ index: Int) -> Image {
        let samples = artworkSamples(index)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(60 * 60 * 4)
        for pixel in 0..<(60 * 60) {
            pixels += [samples[pixel * 3], samples[pixel * 3 + 1], samples[pixel * 3 + 2], 255]
        }
        // The dimensions and byte count are right by construction.
        return (try? Image(width: 60, height: 60, pixels: pixels, name: "\(index)")) ?? Image(width: 60, height: 60, color: .init(r: 0, g: 0, b: 0), name: "\(index)")
    }

    /// How long the fixture server takes to answer track `index`'s artwork with
    /// ``TracksFixtureLatency/varied``: between 60 and 299 ms, in no particular order of rows
    /// (row 0 answers after 161 ms, row 1 after 298 ms, row 2 after 195 ms).
    ///
    /// - Parameter index: A track index.
    /// - Returns: The delay in milliseconds.
    public static func artworkLatencyMilliseconds(_ index: Int) -> Int {
        60 + (index * 137 + 101) % 240
    }

    /// How long the fixture server takes to answer a search with ``TracksFixtureLatency/varied``.
    public static let searchLatencyMilliseconds = 250

    // MARK: Generated data

    static let artists = [
        "Juniper Vale", "The Copperline Quartet", "Ines Marlowe", "Static Orchard", "Tomasz & the Low Tides",
        "Harbourlight", "Nadia Okonkwo-Reyes", "The Glass Almanac", "Felix Arden", "Moth Radio",
        "Saltmarsh Choir", "Odile Fontaine", "Pale Comet Society", "Café Nocturne", "The Quiet Engines",
        "Linnea Holt", "Brass Lanterns", "Kofi Mensah-Byrne", "Northbound Owls", "Astrid & Cole",
        "Velvet Semaphore", "Hugo Barrow", "The Tin Cartographers", "Mira Castellanos", "Eleven Paper Boats",
    ]
    static let adjectives = [
        "Midnight", "Paper", "Velvet", "Copper", "Silent", "Neon", "Amber", "Hollow", "Lunar", "Saltwater",
        "Golden", "Broken", "Electric", "Quiet", "Crimson", "Northern", "Glass", "Wild", "Faded", "Distant",
    ]
    static let nouns = ["Lanterns", "Harbour", "Engines", "Orchard", "Tides", "Signals", "Kites", "Rivers", "Static", "Avenue"]
    static let moods = ["slow-burning", "hazy", "bright", "restless", "tender", "brooding", "playful", "wistful"]
    static let genres = ["synth-pop", "folk", "jazz", "soul", "ambient", "indie rock", "bossa nova", "electro", "blues", "chamber pop"]
    static let forms = ["ballad", "instrumental", "duet", "live take", "single"]

    static func track(_ index: Int) -> Track {
        let adjective = adjectives[index % 20]
        let noun = nouns[(index / 20 + 3 * (index % 20)) % 10]
        var name: String? = "\(adjective) \(noun)"
        if index == 7 { name = "Say \"When\"" }            // quotes survive the JSON round trip
        if index % 40 == 39 { name = nil }                 // a result without a title
        let description: String? = index % 13 == 12
            ? nil
            : "A \(moods[index % 8]) \(genres[(index / 8) % 10]) \(forms[index % 5])."
        return Track(trackName: name, artistName: artists[index % artists.count], shortDescription: description, artworkUrl60: artworkURL(index))
    }

    static func artworkSamples(_ index: Int) -> [UInt8] {
        let light = [UInt8((index * 53 + 90) % 256), UInt8((index * 97 + 40) % 256), UInt8((index * 29 + 170) % 256)]
        let dark = light.map { $0 / 3 }
        var samples: [UInt8] = []
        samples.reserveCapacity(60 * 60 * 3)
        for y in 0..<60 {
            for x in 0..<60 {
                samples += ((x + y) / 10) % 2 == 0 ? light : dark
            }
        }
        return samples
    }
}

/// How slowly the embedded fixture API answers.
public enum TracksFixtureLatency: Sendable {
    /// Every answer is due at once (on the next run of the scheduler).
    case immediate
    /// The search after ``TracksFixtures/searchLatencyMilliseconds``, each artwork after
    /// ``TracksFixtures/artworkLatencyMilliseconds(_:)``: answers arrive out of row order.
    case varied
}

extension TracksFixtures {
    /// The embedded API: a ``FixtureNetwork`` answering `/search` (any term) with the 200
    /// fixture tracks and `/artwork/<n>.png` with their PNGs — `404` or unreadable bytes for
    /// the broken ones.
    ///
    ///     let scheduler = VirtualTimeScheduler(initialClock: 0, converter: IntegerVirtualTimeConverter(resolution: 0.001))
    ///     let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
    ///     let api = TracksAPI(network: network, baseURL: TracksFixtures.baseURL)
    ///
    /// - Parameters:
    ///   - scheduler: Where answers are delivered, after their latency: a virtual-time
    ///     scheduler for deterministic runs, `MainScheduler.instance` to feel a real network.
    ///   - latency: How slowly it answers; ``TracksFixtureLatency/varied`` by default.
    /// - Returns: The network.
    public static func network(scheduler: SchedulerType, latency: TracksFixtureLatency = .varied) -> FixtureNetwork {
        func delay(_ milliseconds: Int) -> RxTimeInterval {
            latency == .varied ? .milliseconds(milliseconds) : .milliseconds(0)
        }
        var routes: [String: FixtureNetwork.Route] = [
            "/search": .data(TracksFixtures.searchJSON, delay: delay(TracksFixtures.searchLatencyMilliseconds)),
        ]
        for index in 0..<TracksFixtures.count {
            let wait = delay(TracksFixtures.artworkLatencyMilliseconds(index))
            let route: FixtureNetwork.Route
            if TracksFixtures.missingArtwork.contains(index) {
                route = .status(404, body: "no artwork here", delay: wait)
            } else if TracksFixtures.unreadableArtwork.contains(index) {
                route = .data(Data("<html>moved</html>".utf8), delay: wait)
            } else {
                route = .data(artworkData[index], delay: wait)
            }
            routes[TracksFixtures.artworkURL(index).path] = route
        }
        return FixtureNetwork(scheduler: scheduler, routes: routes)
    }

    /// The PNGs, made once per process.
    private static let artworkData: [Data] = (0..<count).map(artworkPNG(_:))
}
